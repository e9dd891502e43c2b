import CatalogCore

/// Builds the declared catalog of a RevenueCat project from its snapshot's pages (`RevenueCatPages`), following
/// RevenueCat's API v2 reference (revenuecat.com/docs/api-v2, OpenAPI `api-v2.yaml` version 2.0.0):
///
/// - apps (`App`): `type` `app_store` / `mac_app_store` (`bundle_id`) are App Store apps, `play_store`
///   (`package_name`) Play apps; apps of other stores (Amazon, Stripe, Web Billing, Roku, Paddle, Test Store) are
///   not compared, and their products are left out, counted in a remark;
/// - products (`Product`): the ID is `store_identifier` (Play subscriptions `subscriptionId:basePlanId`), the type
///   `subscription` auto-renewable, `non_renewing_subscription` non-renewing, `consumable`, `non_consumable`, and
///   `one_time` consumable or non-consumable after `one_time.is_consumable` (one-time when it is not stated);
///   `subscription.duration` the period, `subscription.trial_duration` a free-trial introductory offer,
///   `display_name` the reference name; no prices (they come from the stores). A product whose `state` is
///   `archived` is not read;
/// - offerings (`Offering`, `is_current`) and their packages (`Package`) with the products they name
///   (`PackageProductAssociation.product`), each kept with whether the project's product list holds it;
/// - entitlements (`Entitlement`) are read and checked, not compared.
struct RevenueCatCatalogBuilder {
    /// The app types that sell in a store catalogcheck reads.
    private static let stores: [String: (store: StoreKind, key: String, field: String)] = [
        "app_store": (.appStore, "app_store", "bundle_id"),
        "mac_app_store": (.appStore, "mac_app_store", "bundle_id"),
        "play_store": (.play, "play_store", "package_name"),
    ]

    /// One product object, read.
    private struct Record {
        let id: String
        let storeIdentifier: String
        let app: String
        let product: Product?
    }

