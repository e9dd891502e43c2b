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

/// A JSON value and the document it is in.
private struct Placed {
    let document: Int
    let value: JSONValue
}

/// A document being pooled, and its index in `ASCResourcePool.sources`.
private typealias DocumentPlace = (document: JSONDocument, index: Int)

/// Where a resource object starts: its document and byte offset.
private struct Position {
    let document: Int
    let offset: Int
}

/// One pooled resource (a node of the link graph), known from a resource object or only from identifiers.
private struct Node {
    let key: ResourceKey
    /// The interned type name.
    let type: Int
    /// Where the resource object first seen starts (the record's location); nil while known only by identifier.
    var definition: Position?
    /// Every `attributes` object seen for the resource, in reading order; the first non-null value of a name wins.
    var attributeObjects: [Placed] = []
    /// Links to other nodes, in the order they were seen.
    var links: [Link] = []
    /// Interned names of the relationships whose contents the input states (relationship `data`, possibly
    /// empty, or a `links.self` document): an empty list there means "has none", not "unknown".
    var statedRelationships: [Int] = []
}

/// A link between two nodes, seen from one of them.
private struct Link {
    /// The interned relationship name (`prices`, `manualPrices`, the last path segment of `links.self`, …).
    let relationship: Int
    /// The node at the other end.
    let other: Int
    /// True when `other` is the child (this node names it), false when it is the parent.
    let isChild: Bool
}

private struct Edge: Hashable {
    let parent: Int
    let relationship: Int
    let child: Int
}

/// Every resource of every document, pooled by `(type, id)`, with the links between them. Nodes, types and
/// relationship names are interned as integers so large inputs hash each string once. Of each document the
/// pool keeps its source (for locations) and the `attributes` objects, not the whole tree.
private struct ASCResourcePool {
    var sources: [SourceText] = []
    var nodes: [Node] = []
    /// Nodes in the order their resource objects were first seen (the catalog's reading order).
    var definitionOrder: [Int] = []
    private var index: [ResourceKey: Int] = [:]
    private var names: [String: Int] = [:]
    private var edges: Set<Edge> = []

    /// The interned number of a type or relationship name, if the input uses it.
    func name(_ text: String) -> Int? { names[text] }

    private mutating func intern(_ text: String) -> Int {
        if let known = names[text] { return known }
        names[text] = names.count
        return names.count - 1
    }

    private mutating func node(_ key: ResourceKey) -> Int {
        if let known = index[key] { return known }
        nodes.append(Node(key: key, type: intern(key.type)))
        index[key] = nodes.count - 1
        return nodes.count - 1
    }

    /// Adds a parsed file: one document or an array of documents.
    mutating func add(_ document: JSONDocument) throws(CatalogReadError) {
        sources.append(document.source)
        let place: DocumentPlace = (document, sources.count - 1)
        let root = document.root
        if let elements = root.elements {
            for (position, element) in elements.enumerated() {
                try addDocument(element, in: place, path: "[\(position)]")
            }
        } else if root.members != nil {
            try addDocument(root, in: place, path: "")
        } else {
            throw document.error(
                "not an App Store Connect API response: the top level is \(root.typeName), expected an object "
                    + "(a JSON:API document) or an array of them", at: root)
        }
    }

