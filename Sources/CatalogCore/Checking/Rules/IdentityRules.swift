/// Which products exist and what they are: `duplicate-product-id`, `product-missing-in-store`,
/// `product-missing-in-config` (with "did you mean" hints), `type-mismatch` and `name-mismatch`.
enum IdentityRules {
    /// Store records with the same ID: one finding per repeated ID, named by the config key when the ID is
    /// matched (a finding on a matched product; DESIGN.md §5a.5), else by the store ID.
    static func storeDuplicates(_ matching: ProductMatching, storePath: String) -> [Finding] {
        matching.storeDuplicates.map { duplicate in
            let id = duplicate.first.id
            let all = [duplicate.first] + duplicate.repeats
            let lines = all.compactMap { $0.location.line }.map(String.init).joined(separator: ", ")
            let key = matching.configKey(forStoreID: id)
            let subject = key.map { $0 == id ? "is" : "store ID '\(id)' is" } ?? "is"
            return Finding(
                rule: .duplicateProductID, productID: (key ?? id).rawValue,
                actual: String(all.count),
                message: "\(subject) listed \(all.count) times in the store" + (lines.isEmpty ? "" : " (lines \(lines))"),
                storeLocation: duplicate.repeats.first?.location, store: storePath)
        }
    }

    /// A config product mapping to a store ID an earlier one (by key order) already holds.
    static func configDuplicate(_ duplicate: ProductMatching.ConfigDuplicate, storePath: String) -> Finding {
        let (product, first) = (duplicate.product, duplicate.first)
        return Finding(rule: .duplicateProductID, productID: product.id.rawValue, expected: duplicate.storeID.rawValue,
                       message: "maps to store ID '\(duplicate.storeID)', like '\(first.id)' (\(first.location))",
                       configLocation: product.location, store: storePath)
    }

    /// Products on one side only, each with a hint when an unmatched ID on the other side is close.
    static func missing(configByStoreID: [ProductID: Product], storeByID: [ProductID: Product],
                        configPath: String, storePath: String) -> [Finding] {
        let unmatchedConfig = configByStoreID.keys.filter { storeByID[$0] == nil }
        let unmatchedStore = storeByID.keys.filter { configByStoreID[$0] == nil }
        let storeHints = NearMatch(candidates: unmatchedStore.map(\.rawValue))
        let configHints = NearMatch(candidates: unmatchedConfig.map(\.rawValue))
        var findings: [Finding] = []
        for id in unmatchedConfig {
            guard let product = configByStoreID[id] else { continue }
            let alias = id == product.id ? "" : " (store ID '\(id)')"
            findings.append(Finding(
                rule: .productMissingInStore, productID: product.id.rawValue,
                message: "is in the config\(alias) but not in the store (\(storePath))",
                hint: storeHints.best(for: id.rawValue).map { NearMatch.hint(for: id.rawValue, suggesting: $0) },
                configLocation: product.location, store: storePath))
        }
        for id in unmatchedStore {
            guard let product = storeByID[id] else { continue }
            let hint = configHints.best(for: id.rawValue).map { candidate in
                NearMatch.hint(for: id.rawValue,
                               suggesting: configByStoreID[ProductID(candidate)]?.id.rawValue ?? candidate)
            }
            findings.append(Finding(
                rule: .productMissingInConfig, productID: id.rawValue,
                message: "is in the store but not in the config (\(configPath))",
                hint: hint, storeLocation: product.location, store: storePath))
        }
        return findings
    }

    /// `type-mismatch` and `name-mismatch` on a matched pair. A Play `one-time` product matches `consumable`
    /// and `non-consumable` (DESIGN.md §4): the type is compared only where both sides are specific.
    static func check(_ pair: ProductPair) -> [Finding] {
        var findings: [Finding] = []
        if let expected = pair.mine.kind, let actual = pair.theirs.kind, !expected.matches(actual) {
            findings.append(pair.finding(
                .typeMismatch, expected: expected.rawValue, actual: actual.rawValue,
                message: "is \(actual.rawValue) in the store (\(pair.storeAt(.type))), "
                    + "\(expected.rawValue) in the config"))
        }
        if let expected = pair.mine.referenceName, let actual = pair.theirs.referenceName, expected != actual {
            findings.append(pair.finding(
                .nameMismatch, expected: expected, actual: actual,
                message: "reference name is '\(actual)' in the store (\(pair.storeAt(.name))), "
                    + "'\(expected)' in the config"))
        }
        return findings
    }
}
