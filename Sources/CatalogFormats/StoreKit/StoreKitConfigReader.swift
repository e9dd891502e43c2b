import CatalogCore
import Foundation

/// Reads an Xcode StoreKit configuration file (`*.storekit`, format `storekit`).
///
/// Apple publishes no schema for the file; every version seen (1.0 – 5.0) is read the same way: every key is
/// optional, unknown keys are ignored, and a key of the wrong JSON type is an error naming its key path.
///
/// - Products come from `products` (consumables and non-consumables), `nonRenewingSubscriptions` and
///   `subscriptionGroups[].subscriptions` (auto-renewable). A subscription's group is the entry that holds it
///   (never its `subscriptionGroupID`): the group key is the entry's `id`, else its `name`, and an entry that
///   repeats an earlier entry's key is a group of its own, keyed `<id>-2` (`-3`, …), with a remark.
/// - The file is a JSON object with at least one of the arrays `products`, `subscriptionGroups`,
///   `nonRenewingSubscriptions` (DESIGN.md §2); any other object is "not a StoreKit configuration".
/// - The file holds one `displayPrice` per product, for `settings._storefront` (alpha-3), or the United States
///   when that setting is absent or empty (Xcode's default). The currency is the storefront's App Store currency.
///   `displayPrice: ""` is a price never set: the product (or offer) has no price.
///   The storefront is the catalog's `baseTerritory`, so an export writes its prices as `price:` in it.
/// - The intro offer of a subscription is `introductoryOffers[0]`, else `introductoryOffer`; every subscription
///   gets a non-nil `introOffers` (`[]` when it has none) because the format always states its offers.
/// - A subscription's other offers (DESIGN.md §4a) are `adHocOffers` (promotional, keyed by `offerID`),
///   `codeOffers` (offer codes, keyed by `referenceName`, with `eligibility` and `isStackable`) and
///   `winbackOffers` (file 4.0+, keyed by `offerID`; `numberOfPeriods` from 5.0, absent = not stated; no prices):
///   one phase each, priced like the product, with no state. Every subscription gets a non-nil `offers`; the
///   catalog carries a kind (`capabilities.offerKinds`) when the file holds at least one offer of it.
/// - `billingPlans` (file 5.0): `BILLED_UPFRONT` and `MONTHLY` plans with their `displayPrice` and
///   `commitmentDisplayPrice` for the storefront; a subscription without the key has nil `billingPlans`, and the
///   catalog carries plans when any subscription has the key.
/// - StoreKit has no availability: `clearedForSale` stays nil.
/// - `subscriptionOffersKeyPair` holds a private signing key. It is never read, so it can never appear in an
///   error message, a catalog or an export.
public struct StoreKitConfigReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// `storekit`.
    public var format: CatalogFormat { .storekit }

    /// Reads a `.storekit` file.
    public func read(contentsOf url: URL, displayPath: String, options: ReadOptions) throws(CatalogReadError)
        -> Catalog
    {
        if FileLoading.isDirectory(url) {
            throw CatalogReadError("is a folder, not a StoreKit configuration file",
                                   at: SourceLocation(path: displayPath))
        }
        let document = try JSONDocument(contentsOf: url, displayPath: displayPath)
        return try StoreKitParser(document: document, asOf: options.asOf).catalog()
    }

    /// Reads a `.storekit` file's bytes (e.g. a file read from git); `displayPath` names it in locations.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let document = try JSONDocument(data: data, path: displayPath)
        return try StoreKitParser(document: document, asOf: options.asOf).catalog()
    }
}

/// The three places a `.storekit` file lists products, each with the `type` values it may hold.
private enum StoreKitSection: CaseIterable {
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
private enum StoreKitOfferSection: CaseIterable {
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

/// One pass over a parsed `.storekit` document.
private struct StoreKitParser {
    let document: JSONDocument
    /// The day the prices are read for: a storefront's currency is the one it uses that day (BG: BGN before
    /// 2026-01-01).
    let asOf: CalendarDate

