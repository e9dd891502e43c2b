/// The resource attributes the catalog builder reads; the pool keeps these and no others.
enum ASCAttributeName: String {
    // Subscriptions and in-app purchases (`referenceName` is also a subscription group's name).
    case productId, name, referenceName, familySharable, state, groupLevel, subscriptionPeriod, inAppPurchaseType
    // Price rows (`startDate` and `endDate` also of intro offers).
    case planType, startDate, endDate, manual
    // Price points and territories.
    case customerPrice, currency
    // Intro offers.
    case offerMode, duration, targetSubscriptionPlanType, numberOfPeriods
    // The app (`apps`).
    case bundleId

    /// The JSON kind the builder reads the attribute as.
    enum Kind {
        case string, bool, int
    }

    var kind: Kind {
        switch self {
        case .familySharable, .manual: .bool
        case .groupLevel, .numberOfPeriods: .int
        default: .string
        }
    }

    private static let product: [ASCAttributeName] = [
        .productId, .name, .referenceName, .familySharable, .state, .groupLevel, .subscriptionPeriod,
        .inAppPurchaseType,
    ]
    private static let priceRow: [ASCAttributeName] = [.planType, .startDate, .endDate, .manual]
    private static let introOffer: [ASCAttributeName] = [
        .offerMode, .duration, .targetSubscriptionPlanType, .startDate, .endDate, .numberOfPeriods,
    ]

    /// The attributes read of a resource type (`inAppPurchasesV2` named `inAppPurchases`); none of types the builder does not read.
    static func read(ofType type: String) -> [ASCAttributeName] {
        switch type {
        case "subscriptions", "inAppPurchases": product
        case "subscriptionGroups": [.referenceName]
        case "subscriptionPrices", "inAppPurchasePrices": priceRow
        case "subscriptionPricePoints", "inAppPurchasePricePoints": [.customerPrice]
        case "territories": [.currency]
        case "subscriptionIntroductoryOffers": introOffer
        case "apps": [.bundleId]
        // UPFRONT or MONTHLY: a product's own availability is its up-front plan's (FORMATS.md "ASC availability").
        case "subscriptionPlanAvailabilities": [.planType]
        default: []
        }
    }
}

/// A non-null attribute value as read: of the kind the builder reads it as, or what was found instead (an error
/// once the builder asks for it, as when the input held the value in a tree).
enum ASCAttributeValue {
    case string(String)
    case bool(Bool)
    case int(Int)
    /// A value of another kind, described for the error message.
    case mismatch(found: String)

    /// Reads a JSON value as `name`'s kind.
    init(_ value: JSONValue, as name: ASCAttributeName) {
        switch name.kind {
        case .string:
            if let text = value.string {
                self = .string(text)
                return
            }
        case .bool:
            if let flag = value.bool {
                self = .bool(flag)
                return
            }
        case .int:
            if let number = value.int {
                self = .int(number)
                return
            }
        }
        self = .mismatch(found: describeForMessage(value))
    }

    var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }

    var int: Int? {
        if case .int(let number) = self { number } else { nil }
    }
}

/// One pooled attribute: the first non-null value of its name among the resource's `attributes` objects, in
/// reading order. A resource's attributes form a list through `next` in `ASCResourcePool.attributes`.
struct ASCAttribute {
    let value: ASCAttributeValue
    let name: ASCAttributeName
    /// Where the value is.
    let mark: MarkID
    /// The resource's next attribute (an index in `ASCResourcePool.attributes`), or -1.
    let next: Int32
}
