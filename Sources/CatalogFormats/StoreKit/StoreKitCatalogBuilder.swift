import CatalogCore
import Foundation

/// The three places a `.storekit` file lists products, each with the `type` values it may hold.
enum StoreKitSection: CaseIterable {
    case products
    case nonRenewingSubscriptions
    case subscriptions

    /// The top-level key of the section (subscriptions are listed inside `subscriptionGroups`).
    var key: String {
        switch self {
        case .products: "products"
        case .nonRenewingSubscriptions: "nonRenewingSubscriptions"
        case .subscriptions: "subscriptionGroups"
        }
    }

    /// The kind when the record has no `type`.
    var defaultKind: ProductKind? {
        switch self {
        case .products: nil
        case .nonRenewingSubscriptions: .nonRenewing
        case .subscriptions: .autoRenewable
        }
    }

    /// The `type` values allowed in this section and the kinds they mean.
    var kinds: [(text: String, kind: ProductKind)] {
        switch self {
        case .products: [("Consumable", .consumable), ("NonConsumable", .nonConsumable)]
        case .nonRenewingSubscriptions: [("NonRenewingSubscription", .nonRenewing)]
        case .subscriptions: [("RecurringSubscription", .autoRenewable)]
        }
    }
}

/// The three lists of a subscription's offers other than the introductory one (FORMATS.md "Offers, purchase
/// options and billing plans").
enum StoreKitOfferSection: CaseIterable {
    case promotional
    case offerCode
    case winBack

    /// The subscription's key for the list.
    var key: String {
        switch self {
        case .promotional: "adHocOffers"
        case .offerCode: "codeOffers"
        case .winBack: "winbackOffers"
        }
    }

    /// The member that identifies an offer (§5a.15): promotional and win-back offers their offer ID, offer codes
    /// their reference name (App Store Connect's offer code `name`).
    var idKey: String {
        switch self {
        case .promotional, .winBack: "offerID"
        case .offerCode: "referenceName"
        }
    }

    /// The kind of offer the list holds.
    var kind: Offer.Kind {
        switch self {
        case .promotional: .promotional
        case .offerCode: .offerCode
        case .winBack: .winBack
        }
    }
}

/// One pass over a parsed `.storekit` document, through `JSONAccess`: every error names the key path, quotes the
/// offending value and gives its line and column.
struct StoreKitCatalogBuilder {
    let access: JSONAccess
    /// The day the prices are read for: a storefront's currency is the one it uses that day (BG: BGN before
    /// 2026-01-01).
    let asOf: CalendarDate

    init(document: JSONDocument, asOf: CalendarDate) {
        access = JSONAccess(document: document, wording: .quoted)
        self.asOf = asOf
    }