    func catalog() throws(CatalogReadError) -> Catalog {
        let root = document.root
        guard let members = root.members else {
            throw document.error(
                "not a StoreKit configuration: the top level is \(root.typeName), expected an object", at: root)
        }
        // The marks of the format (DESIGN.md §2): `{}`, or a Play or App Store Connect document renamed
        // `.storekit`, must not read as an empty catalog that a gate then compares.
        guard StoreKitSection.allCases.contains(where: { root[$0.key].map { !$0.isNull } ?? false }) else {
            let sections = StoreKitSection.allCases.map { "\"\($0.key)\"" }.joined(separator: ", ")
            throw document.error("not a StoreKit configuration: the top-level object has none of the arrays "
                                 + "\(sections) (\(describeKeysFound(members.map(\.key))))", at: root)
        }
        let (storefront, storefrontRemark) = try self.storefront(root)
        guard let currency = storefront.appStoreCurrency(on: asOf) else {
            throw CatalogReadError("no App Store currency is known for storefront \(storefront.alpha3)",
                                   at: document.location(of: root["settings"]?["_storefront"] ?? root))
        }
        let pricing = Pricing(territory: storefront, currency: currency)

        var products: [Product] = []
        for (index, element) in try array(root["products"], "products").enumerated() {
            products.append(try product(element, path: "products[\(index)]", section: .products, pricing: pricing))
        }
        for (index, element) in try array(root["nonRenewingSubscriptions"], "nonRenewingSubscriptions").enumerated() {
            products.append(try product(element, path: "nonRenewingSubscriptions[\(index)]",
                                        section: .nonRenewingSubscriptions, pricing: pricing))
        }
        var groups: [SubscriptionGroup] = []
        var remarks = storefrontRemark.map { [$0] } ?? []
        // Every entry's own key is known before any is given, so a derived key never takes another's.
        var entries: [(value: JSONValue, path: String, name: String?, ownKey: String, keyedBy: String)] = []
        var groupKeys = GroupKeys()
        for (groupIndex, groupValue) in try array(root["subscriptionGroups"], "subscriptionGroups").enumerated() {
            let groupPath = "subscriptionGroups[\(groupIndex)]"
            try object(groupValue, groupPath)
            let id = try nonEmptyString(groupValue["id"], "\(groupPath).id")
            let name = try nonEmptyString(groupValue["name"], "\(groupPath).name")
            guard let ownKey = id ?? name else {
                throw document.error("\(groupPath): the group has neither an \"id\" nor a \"name\"", at: groupValue)
            }
            groupKeys.reserve(ownKey)
            entries.append((groupValue, groupPath, name, ownKey, id == nil ? "name" : "id"))
        }
        for (groupValue, groupPath, name, ownKey, keyedBy) in entries {
            // A subscription's group is the entry that holds it (FORMATS.md): entries copied by hand keep the
            // `id` of the one they were copied from, and must not merge with it.
            let key = groupKeys.key(for: ownKey)
            if key != ownKey {
                remarks.append("\(groupPath) repeats the \(keyedBy) \(quotedForMessage(ownKey)) of an earlier group; "
                               + "it is a group of its own, keyed \(quotedForMessage(key))")
            }
            groups.append(SubscriptionGroup(key: key, name: name ?? ownKey, location: document.location(of: groupValue)))
            let subscriptions = try array(groupValue["subscriptions"], "\(groupPath).subscriptions")
            for (index, element) in subscriptions.enumerated() {
                var subscription = try product(element, path: "\(groupPath).subscriptions[\(index)]",
                                               section: .subscriptions, pricing: pricing)
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
                offerKinds: Set(products.lazy.flatMap { $0.offers ?? [] }.map(\.kind)),
                carriesBillingPlans: products.contains { $0.billingPlans != nil }),
            remarks: remarks)
    }

