import CatalogCore

/// The types and relationships the builder asks for (nil when the input has no such resource or identifier).
struct ASCResourceTypes {
    let subscriptionGroups: TypeID?
    let subscriptions: TypeID?
    let subscriptionPrices: TypeID?
    let subscriptionPricePoints: TypeID?
    let subscriptionIntroductoryOffers: TypeID?
    let inAppPurchases: TypeID?
    let inAppPurchasePriceSchedules: TypeID?
    let inAppPurchasePrices: TypeID?
    let inAppPurchasePricePoints: TypeID?
    let territories: TypeID?
    let automaticPricesRelationship: RelationshipID?
    let manualPricesRelationship: RelationshipID?
    let baseTerritoryRelationship: RelationshipID?
    let apps: TypeID?
    let inAppPurchaseAvailabilities: TypeID?
    let subscriptionPlanAvailabilities: TypeID?
    let subscriptionAvailabilities: TypeID?
    let promotionalOffers: TypeID?
    let subscriptionOfferCodes: TypeID?
    let winBackOffers: TypeID?
    let inAppPurchaseOfferCodes: TypeID?
    let promotionalOfferPrices: TypeID?
    let subscriptionOfferCodePrices: TypeID?
    let winBackOfferPrices: TypeID?
    let inAppPurchaseOfferPrices: TypeID?

    init(_ pool: ASCResourcePool) {
        subscriptionGroups = pool.type("subscriptionGroups")
        subscriptions = pool.type("subscriptions")
        subscriptionPrices = pool.type("subscriptionPrices")
        subscriptionPricePoints = pool.type("subscriptionPricePoints")
        subscriptionIntroductoryOffers = pool.type("subscriptionIntroductoryOffers")
        inAppPurchases = pool.type("inAppPurchases")
        inAppPurchasePriceSchedules = pool.type("inAppPurchasePriceSchedules")
        inAppPurchasePrices = pool.type("inAppPurchasePrices")
        inAppPurchasePricePoints = pool.type("inAppPurchasePricePoints")
        territories = pool.type("territories")
        automaticPricesRelationship = pool.relationship("automaticPrices")
        manualPricesRelationship = pool.relationship("manualPrices")
        baseTerritoryRelationship = pool.relationship("baseTerritory")
        apps = pool.type("apps")
        inAppPurchaseAvailabilities = pool.type("inAppPurchaseAvailabilities")
        subscriptionPlanAvailabilities = pool.type("subscriptionPlanAvailabilities")
        subscriptionAvailabilities = pool.type("subscriptionAvailabilities")
        promotionalOffers = pool.type("subscriptionPromotionalOffers")
        subscriptionOfferCodes = pool.type("subscriptionOfferCodes")
        winBackOffers = pool.type("winBackOffers")
        inAppPurchaseOfferCodes = pool.type("inAppPurchaseOfferCodes")
        promotionalOfferPrices = pool.type("subscriptionPromotionalOfferPrices")
        subscriptionOfferCodePrices = pool.type("subscriptionOfferCodePrices")
        winBackOfferPrices = pool.type("winBackOfferPrices")
        inAppPurchaseOfferPrices = pool.type("inAppPurchaseOfferPrices")
    }
}

/// Turns the pool into products, groups and remarks (prices in `ASCCatalogBuilder+Prices`, intro offers in
/// `ASCCatalogBuilder+IntroOffers`, attribute reading in `ASCCatalogBuilder+Attributes`).
struct ASCCatalogBuilder {
    let pool: ASCResourcePool
    let asOf: CalendarDate
    let types: ASCResourceTypes
    /// The kinds a snapshot's `.fetch.json` says fetch asked for (its `kinds` keys); empty for other input.
    let fetchedKinds: Set<String>
    /// The day a snapshot's `.fetch.json` says it was fetched (the price-point table's date); nil for other input.
    let fetchedOn: CalendarDate?

