import CatalogCore
import Foundation

/// Reads App Store Connect API responses (JSON:API, format `asc-json`).
///
/// The input is one document, a JSON array of documents, or a folder of `.json` files (read in sorted order).
/// Every resource in `data` and `included` is pooled by `(type, id)`: the same resource seen in several
/// documents is one record whose attributes and relationships are merged. Resources are linked by the
/// relationship `data` inside pooled resources and by a document's `links.self`: a document at
/// `/v{n}/{parentType}/{parentId}/{relationship}` makes every resource of its `data` (array or single object) a
/// child of `(parentType, parentId)`.
///
/// The catalog is built from the links:
/// - `subscriptionGroups` (`referenceName`) → `subscriptions` (auto-renewable) → `subscriptionPrices` →
///   `subscriptionPricePoints.customerPrice` + `territories`;
/// - `inAppPurchases` (also `inAppPurchasesV2`, and the deprecated v1 resource) → `inAppPurchasePriceSchedules`
///   → `manualPrices` / `automaticPrices` (`inAppPurchasePrices`) → `inAppPurchasePricePoints` + `territories`.
///
/// Current price (FORMATS.md): per product and territory, among rows whose `planType` is `UPFRONT` or absent,
/// the row whose `startDate` is null or on/before `asOf`, latest start winning and null counting as earliest;
/// rows whose `endDate` is on/before `asOf` are dropped; a manual price beats an automatic one with the same
/// start. Rows starting after `asOf` are exported as `scheduled` uncompared prices. Price and price point IDs
/// are opaque and never decoded. A territory's currency is its resource's `attributes.currency`, else the
/// territory's App Store currency.
///
/// Intro offers (one record per territory) are non-nil only when the input states a subscription's offers:
/// relationship `data` (possibly empty), a `…/introductoryOffers` document, or offers linked to it. Offers not in
/// effect on `asOf` (starting after it, or ending on or before it) are left out; when a stated offer's resource
/// (`offerMode`, `duration`) is missing, the offers are unknown (nil) and a remark says so. Availability:
/// `state` APPROVED → cleared for sale, REMOVED_FROM_SALE / DEVELOPER_REMOVED_FROM_SALE → not, others unknown.
///
/// A resource without a `productId` in the input (e.g. a subscription known only by its ID from `links.self`)
/// is not a product: its prices are read by nobody, which the catalog's remarks say.
public struct AppStoreConnectReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// `asc-json`.
    public var format: CatalogFormat { .ascJSON }

    /// Reads a document, an array of documents, or a folder of `.json` documents.
    public func read(contentsOf url: URL, displayPath: String, options: ReadOptions) throws(CatalogReadError)
        -> Catalog
    {
        var pool = ASCResourcePool()
        if FileLoading.isDirectory(url) {
            let folder = url.standardizedFileURL
            let files = FileLoading.files(in: folder, suffix: ".json")
            guard !files.isEmpty else {
                throw CatalogReadError("the folder holds no .json files", at: SourceLocation(path: displayPath))
            }
            let base = displayPath.hasSuffix("/") ? String(displayPath.dropLast()) : displayPath
            for file in files {
                let path = file.standardizedFileURL.path
                let relative = path.hasPrefix(folder.path + "/")
                    ? String(path.dropFirst(folder.path.count + 1)) : file.lastPathComponent
                try pool.add(JSONDocument(contentsOf: file, displayPath: base + "/" + relative))
            }
        } else {
            try pool.add(JSONDocument(contentsOf: url, displayPath: displayPath))
        }
        return try ASCCatalogBuilder(pool: pool, asOf: options.asOf).catalog(path: displayPath)
    }

    /// Reads one file's bytes (a document or an array of documents); `displayPath` names it in locations.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        var pool = ASCResourcePool()
        try pool.add(JSONDocument(data: data, path: displayPath))
        return try ASCCatalogBuilder(pool: pool, asOf: options.asOf).catalog(path: displayPath)
    }
}

// MARK: - Pooling