    /// The storefront every price is for, and a remark when it was assumed.
    private func storefront(_ root: JSONValue) throws(CatalogReadError) -> (Territory, String?) {
        let assumed = "settings._storefront is not set; prices are read as United States (USA) prices, Xcode's default"
        guard let settings = root["settings"], !settings.isNull else { return (.unitedStates, assumed) }
        try object(settings, "settings")
        guard let code = try string(settings["_storefront"], "settings._storefront"), !code.isEmpty else {
            return (.unitedStates, assumed)
        }
        guard let territory = Territory(code: code) else {
            throw document.error("settings._storefront: \(quotedForMessage(code)) is not a known App Store storefront",
                                 at: settings["_storefront"] ?? settings)
        }
        return (territory, nil)
    }

    /// One product record of any section.
    private func product(_ value: JSONValue, path: String, section: StoreKitSection, pricing: Pricing)
        throws(CatalogReadError) -> Product
    {
        try object(value, path)
        var fieldLocations: [ProductField: SourceLocation] = [:]
        func note(_ field: ProductField, _ member: JSONValue?) {
            if let member, !member.isNull { fieldLocations[field] = document.location(of: member) }
        }

        guard let id = try string(value["productID"], "\(path).productID") else {
            throw document.error("\(path): the product has no \"productID\"", at: value)
        }
        guard !id.isEmpty else {
            throw document.error("\(path).productID is empty", at: value["productID"] ?? value)
        }
        note(.id, value["productID"])

        var kind = section.defaultKind
        if let typeText = try string(value["type"], "\(path).type") {
            guard let match = section.kinds.first(where: { $0.text == typeText }) else {
                let allowed = section.kinds.map { quotedForMessage($0.text) }.joined(separator: " or ")
                throw document.error("\(path).type: \(quotedForMessage(typeText)) is not \(allowed)", at: value["type"] ?? value)
            }
            kind = match.kind
            note(.type, value["type"])
        }

        var product = Product(id: ProductID(id), kind: kind, location: document.location(of: value))
        product.referenceName = try string(value["referenceName"], "\(path).referenceName")
        note(.name, value["referenceName"])
        product.familyShareable = try bool(value["familyShareable"], "\(path).familyShareable")
        note(.familyShareable, value["familyShareable"])

        if let priceValue = value["displayPrice"], !priceValue.isNull, !isNotSet(priceValue) {
            let money = try amount(priceValue, "\(path).displayPrice", pricing: pricing)
            product.prices[pricing.territory] = Price(territory: pricing.territory, money: money,
                                                      location: document.location(of: priceValue))
            note(.price, priceValue)
        }

        if section == .subscriptions {
            if let level = try int(value["groupNumber"], "\(path).groupNumber") {
                guard level >= 1 else {
                    throw document.error("\(path).groupNumber: \(level) is not a level (1 or more)",
                                         at: value["groupNumber"] ?? value)
                }
                product.level = level
                note(.level, value["groupNumber"])
            }
            if let periodText = try string(value["recurringSubscriptionPeriod"], "\(path).recurringSubscriptionPeriod") {
                guard let period = SubscriptionPeriod(iso: periodText) else {
                    throw document.error(
                        "\(path).recurringSubscriptionPeriod: \(quotedForMessage(periodText)) is not an ISO 8601 period",
                        at: value["recurringSubscriptionPeriod"] ?? value)
                }
                product.period = period
                note(.period, value["recurringSubscriptionPeriod"])
            }
            note(.group, value["subscriptionGroupID"])
            product.introOffers = try introOffers(of: value, path: path, pricing: pricing)
            if let offer = product.introOffers?.first, let location = offer.location {
                fieldLocations[.introOffer] = location
            }
            let offers = try self.offers(of: value, path: path, pricing: pricing)
            product.offers = offers
            product.billingPlans = try billingPlans(of: value, path: path, pricing: pricing)
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
    private func introOffers(of subscription: JSONValue, path: String, pricing: Pricing)
        throws(CatalogReadError) -> [IntroOffer]
    {
        let list = try array(subscription["introductoryOffers"], "\(path).introductoryOffers")
        if let first = list.first {
            return [try introOffer(first, path: "\(path).introductoryOffers[0]", pricing: pricing)]
        }
        if let single = subscription["introductoryOffer"], !single.isNull {
            return [try introOffer(single, path: "\(path).introductoryOffer", pricing: pricing)]
        }
        return []
    }

    private func introOffer(_ value: JSONValue, path: String, pricing: Pricing) throws(CatalogReadError)
        -> IntroOffer
    {
        let terms = try offerTerms(value, path: path, defaultPeriods: 1)
        // A free trial has no price; Xcode omits displayPrice for it.
        var price: Money?
        if terms.mode != .freeTrial {
            price = try optionalAmount(value["displayPrice"], "\(path).displayPrice", pricing: pricing)
        }
        return IntroOffer(mode: terms.mode, period: terms.period, periods: terms.periods ?? 1, price: price,
                          location: document.location(of: value))
    }

    /// The promotional offers (`adHocOffers`), offer codes (`codeOffers`) and win-back offers (`winbackOffers`,
    /// file 4.0+) of a subscription, in that order; `[]` when it has none.
    private func offers(of subscription: JSONValue, path: String, pricing: Pricing) throws(CatalogReadError)
        -> [Offer]
    {
        var offers: [Offer] = []
        for section in StoreKitOfferSection.allCases {
            let sectionPath = "\(path).\(section.key)"
            for (index, element) in try array(subscription[section.key], sectionPath).enumerated() {
                offers.append(try offer(element, path: "\(sectionPath)[\(index)]", section: section, pricing: pricing))
            }
        }
        return offers
    }

    /// One offer of `adHocOffers`, `codeOffers` or `winbackOffers`: one phase, no state (a StoreKit file states
    /// none), `billingPlanType` (5.0) not read: the config names no plan for an offer.
    private func offer(_ value: JSONValue, path: String, section: StoreKitOfferSection, pricing: Pricing)
        throws(CatalogReadError) -> Offer
    {
        try object(value, path)
        // The ID is the offer's identity (DESIGN.md §5a.15): an offer without one can never be matched.
        guard let id = try string(value[section.idKey], "\(path).\(section.idKey)") else {
            throw document.error("\(path): the offer has no \"\(section.idKey)\"", at: value)
        }
        guard !id.isEmpty else {
            throw document.error("\(path).\(section.idKey) is empty", at: value[section.idKey] ?? value)
        }
        // Win-back offers gain `numberOfPeriods` in file 5.0: absent there means not stated (never compared),
        // where promotional offers and offer codes have always meant 1 by its absence (FORMATS.md).
        let terms = try offerTerms(value, path: path, defaultPeriods: section == .winBack ? nil : 1)
        // Every price the file states is read, a free offer's too: a free offer with a price is a finding of
        // its own (`offer-free-with-price`), not something to hide. Win-back offers carry no price in any file
        // version (FORMATS.md, DESIGN.md §5a.15): theirs are never compared.
        var prices: [Territory: Money] = [:]
        if section != .winBack,
           let money = try optionalAmount(value["displayPrice"], "\(path).displayPrice", pricing: pricing) {
            prices[pricing.territory] = money
        }
        let location = document.location(of: value)
        let phase = OfferPhase(mode: terms.mode, period: terms.period, periods: terms.periods, prices: prices,
                               location: location)
        var eligibility: OfferEligibility?
        if section == .offerCode {
            let customers = try customerWords(value["eligibility"], "\(path).eligibility")
            let stackable = try bool(value["isStackable"], "\(path).isStackable")
            if customers != nil || stackable != nil {
                eligibility = OfferEligibility(customers: customers, stackable: stackable)
            }
        }
        return Offer(kind: section.kind, id: id, phases: [phase], eligibility: eligibility, location: location)
    }

    /// `codeOffers[].eligibility`: the customer kinds an offer code is for, Xcode's words `new`, `existing` and
    /// `expired` (the config's words too).
    private func customerWords(_ value: JSONValue?, _ path: String) throws(CatalogReadError) -> Set<String>? {
        guard let value, !value.isNull else { return nil }
        guard let elements = value.elements else {
            throw document.error("\(path): expected an array, found \(describeForMessage(value))", at: value)
        }
        var words: Set<String> = []
        for (index, element) in elements.enumerated() {
            guard let word = try string(element, "\(path)[\(index)]") else {
                throw document.error("\(path)[\(index)]: expected a string, found null", at: element)
            }
            guard Self.customerWords.contains(word) else {
                throw document.error(
                    "\(path)[\(index)]: \(quotedForMessage(word)) is not \"new\", \"existing\" or \"expired\"", at: element)
            }
            words.insert(word)
        }
        return words
    }

    private static let customerWords: Set<String> = ["new", "existing", "expired"]

    /// A subscription's `billingPlans` (file 5.0): nil when the key is absent, so an older file is never
    /// compared on plans; `[]` when the file states that there is none.
    private func billingPlans(of subscription: JSONValue, path: String, pricing: Pricing) throws(CatalogReadError)
        -> [BillingPlan]?
    {
        guard let list = subscription["billingPlans"], !list.isNull else { return nil }
        var plans: [BillingPlan] = []
        for (index, element) in try array(list, "\(path).billingPlans").enumerated() {
            plans.append(try billingPlan(element, path: "\(path).billingPlans[\(index)]", pricing: pricing))
        }
        return plans
    }

    /// One billing plan: `BILLED_UPFRONT` (the subscription's own price) or `MONTHLY` (billed monthly for a
    /// 12-month commitment; `commitmentDisplayPrice` is what the whole commitment costs).
    private func billingPlan(_ value: JSONValue, path: String, pricing: Pricing) throws(CatalogReadError)
        -> BillingPlan
    {
        try object(value, path)
        // The two words Apple has: App Store Server API `billingPlanType`
        // (developer.apple.com/documentation/appstoreserverapi/billingplantype), StoreKit's
        // `Product.SubscriptionInfo.BillingPlanType` (`upFront`, `monthly`).
        let type = try word(value, "billingPlanType", path: path, of: "billing plan",
                            [("BILLED_UPFRONT", BillingPlan.PlanType.upfront), ("MONTHLY", .monthly)])
        var plan = BillingPlan(type: type, isEnabled: try bool(value["isEnabled"], "\(path).isEnabled"),
                               location: document.location(of: value))
        if let money = try optionalAmount(value["displayPrice"], "\(path).displayPrice", pricing: pricing) {
            plan.prices[pricing.territory] = money
        }
        if let money = try optionalAmount(value["commitmentDisplayPrice"], "\(path).commitmentDisplayPrice",
                                          pricing: pricing) {
            plan.commitmentPrices[pricing.territory] = money
        }
        return plan
    }

    /// What every StoreKit offer states alike: the payment mode, one period's duration and how many periods
    /// (`numberOfPeriods`, else `defaultPeriods`).
    private func offerTerms(_ value: JSONValue, path: String, defaultPeriods: Int?) throws(CatalogReadError)
        -> (mode: IntroOffer.Mode, period: SubscriptionPeriod, periods: Int?)
    {
        try object(value, path)
        let mode = try word(value, "paymentMode", path: path, of: "offer",
                            [("free", IntroOffer.Mode.freeTrial), ("payAsYouGo", .payAsYouGo), ("payUpFront", .payUpFront)])
        guard let periodText = try string(value["subscriptionPeriod"], "\(path).subscriptionPeriod") else {
            throw document.error("\(path): the offer has no \"subscriptionPeriod\"", at: value)
        }
        guard let period = SubscriptionPeriod(iso: periodText) else {
            throw document.error("\(path).subscriptionPeriod: \(quotedForMessage(periodText)) is not an ISO 8601 period",
                                 at: value["subscriptionPeriod"] ?? value)
        }
        let periods = try int(value["numberOfPeriods"], "\(path).numberOfPeriods") ?? defaultPeriods
        if let periods, !(1...IntroOffer.maximumPeriods).contains(periods) {
            throw document.error(
                "\(path).numberOfPeriods: \(periods) is not a count of periods (1 … \(IntroOffer.maximumPeriods))",
                                 at: value["numberOfPeriods"] ?? value)
        }
        return (mode, period, periods)
    }

    /// `displayPrice: ""`: what Xcode writes for a price never set (FORMATS.md "StoreKit"), so no price rather
    /// than a malformed one.
    private func isNotSet(_ value: JSONValue) -> Bool {
        value.string?.isEmpty ?? false
    }

    // MARK: Typed access; every error names the key path and quotes the offending value.

    private func amount(_ value: JSONValue, _ path: String, pricing: Pricing) throws(CatalogReadError) -> Money {
        guard let text = try string(value, path) else {
            throw document.error("\(path): expected a decimal amount in a string, found null", at: value)
        }
        guard let amount = Money.parseAmount(text) else {
            throw document.error("\(path): \(quotedForMessage(text)) is not a decimal amount", at: value)
        }
        return Money(amount: amount, currency: pricing.currency)
    }

    /// A required member whose text is one of `words`, as the value its word stands for; `what` names the record
    /// in the message when the member is absent.
    private func word<Value>(_ record: JSONValue, _ key: String, path: String, of what: String,
                             _ words: [(text: String, value: Value)]) throws(CatalogReadError) -> Value
    {
        guard let text = try string(record[key], "\(path).\(key)") else {
            throw document.error("\(path): the \(what) has no \"\(key)\"", at: record)
        }
        guard let match = words.first(where: { $0.text == text }) else {
            let quoted = words.map { quotedForMessage($0.text) }
            let allowed = quoted.count > 1
                ? quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "") : quoted.joined()
            throw document.error("\(path).\(key): \(quotedForMessage(text)) is not \(allowed)", at: record[key] ?? record)
        }
        return match.value
    }

    /// A `displayPrice`-like member: nil when absent, null or `""` (never set).
    private func optionalAmount(_ value: JSONValue?, _ path: String, pricing: Pricing) throws(CatalogReadError)
        -> Money?
    {
        guard let value, !value.isNull, !isNotSet(value) else { return nil }
        return try amount(value, path, pricing: pricing)
    }

    private func object(_ value: JSONValue, _ path: String) throws(CatalogReadError) {
        guard value.members != nil else {
            throw document.error("\(path): expected an object, found \(describeForMessage(value))", at: value)
        }
    }

    /// The elements of an optional array (absent or null = none).
    private func array(_ value: JSONValue?, _ path: String) throws(CatalogReadError) -> [JSONValue] {
        guard let value, !value.isNull else { return [] }
        guard let elements = value.elements else {
            throw document.error("\(path): expected an array, found \(describeForMessage(value))", at: value)
        }
        return Array(elements)
    }

    private func string(_ value: JSONValue?, _ path: String) throws(CatalogReadError) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.string else {
            throw document.error("\(path): expected a string, found \(describeForMessage(value))", at: value)
        }
        return text
    }

    /// A string where an empty one means the same as none.
    private func nonEmptyString(_ value: JSONValue?, _ path: String) throws(CatalogReadError) -> String? {
        guard let text = try string(value, path), !text.isEmpty else { return nil }
        return text
    }

    private func bool(_ value: JSONValue?, _ path: String) throws(CatalogReadError) -> Bool? {
        guard let value, !value.isNull else { return nil }
        guard let flag = value.bool else {
            throw document.error("\(path): expected true or false, found \(describeForMessage(value))", at: value)
        }
        return flag
    }

    private func int(_ value: JSONValue?, _ path: String) throws(CatalogReadError) -> Int? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.int else {
            throw document.error("\(path): expected a whole number, found \(describeForMessage(value))", at: value)
        }
        return number
    }
}

/// Gives every `subscriptionGroups[]` entry a key of its own: its `id` (else its `name`) the first time, then
/// `<id>-2`, `<id>-3`, … skipping any key another entry holds. Each own key remembers the next number to try,
/// so many copies of one `id` cost time linear in their count.
private struct GroupKeys {
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
private struct Pricing {
    let territory: Territory
    let currency: CurrencyCode
}