    func catalog() throws(CatalogReadError) -> Catalog {
        let document = access.document
        let root = access.root
        guard let members = root.value.members else {
            throw access.error(
                "not a StoreKit configuration: the top level is \(root.value.typeName), expected an object", at: root)
        }
        // The marks of the format (DESIGN.md §2): `{}`, or a Play or App Store Connect document renamed
        // `.storekit`, must not read as an empty catalog that a gate then compares.
        guard StoreKitSection.allCases.contains(where: { access.member($0.key, in: root) != nil }) else {
            let sections = StoreKitSection.allCases.map { "\"\($0.key)\"" }.joined(separator: ", ")
            throw access.error("not a StoreKit configuration: the top-level object has none of the arrays "
                               + "\(sections) (\(describeKeysFound(members.map(\.key))))", at: root)
        }
        let (storefront, storefrontRemark) = try self.storefront(root)
        guard let currency = storefront.appStoreCurrency(on: asOf) else {
            throw CatalogReadError("no App Store currency is known for storefront \(storefront.alpha3)",
                                   at: document.location(of: root.value["settings"]?["_storefront"] ?? root.value))
        }
        let pricing = Pricing(territory: storefront, currency: currency)

        var products: [Product] = []
        // The offer kinds the file states (§5a.15): a subscription holding the kind's key, `[]` included.
        var statedKinds: Set<Offer.Kind> = []
        for element in try access.array("products", in: root) ?? [] {
            products.append(try product(element, section: .products, pricing: pricing, statedKinds: &statedKinds))
        }
        for element in try access.array("nonRenewingSubscriptions", in: root) ?? [] {
            products.append(try product(element, section: .nonRenewingSubscriptions, pricing: pricing,
                                        statedKinds: &statedKinds))
        }
        var groups: [SubscriptionGroup] = []
        var remarks = storefrontRemark.map { [$0] } ?? []
        // Every entry's own key is known before any is given, so a derived key never takes another's.
        var entries: [(node: JSONNode, name: String?, ownKey: String, keyedBy: String)] = []
        var groupKeys = GroupKeys()
        for groupNode in try access.array("subscriptionGroups", in: root) ?? [] {
            try access.requireObject(groupNode)
            let id = try nonEmptyString("id", in: groupNode)
            let name = try nonEmptyString("name", in: groupNode)
            guard let ownKey = id ?? name else {
                throw access.error("the group has neither an \"id\" nor a \"name\"", at: groupNode)
            }
            groupKeys.reserve(ownKey)
            entries.append((groupNode, name, ownKey, id == nil ? "name" : "id"))
        }
        for (groupNode, name, ownKey, keyedBy) in entries {
            // A subscription's group is the entry that holds it (FORMATS.md): entries copied by hand keep the
            // `id` of the one they were copied from, and must not merge with it.
            let key = groupKeys.key(for: ownKey)
            if key != ownKey {
                remarks.append("\(groupNode.path) repeats the \(keyedBy) \(quotedForMessage(ownKey)) of an earlier "
                               + "group; it is a group of its own, keyed \(quotedForMessage(key))")
            }
            groups.append(SubscriptionGroup(key: key, name: name ?? ownKey, location: access.location(of: groupNode)))
            for element in try access.array("subscriptions", in: groupNode) ?? [] {
                var subscription = try product(element, section: .subscriptions, pricing: pricing,
                                               statedKinds: &statedKinds)
                subscription.groupKey = key
                products.append(subscription)
            }
        }

        return Catalog(
            path: document.path,
            format: .storekit,
            baseTerritory: storefront,
            groups: groups,
            products: products,
            capabilities: CatalogCapabilities(
                expressesGroups: true, priceableTerritories: [storefront], singleStorefront: storefront,
                offerKinds: statedKinds,
                carriesBillingPlans: products.contains { $0.billingPlans != nil }),
            remarks: remarks)
    }

    /// The storefront every price is for, and a remark when it was assumed.
    private func storefront(_ root: JSONNode) throws(CatalogReadError) -> (Territory, String?) {
        let assumed = "settings._storefront is not set; prices are read as United States (USA) prices, Xcode's default"
        guard let settings = access.member("settings", in: root) else { return (.unitedStates, assumed) }
        try access.requireObject(settings)
        guard let code = try access.string("_storefront", in: settings), !code.text.isEmpty else {
            return (.unitedStates, assumed)
        }
        guard let territory = Territory(code: code.text) else {
            throw access.error("\(quotedForMessage(code.text)) is not a known App Store storefront", at: code.node)
        }
        return (territory, nil)
    }