/// A resource's identity. `inAppPurchasesV2` (a relationship type in Apple's examples) is `inAppPurchases`.
private struct ResourceKey: Hashable {
    let type: String
    let id: String

    init(type: String, id: String) {
        self.type = type == "inAppPurchasesV2" ? "inAppPurchases" : type
        self.id = id
    }
}

/// One pooled resource: where it was first seen and its merged attributes.
private struct Resource {
    let key: ResourceKey
    /// Index of the document where the resource object was first seen.
    let document: Int
    /// The resource object first seen (its start is the record's location).
    let value: JSONValue
    /// Merged attributes: the first non-null value of each name, with the document it came from.
    var attributes: [String: (document: Int, value: JSONValue)] = [:]
}

/// A link between two resources, seen from one of them.
private struct Link {
    /// The relationship name (`prices`, `manualPrices`, the last path segment of `links.self`, …).
    let relationship: String
    /// The resource at the other end.
    let other: ResourceKey
    /// True when `other` is the child (this resource names it), false when it is the parent.
    let isChild: Bool
}

private struct Edge: Hashable {
    let parent: ResourceKey
    let relationship: String
    let child: ResourceKey
}

/// Every resource of every document, pooled by `(type, id)`, with the links between them.
private struct ASCResourcePool {
    var documents: [JSONDocument] = []
    var resources: [ResourceKey: Resource] = [:]
    /// Keys in the order resources were first seen (reading order of the catalog).
    var order: [ResourceKey] = []
    var links: [ResourceKey: [Link]] = [:]
    private var edges: Set<Edge> = []
    /// Relationships whose contents the input states (relationship `data`, possibly empty, or a `links.self`
    /// document), by parent: an empty list there means "has none", not "unknown".
    var statedRelationships: [ResourceKey: Set<String>] = [:]

    /// Adds a parsed file: one document or an array of documents.
    mutating func add(_ document: JSONDocument) throws(CatalogReadError) {
        documents.append(document)
        let index = documents.count - 1
        let root = document.root
        if let elements = root.elements {
            for (position, element) in elements.enumerated() {
                try addDocument(element, in: index, path: "[\(position)]")
            }
        } else if root.members != nil {
            try addDocument(root, in: index, path: "")
        } else {
            throw document.error(
                "not an App Store Connect API response: the top level is \(root.typeName), expected an object "
                    + "(a JSON:API document) or an array of them", at: root)
        }
    }

    private mutating func addDocument(_ value: JSONValue, in index: Int, path: String) throws(CatalogReadError) {
        let document = documents[index]
        let here = path.isEmpty ? "the document" : path
        guard value.members != nil else {
            throw document.error("\(here): expected a JSON:API document (an object), found \(describe(value))",
                                 at: value)
        }
        if let errors = value["errors"], !errors.isNull {
            throw errorResponse(errors, in: document)
        }
        guard let data = value["data"] else {
            throw document.error(
                "\(here) is not an App Store Connect API response: it has no \"data\" and no \"errors\"", at: value)
        }
        let prefix = path.isEmpty ? "" : path + "."
        let parent = try selfLinkParent(value, document: document, prefix: prefix)
        if let parent {
            statedRelationships[parent.key, default: []].insert(parent.relationship)
        }
        var primary: [(JSONValue, String)] = []
        switch data.kind {
        case .null: break
        case .object: primary = [(data, "\(prefix)data")]
        case .array(let elements):
            primary = elements.enumerated().map { ($1, "\(prefix)data[\($0)]") }
        default:
            throw document.error("\(prefix)data: expected an object, an array or null, found \(describe(data))",
                                 at: data)
        }
        for (resource, resourcePath) in primary {
            let key = try addResource(resource, in: index, path: resourcePath)
            if let parent { link(parent.key, parent.relationship, key) }
        }
        if let included = value["included"], !included.isNull {
            guard let elements = included.elements else {
                throw document.error("\(prefix)included: expected an array, found \(describe(included))",
                                     at: included)
            }
            for (position, resource) in elements.enumerated() {
                _ = try addResource(resource, in: index, path: "\(prefix)included[\(position)]")
            }
        }
    }

