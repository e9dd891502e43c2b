/// Subscription groups: `group-mismatch`, `group-level-mismatch`, `group-missing-in-store` (DESIGN.md §5a.10).
enum GroupRules {
    /// Group rules need a store input that states groups; they never run against Play, where the subscription
    /// is part of the product's identity.
    static func apply(to store: Catalog) -> Bool {
        store.capabilities.expressesGroups && store.store != .play
    }

    /// Group and level on a matched pair.
    static func check(_ pair: ProductPair) -> [Finding] {
        guard apply(to: pair.store) else { return [] }
        var findings: [Finding] = []
        let expectedGroup = pair.mine.groupKey.map { pair.config.groupName(forKey: $0) ?? $0 }
        let actualGroup = pair.theirs.groupKey.map { pair.store.groupName(forKey: $0) ?? $0 }
        if let expected = expectedGroup, let actual = actualGroup, expected != actual {
            findings.append(pair.finding(
                .groupMismatch, expected: expected, actual: actual,
                message: "is in group '\(actual)' in the store (\(pair.storeAt(.group))), '\(expected)' in the config"))
        }
        if let expected = pair.mine.level, let actual = pair.theirs.level, expected != actual {
            findings.append(pair.finding(
                .groupLevelMismatch, expected: String(expected), actual: String(actual),
                message: "has level \(actual) in the store (\(pair.storeAt(.level))), \(expected) in the config"))
        }
        return findings
    }

    /// Config groups with no store group of the same reference name.
    static func missing(config: Catalog, relevant: [Product], store: Catalog) -> [Finding] {
        guard apply(to: store), store.products.contains(where: { $0.kind == .autoRenewable }) else { return [] }
        let storeNames = Set(store.groups.map(\.name))
        let relevantIDs = Set(relevant.map(\.id))
        var findings: [Finding] = []
        for group in config.groups where !storeNames.contains(group.name) {
            let members = config.products.filter { $0.groupKey == group.key }
            // A group whose every product is meant for other stores is not expected here.
            if !members.isEmpty, !members.contains(where: { relevantIDs.contains($0.id) }) { continue }
            // Nor is a group of non-renewing products only: Play prepaid base plans belong to a subscription,
            // the App Store has no groups for them (DESIGN.md §4).
            if !members.isEmpty, members.allSatisfy({ $0.kind == .nonRenewing }) { continue }
            let known = storeNames.sorted().map { "'\($0)'" }.joined(separator: ", ")
            findings.append(Finding(
                rule: .groupMissingInStore, productID: group.key, expected: group.name,
                message: "group '\(group.name)' has no counterpart in the store"
                    + (known.isEmpty ? "" : " (store groups: \(known))"),
                configLocation: group.location, storeLocation: SourceLocation(path: store.path), store: store.path))
        }
        return findings
    }
}