    /// Counters behind the catalog's remarks.
    struct Tally {
        var withoutProductID: [String: Int] = [:]
        var unresolvedRows = 0
        var partialOffers = 0
        /// Promotional, offer-code or win-back offers known only by reference or without their ID or mode.
        var partialOtherOffers = 0
        /// Offers for the monthly billing plan (`targetSubscriptionPlanType` MONTHLY), left out.
        var monthlyPlanOffers = 0
        /// Remarks about enum values this version does not know, in reading order.
        var unknownValues: [String] = []
        /// Price rows some product read, by node.
        var readRows: [Bool]

        /// Adds what `later`, a tally of products built after this one's, counted.
        mutating func add(_ later: Tally) {
            withoutProductID.merge(later.withoutProductID, uniquingKeysWith: +)
            unresolvedRows += later.unresolvedRows
            partialOffers += later.partialOffers
            partialOtherOffers += later.partialOtherOffers
            monthlyPlanOffers += later.monthlyPlanOffers
            unknownValues += later.unknownValues
            for (index, read) in later.readRows.enumerated() where read { readRows[index] = true }
        }
    }

    init(pool: ASCResourcePool, asOf: CalendarDate, fetchedKinds: Set<String> = [], fetchedOn: CalendarDate? = nil) {
        self.pool = pool
        self.asOf = asOf
        self.types = ASCResourceTypes(pool)
        self.fetchedKinds = fetchedKinds
        self.fetchedOn = fetchedOn
    }

    func catalog(path: String) throws(CatalogReadError) -> Catalog {
        var tally = Tally(readRows: Array(repeating: false, count: pool.nodes.count))
        var groups: [SubscriptionGroup] = []
        var groupNodes: Set<NodeID> = []
        for node in pool.definitionOrder where pool.identities.type(of: node) == types.subscriptionGroups {
            guard let name = try string(node, .referenceName) else { continue }
            groups.append(SubscriptionGroup(key: pool.id(of: node), name: name, location: pool.location(of: node)))
            groupNodes.insert(node)
        }

        let candidates = pool.definitionOrder.filter {
            let type = pool.identities.type(of: $0)
            return type == types.subscriptions || type == types.inAppPurchases
        }
        let built = try build(candidates, groups: groupNodes, tally: &tally)
        var products = built.products
        let productNodes = built.nodes
        var lookups = built.lookups

        var remarks: [String] = []
        for (type, count) in tally.withoutProductID.sorted(by: { $0.key < $1.key }) {
            remarks.append("\(count) \(type) resource(s) have no productId in the input and are not read as products")
        }
        if tally.unresolvedRows > 0 {
            remarks.append("\(tally.unresolvedRows) price row(s) have no territory or no price point with a "
                + "customerPrice in the input and were not read")
        }
        let orphans = pool.definitionOrder.filter {
            let type = pool.identities.type(of: $0)
            return (type == types.subscriptionPrices || type == types.inAppPurchasePrices) && !tally.readRows[Int($0.index)]
        }.count
        if orphans > 0 {
            remarks.append("\(orphans) price row(s) belong to no product in the input and were not read")
        }
        if tally.partialOffers > 0 {
            remarks.append("the introductory offers of \(tally.partialOffers) subscription(s) are only partly in the "
                + "input (offers without offerMode or duration); they are not compared")
        }
        if tally.partialOtherOffers > 0 {
            remarks.append("\(tally.partialOtherOffers) promotional, offer-code or win-back offer(s) are only partly in "
                + "the input (no attributes, no ID or no offerMode/duration); their products' offers are not compared")
        }
        if tally.monthlyPlanOffers > 0 {
            remarks.append("\(tally.monthlyPlanOffers) offer(s) for the monthly billing plan "
                + "(targetSubscriptionPlanType MONTHLY) are not read")
        }
        remarks += tally.unknownValues
        // Offers and billing plans are carried (or not) by the input as a whole (§5a.15): where carried, a
        // product without any has none ([]); where not, nobody knows (nil).
        let offerKinds = carriedOfferKinds(fetchedKinds: fetchedKinds)
        let plans = try carriesBillingPlans(fetchedKinds: fetchedKinds)
        for index in products.indices {
            let isSubscription = pool.identities.type(of: productNodes[index]) == types.subscriptions
            if offerKinds.isEmpty || (!isSubscription && !offerKinds.contains(.offerCode)) {
                products[index].offers = nil
            }
            if !plans || !isSubscription { products[index].billingPlans = nil }
        }
        var catalog = Catalog(path: path, format: .ascJSON, groups: groups, products: products,
                              capabilities: CatalogCapabilities(expressesGroups: true, offerKinds: offerKinds,
                                                                carriesBillingPlans: plans),
                              remarks: remarks)
        catalog.pricePoints = try pricePointTable(path: path, lookups: &lookups)
        // The app (`/v1/apps/{id}`): its bundle ID, for `app-mismatch`; the first app stating one.
        for node in pool.definitionOrder where pool.identities.type(of: node) == types.apps {
            guard let bundleID = try string(node, .bundleId), !bundleID.isEmpty else { continue }
            catalog.appID = bundleID
            catalog.appIDLocation = attributeLocation(node, .bundleId)
            break
        }
        return catalog
    }