    /// An App Store Connect error response, quoting the first error's title.
    private func errorResponse(_ errors: JSONValue, in document: JSONDocument) -> CatalogReadError {
        guard let first = errors.elements?.first, first.members != nil else {
            return document.error("App Store Connect returned an error response", at: errors)
        }
        var message = "App Store Connect returned an error response"
        if let title = first["title"]?.string { message += ": \(quoted(title, limit: 300))" }
        var details: [String] = []
        if let status = first["status"]?.string ?? first["status"]?.numberText { details.append("status \(status)") }
        if let code = first["code"]?.string { details.append(code) }
        if !details.isEmpty { message += " (\(details.joined(separator: ", ")))" }
        if let detail = first["detail"]?.string { message += " — \(quoted(detail, limit: 300))" }
        if let count = errors.elements?.count, count > 1 { message += " and \(count - 1) more error(s)" }
        return document.error(message, at: first)
    }

    /// `(parentType, parentId)` and the relationship from `links.self` when it has the form
    /// `/v{n}/{parentType}/{parentId}/{relationship}` (or `…/relationships/{relationship}`).
    private func selfLinkParent(_ value: JSONValue, document: JSONDocument, prefix: String)
        throws(CatalogReadError) -> (key: ResourceKey, relationship: String)?
    {
        guard let links = value["links"], !links.isNull else { return nil }
        guard links.members != nil else {
            throw document.error("\(prefix)links: expected an object, found \(describe(links))", at: links)
        }
        guard let selfLink = links["self"], !selfLink.isNull else { return nil }
        guard let text = selfLink.string else {
            throw document.error("\(prefix)links.self: expected a string, found \(describe(selfLink))", at: selfLink)
        }
        var path = Substring(text)
        if let scheme = path.range(of: "://") {
            let afterScheme = path[scheme.upperBound...]
            path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        guard segments.count >= 4, let version = segments.first, version.hasPrefix("v"),
              version.dropFirst().allSatisfy(\.isNumber), version.count > 1 else { return nil }
        let parent = ResourceKey(type: segments[1], id: segments[2])
        if segments.count == 4 { return (parent, segments[3]) }
        if segments.count == 5, segments[3] == "relationships" { return (parent, segments[4]) }
        return nil
    }

    /// Pools one resource object and its relationship links; returns its key.
    private mutating func addResource(_ value: JSONValue, in index: Int, path: String)
        throws(CatalogReadError) -> ResourceKey
    {
        let document = documents[index]
        let key = try identifier(value, document: document, path: path)
        if resources[key] == nil {
            resources[key] = Resource(key: key, document: index, value: value)
            order.append(key)
        }
        if let attributes = value["attributes"], !attributes.isNull {
            guard let members = attributes.members else {
                throw document.error("\(path).attributes: expected an object, found \(describe(attributes))",
                                     at: attributes)
            }
            for member in members where !member.value.isNull && resources[key]?.attributes[member.key] == nil {
                resources[key]?.attributes[member.key] = (index, member.value)
            }
        }
        if let relationships = value["relationships"], !relationships.isNull {
            guard let members = relationships.members else {
                throw document.error(
                    "\(path).relationships: expected an object, found \(describe(relationships))", at: relationships)
            }
            for member in members {
                let memberPath = "\(path).relationships.\(member.key)"
                guard member.value.members != nil else {
                    throw document.error("\(memberPath): expected an object, found \(describe(member.value))",
                                         at: member.value)
                }
                guard let data = member.value["data"] else { continue }
                statedRelationships[key, default: []].insert(member.key)
                switch data.kind {
                case .null: break
                case .object:
                    link(key, member.key, try identifier(data, document: document, path: "\(memberPath).data"))
                case .array(let elements):
                    for (position, element) in elements.enumerated() {
                        link(key, member.key,
                             try identifier(element, document: document, path: "\(memberPath).data[\(position)]"))
                    }
                default:
                    throw document.error(
                        "\(memberPath).data: expected an object, an array or null, found \(describe(data))", at: data)
                }
            }
        }
        return key
    }

    /// The `(type, id)` of a resource object or resource identifier.
    private func identifier(_ value: JSONValue, document: JSONDocument, path: String)
        throws(CatalogReadError) -> ResourceKey
    {
        guard value.members != nil else {
            throw document.error("\(path): expected a resource object, found \(describe(value))", at: value)
        }
        guard let type = value["type"]?.string, !type.isEmpty else {
            throw document.error("\(path): a resource needs a \"type\" string", at: value["type"] ?? value)
        }
        guard let id = value["id"]?.string, !id.isEmpty else {
            throw document.error("\(path): a resource needs an \"id\" string", at: value["id"] ?? value)
        }
        return ResourceKey(type: type, id: id)
    }

    private mutating func link(_ parent: ResourceKey, _ relationship: String, _ child: ResourceKey) {
        guard parent != child,
              edges.insert(Edge(parent: parent, relationship: relationship, child: child)).inserted else { return }
        links[parent, default: []].append(Link(relationship: relationship, other: child, isChild: true))
        links[child, default: []].append(Link(relationship: relationship, other: parent, isChild: false))
    }

    /// The resources linked to `key` (either direction) of one type, in the order the links were seen.
    func linked(_ key: ResourceKey, type: String) -> [Link] {
        (links[key] ?? []).filter { $0.other.type == type }
    }
}

// MARK: - Building the catalog

/// One price row, resolved.
private struct PriceRow {
    let territory: Territory
    let money: Money
    let start: CalendarDate?
    let manual: Bool
    let location: SourceLocation

