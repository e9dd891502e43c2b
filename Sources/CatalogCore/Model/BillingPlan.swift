/// An App Store billing plan of a subscription (App Store Connect API 4.4; StoreKit file 5.0 `billingPlans`):
/// the monthly plan with a 12-month commitment, or the upfront plan that is the subscription's own price.
public struct BillingPlan: Hashable, Sendable {
    /// The plan type; the raw value is the config key under `billingPlans:`.
    public enum PlanType: String, CaseIterable, Hashable, Comparable, Sendable {
        /// ASC `planType: MONTHLY`, StoreKit `MONTHLY`: billed monthly, committed for 12 months.
        case monthly
        /// StoreKit `BILLED_UPFRONT`: the subscription's own price.
        case upfront

        public static func < (lhs: PlanType, rhs: PlanType) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The type.
    public var type: PlanType
    /// The amount billed each month (MONTHLY) per territory.
    public var prices: [Territory: Money]
    /// StoreKit `commitmentDisplayPrice`: what the whole commitment costs, per territory (the file's storefront).
    public var commitmentPrices: [Territory: Money]
    /// Whether the plan is on (StoreKit `isEnabled`; ASC: sold somewhere); nil when the source does not say.
    public var isEnabled: Bool?
    /// Where the plan was read.
    public var location: SourceLocation?

    /// Creates a plan.
    public init(type: PlanType, prices: [Territory: Money] = [:], commitmentPrices: [Territory: Money] = [:],
                isEnabled: Bool? = nil, location: SourceLocation? = nil) {
        self.type = type
        self.prices = prices
        self.commitmentPrices = commitmentPrices
        self.isEnabled = isEnabled
        self.location = location
    }

    /// The finding field for this plan: `billingPlan:monthly`.
    public var field: ProductField { .billingPlan(type) }
}