    // MARK: Products

    /// Products built apart from each other are built on two cores: the later half of them on the second.
    private static let twoCoreMinimum = 64

    /// The products of `candidates` (subscriptions and in-app purchases, in reading order), with the nodes they
    /// were built from and the lookups made. Each product reads the pool alone, so from `twoCoreMinimum` on, the
    /// later half is built on the second core (`TwoCores`) with tallies and lookups of its own, joined after: the
    /// products, the tally's counts and remarks, and the first error are those of a build in reading order.
    private func build(_ candidates: [NodeID], groups: Set<NodeID>, tally: inout Tally)
        throws(CatalogReadError) -> (products: [Product], nodes: [NodeID], lookups: ASCLookups)
    {
        guard candidates.count >= Self.twoCoreMinimum else {
            var lookups = ASCLookups()
            let (products, nodes) = try build(candidates[...], groups: groups, lookups: &lookups, tally: &tally)
            return (products, nodes, lookups)
        }
        let middle = candidates.count / 2
        let builder = self
        let nodeCount = pool.nodes.count
        var lookups = ASCLookups()
        let (earlierHalf, laterHalf) = TwoCores.run({
            Result { () throws(CatalogReadError) in
                try build(candidates[..<middle], groups: groups, lookups: &lookups, tally: &tally)
            }
        }, alongside: {
            Result { () throws(CatalogReadError) in
                var lookups = ASCLookups()
                var tally = Tally(readRows: Array(repeating: false, count: nodeCount))
                let (products, nodes) = try builder.build(candidates[middle...], groups: groups, lookups: &lookups,
                                                          tally: &tally)
                return (products: products, nodes: nodes, tally: tally)
            }
        })
        var (products, nodes) = try earlierHalf.get()
        let later = try laterHalf.get()
        products += later.products
        nodes += later.nodes
        tally.add(later.tally)
        return (products, nodes, lookups)
    }

    /// The products of `candidates`, in order, with their nodes.
    private func build(_ candidates: ArraySlice<NodeID>, groups: Set<NodeID>, lookups: inout ASCLookups,
                       tally: inout Tally) throws(CatalogReadError) -> (products: [Product], nodes: [NodeID])
    {
        var products: [Product] = []
        var nodes: [NodeID] = []
        for node in candidates {
            let product = if pool.identities.type(of: node) == types.subscriptions {
                try subscription(node, groups: groups, lookups: &lookups, tally: &tally)
            } else {
                try inAppPurchase(node, lookups: &lookups, tally: &tally)
            }
            if let product {
                products.append(product)
                nodes.append(node)
            }
        }
        return (products, nodes)
    }