    /// Whether this row takes precedence over `other` for the same territory: a later start (null earliest),
    /// then manual over automatic.
    func beats(_ other: PriceRow) -> Bool {
        if start != other.start {
            guard let start else { return false }
            guard let otherStart = other.start else { return true }
            return start > otherStart
        }
        return manual && !other.manual
    }
}

private struct ScheduleKey: Hashable {
    let territory: Territory
    let start: CalendarDate
}

/// Turns the pool into products, groups and remarks.
private struct ASCCatalogBuilder {
    let pool: ASCResourcePool
    let asOf: CalendarDate

    /// Counters behind the catalog's remarks.
    private struct Tally {
        var withoutProductID: [String: Int] = [:]
        var unresolvedRows = 0
        var partialOffers = 0
        var readRows: Set<ResourceKey> = []
    }

    init(pool: ASCResourcePool, asOf: CalendarDate) {
        self.pool = pool
        self.asOf = asOf
    }

    func catalog(path: String) throws(CatalogReadError) -> Catalog {
        var tally = Tally()
        var groups: [SubscriptionGroup] = []
        var groupKeys: Set<String> = []
        for key in pool.order where key.type == "subscriptionGroups" {
            guard let resource = pool.resources[key],
                  let name = try string(resource, "referenceName") else { continue }
            groups.append(SubscriptionGroup(key: key.id, name: name, location: location(of: resource)))
            groupKeys.insert(key.id)
        }

        var products: [Product] = []
        var territories = TerritoryCache()
        for key in pool.order {
            guard let resource = pool.resources[key] else { continue }
            switch key.type {
            case "subscriptions":
                guard let product = try subscription(resource, groupKeys: groupKeys, territories: &territories,
                                                     tally: &tally) else { continue }
                products.append(product)
            case "inAppPurchases":
                guard let product = try inAppPurchase(resource, territories: &territories, tally: &tally)
                else { continue }
                products.append(product)
            default:
                continue
            }
        }

        var remarks: [String] = []
        for (type, count) in tally.withoutProductID.sorted(by: { $0.key < $1.key }) {
            remarks.append("\(count) \(type) resource(s) have no productId in the input and are not read as products")
        }
        if tally.unresolvedRows > 0 {
            remarks.append("\(tally.unresolvedRows) price row(s) have no territory or no price point with a "
                + "customerPrice in the input and were not read")
        }
        let orphans = pool.order.filter {
            ($0.type == "subscriptionPrices" || $0.type == "inAppPurchasePrices") && !tally.readRows.contains($0)
        }.count
        if orphans > 0 {
            remarks.append("\(orphans) price row(s) belong to no product in the input and were not read")
        }
        if tally.partialOffers > 0 {
            remarks.append("the introductory offers of \(tally.partialOffers) subscription(s) are only partly in the "
                + "input (offers without offerMode or duration); they are not compared")
        }
        return Catalog(path: path, format: .ascJSON, groups: groups, products: products,
                       capabilities: CatalogCapabilities(expressesGroups: true), remarks: remarks)
    }

