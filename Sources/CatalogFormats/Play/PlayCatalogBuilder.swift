import CatalogCore
import Foundation

/// Collects the resources of one or more Play Developer API documents into a catalog. Offers are gathered
/// separately and attached to their base plans at the end, because a `Subscription` does not embed its offers
/// and an offers document may come before or after the subscriptions it refers to.
struct PlayCatalogBuilder {
    /// The package name, from the first resource that states one.
    var appID: String?
    /// One group per subscription (key = name = the subscription's product ID).
    var groups: [SubscriptionGroup] = []
    /// Products in reading order.
    var products: [Product] = []
    /// Remarks about what was assumed or left out.
    var remarks: [String] = []
    /// Product indices of base plans by `subscriptionId:basePlanId` (an ID may occur twice).
    var basePlanIndices: [String: [Int]] = [:]
    /// Active subscription offers, in reading order.
    var offers: [PlayOffer] = []
    /// `subscriptionId:basePlanId` of base plans with an offer this version cannot read (an unknown offer
    /// `state` or phase pricing): their intro offers stay unknown.
    var unreadableOfferPlans: Set<String> = []
    /// Whether any offers document or single offer was read (or fetch asked for them): then every base plan
    /// carries offers (`[]` or some).
    var carriesOffers = false
    /// Every offer read in full (subscription and one-time offers), in reading order, for `Product.offers`.
    var fullOffers: [PlayFullOffer] = []
    /// Whether any one-time offer was read (or fetch asked for them): then every one-time product of the 2025
    /// model carries offers.
    var carriesOneTimeOffers = false
    /// Whether any one-time product of the 2025 model was read (or fetch asked for them): the input carries
    /// purchase options.
    var carriesPurchaseOptions = false
    /// Product indices of `monetization.onetimeproducts` products by product ID (an ID may occur twice).
    var oneTimeProductIndices: [String: [Int]] = [:]
    /// Each subscription's backward-compatible base plan (`legacyCompatible: true`) by subscription ID.
    var backwardCompatiblePlans: [ProductID: ProductID] = [:]
    /// Whether any document was a Play resource, a list of them, or states a Play `kind`: an input of nothing
    /// but empty objects carries no mark of the format (DESIGN.md §2) and is not read as an empty catalog.
    var sawPlayMarks = false

