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

    /// Whether this is a price row for a territory where the product is not sold.
    public var isUnavailable: Bool { label == Self.unavailableLabel }

    public static func < (lhs: UncomparedPrice, rhs: UncomparedPrice) -> Bool { lhs.summary < rhs.summary }
}

extension Dictionary where Key == Territory, Value == Money {
    /// Each territory's amount as text, by territory code: `["DE 5.49 EUR", "GB 4.99 GBP"]`.
    public var listedByTerritory: [String] {
        sorted { $0.key < $1.key }.map { "\($0.key.alpha2) \($0.value)" }
    }
}