    /// One product record of any section; a subscription adds the offer kinds whose keys it holds to
    /// `statedKinds`.
    private func product(_ node: JSONNode, section: StoreKitSection, pricing: Pricing,
                         statedKinds: inout Set<Offer.Kind>) throws(CatalogReadError) -> Product
    {
        try access.requireObject(node)
        var fieldLocations: [ProductField: SourceLocation] = [:]
        func note(_ field: ProductField, _ member: JSONNode?) {
            if let member { fieldLocations[field] = access.location(of: member) }
        }

        guard let id = try access.string("productID", in: node) else {
            throw access.error("the product has no \"productID\"", at: node)
        }
        guard !id.text.isEmpty else { throw isEmpty(id.node) }
        note(.id, id.node)

        var kind = section.defaultKind
        if let type = try access.string("type", in: node) {
            guard let match = section.kinds.first(where: { $0.text == type.text }) else {
                let allowed = section.kinds.map { quotedForMessage($0.text) }.joined(separator: " or ")
                throw access.error("\(quotedForMessage(type.text)) is not \(allowed)", at: type.node)
            }
            kind = match.kind
            note(.type, type.node)
        }

        var product = Product(id: ProductID(id.text), kind: kind, location: access.location(of: node))
        let referenceName = try access.string("referenceName", in: node)
        product.referenceName = referenceName?.text
        note(.name, referenceName?.node)
        product.familyShareable = try access.bool("familyShareable", in: node)
        note(.familyShareable, access.member("familyShareable", in: node))

        if let price = access.member("displayPrice", in: node), !isNotSet(price) {
            let money = try amount(price, pricing: pricing)
            product.prices[pricing.territory] = Price(territory: pricing.territory, money: money,
                                                      location: access.location(of: price))
            note(.price, price)
        }

        if section == .subscriptions {
            if let level = try access.wholeNumber("groupNumber", in: node) {
                guard level.value >= 1 else {
                    throw access.error("\(level.value) is not a level (1 or more)", at: level.node)
                }
                product.level = level.value
                note(.level, level.node)
            }
            if let periodText = try access.string("recurringSubscriptionPeriod", in: node) {
                guard let period = SubscriptionPeriod(iso: periodText.text) else {
                    throw access.error("\(quotedForMessage(periodText.text)) is not an ISO 8601 period",
                                       at: periodText.node)
                }
                product.period = period
                note(.period, periodText.node)
            }
            note(.group, access.member("subscriptionGroupID", in: node))
            product.introOffers = try introOffers(of: node, pricing: pricing)
            if let offer = product.introOffers?.first, let location = offer.location {
                fieldLocations[.introOffer] = location
            }
            let offers = try self.offers(of: node, pricing: pricing, statedKinds: &statedKinds)
            product.offers = offers
            product.billingPlans = try billingPlans(of: node, pricing: pricing)
            // The first of two offers with one key, like the first of two products with one ID, locates it.
            for offer in offers where fieldLocations[offer.key.field] == nil {
                fieldLocations[offer.key.field] = offer.location
            }
            for plan in product.billingPlans ?? [] where fieldLocations[plan.field] == nil {
                fieldLocations[plan.field] = plan.location
            }
        }
        product.fieldLocations = fieldLocations
        return product
    }

    /// `introductoryOffers[0]`, else `introductoryOffer`; `[]` when neither holds an offer.
    private func introOffers(of subscription: JSONNode, pricing: Pricing) throws(CatalogReadError) -> [IntroOffer] {
        if let first = try access.array("introductoryOffers", in: subscription)?.first {
            return [try introOffer(first, pricing: pricing)]
        }
        if let single = access.member("introductoryOffer", in: subscription) {
            return [try introOffer(single, pricing: pricing)]
        }
        return []
    }

    private func introOffer(_ node: JSONNode, pricing: Pricing) throws(CatalogReadError) -> IntroOffer {
        let terms = try offerTerms(node, defaultPeriods: 1)
        // A free trial has no price; Xcode omits displayPrice for it.
        var price: Money?
        if terms.mode != .freeTrial {
            price = try optionalAmount(access.member("displayPrice", in: node), pricing: pricing)
        }
        return IntroOffer(mode: terms.mode, period: terms.period, periods: terms.periods ?? 1, price: price,
                          location: access.location(of: node))
    }

    /// The promotional offers (`adHocOffers`), offer codes (`codeOffers`) and win-back offers (`winbackOffers`,
    /// file 4.0+) of a subscription, in that order; `[]` when it has none. Each list's key, even `[]`, states
    /// its kind (§5a.15): an absent offer of a stated kind is missing, not uncompared.
    private func offers(of subscription: JSONNode, pricing: Pricing, statedKinds: inout Set<Offer.Kind>)
        throws(CatalogReadError) -> [Offer]
    {
        var offers: [Offer] = []
        for section in StoreKitOfferSection.allCases {
            guard let list = try access.array(section.key, in: subscription) else { continue }
            statedKinds.insert(section.kind)
            for element in list {
                offers.append(try offer(element, section: section, pricing: pricing))
            }
        }
        return offers
    }