    // MARK: Products

    private func subscription(_ resource: Resource, groupKeys: Set<String>, territories: inout TerritoryCache,
                              tally: inout Tally) throws(CatalogReadError) -> Product?
    {
        guard var product = try baseProduct(resource, nameAttributes: ["name"], tally: &tally) else { return nil }
        product.kind = .autoRenewable
        var fieldLocations = product.fieldLocations

        if let group = pool.linked(resource.key, type: "subscriptionGroups").first(where: {
            groupKeys.contains($0.other.id)
        }) {
            product.groupKey = group.other.id
        }
        if let level = try int(resource, "groupLevel") {
            guard level >= 1 else {
                throw error(resource, "groupLevel", "\(level) is not a level (1 or more)")
            }
            product.level = level
            fieldLocations[.level] = attributeLocation(resource, "groupLevel")
        }
        if let periodText = try string(resource, "subscriptionPeriod") {
            guard let period = SubscriptionPeriod(storeText: periodText) else {
                throw error(resource, "subscriptionPeriod",
                            "\(quoted(periodText)) is not a subscription period (ONE_WEEK … ONE_YEAR)")
            }
            product.period = period
            fieldLocations[.period] = attributeLocation(resource, "subscriptionPeriod")
        }

        var rows: [PriceRow] = []
        for link in pool.linked(resource.key, type: "subscriptionPrices") {
            if let row = try priceRow(link.other, pointType: "subscriptionPricePoints", manual: true,
                                      territories: &territories, tally: &tally) {
                rows.append(row)
            }
        }
        (product.prices, product.uncomparedPrices) = select(rows)
        if let first = product.prices.values.min(by: { $0.territory < $1.territory }), let location = first.location {
            fieldLocations[.price] = location
        }

        product.introOffers = try introOffers(of: resource, territories: &territories, tally: &tally)
        if let location = product.introOffers?.first?.location { fieldLocations[.introOffer] = location }
        product.fieldLocations = fieldLocations
        return product
    }

    private func inAppPurchase(_ resource: Resource, territories: inout TerritoryCache, tally: inout Tally)
        throws(CatalogReadError) -> Product?
    {
        // `name` in InAppPurchaseV2, `referenceName` in the deprecated v1 resource.
        guard var product = try baseProduct(resource, nameAttributes: ["name", "referenceName"], tally: &tally)
        else { return nil }
        if let typeText = try string(resource, "inAppPurchaseType") {
            switch typeText {
            case "CONSUMABLE": product.kind = .consumable
            case "NON_CONSUMABLE": product.kind = .nonConsumable
            case "NON_RENEWING_SUBSCRIPTION": product.kind = .nonRenewing
            case "AUTOMATICALLY_RENEWABLE_SUBSCRIPTION": product.kind = .autoRenewable
            case "FREE_SUBSCRIPTION": product.kind = nil  // legacy Newsstand type; no canonical kind
            default:
                throw error(resource, "inAppPurchaseType", "\(quoted(typeText)) is not CONSUMABLE, NON_CONSUMABLE "
                    + "or NON_RENEWING_SUBSCRIPTION")
            }
            product.fieldLocations[.type] = attributeLocation(resource, "inAppPurchaseType")
        }

        // inAppPurchases → price schedule → manualPrices / automaticPrices; rows linked straight to the
        // purchase are read too.
        var rowLinks: [Link] = []
        for schedule in pool.linked(resource.key, type: "inAppPurchasePriceSchedules") {
            rowLinks += pool.linked(schedule.other, type: "inAppPurchasePrices").filter(\.isChild)
        }
        rowLinks += pool.linked(resource.key, type: "inAppPurchasePrices")
        var rows: [PriceRow] = []
        var seen: Set<ResourceKey> = []
        for link in rowLinks where seen.insert(link.other).inserted {
            if let row = try priceRow(link.other, pointType: "inAppPurchasePricePoints",
                                      manual: link.relationship != "automaticPrices",
                                      territories: &territories, tally: &tally) {
                rows.append(row)
            }
        }
        (product.prices, product.uncomparedPrices) = select(rows)
        if let first = product.prices.values.min(by: { $0.territory < $1.territory }), let location = first.location {
            product.fieldLocations[.price] = location
        }
        return product
    }

