import CatalogCore
import Testing

/// A declared project of several apps (RevenueCat, DESIGN.md §4b): which app each store input is compared with,
/// Play subscriptions named without their base plan, and the two offering rules.
@Suite struct DeclaredProjectTests {
    private static let here = SourceLocation(path: "rc/products-0001.json", line: 1, column: 1)

    private static func product(_ id: String, app: String, store: StoreKind,
                                kind: ProductKind = .autoRenewable) -> Product {
        var product = Product(id: ProductID(id), kind: kind, location: here)
        product.stores = [store]
        product.declaredApp = app
        return product
    }

    private static func app(_ id: String, _ store: StoreKind, _ appID: String?) -> DeclaredApp {
        DeclaredApp(id: id, name: id.uppercased(), store: store, appID: appID, location: here)
    }

    private static func store(_ path: String, _ format: CatalogFormat, appID: String? = nil,
                              _ ids: [String]) -> Catalog {
        Catalog(path: path, format: format, appID: appID,
                products: ids.map { Product(id: ProductID($0), kind: .autoRenewable, location: here) })
    }

    /// Two App Store apps (iOS and a legacy Mac app) and one Play app, each with its products.
    private static func project(offerings: [DeclaredOffering] = []) -> Catalog {
        var catalog = Catalog(path: "rc", format: .revenuecat, products: [
            product("pro.monthly", app: "appios", store: .appStore),
            product("mac.pro.monthly", app: "appmac", store: .appStore),
            product("pro:monthly", app: "appplay", store: .play),
            product("legacy_pro", app: "appplay", store: .play),
        ])
        catalog.project = DeclaredProject(apps: [
            app("appios", .appStore, "com.example.app"),
            app("appmac", .appStore, "com.example.mac"),
            app("appplay", .play, "com.example.app"),
        ], offerings: offerings)
        return catalog
    }

    @Test func aStoreThatNamesItsAppPairsWithThatApp() {
        let asc = Self.store("asc", .ascJSON, appID: "com.example.mac", ["mac.pro.monthly"])

        let view = Self.project().declared(for: asc)

        #expect(view.products.map(\.id.rawValue) == ["mac.pro.monthly"])
        #expect(view.appID == "com.example.mac")
    }

    @Test func aStoreThatDoesNotSayWhichAppIsAmbiguousAmongSeveral() throws {
        let storekit = Self.store("App.storekit", .storekit, ["pro.monthly"])
        var selected = Self.project()
        selected.project?.selectedApp = "appios"

        let refused = DeclaredPairing.app(in: Self.project().project ?? DeclaredProject(), for: storekit)
        let named = DeclaredPairing.app(in: selected.project ?? DeclaredProject(), for: storekit)

        #expect(refused == .failure(DeclaredPairing.Problem(message: "App.storekit does not say which app it is, and the "
            + "project has 2 App Store apps: 'APPIOS' (appios, bundle ID com.example.app), 'APPMAC' (appmac, bundle "
            + "ID com.example.mac); name one with revenuecat:DIR@APP_ID")))
        #expect(try named.get().id == "appios")
    }

    @Test func aStoreOfAnAppTheProjectLacksIsRefused() {
        let play = Self.store("play", .playJSON, appID: "com.other.app", [])

        let refused = DeclaredPairing.app(in: Self.project().project ?? DeclaredProject(), for: play)

        #expect(refused == .failure(DeclaredPairing.Problem(message: "no Google Play app of the project has the "
            + "package name com.other.app of play (its Google Play apps: 'APPPLAY' (appplay, package name "
            + "com.example.app)); name one with revenuecat:DIR@APP_ID")))
    }

    @Test("a Play subscription named without its base plan matches the backward-compatible plan, or the only one",
          arguments: [
              (["legacy_pro:p1m", "legacy_pro:p1y"], "legacy_pro:p1y", "legacy_pro:p1y"),
              (["legacy_pro:monthly"], nil, "legacy_pro:monthly"),
              (["legacy_pro:p1m", "legacy_pro:p1y"], nil, nil),
          ] as [([String], String?, String?)])
    func legacyPlayIdentifiers(plans: [String], compatible: String?, expected: String?) {
        var play = Self.store("play", .playJSON, appID: "com.example.app", ["pro:monthly"] + plans)
        if let compatible { play.backwardCompatiblePlans[ProductID("legacy_pro")] = ProductID(compatible) }

        let view = Self.project().declared(for: play)
        let matching = ProductMatching(config: Self.project(), store: play)

        let legacy = view.products.first { $0.id.rawValue == "legacy_pro" }
        #expect(legacy?.storeIDs[.play]?.rawValue == expected)
        #expect(matching.matches.contains { $0.mine.id.rawValue == "legacy_pro" } == (expected != nil))
    }

    @Test func aProductACurrentOfferingUsesIsAnOfferingProductWhenTheStoreLacksIt() {
        let reference = { (id: String, app: String, inProject: Bool) in
            DeclaredPackageProduct(productID: "prod_" + id, storeIdentifier: ProductID(id), app: app,
                                   inProject: inProject, location: Self.here)
        }
        let current = DeclaredOffering(id: "ofrng1", lookupKey: "default", isCurrent: true, packages: [
            DeclaredPackage(id: "pkg1", lookupKey: "$rc_monthly", products: [
                reference("pro.monthly", "appios", true), reference("pro:monthly", "appplay", true),
                reference("gone.product", "appios", false),
            ], location: Self.here),
        ], location: Self.here)
        let other = DeclaredOffering(id: "ofrng2", lookupKey: "mac", isCurrent: false, packages: [
            DeclaredPackage(id: "pkg2", lookupKey: "$rc_monthly", products: [reference("mac.pro.monthly", "appmac", true)],
                            location: Self.here),
        ], location: Self.here)
        let config = Self.project(offerings: [current, other])
        let ios = Self.store("asc-ios", .ascJSON, appID: "com.example.app", [])
        let mac = Self.store("asc-mac", .ascJSON, appID: "com.example.mac", [])

        let findings = Checker().check(config: config, stores: [ios, mac]).findings
        let everyOffering = Checker(options: CheckOptions(allOfferings: true)).check(config: config, stores: [mac])
            .findings

        #expect(findings.map { "\($0.rule.rawValue) \($0.productID ?? "-") \($0.store ?? "-")" } == [
            "offering-product-not-in-project gone.product -",
            "offering-product-missing-in-store pro.monthly asc-ios",
            "product-missing-in-store mac.pro.monthly asc-mac",
        ])
        #expect(findings.first { $0.rule == .offeringProductMissingInStore }?.message
                == "is used by package '$rc_monthly' of the current offering 'default' but is not in the store (asc-ios)")
        #expect(findings.first?.message == "package '$rc_monthly' of offering 'default' names the product "
                + "prod_gone.product ('gone.product'), which the project's product list lacks (archived or deleted)")
        #expect(everyOffering.map(\.rule) == [.offeringProductNotInProject, .offeringProductMissingInStore])
    }
}