    /// One offer of `adHocOffers`, `codeOffers` or `winbackOffers`: one phase, no state (a StoreKit file states
    /// none), `billingPlanType` (5.0) not read: the config names no plan for an offer.
    private func offer(_ node: JSONNode, section: StoreKitOfferSection, pricing: Pricing)
        throws(CatalogReadError) -> Offer
    {
        try access.requireObject(node)
        // The ID is the offer's identity (DESIGN.md §5a.15): an offer without one can never be matched.
        guard let id = try access.string(section.idKey, in: node) else {
            throw access.error("the offer has no \"\(section.idKey)\"", at: node)
        }
        guard !id.text.isEmpty else { throw isEmpty(id.node) }
        // Win-back offers gain `numberOfPeriods` in file 5.0: absent there means not stated (never compared),
        // where promotional offers and offer codes have always meant 1 by its absence (FORMATS.md).
        let terms = try offerTerms(node, defaultPeriods: section == .winBack ? nil : 1)
        // Every price the file states is read, a free offer's too: a free offer with a price is a finding of
        // its own (`offer-free-with-price`), not something to hide. Win-back offers carry a `displayPrice` when
        // Xcode synced the file from App Store Connect (DESIGN.md §5a.15), compared like any offer price; a
        // file without one states none.
        var prices: [Territory: Money] = [:]
        if let money = try optionalAmount(access.member("displayPrice", in: node), pricing: pricing) {
            prices[pricing.territory] = money
        }
        let location = access.location(of: node)
        let phase = OfferPhase(mode: terms.mode, period: terms.period, periods: terms.periods, prices: prices,
                               location: location)
        var eligibility: OfferEligibility?
        if section == .offerCode {
            let customers = try customerWords(access.member("eligibility", in: node))
            let stackable = try access.bool("isStackable", in: node)
            if customers != nil || stackable != nil {
                eligibility = OfferEligibility(customers: customers, stackable: stackable)
            }
        }
        return Offer(kind: section.kind, id: id.text, phases: [phase], eligibility: eligibility, location: location)
    }

    /// `codeOffers[].eligibility`: the customer kinds an offer code is for, Xcode's words `new`, `existing` and
    /// `expired` (the config's words too).
    private func customerWords(_ node: JSONNode?) throws(CatalogReadError) -> Set<String>? {
        guard let node else { return nil }
        var words: Set<String> = []
        for element in try access.elements(of: node) {
            guard let word = element.value.string else {
                throw access.error("expected a string, found \(access.describe(element.value))", at: element)
            }
            guard Self.customerWords.contains(word) else {
                throw access.error("\(quotedForMessage(word)) is not \"new\", \"existing\" or \"expired\"",
                                   at: element)
            }
            words.insert(word)
        }
        return words
    }

    private static let customerWords: Set<String> = ["new", "existing", "expired"]

    /// A subscription's `billingPlans` (file 5.0): nil when the key is absent, so an older file is never
    /// compared on plans; `[]` when the file states that there is none.
    private func billingPlans(of subscription: JSONNode, pricing: Pricing) throws(CatalogReadError)
        -> [BillingPlan]?
    {
        guard let list = try access.array("billingPlans", in: subscription) else { return nil }
        var plans: [BillingPlan] = []
        for element in list {
            plans.append(try billingPlan(element, pricing: pricing))
        }
        return plans
    }

    /// One billing plan: `BILLED_UPFRONT` (the subscription's own price) or `MONTHLY` (billed monthly for a
    /// 12-month commitment; `commitmentDisplayPrice` is what the whole commitment costs).
    private func billingPlan(_ node: JSONNode, pricing: Pricing) throws(CatalogReadError) -> BillingPlan {
        try access.requireObject(node)
        // The two words Apple has: App Store Server API `billingPlanType`
        // (developer.apple.com/documentation/appstoreserverapi/billingplantype), StoreKit's
        // `Product.SubscriptionInfo.BillingPlanType` (`upFront`, `monthly`).
        let type = try word("billingPlanType", in: node, of: "billing plan",
                            [("BILLED_UPFRONT", BillingPlan.PlanType.upfront), ("MONTHLY", .monthly)])
        var plan = BillingPlan(type: type, isEnabled: try access.bool("isEnabled", in: node),
                               location: access.location(of: node))
        if let money = try optionalAmount(access.member("displayPrice", in: node), pricing: pricing) {
            plan.prices[pricing.territory] = money
        }
        if let money = try optionalAmount(access.member("commitmentDisplayPrice", in: node), pricing: pricing) {
            plan.commitmentPrices[pricing.territory] = money
        }
        return plan
    }