    /// What subscriptions and in-app purchases share: ID, reference name, family sharing, availability.
    private func baseProduct(_ resource: Resource, nameAttributes: [String], tally: inout Tally)
        throws(CatalogReadError) -> Product?
    {
        guard let id = try string(resource, "productId"), !id.isEmpty else {
            tally.withoutProductID[resource.key.type, default: 0] += 1
            return nil
        }
        var product = Product(id: ProductID(id), location: location(of: resource))
        product.fieldLocations[.id] = attributeLocation(resource, "productId")
        for name in nameAttributes {
            if let text = try string(resource, name) {
                product.referenceName = text
                product.fieldLocations[.name] = attributeLocation(resource, name)
                break
            }
        }
        if let shareable = try bool(resource, "familySharable") {
            product.familyShareable = shareable
            product.fieldLocations[.familyShareable] = attributeLocation(resource, "familySharable")
        }
        if let state = try string(resource, "state") {
            switch state {
            case "REMOVED_FROM_SALE", "DEVELOPER_REMOVED_FROM_SALE": product.clearedForSale = false
            case "APPROVED": product.clearedForSale = true
            default: product.clearedForSale = nil
            }
            if product.clearedForSale != nil {
                product.fieldLocations[.clearedForSale] = attributeLocation(resource, "state")
            }
        }
        return product
    }

    // MARK: Prices

    /// One price row resolved to territory, amount and dates; nil when the row is not an up-front price or the
    /// input lacks its territory or price point.
    private func priceRow(_ key: ResourceKey, pointType: String, manual linkedAsManual: Bool,
                          territories: inout TerritoryCache, tally: inout Tally) throws(CatalogReadError) -> PriceRow?
    {
        tally.readRows.insert(key)
        guard let row = pool.resources[key] else {
            tally.unresolvedRows += 1
            return nil
        }
        if let planType = try string(row, "planType"), planType != "UPFRONT" { return nil }
        let start = try date(row, "startDate")
        if let end = try date(row, "endDate"), end <= asOf { return nil }
        let manual = try bool(row, "manual") ?? linkedAsManual

        let point = pool.linked(key, type: pointType).first.flatMap { pool.resources[$0.other] }
        let territoryKey = pool.linked(key, type: "territories").first?.other
            ?? point.flatMap { pool.linked($0.key, type: "territories").first?.other }
        guard let point, let territoryKey, let amountText = try string(point, "customerPrice") else {
            tally.unresolvedRows += 1
            return nil
        }
        guard let amount = Money.parseAmount(amountText) else {
            throw error(point, "customerPrice", "\(quoted(amountText)) is not a decimal amount")
        }
        let (territory, currency) = try territories.resolve(territoryKey, builder: self, near: row)
        return PriceRow(territory: territory, money: Money(amount: amount, currency: currency), start: start,
                        manual: manual, location: location(of: row))
    }

