/// Pairs removed products with added ones as `possibleRename`s (DESIGN.md §2a), one to one: each removed
/// product names at most one added product and that one names it back.
///
/// 1. By content: a removed and an added product with the same type, prices, period and reference name are a
///    rename whatever their IDs (`unlock` → `unlock.lifetime`). Of several with one content, removed and added
///    pair in ID order.
/// 2. By distance, among the products step 1 left unpaired: a removed and an added product whose IDs are within
///    the hint distance of §5 (`coins.500` → `coins.5OO`) pair when each is the other's nearest (ties by ID
///    order). So a distance-only hint is given only when no content-identical pair and no nearer ID claims either
///    side: `ai.credits100` renamed to the identical `ai.tokens100` is not also "possibly renamed to"
///    `ai.credits500`, a new product with another price and name.
///
/// Each side is indexed once (by content, and for distance by `NearMatch`), so the cost stays linear in the
/// products; the pairing depends only on the IDs and contents, never on an order of reading.
struct RenameMatching {
    /// Removed ID → the added ID it was probably renamed to.
    private var addedFor: [String: String] = [:]
    /// Added ID → the removed ID it was probably renamed from.
    private var removedFor: [String: String] = [:]

    /// Pairs the removed products with the added ones (each by the ID it is compared under).
    init(removed: [String: Product], added: [String: Product]) {
        var removedByContent: [ContentKey: [String]] = [:]
        for id in removed.keys.sorted() {
            if let product = removed[id], let key = ContentKey(product) { removedByContent[key, default: []].append(id) }
        }
        var addedByContent: [ContentKey: [String]] = [:]
        for id in added.keys.sorted() {
            if let product = added[id], let key = ContentKey(product) { addedByContent[key, default: []].append(id) }
        }
        for (key, removedIDs) in removedByContent {
            for (old, new) in zip(removedIDs, addedByContent[key] ?? []) { pair(old, new) }
        }
        let unpairedRemoved = removed.keys.filter { addedFor[$0] == nil }.sorted()
        let unpairedAdded = added.keys.filter { removedFor[$0] == nil }
        let nearestAdded = NearMatch(candidates: unpairedAdded)
        let nearestRemoved = NearMatch(candidates: unpairedRemoved)
        for old in unpairedRemoved {
            guard let new = nearestAdded.best(for: old), nearestRemoved.best(for: new) == old else { continue }
            pair(old, new)
        }
    }

    private mutating func pair(_ old: String, _ new: String) {
        addedFor[old] = new
        removedFor[new] = old
    }

    /// The added product the removed product `id` was probably renamed to, if any.
    func renamed(to id: String) -> String? { addedFor[id] }

    /// The removed product the added product `id` was probably renamed from, if any.
    func renamed(from id: String) -> String? { removedFor[id] }

    /// What a rename keeps: type, prices, period and reference name. Only products that state a type and a
    /// name or prices have one: two bare IDs (a plist) agree on nothing, so they are no evidence of a rename.
    private struct ContentKey: Hashable {
        let kind: ProductKind
        let name: String?
        let period: String?
        let prices: [String]

        init?(_ product: Product) {
            guard let kind = product.kind, product.referenceName != nil || !product.prices.isEmpty else { return nil }
            self.kind = kind
            name = product.referenceName
            period = product.period?.description
            prices = product.prices.map { "\($0.key.alpha2) \($0.value.money)" }.sorted()
        }
    }
}