    private func subscription(_ node: NodeID, groups: Set<NodeID>, lookups: inout ASCLookups,
                              tally: inout Tally) throws(CatalogReadError) -> Product?
    {
        guard var product = try baseProduct(node, nameAttributes: [.name], tally: &tally) else { return nil }
        product.kind = .autoRenewable
        var fieldLocations = product.fieldLocations

        if let group = pool.linked(node, type: types.subscriptionGroups).first(where: { groups.contains($0.other) }) {
            product.groupKey = pool.id(of: group.other)
        }
        if let level = try int(node, .groupLevel) {
            guard level >= 1 else {
                throw error(node, .groupLevel, "\(level) is not a level (1 or more)")
            }
            product.level = level
            fieldLocations[.level] = attributeLocation(node, .groupLevel)
        }
        if let periodText = try string(node, .subscriptionPeriod) {
            guard let period = SubscriptionPeriod(storeText: periodText) else {
                throw error(node, .subscriptionPeriod,
                            "\(quotedForMessage(periodText)) is not a subscription period (ONE_WEEK … ONE_YEAR)")
            }
            product.period = period
            fieldLocations[.period] = attributeLocation(node, .subscriptionPeriod)
        }

        var rows: [ASCPriceRow] = []
        for link in pool.linked(node, type: types.subscriptionPrices) {
            if let row = try priceRow(link.other, pointType: types.subscriptionPricePoints, manual: nil,
                                      lookups: &lookups, tally: &tally) {
                rows.append(row)
            }
        }
        // MONTHLY rows are the monthly billing plan's amount, never the subscription's price.
        let upfront = rows.filter { !$0.monthly }
        (product.prices, product.uncomparedPrices, _) = try select(upfront)
        product.recordedPriceChanges = recordedChanges(upfront)
        product.billingPlans = try billingPlans(of: node, monthlyRows: rows.filter(\.monthly))
        if let first = product.prices.values.min(by: { $0.territory < $1.territory }), let location = first.location {
            fieldLocations[.price] = location
        }
        product.fieldLocations = fieldLocations
        limitPrices(of: &product, to: try availableTerritories(of: node))
        fieldLocations = product.fieldLocations

        product.introOffers = try introOffers(of: node, lookups: &lookups, tally: &tally)
        product.offers = try offers(of: node, from: subscriptionOfferSources, lookups: &lookups, tally: &tally)
        if let location = product.introOffers?.first?.location { fieldLocations[.introOffer] = location }
        product.fieldLocations = fieldLocations
        return product
    }