    /// Current prices by territory, and scheduled ones (exported, never compared).
    private func select(_ rows: [PriceRow]) -> ([Territory: Price], [UncomparedPrice]) {
        var current: [Territory: PriceRow] = [:]
        var scheduled: [ScheduleKey: PriceRow] = [:]
        for row in rows {
            if let start = row.start, start > asOf {
                let key = ScheduleKey(territory: row.territory, start: start)
                if let existing = scheduled[key], !row.beats(existing) { continue }
                scheduled[key] = row
            } else {
                if let existing = current[row.territory], !row.beats(existing) { continue }
                current[row.territory] = row
            }
        }
        let prices = current.mapValues { Price(territory: $0.territory, money: $0.money, location: $0.location) }
        let uncompared = scheduled.values.map {
            UncomparedPrice(label: "scheduled", territory: $0.territory, amount: $0.money, startDate: $0.start)
        }.sorted()
        return (prices, uncompared)
    }

    // MARK: Intro offers

    /// The subscription's intro offers: nil unless the input states them (relationship data, a
    /// `…/introductoryOffers` document, or offers linked to it) and holds every one of them in full.
    private func introOffers(of subscription: Resource, territories: inout TerritoryCache, tally: inout Tally)
        throws(CatalogReadError) -> [IntroOffer]?
    {
        let links = pool.linked(subscription.key, type: "subscriptionIntroductoryOffers")
        let stated = pool.statedRelationships[subscription.key]?.contains("introductoryOffers") ?? false
        guard stated || !links.isEmpty else { return nil }
        var offers: [IntroOffer] = []
        for link in links {
            guard let offer = pool.resources[link.other], let modeText = try string(offer, "offerMode"),
                  let durationText = try string(offer, "duration") else {
                tally.partialOffers += 1
                return nil
            }
            if let start = try date(offer, "startDate"), start > asOf { continue }
            if let end = try date(offer, "endDate"), end <= asOf { continue }
            let mode: IntroOffer.Mode
            switch modeText {
            case "FREE_TRIAL": mode = .freeTrial
            case "PAY_AS_YOU_GO": mode = .payAsYouGo
            case "PAY_UP_FRONT": mode = .payUpFront
            default:
                throw error(offer, "offerMode", "\(quoted(modeText)) is not FREE_TRIAL, PAY_AS_YOU_GO or PAY_UP_FRONT")
            }
            guard let period = SubscriptionPeriod(storeText: durationText) else {
                throw error(offer, "duration", "\(quoted(durationText)) is not an offer duration (THREE_DAYS … ONE_YEAR)")
            }
            let periods = try int(offer, "numberOfPeriods") ?? 1
            guard periods >= 1 else {
                throw error(offer, "numberOfPeriods", "\(periods) is not a count of periods (1 or more)")
            }
            let point = pool.linked(offer.key, type: "subscriptionPricePoints").first.flatMap { pool.resources[$0.other] }
            let territoryKey = pool.linked(offer.key, type: "territories").first?.other
                ?? point.flatMap { pool.linked($0.key, type: "territories").first?.other }
            var territory: Territory?
            var price: Money?
            if let territoryKey {
                let (resolved, currency) = try territories.resolve(territoryKey, builder: self, near: offer)
                territory = resolved
                if mode != .freeTrial, let point, let amountText = try string(point, "customerPrice") {
                    guard let amount = Money.parseAmount(amountText) else {
                        throw error(point, "customerPrice", "\(quoted(amountText)) is not a decimal amount")
                    }
                    price = Money(amount: amount, currency: currency)
                }
            }
            offers.append(IntroOffer(mode: mode, period: period, periods: periods, price: price, territory: territory,
                                     location: location(of: offer)))
        }
        return offers
    }

    // MARK: Attributes

    func location(of resource: Resource) -> SourceLocation {
        pool.documents[resource.document].location(of: resource.value)
    }

