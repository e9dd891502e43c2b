/// What a run knows for judging subscription price changes (DESIGN.md §2c): the day a change takes effect, the
/// stores the run concerns, and the changes the App Store has recorded for each config product.
public struct PriceChangeContext: Hashable, Sendable {
    /// The day a change takes effect: `--as-of` (a scheduled price's `from` dates its own change). Nil when
    /// the run has no date; then a decision with `since` covers nothing, so nothing passes unjudged.
    public var asOf: CalendarDate?
    /// The stores judged: those of the run's store inputs; both when no store is given (`diff`).
    public var stores: Set<StoreKind>
    /// The App Store's recorded price changes of each config product (App Store Connect price rows), by config
    /// key: what tells a second increase within 365 days.
    public var recorded: [ProductID: [RecordedPriceChange]]

    /// Creates a context; by default every store, nothing recorded.
    public init(asOf: CalendarDate?, stores: Set<StoreKind> = Set(StoreKind.allCases),
                recorded: [ProductID: [RecordedPriceChange]] = [:]) {
        self.asOf = asOf
        self.stores = stores
        self.recorded = recorded
    }

    /// The context of a check run: the stores of its inputs (both when it has none) and, from its App Store
    /// inputs that record dated changes, each matched config product's changes (the first such input's).
    public init(asOf: CalendarDate, config: Catalog, stores: [Catalog]) {
        let kinds = Set(stores.compactMap(\.store))
        var recorded: [ProductID: [RecordedPriceChange]] = [:]
        for store in stores where store.store == .appStore
            && store.products.contains(where: { !$0.recordedPriceChanges.isEmpty }) {
            for match in ProductMatching(config: config, store: store).matches
                where recorded[match.mine.id] == nil && !match.theirs.recordedPriceChanges.isEmpty {
                recorded[match.mine.id] = match.theirs.recordedPriceChanges
            }
        }
        self.init(asOf: asOf, stores: kinds.isEmpty ? Set(StoreKind.allCases) : kinds, recorded: recorded)
    }

    /// The stores a config product's change concerns: the run's, limited to the product's `stores:`.
    func stores(for product: Product) -> Set<StoreKind> {
        product.stores.map { stores.intersection($0) } ?? stores
    }
}
