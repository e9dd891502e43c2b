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
        return try StoreKitParser(document: document).catalog()
    }

    /// Reads a `.storekit` file's bytes (e.g. a file read from git); `displayPath` names it in locations.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let document = try JSONDocument(data: data, path: displayPath)
        return try StoreKitParser(document: document).catalog()
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

/// One pass over a parsed `.storekit` document.
private struct StoreKitParser {
    let document: JSONDocument

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
        guard let currency = storefront.appStoreCurrency else {
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
            capabilities: CatalogCapabilities(expressesGroups: true, priceableTerritories: [storefront],
                                              singleStorefront: storefront),
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
        try object(value, path)
        guard let modeText = try string(value["paymentMode"], "\(path).paymentMode") else {
            throw document.error("\(path): the offer has no \"paymentMode\"", at: value)
        }
        let mode: IntroOffer.Mode
        switch modeText {
        case "free": mode = .freeTrial
        case "payAsYouGo": mode = .payAsYouGo
        case "payUpFront": mode = .payUpFront
        default:
            throw document.error(
                "\(path).paymentMode: \(quotedForMessage(modeText)) is not \"free\", \"payAsYouGo\" or \"payUpFront\"",
                at: value["paymentMode"] ?? value)
        }
        guard let periodText = try string(value["subscriptionPeriod"], "\(path).subscriptionPeriod") else {
            throw document.error("\(path): the offer has no \"subscriptionPeriod\"", at: value)
        }
        guard let period = SubscriptionPeriod(iso: periodText) else {
            throw document.error("\(path).subscriptionPeriod: \(quotedForMessage(periodText)) is not an ISO 8601 period",
                                 at: value["subscriptionPeriod"] ?? value)
        }
        let periods = try int(value["numberOfPeriods"], "\(path).numberOfPeriods") ?? 1
        guard (1...IntroOffer.maximumPeriods).contains(periods) else {
            throw document.error(
                "\(path).numberOfPeriods: \(periods) is not a count of periods (1 … \(IntroOffer.maximumPeriods))",
                                 at: value["numberOfPeriods"] ?? value)
        }
        // A free trial has no price; Xcode omits displayPrice for it.
        var price: Money?
        if mode != .freeTrial, let priceValue = value["displayPrice"], !priceValue.isNull, !isNotSet(priceValue) {
            price = try amount(priceValue, "\(path).displayPrice", pricing: pricing)
        }
        return IntroOffer(mode: mode, period: period, periods: periods, price: price,
                          location: document.location(of: value))
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

