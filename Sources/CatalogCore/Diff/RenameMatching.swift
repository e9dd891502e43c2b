/// Pairs a removed product with an added one as a `possibleRename` (DESIGN.md §2a): first by content — the
/// same type, prices, period and reference name, whatever the IDs (`unlock` → `unlock.lifetime`) — then by the
/// hint distance of §5 (`coins.500` → `coins.5OO`). Each side is indexed once, so the cost stays linear in the
/// products.
struct RenameMatching {
    private let byContent: [ContentKey: String]
    private let byDistance: NearMatch

    /// Indexes the candidates (the other side's unmatched products, by the ID they are compared under).
    init(candidates: [String: Product]) {
        var byContent: [ContentKey: String] = [:]
        // Sorted, so that of two candidates with one content the first ID wins, as for distance.
        for id in candidates.keys.sorted() {
            guard let product = candidates[id], let key = ContentKey(product), byContent[key] == nil else { continue }
            byContent[key] = id
        }
        self.byContent = byContent
        byDistance = NearMatch(candidates: Array(candidates.keys))
    }

    /// The candidate `product` (under `id`) was probably renamed to or from, if any.
    func best(for id: String, _ product: Product) -> String? {
        if let key = ContentKey(product), let match = byContent[key], match != id { return match }
        return byDistance.best(for: id)
    }

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