    /// Adds every resource of one parsed document, detecting its shape by its keys.
    mutating func add(_ document: JSONDocument) throws(CatalogReadError) {
        let context = JSONAccess(document: document)
        let root = JSONNode(root: document.root)
        guard let members = root.value.members else {
            throw context.error("expected a Play Developer API resource (a JSON object), found \(root.value.typeName)",
                                at: root)
        }
        var sawList = false
        for list in Self.lists {
            guard let items = try context.objects(list, in: root) else { continue }
            sawList = true
            beginList(list)
            for item in items { try addListItem(item, of: list, in: context) }
        }
        if sawList {
            sawPlayMarks = true
            return
        }

        let keys = Set(members.map(\.key))
        sawPlayMarks = sawPlayMarks || keys.contains("sku") || keys.contains("offerId") || keys.contains("phases")
            || keys.contains("purchaseOptions") || keys.contains("basePlans") || keys.contains("productId")
            || (root.value["kind"]?.string?.hasPrefix("androidpublisher#") ?? false)
        if keys.contains("sku") {
            try addInAppProduct(root, in: context)
        } else if keys.contains("purchaseOptionId"), !keys.contains("basePlanId") {
            // A one-time product's offer: it names its purchase option, never a base plan.
            try addOneTimeOffer(root, in: context)
        } else if keys.contains("offerId") || keys.contains("phases") {
            carriesOffers = true
            try addOffer(root, in: context)
        } else if keys.contains("purchaseOptions") {
            try addOneTimeProduct(root, in: context)
        } else if keys.contains("basePlans") || keys.contains("productId") {
            // A subscription, or a bare `{"packageName", "productId"}` as gradle-play-publisher bootstraps it.
            try addSubscription(root, in: context)
        } else if keys.isSubset(of: ["kind", "nextPageToken", "tokenPagination", "pageInfo"]) {
            // An empty list response: Google leaves out an empty list entirely (`{}`). It is read when another
            // document of the input, or its `kind`, says the input is Play's (`sawPlayMarks`).
            return
        } else if keys == ["regionsVersion"] {
            throw context.error("this is a gradle-play-publisher metadata sidecar (*.metadata.json), not a product; "
                                + "read the folder that holds it instead", at: root)
        } else {
            throw context.error("not a Play Developer API catalog resource: expected a list response "
                                + "(\"subscriptions\", \"subscriptionOffers\", \"inappproduct\", \"oneTimeProducts\", "
                                + "\"oneTimeProductOffers\") or a single subscription, subscription offer, in-app "
                                + "product, one-time product or one-time offer; "
                                + "found keys \(keys.sorted().map { "\"\($0)\"" }.joined(separator: ", "))", at: root)
        }
    }

    /// The lists of Play's list responses, in the order `add(_:)` reads them.
    private static let lists = ["subscriptions", "subscriptionOffers", "inappproduct", "oneTimeProducts",
                                "oneTimeProductOffers"]

    /// Adds every resource of a file's bytes, as `add(_:)` does. A list response's list is parsed and added one
    /// resource at a time (`JSONDocument.forEachMember`), so that the tape of a big list is never held whole; any
    /// other document — a single resource, a list that is not an array, lists in another order than `add(_:)`
    /// reads them — is parsed whole and read by `add(_:)`.
    mutating func add(fileBytes data: Data, path: String) throws(CatalogReadError) {
        let (utf8, isASCII) = try TextEncoding.utf8Text(data, path: path)
        let source = SourceText(path: path, bytes: utf8, isASCII: isASCII)
        let before = self
        var list: (name: String, rank: Int, count: Int)?
        var readWhole = false
        let split = JSONTapeParser.Split(keys: Self.lists, container: .array)
        let topLevel = try JSONDocument.forEachMember(in: source, splitting: split) { event throws(CatalogReadError) in
            guard !readWhole else { return }
            switch event {
            case .member(let key, _, _):
                // A list that is not an array (an error, or null: none) is `add(_:)`'s to read.
                readWhole = Self.lists.contains(key)
            case .splitBegins(let key, _, _):
                guard let rank = Self.lists.firstIndex(of: key), rank > list?.rank ?? -1 else {
                    readWhole = true
                    return
                }
                list = (key, rank, 0)
                beginList(key)
            case .splitElement(let element):
                guard let current = list else { return }
                let item = JSONNode(element: current.count, ofRootMember: current.name, element.root)
                list?.count += 1
                let context = JSONAccess(document: element)
                try context.requireObject(item)
                try addListItem(item, of: current.name, in: context)
            case .splitMember, .splitEnds:
                break
            }
        }
        guard readWhole || list == nil else {
            sawPlayMarks = true
            return
        }
        self = before
        switch topLevel {
        case .document(let document): try add(document)
        case .object: try add(JSONDocument(utf8: source.bytes, path: path))
        }
    }

    /// A list of a list response begins (empty or not).
    private mutating func beginList(_ list: String) {
        switch list {
        case "subscriptionOffers": carriesOffers = true
        case "oneTimeProductOffers": carriesOneTimeOffers = true
        default: break
        }
    }

    /// Adds one resource of a list response's `list`.
    private mutating func addListItem(_ item: JSONNode, of list: String, in context: JSONAccess) throws(CatalogReadError) {
        switch list {
        case "subscriptions": try addSubscription(item, in: context)
        case "subscriptionOffers": try addOffer(item, in: context)
        case "inappproduct": try addInAppProduct(item, in: context)
        case "oneTimeProducts": try addOneTimeProduct(item, in: context)
        default: try addOneTimeOffer(item, in: context)
        }
    }

    /// Records the package name the first time one is stated.
    mutating func noteApp(_ packageName: (text: String, node: JSONNode)?) {
        if appID == nil, let packageName, !packageName.text.isEmpty { appID = packageName.text }
    }

    /// Adds the group of a subscription once.
    mutating func noteGroup(_ key: String, location: SourceLocation) {
        guard !groups.contains(where: { $0.key == key }) else { return }
        groups.append(SubscriptionGroup(key: key, name: key, location: location))
    }

    /// Appends a product; returns its index.
    @discardableResult
    mutating func append(_ product: Product) -> Int {
        products.append(product)
        return products.count - 1
    }

    /// Adds a remark.
    mutating func remark(_ text: String) {
        remarks.append(text)
    }

    /// Adds the remark for an enum value this version does not know: `<path>: <subject> has <key> "<value>", not
    /// known to this version; <consequence>`.
    mutating func remarkUnknown(_ key: String, _ value: String, of subject: String, in context: JSONAccess,
                                consequence: String) {
        remark("\(context.document.path): \(subject) has \(key) \(quotedForMessage(value)), not known to this version; "
               + consequence)
    }

    /// Notes the kinds a `fetch` snapshot's `.fetch.json` says were asked for (its `kinds` keys): a kind asked
    /// for is carried even when the store had none of it, so an absent offer is missing (DESIGN.md §5a.15).
    mutating func noteFetched(kinds: Set<String>) {
        if kinds.contains("subscriptionOffers") { carriesOffers = true }
        if kinds.contains("oneTimeProductOffers") { carriesOneTimeOffers = true }
        if kinds.contains("oneTimeProducts") { carriesPurchaseOptions = true }
    }

    /// Attaches offers to base plans and one-time products and returns the catalog.
    mutating func finish(path: String) -> Catalog {
        attachOffers()
        attachFullOffers()
        let capabilities = CatalogCapabilities(expressesGroups: false,
                                               offerKinds: carriesOffers || carriesOneTimeOffers ? [.play] : [],
                                               carriesPurchaseOptions: carriesPurchaseOptions)
        var catalog = Catalog(path: path, format: .playJSON, appID: appID, groups: groups, products: products,
                              capabilities: capabilities, remarks: remarks)
        catalog.backwardCompatiblePlans = backwardCompatiblePlans
        return catalog
    }
}
