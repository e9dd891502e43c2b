/// What a check compares. What fails a run (`--strict`, severities) is the `Policy`'s, applied after checking.
public struct CheckOptions: Hashable, Sendable {
    /// Compare prices only in these territories (`--territory`); nil = all.
    public var territories: Set<Territory>?
    /// The day the check is for (`--as-of`): which currency a storefront uses (DESIGN.md §4 "Currencies
    /// change"); nil leaves the currency rules out.
    public var asOf: CalendarDate?
    /// `--all-offerings`: with a RevenueCat config, every offering's products are offering products, not only the
    /// current offering's (`offering-product-missing-in-store`).
    public var allOfferings: Bool

    /// Creates options.
    public init(territories: Set<Territory>? = nil, asOf: CalendarDate? = nil, allOfferings: Bool = false) {
        self.territories = territories
        self.asOf = asOf
        self.allOfferings = allOfferings
    }
}