    /// The catalog of the pages.
    static func catalog(of pages: RevenueCatPages, path: String) throws(CatalogReadError) -> Catalog {
        var catalog = Catalog(path: path, format: .revenuecat)
        var project = DeclaredProject()
        var otherApps: [String: String] = [:]
        for page in pages.pages where page.list == .apps {
            for item in page.items {
                let context = page.context
                let id = try context.requireString("id", in: item).text
                let type = try context.requireString("type", in: item)
                let name = try context.string("name", in: item)?.text ?? id
                guard let store = stores[type.text] else {
                    otherApps[id] = type.text
                    continue
                }
                var appID: String?
                if let details = try context.object(store.key, in: item) {
                    appID = try context.string(store.field, in: details)?.text
                }
                project.apps.append(DeclaredApp(id: id, name: name, store: store.store, appID: appID,
                                                location: context.location(of: item)))
            }
        }
        let apps = Dictionary(project.apps.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

        var productIDs: Set<String> = []
        var archived = 0
        var elsewhere = 0
        for page in pages.pages where page.list == .products {
            for item in page.items {
                if try page.context.string("state", in: item)?.text == "archived" {
                    archived += 1
                    continue
                }
                let record = try product(item, context: page.context, apps: apps, otherApps: otherApps)
                guard let product = record.product else {
                    elsewhere += 1
                    continue
                }
                productIDs.insert(record.id)
                catalog.products.append(product)
            }
        }

        // Entitlements: read and checked (their products are product objects too), not compared.
        var entitlements = 0
        for page in pages.pages {
            switch page.list {
            case .entitlements:
                for item in page.items {
                    _ = try page.context.requireString("lookup_key", in: item)
                    entitlements += 1
                    for product in try nestedItems("products", of: item, context: page.context) {
                        _ = try self.product(product, context: page.context, apps: apps, otherApps: otherApps)
                    }
                }
            case .entitlementProducts:
                for item in page.items {
                    _ = try product(item, context: page.context, apps: apps, otherApps: otherApps)
                }
            default:
                break
            }
        }

        project.offerings = try offerings(pages, apps: apps, otherApps: otherApps, productIDs: productIDs)
        catalog.project = project
        var remarks = ["RevenueCat project \(pages.project ?? "?"): \(project.apps.count) App Store and Play apps, "
                       + "\(catalog.products.count) products, \(entitlements) entitlements, "
                       + "\(project.offerings.count) offerings; prices come from the stores and are not compared"]
        if !otherApps.isEmpty || elsewhere > 0 {
            remarks.append("\(elsewhere) products of \(otherApps.count) apps of other stores ("
                           + Set(otherApps.values).sorted().joined(separator: ", ") + ") are not compared")
        }
        if archived > 0 { remarks.append("\(archived) archived products are not read") }
        catalog.remarks = remarks
        return catalog
    }

    /// The offerings with their packages (the offering's own list, then its continuation pages) and the products
    /// each package names (likewise).
    private static func offerings(_ pages: RevenueCatPages, apps: [String: DeclaredApp], otherApps: [String: String],
                                  productIDs: Set<String>) throws(CatalogReadError) -> [DeclaredOffering] {
        // Continuation pages of nested lists, by their parent's ID.
        var morePackages: [String: [(JSONNode, JSONAccess)]] = [:]
        var moreProducts: [String: [(JSONNode, JSONAccess)]] = [:]
        for page in pages.pages {
            switch page.list {
            case .offeringPackages(let offering):
                morePackages[offering, default: []] += page.items.map { ($0, page.context) }
            case .packageProducts(let package):
                moreProducts[package, default: []] += page.items.map { ($0, page.context) }
            default: break
            }
        }
        func references(_ association: JSONNode,
                        context: JSONAccess) throws(CatalogReadError) -> DeclaredPackageProduct? {
            guard let node = try context.object("product", in: association) else {
                throw context.error("missing \"product\" (expand=items.package.product: fetch revenuecat asks for it)",
                                    at: association)
            }
            let record = try product(node, context: context, apps: apps, otherApps: otherApps)
            // A product of another store's app is not a store catalogcheck reads.
            if otherApps[record.app] != nil { return nil }
            return DeclaredPackageProduct(productID: record.id, storeIdentifier: ProductID(record.storeIdentifier),
                                          app: record.app, inProject: productIDs.contains(record.id),
                                          location: context.location(of: node))
        }
        func package(_ node: JSONNode, context: JSONAccess) throws(CatalogReadError) -> DeclaredPackage {
            let id = try context.requireString("id", in: node).text
            let lookupKey = try context.requireString("lookup_key", in: node).text
            var products: [DeclaredPackageProduct] = []
            for association in try nestedItems("products", of: node, context: context) {
                if let reference = try references(association, context: context) { products.append(reference) }
            }
            for (association, moreContext) in moreProducts[id] ?? [] {
                if let reference = try references(association, context: moreContext) { products.append(reference) }
            }
            return DeclaredPackage(id: id, lookupKey: lookupKey, products: products, location: context.location(of: node))
        }
        var offerings: [DeclaredOffering] = []
        for page in pages.pages where page.list == .offerings {
            let context = page.context
            for item in page.items {
                if try context.string("state", in: item)?.text == "archived" { continue }
                let id = try context.requireString("id", in: item).text
                let lookupKey = try context.requireString("lookup_key", in: item).text
                guard let isCurrent = try context.bool("is_current", in: item) else {
                    throw context.error("missing \"is_current\"", at: item)
                }
                var packages: [DeclaredPackage] = []
                for node in try nestedItems("packages", of: item, context: context) {
                    packages.append(try package(node, context: context))
                }
                for (node, moreContext) in morePackages[id] ?? [] {
                    packages.append(try package(node, context: moreContext))
                }
                offerings.append(DeclaredOffering(id: id, lookupKey: lookupKey, isCurrent: isCurrent,
                                                  packages: packages, location: context.location(of: item)))
            }
        }
        return offerings
    }

    /// The items of a nested list member (`packages`, `products`), none when it is absent or null.
    private static func nestedItems(_ key: String, of node: JSONNode,
                                    context: JSONAccess) throws(CatalogReadError) -> [JSONNode] {
        guard let list = try context.object(key, in: node) else { return [] }
        guard let items = try context.objects("items", in: list) else {
            throw context.error("a list object holds \"items\"", at: list)
        }
        return items
    }

    /// One product object: its IDs and app, and the catalog's product when its app sells in a store catalogcheck
    /// reads. A product naming an app the project lacks is a damaged snapshot.
    private static func product(_ item: JSONNode, context: JSONAccess, apps: [String: DeclaredApp],
                                otherApps: [String: String]) throws(CatalogReadError) -> Record {
        let id = try context.requireString("id", in: item).text
        let identifier = try context.requireString("store_identifier", in: item)
        let app = try context.requireString("app_id", in: item)
        let type = try context.requireString("type", in: item)
        guard let declaredApp = apps[app.text] else {
            if otherApps[app.text] != nil {
                return Record(id: id, storeIdentifier: identifier.text, app: app.text, product: nil)
            }
            throw context.error("the app \(app.text) is not among the project's apps in the snapshot", at: app.node)
        }
        var product = Product(id: ProductID(identifier.text), location: context.location(of: item))
        product.fieldLocations[.id] = context.location(of: identifier.node)
        product.stores = [declaredApp.store]
        product.declaredApp = declaredApp.id
        product.kind = try kind(type.text, item: item, context: context)
        product.fieldLocations[.type] = context.location(of: type.node)
        if let name = try context.string("display_name", in: item) {
            product.referenceName = name.text
            product.fieldLocations[.name] = context.location(of: name.node)
        }
        if let subscription = try context.object("subscription", in: item) {
            if let duration = try context.period("duration", in: subscription) {
                product.period = duration.period
                product.fieldLocations[.period] = context.location(of: duration.node)
            }
            if let trial = try context.period("trial_duration", in: subscription) {
                let location = context.location(of: trial.node)
                product.introOffers = [IntroOffer(mode: .freeTrial, period: trial.period, location: location)]
                product.fieldLocations[.introOffer] = location
            }
        }
        return Record(id: id, storeIdentifier: identifier.text, app: app.text, product: product)
    }

    /// The product kind of a RevenueCat `ProductType`.
    private static func kind(_ type: String, item: JSONNode,
                             context: JSONAccess) throws(CatalogReadError) -> ProductKind? {
        switch type {
        case "subscription": return .autoRenewable
        case "non_renewing_subscription": return .nonRenewing
        case "consumable": return .consumable
        case "non_consumable": return .nonConsumable
        case "one_time":
            guard let oneTime = try context.object("one_time", in: item),
                  let consumable = try context.bool("is_consumable", in: oneTime) else { return .oneTime }
            return consumable ? .consumable : .nonConsumable
        default:
            throw context.error("\"\(type)\" is not a RevenueCat product type (subscription, one_time, consumable, "
                                + "non_consumable, non_renewing_subscription)", at: item)
        }
    }
}