    private func attributeLocation(_ resource: Resource, _ name: String) -> SourceLocation? {
        guard let attribute = resource.attributes[name] else { return nil }
        return pool.documents[attribute.document].location(of: attribute.value)
    }

    /// An error at an attribute (or the resource when the attribute is absent), naming the resource.
    func error(_ resource: Resource, _ name: String, _ problem: String) -> CatalogReadError {
        let location = attributeLocation(resource, name) ?? location(of: resource)
        return CatalogReadError("\(resource.key.type) \(quoted(resource.key.id)) attributes.\(name): \(problem)",
                                at: location)
    }

    func string(_ resource: Resource, _ name: String) throws(CatalogReadError) -> String? {
        guard let value = resource.attributes[name]?.value else { return nil }
        guard let text = value.string else {
            throw error(resource, name, "expected a string, found \(describe(value))")
        }
        return text
    }

    private func bool(_ resource: Resource, _ name: String) throws(CatalogReadError) -> Bool? {
        guard let value = resource.attributes[name]?.value else { return nil }
        guard let flag = value.bool else {
            throw error(resource, name, "expected true or false, found \(describe(value))")
        }
        return flag
    }

    private func int(_ resource: Resource, _ name: String) throws(CatalogReadError) -> Int? {
        guard let value = resource.attributes[name]?.value else { return nil }
        guard let number = value.int else {
            throw error(resource, name, "expected a whole number, found \(describe(value))")
        }
        return number
    }

    private func date(_ resource: Resource, _ name: String) throws(CatalogReadError) -> CalendarDate? {
        guard let text = try string(resource, name) else { return nil }
        guard let date = CalendarDate(iso: text) else {
            throw error(resource, name, "\(quoted(text)) is not a date (YYYY-MM-DD)")
        }
        return date
    }
}

/// Territories resolved once each: ISO code and currency (`attributes.currency`, else the App Store currency).
private struct TerritoryCache {
    private var resolved: [String: (Territory, CurrencyCode)] = [:]

    mutating func resolve(_ key: ResourceKey, builder: ASCCatalogBuilder, near user: Resource)
        throws(CatalogReadError) -> (Territory, CurrencyCode)
    {
        if let cached = resolved[key.id] { return cached }
        let resource = builder.pool.resources[key]
        guard let territory = Territory(code: key.id) else {
            throw CatalogReadError("territories \(quoted(key.id)) is not an ISO 3166-1 territory code",
                                   at: builder.location(of: resource ?? user))
        }
        let currency: CurrencyCode
        if let resource, let code = try builder.string(resource, "currency") {
            guard let parsed = CurrencyCode(code) else {
                throw builder.error(resource, "currency", "\(quoted(code)) is not an ISO 4217 currency code")
            }
            currency = parsed
        } else if let fallback = territory.appStoreCurrency {
            currency = fallback
        } else {
            throw CatalogReadError(
                "no currency is known for territory \(quoted(key.id)): the input has no territories resource with "
                    + "attributes.currency for it", at: builder.location(of: resource ?? user))
        }
        resolved[key.id] = (territory, currency)
        return (territory, currency)
    }
}

/// A value for an error message: scalars quoted (and shortened), containers by kind only.
private func describe(_ value: JSONValue) -> String {
    switch value.kind {
    case .string(let text): "the string \(quoted(text))"
    case .number(let text): "the number \(text.count > 40 ? String(text.prefix(40)) + "…" : text)"
    case .bool(let flag): flag ? "true" : "false"
    case .null: "null"
    case .object: "an object"
    case .array: "an array"
    }
}

/// Quotes text for a message, shortening values longer than `limit` characters.
private func quoted(_ text: String, limit: Int = 80) -> String {
    let shown = text.count > limit ? String(text.prefix(limit)) + "…" : text
    var escaped = ""
    for character in shown {
        switch character {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case "\n": escaped += "\\n"
        case "\r": escaped += "\\r"
        case "\t": escaped += "\\t"
        default: escaped.append(character)
        }
    }
    return "\"\(escaped)\""
}
