/// A Play one-time product's purchase option (Google's 2025 one-time product model): buy or rent, with its own
/// regional prices.
public struct PurchaseOption: Hashable, Sendable {
    /// Buy or rent.
    public enum Kind: Hashable, Sendable, CustomStringConvertible {
        /// `buyOption`; `legacyCompatible` marks the option the legacy API's price maps to.
        case buy(legacyCompatible: Bool)
        /// `rentOption`: the rental period and, when stated, the time to finish after starting.
        case rent(period: SubscriptionPeriod, expiration: SubscriptionPeriod?)

        /// `buy`, `rent P30D`.
        public var description: String {
            switch self {
            case .buy: "buy"
            case .rent(let period, let expiration):
                expiration.map { "rent \(period) (expires \($0))" } ?? "rent \(period)"
            }
        }
    }

    /// `purchaseOptionId`.
    public var id: String
    /// Buy or rent.
    public var kind: Kind
    /// Prices per territory.
    public var prices: [Territory: Money]
    /// Whether the option is active (`state: ACTIVE`); nil when the source does not say.
    public var isActive: Bool?
    /// Where the option was read.
    public var location: SourceLocation?

    /// Creates an option.
    public init(id: String, kind: Kind, prices: [Territory: Money] = [:], isActive: Bool? = nil,
                location: SourceLocation? = nil) {
        self.id = id
        self.kind = kind
        self.prices = prices
        self.isActive = isActive
        self.location = location
    }

    /// The finding field for this option: `purchaseOption:<id>`.
    public var field: ProductField { .purchaseOption(id) }
}