    /// What every StoreKit offer states alike: the payment mode, one period's duration and how many periods
    /// (`numberOfPeriods`, else `defaultPeriods`).
    private func offerTerms(_ node: JSONNode, defaultPeriods: Int?) throws(CatalogReadError)
        -> (mode: IntroOffer.Mode, period: SubscriptionPeriod, periods: Int?)
    {
        try access.requireObject(node)
        let mode = try word("paymentMode", in: node, of: "offer",
                            [("free", IntroOffer.Mode.freeTrial), ("payAsYouGo", .payAsYouGo), ("payUpFront", .payUpFront)])
        guard let periodText = try access.string("subscriptionPeriod", in: node) else {
            throw access.error("the offer has no \"subscriptionPeriod\"", at: node)
        }
        guard let period = SubscriptionPeriod(iso: periodText.text) else {
            throw access.error("\(quotedForMessage(periodText.text)) is not an ISO 8601 period", at: periodText.node)
        }
        let stated = try access.wholeNumber("numberOfPeriods", in: node)
        if let stated, !(1...IntroOffer.maximumPeriods).contains(stated.value) {
            throw access.error("\(stated.value) is not a count of periods (1 … \(IntroOffer.maximumPeriods))",
                               at: stated.node)
        }
        return (mode, period, stated?.value ?? defaultPeriods)
    }

    /// `displayPrice: ""`: what Xcode writes for a price never set (FORMATS.md "StoreKit"), so no price rather
    /// than a malformed one.
    private func isNotSet(_ node: JSONNode) -> Bool {
        node.value.string?.isEmpty ?? false
    }

    /// `<key path> is empty`: a string that must say something and is `""`.
    private func isEmpty(_ node: JSONNode) -> CatalogReadError {
        CatalogReadError("\(node.path) is empty", at: access.location(of: node))
    }

    /// A `displayPrice`-like amount: a decimal in a string, in the storefront's currency.
    private func amount(_ node: JSONNode, pricing: Pricing) throws(CatalogReadError) -> Money {
        guard let text = node.value.string else {
            throw access.error("expected a string, found \(access.describe(node.value))", at: node)
        }
        guard let amount = Money.parseAmount(text) else {
            throw access.error("\(quotedForMessage(text)) is not a decimal amount", at: node)
        }
        return Money(amount: amount, currency: pricing.currency)
    }

    /// A `displayPrice`-like member: nil when absent, null or `""` (never set).
    private func optionalAmount(_ node: JSONNode?, pricing: Pricing) throws(CatalogReadError) -> Money? {
        guard let node, !isNotSet(node) else { return nil }
        return try amount(node, pricing: pricing)
    }

    /// A required member whose text is one of `words`, as the value its word stands for; `what` names the record
    /// in the message when the member is absent.
    private func word<Value>(_ key: String, in record: JSONNode, of what: String,
                             _ words: [(text: String, value: Value)]) throws(CatalogReadError) -> Value
    {
        guard let found = try access.string(key, in: record) else {
            throw access.error("the \(what) has no \"\(key)\"", at: record)
        }
        guard let match = words.first(where: { $0.text == found.text }) else {
            let quoted = words.map { quotedForMessage($0.text) }
            let allowed = quoted.count > 1
                ? quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "") : quoted.joined()
            throw access.error("\(quotedForMessage(found.text)) is not \(allowed)", at: found.node)
        }
        return match.value
    }

    /// A string member where an empty one means the same as none.
    private func nonEmptyString(_ key: String, in node: JSONNode) throws(CatalogReadError) -> String? {
        guard let found = try access.string(key, in: node), !found.text.isEmpty else { return nil }
        return found.text
    }
}

/// Gives every `subscriptionGroups[]` entry a key of its own: its `id` (else its `name`) the first time, then
/// `<id>-2`, `<id>-3`, … skipping any key another entry holds. Each own key remembers the next number to try,
/// so many copies of one `id` cost time linear in their count.
struct GroupKeys {
    private var reserved: Set<String> = []
    private var given: Set<String> = []
    private var nextNumber: [String: Int] = [:]

    /// Notes an entry's own key before any key is given.
    mutating func reserve(_ key: String) { reserved.insert(key) }

    /// The key of the next entry whose own key is `key`.
    mutating func key(for key: String) -> String {
        guard !given.insert(key).inserted else { return key }
        var number = nextNumber[key] ?? 2
        while reserved.contains("\(key)-\(number)") || given.contains("\(key)-\(number)") { number += 1 }
        nextNumber[key] = number + 1
        let derived = "\(key)-\(number)"
        given.insert(derived)
        return derived
    }
}

/// The storefront every price of the file is for.
struct Pricing {
    let territory: Territory
    let currency: CurrencyCode
}
