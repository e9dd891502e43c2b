/// Play one-time products' purchase options (DESIGN.md §4a, §5a.15): `purchase-option-mismatch` on a matched
/// pair. Options match by `purchaseOptionId`; the legacy-compatible buy option is the product's own prices and
/// never listed. Compared only against a store input that carries purchase options and a product record that
/// carries them, for a config product that lists `purchaseOptions:` (only then is a store option it lacks a
/// finding).
enum PurchaseOptionRules {
    /// The rule on a matched pair, prices limited to `territories` when given.
    static func check(_ pair: ProductPair, territories: Set<Territory>?) -> [Finding] {
        guard pair.store.capabilities.carriesPurchaseOptions, let storeOptions = pair.theirs.purchaseOptions,
              let configOptions = pair.mine.purchaseOptions else { return [] }
        let theirs = Dictionary(storeOptions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let mine = Dictionary(configOptions.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [Finding] = []
        for (id, option) in mine.sorted(by: { $0.key < $1.key }) {
            let configAt = option.location ?? pair.mine.location
            guard let other = theirs[id] else {
                findings.append(pair.finding(
                    .purchaseOptionMismatch, field: option.field, expected: option.summary, actual: nil,
                    message: "purchase option '\(id)' (\(option.kind)) is in the config but not on the store's "
                        + "product (\(pair.theirs.location))",
                    configLocation: configAt, storeLocation: pair.theirs.location))
                continue
            }
            let storeAt = other.location ?? pair.theirs.location
            if !sameKind(option.kind, other.kind) {
                findings.append(pair.finding(
                    .purchaseOptionMismatch, field: option.field, expected: option.kind.description,
                    actual: other.kind.description,
                    message: "purchase option '\(id)' is \(other.kind) in the store (\(storeAt)), \(option.kind) in "
                        + "the config",
                    configLocation: configAt, storeLocation: storeAt))
            }
            // A store option that states no price defines none (as for products, DESIGN.md §5a.7).
            guard !other.prices.isEmpty else { continue }
            for (territory, price) in option.prices.sorted(by: { $0.key < $1.key })
            where territories?.contains(territory) ?? true {
                let actual = other.prices[territory]
                guard actual != price, actual != nil || pair.storePrices(territory) else { continue }
                findings.append(pair.finding(
                    .purchaseOptionMismatch, field: option.field, territory: territory,
                    expected: price.description, actual: actual?.description,
                    message: actual.map { "purchase option '\(id)' is \($0) in \(territory) in the store (\(storeAt)), "
                        + "\(price) in the config" }
                        ?? "purchase option '\(id)' is \(price) in \(territory) in the config but has no price there "
                        + "in the store (\(storeAt))",
                    configLocation: configAt, storeLocation: storeAt))
            }
        }
        for (id, option) in theirs.sorted(by: { $0.key < $1.key }) where mine[id] == nil && option.isActive != false {
            let storeAt = option.location ?? pair.theirs.location
            findings.append(pair.finding(
                .purchaseOptionMismatch, field: option.field, expected: nil, actual: option.summary,
                message: "purchase option '\(id)' (\(option.kind)) is on the store's product (\(storeAt)) but not in "
                    + "the config's purchaseOptions",
                configLocation: pair.mine.location, storeLocation: option.location))
        }
        return findings
    }

    /// Buy against buy, rent against rent with the same period; the expiration only where both state it.
    private static func sameKind(_ mine: PurchaseOption.Kind, _ theirs: PurchaseOption.Kind) -> Bool {
        switch (mine, theirs) {
        case (.buy, .buy): true
        case let (.rent(period, expiration), .rent(otherPeriod, otherExpiration)):
            period == otherPeriod && (expiration == nil || otherExpiration == nil || expiration == otherExpiration)
        default: false
        }
    }
}
