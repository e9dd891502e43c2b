import Foundation

/// Apple's price points of a store input (DESIGN.md §2c "Price points"): per product kind and territory, the
/// customer prices App Store Connect accepts. A price that is none of them fails at the first write to the store.
///
/// Read from the price-point lists `fetch appstore --price-points` writes (OpenAPI 4.4.1
/// `subscriptions_pricePoints_getToManyRelated`, `GET /v1/subscriptions/{id}/pricePoints`, and
/// `inAppPurchasesV2_pricePoints_getToManyRelated`, `GET /v2/inAppPurchases/{id}/pricePoints`; each
/// `customerPrice` with its `territory`). Subscriptions and in-app purchases have tables of their own.
public struct PricePointTable: Hashable, Sendable {
    /// Which products a table's points are for.
    public enum Kind: String, CaseIterable, Hashable, Comparable, Sendable {
        /// Auto-renewable subscriptions (`subscriptionPricePoints`), their offers and billing plans.
        case subscription
        /// In-app purchases (`inAppPurchasePricePoints`): consumables, non-consumables, non-renewing
        /// subscriptions, and their offer codes.
        case inAppPurchase = "in-app purchase"

        /// The table a product of `kind` is priced from; nil when the kind is not stated.
        public init?(_ kind: ProductKind?) {
            switch kind {
            case .autoRenewable: self = .subscription
            case nil: return nil
            default: self = .inAppPurchase
            }
        }

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One territory's points: its currency and the amounts, ascending, each once.
    public struct Points: Hashable, Sendable {
        /// The currency the points are in (the territory's `currency` in the pages).
        public var currency: CurrencyCode
        /// The amounts, ascending, each once.
        public private(set) var amounts: [Decimal]

        /// Creates the points of one territory from amounts in any order.
        public init(currency: CurrencyCode, amounts: some Sequence<Decimal>) {
            self.currency = currency
            self.amounts = Array(Set(amounts)).sorted()
        }

        /// The nearest points below and above `amount`, or nil when `amount` is a point.
        public func neighbours(of amount: Decimal) -> (lower: Decimal?, higher: Decimal?)? {
            var low = 0
            var high = amounts.count
            while low < high {
                let middle = (low + high) / 2
                if amounts[middle] < amount { low = middle + 1 } else { high = middle }
            }
            if low < amounts.count, amounts[low] == amount { return nil }
            return (low > 0 ? amounts[low - 1] : nil, low < amounts.count ? amounts[low] : nil)
        }
    }

    /// The points by kind and territory.
    public var points: [Kind: [Territory: Points]]
    /// The day the table was fetched (the snapshot manifest's `fetchedAt`); nil when the input does not say.
    public var fetchedOn: CalendarDate?
    /// Where the table was read (the snapshot folder or file).
    public var location: SourceLocation

    /// Creates a table.
    public init(points: [Kind: [Territory: Points]], fetchedOn: CalendarDate?, location: SourceLocation) {
        self.points = points
        self.fetchedOn = fetchedOn
        self.location = location
    }

    /// The table's date as a sentence part: `of 2026-11-20`, or `of unknown date`.
    public var dated: String {
        fetchedOn.map { "of \($0)" } ?? "of unknown date"
    }

    /// How many points the table holds.
    public var count: Int {
        points.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.amounts.count } }
    }

    /// The territories with points of any kind.
    public var territories: Set<Territory> {
        Set(points.values.flatMap(\.keys))
    }
}
