/// The resource attributes the catalog builder reads; the pool keeps these and no others.
enum ASCAttributeName: String {
    // Subscriptions and in-app purchases (`referenceName` is also a subscription group's name).
    case productId, name, referenceName, familySharable, state, groupLevel, subscriptionPeriod, inAppPurchaseType
    // Price rows (`startDate` and `endDate` also of intro offers; `preserved`: OpenAPI 4.4.1 `SubscriptionPrice`).
    case planType, startDate, endDate, manual, preserved
    // Price points and territories.
    case customerPrice, currency
    // Intro offers.
    case offerMode, duration, targetSubscriptionPlanType, numberOfPeriods
    // The app (`apps`).
    case bundleId
    // Offers (promotional, offer codes, win-back; `offerMode`, `duration`, `numberOfPeriods`, `startDate`,
    // `endDate` and `targetSubscriptionPlanType` as above).
    case offerCode, offerId, periodCount, customerEligibilities, offerEligibility, active, priority
    case customerEligibilityPaidSubscriptionDurationInMonths, customerEligibilityTimeSinceLastSubscribedInMonths
    case customerEligibilityWaitBetweenOffersInMonths

    /// The JSON kind the builder reads the attribute as.
    enum Kind {
        case string, bool, int
        /// An array of strings (`customerEligibilities`).
        case strings
        /// OpenAPI `IntegerRange`: an object with optional whole numbers `minimum` and `maximum`.
        case range
    }

    var kind: Kind {
        switch self {
        case .familySharable, .manual, .active, .preserved: .bool
        case .groupLevel, .numberOfPeriods, .periodCount, .customerEligibilityPaidSubscriptionDurationInMonths,
             .customerEligibilityWaitBetweenOffersInMonths: .int
        case .customerEligibilities: .strings
        case .customerEligibilityTimeSinceLastSubscribedInMonths: .range
        default: .string
        }
    }

    private static let product: [ASCAttributeName] = [
        .productId, .name, .referenceName, .familySharable, .state, .groupLevel, .subscriptionPeriod,
        .inAppPurchaseType,
    ]
    private static let priceRow: [ASCAttributeName] = [.planType, .startDate, .endDate, .manual, .preserved]
    private static let introOffer: [ASCAttributeName] = [
        .offerMode, .duration, .targetSubscriptionPlanType, .startDate, .endDate, .numberOfPeriods,
    ]

    /// Offer attributes (OpenAPI 4.4.1 `SubscriptionPromotionalOffer`, `SubscriptionOfferCode`, `WinBackOffer`,
    /// `InAppPurchaseOfferCode`); `name` names offer codes, `offerCode` promotional offers, `offerId` win-back offers.
    private static let offer: [ASCAttributeName] = [
        .name, .offerCode, .offerId, .offerMode, .duration, .numberOfPeriods, .periodCount, .targetSubscriptionPlanType,
        .customerEligibilities, .offerEligibility, .active, .startDate, .endDate, .priority,
        .customerEligibilityPaidSubscriptionDurationInMonths, .customerEligibilityTimeSinceLastSubscribedInMonths,
        .customerEligibilityWaitBetweenOffersInMonths,
    ]

    /// The attributes read of a resource type (`inAppPurchasesV2` named `inAppPurchases`); none of types the builder does not read.
    static func read(ofType type: String) -> [ASCAttributeName] {
        switch type {
        case "subscriptions", "inAppPurchases": product
        case "subscriptionGroups": [.referenceName]
        case "subscriptionPrices", "inAppPurchasePrices": priceRow
        case "subscriptionPricePoints", "inAppPurchasePricePoints": [.customerPrice]
        case "subscriptionPromotionalOffers", "subscriptionOfferCodes", "winBackOffers", "inAppPurchaseOfferCodes": offer
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
enum ASCAttributeValue: Equatable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case strings([String])
    case range(minimum: Int?, maximum: Int?)
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
        case .strings:
            if let elements = value.elements {
                let texts = elements.compactMap(\.string)
                if texts.count == elements.count {
                    self = .strings(texts)
                    return
                }
            }
        case .range:
            if value.members != nil {
                let minimum = value["minimum"], maximum = value["maximum"]
                let bounds = [minimum, maximum].compactMap { $0 }.filter { !$0.isNull }
                if bounds.allSatisfy({ $0.int != nil }) {
                    self = .range(minimum: minimum?.int, maximum: maximum?.int)
                    return
                }
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

    var strings: [String]? {
        if case .strings(let texts) = self { texts } else { nil }
    }

    var range: (minimum: Int?, maximum: Int?)? {
        if case .range(let minimum, let maximum) = self { (minimum, maximum) } else { nil }
    }
    /// The value as a message quotes it.
    var text: String {
        switch self {
        case .string(let text): quotedForMessage(text)
        case .bool(let flag): String(flag)
        case .int(let number): String(number)
        case .strings(let texts): "[" + texts.map { quotedForMessage($0) }.joined(separator: ", ") + "]"
        case .range(let minimum, let maximum):
            "{minimum: \(minimum.map(String.init) ?? "null"), maximum: \(maximum.map(String.init) ?? "null")}"
        case .mismatch(let found): found
        }
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