    private func inAppPurchase(_ node: NodeID, lookups: inout ASCLookups, tally: inout Tally)
        throws(CatalogReadError) -> Product?
    {
        // `name` in InAppPurchaseV2, `referenceName` in the deprecated v1 resource.
        guard var product = try baseProduct(node, nameAttributes: [.name, .referenceName], tally: &tally)
        else { return nil }
        if let typeText = try string(node, .inAppPurchaseType) {
            switch typeText {
            case "CONSUMABLE": product.kind = .consumable
            case "NON_CONSUMABLE": product.kind = .nonConsumable
            case "NON_RENEWING_SUBSCRIPTION": product.kind = .nonRenewing
            case "AUTOMATICALLY_RENEWABLE_SUBSCRIPTION": product.kind = .autoRenewable
            case "FREE_SUBSCRIPTION": product.kind = nil  // legacy Newsstand type; no canonical kind
            default:
                // A type Apple added after this version: read the product, leave its type unknown.
                tally.unknownValues.append(unknownValue(node, .inAppPurchaseType, typeText, of: product,
                                                        consequence: "its type is not compared"))
            }
            if product.kind != nil || typeText == "FREE_SUBSCRIPTION" {
                product.fieldLocations[.type] = attributeLocation(node, .inAppPurchaseType)
            }
        }

        // inAppPurchases → price schedule → manualPrices / automaticPrices; rows linked straight to the
        // purchase are read too.
        var rowLinks: [ASCLink] = []
        for schedule in pool.linked(node, type: types.inAppPurchasePriceSchedules) {
            rowLinks += pool.linked(schedule.other, type: types.inAppPurchasePrices).filter(\.isChild)
            // The schedule's `baseTerritory` (fetch asks `include=baseTerritory`): where the price is set by hand.
            if let base = types.baseTerritoryRelationship,
               let link = pool.linked(schedule.other, type: types.territories)
                   .first(where: { $0.isChild && $0.relationship == base }) {
                let code = pool.id(of: link.other)
                guard let territory = Territory(code: code) else {
                    throw CatalogReadError("the price schedule's baseTerritory \(quotedForMessage(code)) is not an "
                                           + "ISO 3166-1 territory code", at: pool.location(of: schedule.other))
                }
                product.priceBaseTerritory = territory
            }
        }
        rowLinks += pool.linked(node, type: types.inAppPurchasePrices)
        var rows: [ASCPriceRow] = []
        var seen: Set<NodeID> = []
        seen.reserveCapacity(rowLinks.count)
        for link in rowLinks where seen.insert(link.other).inserted {
            // The relationship states the origin (`manualPrices` / `automaticPrices`); a row linked otherwise
            // states it only through its `manual` attribute.
            let automatic = types.automaticPricesRelationship.map { link.relationship == $0 } ?? false
            let manual = types.manualPricesRelationship.map { link.relationship == $0 } ?? false
            if let row = try priceRow(link.other, pointType: types.inAppPurchasePricePoints,
                                      manual: automatic ? false : manual ? true : nil,
                                      lookups: &lookups, tally: &tally) {
                rows.append(row)
            }
        }
        (product.prices, product.uncomparedPrices, product.priceOrigins) = try select(rows.filter { !$0.monthly },
                                                                                       product: product.id.rawValue)
        if let first = product.prices.values.min(by: { $0.territory < $1.territory }), let location = first.location {
            product.fieldLocations[.price] = location
        }
        limitPrices(of: &product, to: try availableTerritories(of: node))
        product.offers = try offers(of: node, from: inAppPurchaseOfferSources, lookups: &lookups, tally: &tally)
        return product
    }

    /// What subscriptions and in-app purchases share: ID, reference name, family sharing, availability.
    private func baseProduct(_ node: NodeID, nameAttributes: [ASCAttributeName], tally: inout Tally)
        throws(CatalogReadError) -> Product?
    {
        guard let id = try string(node, .productId), !id.isEmpty else {
            tally.withoutProductID[pool.typeName(of: node), default: 0] += 1
            return nil
        }
        var product = Product(id: ProductID(id), location: pool.location(of: node))
        product.fieldLocations[.id] = attributeLocation(node, .productId)
        for name in nameAttributes {
            if let text = try string(node, name) {
                product.referenceName = text
                product.fieldLocations[.name] = attributeLocation(node, name)
                break
            }
        }
        if let shareable = try bool(node, .familySharable) {
            product.familyShareable = shareable
            product.fieldLocations[.familyShareable] = attributeLocation(node, .familySharable)
        }
        if let state = try string(node, .state) {
            switch state {
            case "REMOVED_FROM_SALE", "DEVELOPER_REMOVED_FROM_SALE": product.clearedForSale = false
            case "APPROVED": product.clearedForSale = true
            default:
                product.clearedForSale = nil
                if !Self.knownStates.contains(state) {
                    tally.unknownValues.append(unknownValue(node, .state, state, of: product,
                                                            consequence: "its availability is not compared"))
                }
            }
            if product.clearedForSale != nil {
                product.fieldLocations[.clearedForSale] = attributeLocation(node, .state)
            }
        }
        return product
    }

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
    private func unknownValue(_ node: NodeID, _ name: ASCAttributeName, _ value: String, of product: Product,
                              consequence: String) -> String {
        "\(pool.typeName(of: node)) \(product.id.rawValue) has \(name.rawValue) \(quotedForMessage(value)), not "
            + "known to this version; \(consequence)"
    }
}