    private mutating func addDocument(_ value: JSONValue, in place: DocumentPlace, path: String) throws(CatalogReadError) {
        let document = place.document
        let here = path.isEmpty ? "the document" : path
        guard value.members != nil else {
            throw document.error("\(here): expected a JSON:API document (an object), found \(describeForMessage(value))",
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
        var parent: (node: Int, relationship: Int)?
        if let link = try selfLinkParent(value, document: document, prefix: prefix) {
            let parentNode = node(link.key)
            let relationship = intern(link.relationship)
            if !nodes[parentNode].statedRelationships.contains(relationship) {
                nodes[parentNode].statedRelationships.append(relationship)
            }
            parent = (parentNode, relationship)
        }
        // Key paths are only spelled out when an error needs one.
        if data.isNull {
        } else if data.members != nil {
            let child = try addResource(data, in: place, path: "\(prefix)data")
            if let parent { link(parent.node, parent.relationship, child) }
        } else if let elements = data.elements {
            for (position, resource) in elements.enumerated() {
                let child = try addResource(resource, in: place, path: "\(prefix)data[\(position)]")
                if let parent { link(parent.node, parent.relationship, child) }
            }
        } else {
            throw document.error("\(prefix)data: expected an object, an array or null, found \(describeForMessage(data))",
                                 at: data)
        }
        if let included = value["included"], !included.isNull {
            guard let elements = included.elements else {
                throw document.error("\(prefix)included: expected an array, found \(describeForMessage(included))",
                                     at: included)
            }
            for (position, resource) in elements.enumerated() {
                _ = try addResource(resource, in: place, path: "\(prefix)included[\(position)]")
            }
        }
    }

    /// An App Store Connect error response, quoting the first error's title.
    private func errorResponse(_ errors: JSONValue, in document: JSONDocument) -> CatalogReadError {
        guard let first = errors.elements?.first, first.members != nil else {
            return document.error("App Store Connect returned an error response", at: errors)
        }
        var message = "App Store Connect returned an error response"
        if let title = first["title"]?.string { message += ": \(quotedForMessage(title, limit: 300))" }
        var details: [String] = []
        if let status = first["status"]?.string ?? first["status"]?.numberText { details.append("status \(status)") }
        if let code = first["code"]?.string { details.append(code) }
        if !details.isEmpty { message += " (\(details.joined(separator: ", ")))" }
        if let detail = first["detail"]?.string { message += " — \(quotedForMessage(detail, limit: 300))" }
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
            throw document.error("\(prefix)links: expected an object, found \(describeForMessage(links))", at: links)
        }
        guard let selfLink = links["self"], !selfLink.isNull else { return nil }
        guard let text = selfLink.string else {
            throw document.error("\(prefix)links.self: expected a string, found \(describeForMessage(selfLink))", at: selfLink)
        }
        var path = Substring(text)
        if let scheme = path.range(of: "://") {
            let afterScheme = path[scheme.upperBound...]
            path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? ""
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let segments = path.split(separator: "/").map { String($0).removingPercentEncoding ?? String($0) }
        guard segments.count >= 4, let version = segments.first, version.count > 1, version.hasPrefix("v"),
              version.dropFirst().allSatisfy(\.isNumber) else { return nil }
        let parent = ResourceKey(type: segments[1], id: segments[2])
        if segments.count == 4 { return (parent, segments[3]) }
        if segments.count == 5, segments[3] == "relationships" { return (parent, segments[4]) }
        return nil
    }

    /// Pools one resource object and its relationship links; returns its node.
    private mutating func addResource(_ value: JSONValue, in place: DocumentPlace,
                                      path: @autoclosure () -> String) throws(CatalogReadError) -> Int
    {
        let document = place.document
        let index = place.index
        let current = node(try identifier(value, document: document, path: path()))
        if nodes[current].definition == nil {
            nodes[current].definition = Position(document: index, offset: value.offset)
            definitionOrder.append(current)
        }
        if let attributes = value["attributes"], !attributes.isNull {
            guard attributes.members != nil else {
                throw document.error("\(path()).attributes: expected an object, found \(describeForMessage(attributes))",
                                     at: attributes)
            }
            // A later object only matters for names the earlier ones leave null or out (the same territory
            // included in every document adds nothing).
            if addsAttributes(attributes, to: current) {
                nodes[current].attributeObjects.append(Placed(document: index, value: attributes))
            }
        }
        if let relationships = value["relationships"], !relationships.isNull {
            guard let members = relationships.members else {
                throw document.error(
                    "\(path()).relationships: expected an object, found \(describeForMessage(relationships))", at: relationships)
            }
            for member in members {
                func memberPath() -> String { "\(path()).relationships.\(member.key)" }
                guard member.value.members != nil else {
                    throw document.error("\(memberPath()): expected an object, found \(describeForMessage(member.value))",
                                         at: member.value)
                }
                guard let data = member.value["data"] else { continue }
                let relationship = intern(member.key)
                if !nodes[current].statedRelationships.contains(relationship) {
                    nodes[current].statedRelationships.append(relationship)
                }
                if data.isNull {
                } else if data.members != nil {
                    let target = try identifier(data, document: document, path: "\(memberPath()).data")
                    link(current, relationship, node(target))
                } else if let elements = data.elements {
                    for (position, element) in elements.enumerated() {
                        let target = try identifier(element, document: document,
                                                    path: "\(memberPath()).data[\(position)]")
                        link(current, relationship, node(target))
                    }
                } else {
                    throw document.error(
                        "\(memberPath()).data: expected an object, an array or null, found \(describeForMessage(data))", at: data)
                }
            }
        }
        return current
    }

    /// Whether `attributes` has a non-null value for a name that the node's earlier objects do not set.
    private func addsAttributes(_ attributes: JSONValue, to node: Int) -> Bool {
        let earlier = nodes[node].attributeObjects
        if earlier.isEmpty { return true }
        return attributes.members?.contains { member in
            !member.value.isNull && !earlier.contains { $0.value[member.key].map { !$0.isNull } ?? false }
        } ?? false
    }

    /// The `(type, id)` of a resource object or resource identifier.
    private func identifier(_ value: JSONValue, document: JSONDocument, path: @autoclosure () -> String)
        throws(CatalogReadError) -> ResourceKey
    {
        guard value.members != nil else {
            throw document.error("\(path()): expected a resource object, found \(describeForMessage(value))", at: value)
        }
        guard let type = value["type"]?.string, !type.isEmpty else {
            throw document.error("\(path()): a resource needs a \"type\" string", at: value["type"] ?? value)
        }
        guard let id = value["id"]?.string, !id.isEmpty else {
            throw document.error("\(path()): a resource needs an \"id\" string", at: value["id"] ?? value)
        }
        return ResourceKey(type: type, id: id)
    }

    private mutating func link(_ parent: Int, _ relationship: Int, _ child: Int) {
        guard parent != child,
              edges.insert(Edge(parent: parent, relationship: relationship, child: child)).inserted else { return }
        nodes[parent].links.append(Link(relationship: relationship, other: child, isChild: true))
        nodes[child].links.append(Link(relationship: relationship, other: parent, isChild: false))
    }

    /// The nodes linked to `node` (either direction) of one type, in the order the links were seen.
    func linked(_ node: Int, type: Int?) -> [Link] {
        guard let type else { return [] }
        return nodes[node].links.filter { nodes[$0.other].type == type }
    }

    /// The first node linked to `node` of one type.
    func firstLinked(_ node: Int, type: Int?) -> Int? {
        guard let type else { return nil }
        return nodes[node].links.first { nodes[$0.other].type == type }?.other
    }

    /// The first non-null value of an attribute, with its document.
    func attribute(_ node: Int, _ name: String) -> Placed? {
        for object in nodes[node].attributeObjects {
            if let value = object.value[name], !value.isNull { return Placed(document: object.document, value: value) }
        }
        return nil
    }

    /// Whether the input holds the resource object itself (not only identifiers naming it).
    func isDefined(_ node: Int) -> Bool { nodes[node].definition != nil }

    /// Where a node's resource object starts; the first document when it is known only by identifier.
    func location(of node: Int) -> SourceLocation {
        guard let definition = nodes[node].definition else {
            return SourceLocation(path: sources.first?.path ?? "")
        }
        return sources[definition.document].location(ofOffset: definition.offset)
    }

    func location(of placed: Placed) -> SourceLocation {
        sources[placed.document].location(ofOffset: placed.value.offset)
    }
}

// MARK: - Building the catalog

/// One price row, resolved; its location is computed only when the row is selected.
private struct PriceRow {
    let territory: Territory
    let money: Money
    let start: CalendarDate?
    let manual: Bool
    let node: Int

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

/// The interned type names the builder asks for (nil when the input has no such resource or identifier).
private struct ResourceTypes {
    let subscriptionGroups: Int?
    let subscriptions: Int?
    let subscriptionPrices: Int?
    let subscriptionPricePoints: Int?
    let subscriptionIntroductoryOffers: Int?
    let inAppPurchases: Int?
    let inAppPurchasePriceSchedules: Int?
    let inAppPurchasePrices: Int?
    let inAppPurchasePricePoints: Int?
    let territories: Int?
    let introductoryOffersRelationship: Int?
    let automaticPricesRelationship: Int?

    init(_ pool: ASCResourcePool) {
        subscriptionGroups = pool.name("subscriptionGroups")
        subscriptions = pool.name("subscriptions")
        subscriptionPrices = pool.name("subscriptionPrices")
        subscriptionPricePoints = pool.name("subscriptionPricePoints")
        subscriptionIntroductoryOffers = pool.name("subscriptionIntroductoryOffers")
        inAppPurchases = pool.name("inAppPurchases")
        inAppPurchasePriceSchedules = pool.name("inAppPurchasePriceSchedules")
        inAppPurchasePrices = pool.name("inAppPurchasePrices")
        inAppPurchasePricePoints = pool.name("inAppPurchasePricePoints")
        territories = pool.name("territories")
        introductoryOffersRelationship = pool.name("introductoryOffers")
        automaticPricesRelationship = pool.name("automaticPrices")
    }
}

/// Turns the pool into products, groups and remarks.
private struct ASCCatalogBuilder {
    let pool: ASCResourcePool
    let asOf: CalendarDate
    let types: ResourceTypes

    /// Counters behind the catalog's remarks.
    private struct Tally {
        var withoutProductID: [String: Int] = [:]
        var unresolvedRows = 0
        var partialOffers = 0
        /// Remarks about enum values this version does not know, in reading order.
        var unknownValues: [String] = []
        var readRows: [Bool]
    }

    init(pool: ASCResourcePool, asOf: CalendarDate) {
        self.pool = pool
        self.asOf = asOf
        self.types = ResourceTypes(pool)
    }

    func catalog(path: String) throws(CatalogReadError) -> Catalog {
        var tally = Tally(readRows: Array(repeating: false, count: pool.nodes.count))
        var groups: [SubscriptionGroup] = []
        var groupNodes: Set<Int> = []
        for node in pool.definitionOrder where pool.nodes[node].type == types.subscriptionGroups {
            guard let name = try string(node, "referenceName") else { continue }
            groups.append(SubscriptionGroup(key: pool.nodes[node].key.id, name: name, location: pool.location(of: node)))
            groupNodes.insert(node)
        }

        var products: [Product] = []
        var territories = TerritoryCache()
        for node in pool.definitionOrder {
            let type = pool.nodes[node].type
            if type == types.subscriptions {
                if let product = try subscription(node, groups: groupNodes, territories: &territories, tally: &tally) {
                    products.append(product)
                }
            } else if type == types.inAppPurchases {
                if let product = try inAppPurchase(node, territories: &territories, tally: &tally) {
                    products.append(product)
                }
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
        let orphans = pool.definitionOrder.filter {
            let type = pool.nodes[$0].type
            return (type == types.subscriptionPrices || type == types.inAppPurchasePrices) && !tally.readRows[$0]
        }.count
        if orphans > 0 {
            remarks.append("\(orphans) price row(s) belong to no product in the input and were not read")
        }
        if tally.partialOffers > 0 {
            remarks.append("the introductory offers of \(tally.partialOffers) subscription(s) are only partly in the "
                + "input (offers without offerMode or duration); they are not compared")
        }
        remarks += tally.unknownValues
        return Catalog(path: path, format: .ascJSON, groups: groups, products: products,
                       capabilities: CatalogCapabilities(expressesGroups: true), remarks: remarks)
    }

    // MARK: Products

    private func subscription(_ node: Int, groups: Set<Int>, territories: inout TerritoryCache,
                              tally: inout Tally) throws(CatalogReadError) -> Product?
    {
        guard var product = try baseProduct(node, nameAttributes: ["name"], tally: &tally) else { return nil }
        product.kind = .autoRenewable
        var fieldLocations = product.fieldLocations

        if let group = pool.linked(node, type: types.subscriptionGroups).first(where: { groups.contains($0.other) }) {
            product.groupKey = pool.nodes[group.other].key.id
        }
        if let level = try int(node, "groupLevel") {
            guard level >= 1 else {
                throw error(node, "groupLevel", "\(level) is not a level (1 or more)")
            }
            product.level = level
            fieldLocations[.level] = attributeLocation(node, "groupLevel")
        }
        if let periodText = try string(node, "subscriptionPeriod") {
            guard let period = SubscriptionPeriod(storeText: periodText) else {
                throw error(node, "subscriptionPeriod",
                            "\(quotedForMessage(periodText)) is not a subscription period (ONE_WEEK … ONE_YEAR)")
            }
            product.period = period
            fieldLocations[.period] = attributeLocation(node, "subscriptionPeriod")
        }

        var rows: [PriceRow] = []
        for link in pool.linked(node, type: types.subscriptionPrices) {
            if let row = try priceRow(link.other, pointType: types.subscriptionPricePoints, manual: true,
                                      territories: &territories, tally: &tally) {
                rows.append(row)
            }
        }
        (product.prices, product.uncomparedPrices) = select(rows)
        if let first = product.prices.values.min(by: { $0.territory < $1.territory }), let location = first.location {
            fieldLocations[.price] = location
        }

        product.introOffers = try introOffers(of: node, territories: &territories, tally: &tally)
        if let location = product.introOffers?.first?.location { fieldLocations[.introOffer] = location }
        product.fieldLocations = fieldLocations
        return product
    }

    private func inAppPurchase(_ node: Int, territories: inout TerritoryCache, tally: inout Tally)
        throws(CatalogReadError) -> Product?
    {
        // `name` in InAppPurchaseV2, `referenceName` in the deprecated v1 resource.
        guard var product = try baseProduct(node, nameAttributes: ["name", "referenceName"], tally: &tally)
        else { return nil }
        if let typeText = try string(node, "inAppPurchaseType") {
            switch typeText {
            case "CONSUMABLE": product.kind = .consumable
            case "NON_CONSUMABLE": product.kind = .nonConsumable
            case "NON_RENEWING_SUBSCRIPTION": product.kind = .nonRenewing
            case "AUTOMATICALLY_RENEWABLE_SUBSCRIPTION": product.kind = .autoRenewable
            case "FREE_SUBSCRIPTION": product.kind = nil  // legacy Newsstand type; no canonical kind
            default:
                // A type Apple added after this version: read the product, leave its type unknown.
                tally.unknownValues.append(unknownValue(node, "inAppPurchaseType", typeText, of: product,
                                                        consequence: "its type is not compared"))
            }
            if product.kind != nil || typeText == "FREE_SUBSCRIPTION" {
                product.fieldLocations[.type] = attributeLocation(node, "inAppPurchaseType")
            }
        }

        // inAppPurchases → price schedule → manualPrices / automaticPrices; rows linked straight to the
        // purchase are read too.
        var rowLinks: [Link] = []
        for schedule in pool.linked(node, type: types.inAppPurchasePriceSchedules) {
            rowLinks += pool.linked(schedule.other, type: types.inAppPurchasePrices).filter(\.isChild)
        }
        rowLinks += pool.linked(node, type: types.inAppPurchasePrices)
        var rows: [PriceRow] = []
        var seen: Set<Int> = []
        for link in rowLinks where seen.insert(link.other).inserted {
            let automatic = types.automaticPricesRelationship.map { link.relationship == $0 } ?? false
            if let row = try priceRow(link.other, pointType: types.inAppPurchasePricePoints, manual: !automatic,
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
    private func baseProduct(_ node: Int, nameAttributes: [String], tally: inout Tally)
        throws(CatalogReadError) -> Product?
    {
        guard let id = try string(node, "productId"), !id.isEmpty else {
            tally.withoutProductID[pool.nodes[node].key.type, default: 0] += 1
            return nil
        }
        var product = Product(id: ProductID(id), location: pool.location(of: node))
        product.fieldLocations[.id] = attributeLocation(node, "productId")
        for name in nameAttributes {
            if let text = try string(node, name) {
                product.referenceName = text
                product.fieldLocations[.name] = attributeLocation(node, name)
                break
            }
        }
        if let shareable = try bool(node, "familySharable") {
            product.familyShareable = shareable
            product.fieldLocations[.familyShareable] = attributeLocation(node, "familySharable")
        }
        if let state = try string(node, "state") {
            switch state {
            case "REMOVED_FROM_SALE", "DEVELOPER_REMOVED_FROM_SALE": product.clearedForSale = false
            case "APPROVED": product.clearedForSale = true
            default:
                product.clearedForSale = nil
                if !Self.knownStates.contains(state) {
                    tally.unknownValues.append(unknownValue(node, "state", state, of: product,
                                                            consequence: "its availability is not compared"))
                }
            }
            if product.clearedForSale != nil {
                product.fieldLocations[.clearedForSale] = attributeLocation(node, "state")
            }
        }
        return product
    }

    // MARK: Prices

    /// One price row resolved to territory, amount and dates; nil when the row is not an up-front price, has
    /// ended, or the input lacks its territory or price point.
    private func priceRow(_ node: Int, pointType: Int?, manual linkedAsManual: Bool,
                          territories: inout TerritoryCache, tally: inout Tally) throws(CatalogReadError) -> PriceRow?
    {
        tally.readRows[node] = true
        guard pool.isDefined(node) else {
            tally.unresolvedRows += 1
            return nil
        }
        if let planType = try string(node, "planType"), planType != "UPFRONT" { return nil }
        let start = try date(node, "startDate")
        if let end = try date(node, "endDate"), end <= asOf { return nil }
        let manual = try bool(node, "manual") ?? linkedAsManual

        let point = pool.firstLinked(node, type: pointType)
        let territoryNode = pool.firstLinked(node, type: types.territories)
            ?? point.flatMap { pool.firstLinked($0, type: types.territories) }
        guard let point, let territoryNode, let amountText = try string(point, "customerPrice") else {
            tally.unresolvedRows += 1
            return nil
        }
        guard let amount = Money.parseAmount(amountText) else {
            throw error(point, "customerPrice", "\(quotedForMessage(amountText)) is not a decimal amount")
        }
        let (territory, currency) = try territories.resolve(territoryNode, builder: self, near: node)
        return PriceRow(territory: territory, money: Money(amount: amount, currency: currency), start: start,
                        manual: manual, node: node)
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
        let prices = current.mapValues {
            Price(territory: $0.territory, money: $0.money, location: pool.location(of: $0.node))
        }
        // Sorted by territory, then start (cheaper than UncomparedPrice's text order, and the same here).
        let uncompared = scheduled.sorted {
            ($0.key.territory, $0.key.start) < ($1.key.territory, $1.key.start)
        }.map {
            UncomparedPrice(label: "scheduled", territory: $0.value.territory, amount: $0.value.money,
                            startDate: $0.key.start)
        }
        return (prices, uncompared)
    }

    // MARK: Intro offers

    /// The subscription's intro offers: nil unless the input states them (relationship data, a
    /// `…/introductoryOffers` document, or offers linked to it) and holds every one of them in full.
    private func introOffers(of subscription: Int, territories: inout TerritoryCache, tally: inout Tally)
        throws(CatalogReadError) -> [IntroOffer]?
    {
        let links = pool.linked(subscription, type: types.subscriptionIntroductoryOffers)
        let stated = types.introductoryOffersRelationship.map {
            pool.nodes[subscription].statedRelationships.contains($0)
        } ?? false
        guard stated || !links.isEmpty else { return nil }
        var offers: [IntroOffer] = []
        for link in links {
            let offer = link.other
            guard pool.isDefined(offer), let modeText = try string(offer, "offerMode"),
                  let durationText = try string(offer, "duration") else {
                tally.partialOffers += 1
                return nil
            }
            // Offers for the monthly-billing plan go with MONTHLY price rows, which are not prices either.
            if let plan = try string(offer, "targetSubscriptionPlanType"), plan != "UPFRONT" { continue }
            if let start = try date(offer, "startDate"), start > asOf { continue }
            if let end = try date(offer, "endDate"), end <= asOf { continue }
            let mode: IntroOffer.Mode
            switch modeText {
            case "FREE_TRIAL": mode = .freeTrial
            case "PAY_AS_YOU_GO": mode = .payAsYouGo
            case "PAY_UP_FRONT": mode = .payUpFront
            default:
                // A mode Apple added after this version: the subscription's offers cannot be compared.
                let key = pool.nodes[offer].key
                tally.unknownValues.append(
                    "\(key.type) \(quotedForMessage(key.id)) of subscription \(productIDText(subscription)) has "
                    + "offerMode \(quotedForMessage(modeText)), not known to this version; the subscription's "
                    + "introductory offers are not compared")
                return nil
            }
            guard let period = SubscriptionPeriod(storeText: durationText) else {
                throw error(offer, "duration", "\(quotedForMessage(durationText)) is not an offer duration (THREE_DAYS … ONE_YEAR)")
            }
            let periods = try int(offer, "numberOfPeriods") ?? 1
            guard (1...IntroOffer.maximumPeriods).contains(periods) else {
                throw error(offer, "numberOfPeriods",
                            "\(periods) is not a count of periods (1 … \(IntroOffer.maximumPeriods))")
            }
            let point = pool.firstLinked(offer, type: types.subscriptionPricePoints)
            let territoryNode = pool.firstLinked(offer, type: types.territories)
                ?? point.flatMap { pool.firstLinked($0, type: types.territories) }
            var territory: Territory?
            var price: Money?
            if let territoryNode {
                let (resolved, currency) = try territories.resolve(territoryNode, builder: self, near: offer)
                territory = resolved
                if mode != .freeTrial, let point, let amountText = try string(point, "customerPrice") {
                    guard let amount = Money.parseAmount(amountText) else {
                        throw error(point, "customerPrice", "\(quotedForMessage(amountText)) is not a decimal amount")
                    }
                    price = Money(amount: amount, currency: currency)
                }
            }
            offers.append(IntroOffer(mode: mode, period: period, periods: periods, price: price, territory: territory,
                                     location: pool.location(of: offer)))
        }
        return offers
    }

    // MARK: Attributes

    /// Every `state` of subscriptions and in-app purchases (v2, and the deprecated v1 `InAppPurchase`) in the App
    /// Store Connect API this version knows (OpenAPI spec 4.4.1: `Subscription`, `InAppPurchaseV2`,
    /// `InAppPurchase` attributes).
    private static let knownStates: Set<String> = [
        "MISSING_METADATA", "WAITING_FOR_UPLOAD", "PROCESSING_CONTENT", "READY_TO_SUBMIT", "WAITING_FOR_REVIEW",
        "IN_REVIEW", "DEVELOPER_ACTION_NEEDED", "PENDING_BINARY_APPROVAL", "APPROVED", "DEVELOPER_REMOVED_FROM_SALE",
        "REMOVED_FROM_SALE", "REJECTED",
        // v1 only.
        "CREATED", "DEVELOPER_SIGNED_OFF", "DELETION_IN_PROGRESS", "DELETED", "REPLACED", "WAITING_FOR_SCREENSHOT",
        "PREPARE_FOR_SUBMISSION", "PENDING_DEVELOPER_RELEASE",
    ]

    /// The remark for an enum value this version does not know: `<type> <product ID> has <attribute> "<value>",
    /// not known to this version; <consequence>`.
    private func unknownValue(_ node: Int, _ name: String, _ value: String, of product: Product,
                              consequence: String) -> String {
        "\(pool.nodes[node].key.type) \(product.id.rawValue) has \(name) \(quotedForMessage(value)), not known to "
            + "this version; \(consequence)"
    }

    /// The product ID of a resource as a remark names it (its resource id when it has none).
    private func productIDText(_ node: Int) -> String {
        (try? string(node, "productId")).flatMap { $0 } ?? quotedForMessage(pool.nodes[node].key.id)
    }

    private func attributeLocation(_ node: Int, _ name: String) -> SourceLocation? {
        pool.attribute(node, name).map { pool.location(of: $0) }
    }

    /// An error at an attribute (or the resource when the attribute is absent), naming the resource.
    func error(_ node: Int, _ name: String, _ problem: String) -> CatalogReadError {
        let key = pool.nodes[node].key
        return CatalogReadError("\(key.type) \(quotedForMessage(key.id)) attributes.\(name): \(problem)",
                                at: attributeLocation(node, name) ?? pool.location(of: node))
    }

    func string(_ node: Int, _ name: String) throws(CatalogReadError) -> String? {
        guard let value = pool.attribute(node, name)?.value else { return nil }
        guard let text = value.string else {
            throw error(node, name, "expected a string, found \(describeForMessage(value))")
        }
        return text
    }

    private func bool(_ node: Int, _ name: String) throws(CatalogReadError) -> Bool? {
        guard let value = pool.attribute(node, name)?.value else { return nil }
        guard let flag = value.bool else {
            throw error(node, name, "expected true or false, found \(describeForMessage(value))")
        }
        return flag
    }

    private func int(_ node: Int, _ name: String) throws(CatalogReadError) -> Int? {
        guard let value = pool.attribute(node, name)?.value else { return nil }
        guard let number = value.int else {
            throw error(node, name, "expected a whole number, found \(describeForMessage(value))")
        }
        return number
    }

    private func date(_ node: Int, _ name: String) throws(CatalogReadError) -> CalendarDate? {
        guard let text = try string(node, name) else { return nil }
        guard let date = CalendarDate(iso: text) else {
            throw error(node, name, "\(quotedForMessage(text)) is not a date (YYYY-MM-DD)")
        }
        return date
    }
}

/// Territories resolved once each: ISO code and currency (`attributes.currency`, else the App Store currency).
private struct TerritoryCache {
    private var resolved: [Int: (Territory, CurrencyCode)] = [:]

    mutating func resolve(_ node: Int, builder: ASCCatalogBuilder, near user: Int)
        throws(CatalogReadError) -> (Territory, CurrencyCode)
    {
        if let cached = resolved[node] { return cached }
        let pool = builder.pool
        let id = pool.nodes[node].key.id
        let place = pool.isDefined(node) ? node : user
        guard let territory = Territory(code: id) else {
            throw CatalogReadError("territories \(quotedForMessage(id)) is not an ISO 3166-1 territory code",
                                   at: pool.location(of: place))
        }
        let currency: CurrencyCode
        if let code = try builder.string(node, "currency") {
            guard let parsed = CurrencyCode(code) else {
                throw builder.error(node, "currency", "\(quotedForMessage(code)) is not an ISO 4217 currency code")
            }
            currency = parsed
        } else if let fallback = territory.appStoreCurrency {
            currency = fallback
        } else {
            throw CatalogReadError(
                "no currency is known for territory \(quotedForMessage(id)): the input has no territories resource with "
                    + "attributes.currency for it", at: pool.location(of: place))
        }
        resolved[node] = (territory, currency)
        return (territory, currency)
    }
}

