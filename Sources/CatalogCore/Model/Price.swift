/// A current price of a product in one territory, with where it was read.
public struct Price: Hashable, Sendable {
    /// The territory the price is for.
    public var territory: Territory
    /// The amount and currency.
    public var money: Money
    /// Where the price was read.
    public var location: SourceLocation?

    /// Creates a price.
    public init(territory: Territory, money: Money, location: SourceLocation? = nil) {
        self.territory = territory
        self.money = money
        self.location = location
    }
}

/// How a store price came about, where the format states it: App Store Connect keeps an in-app purchase's
/// prices as `manualPrices` and `automaticPrices` (rows with `manual`); Apple rewrites automatic ones at its tax
/// and exchange-rate updates (developer.apple.com/news/?id=0l93cjfe, 2024-01-30).
public enum PriceOrigin: String, Hashable, Sendable {
    /// Set by hand for the territory (the base territory's price, or a manual override).
    case manual
    /// Derived by the store from the base territory's price (equalized).
    case automatic
}

/// A price a source states but that is never compared: a scheduled change, or a price that is not for a
/// territory (Play `otherRegionsConfig`, legacy `defaultPrice`, a CSV home-currency price). Exported only.
public struct UncomparedPrice: Hashable, Comparable, Sendable {
    /// What the price is, e.g. `default`, `other-regions`, `scheduled`.
    public var label: String
    /// The territory, when the price has one.
    public var territory: Territory?
    /// The amount; the currency may be unknown (a Play CSV home-currency price).
    public var amount: Money?
    /// The amount as text when the currency is unknown.
    public var rawAmount: String?
    /// For scheduled prices: the first day the price applies.
    public var startDate: CalendarDate?

    /// Creates an uncompared price.
    public init(label: String, territory: Territory? = nil, amount: Money? = nil, rawAmount: String? = nil,
                startDate: CalendarDate? = nil) {
        self.label = label
        self.territory = territory
        self.amount = amount
        self.rawAmount = rawAmount
        self.startDate = startDate
    }

    /// Canonical text, e.g. `scheduled US 10.99 USD from 2027-01-01`.
    public var summary: String {
        var parts = [label]
        if let territory { parts.append(territory.alpha2) }
        if let amount { parts.append(amount.description) } else if let rawAmount { parts.append(rawAmount) }
        if let startDate { parts.append("from \(startDate)") }
        return parts.joined(separator: " ")
    }

    /// The label of a price row for a territory where the store does not sell the product (App Store Connect
    /// `availableTerritories`, FORMATS.md "ASC availability").
    public static let unavailableLabel = "unavailable"

    /// The label of a price that starts after `--as-of` (App Store Connect `startDate`; a config schedule entry).
    public static let scheduledLabel = "scheduled"

    /// Whether this is a scheduled price (`scheduledLabel`) with its start date.
    public var isScheduled: Bool { label == Self.scheduledLabel && startDate != nil }

    /// Whether this is a price row for a territory where the product is not sold.
    public var isUnavailable: Bool { label == Self.unavailableLabel }

    public static func < (lhs: UncomparedPrice, rhs: UncomparedPrice) -> Bool { lhs.summary < rhs.summary }
}

/// A price a schedule sets from a day on (DESIGN.md §4 "Scheduled prices"); `Product.scheduledPrices`.
public struct ScheduledPrice: Hashable, Sendable {
    /// The first day the price applies.
    public var day: CalendarDate
    /// The amount from that day.
    public var money: Money

    /// Creates a scheduled price.
    public init(day: CalendarDate, money: Money) {
        self.day = day
        self.money = money
    }
}

extension Array where Element == ScheduledPrice {
    /// The amounts by day (of two on one day, the later in the list).
    var byDay: [CalendarDate: Money] {
        Dictionary(map { ($0.day, $0.money) }, uniquingKeysWith: { _, later in later })
    }
}

extension Dictionary where Key == Territory, Value == Money {
    /// Each territory's amount as text, by territory code: `["DE 5.49 EUR", "GB 4.99 GBP"]`.
    public var listedByTerritory: [String] {
        sorted { $0.key < $1.key }.map { "\($0.key.alpha2) \($0.value)" }
    }
}
