import CatalogCore

/// The config's `priceChange` (DESIGN.md §2c): what existing subscribers get when an auto-renewable
/// subscription's price changes, for the product and per territory. Read with the config's care: each problem is
/// recorded at its value with the key path, and reading goes on with the next value.
///
/// ```yaml
/// priceChange: { existing: preserve, increase: opt-in, since: 2026-12-01 }
/// priceChange: { existing: update, territories: { DE: { existing: preserve } } }
/// ```
extension ConfigValidator {
    static let priceChangeKeys = ["existing", "increase", "since", "territories"]
    static let priceChangeTerritoryKeys = ["existing", "increase", "since"]
    static let priceChangeHelp = "e.g. priceChange: { existing: preserve } or { existing: update, increase: opt-in }"

    /// Reads `priceChange`; only auto-renewable subscriptions have one (the key is refused on any other type,
    /// and left unread when the type itself is unknown).
    func priceChange(_ field: ConfigEntry, path: ConfigPath,
                     productKind: ProductKind?) throws(CatalogReadError) -> PriceChangePolicy? {
        guard let productKind else { return nil }
        guard productKind == .autoRenewable else {
            throw CatalogReadError(
                "\(path): only auto-renewable subscriptions have a price change decision for existing subscribers "
                    + "(type is \(productKind.rawValue))",
                at: field.keyLocation)
        }
        let fields = try mapping(field.value, path: path, allowed: Self.priceChangeKeys)
        if fields.isEmpty {
            throw CatalogReadError("\(path): decides nothing (\(Self.priceChangeHelp))", at: field.keyLocation)
        }
        var policy = PriceChangePolicy(product: decision(fields, path: path, at: field.keyLocation))
        if let territories = fields.first(where: { $0.key == "territories" }) {
            policy.territories = problems.recording { () throws(CatalogReadError) in
                try priceChangeTerritories(territories.value, path: path.appending(key: "territories"))
            } ?? [:]
        }
        return policy
    }

    /// `territories:`: a mapping of territory codes to decisions; a territory written twice (alpha-2 and
    /// alpha-3) is refused at the second.
    private func priceChangeTerritories(_ node: ConfigNode,
                                        path: ConfigPath) throws(CatalogReadError) -> [Territory: PriceChangeDecision] {
        try territoryMapping(node, path: path, of: "decisions", example: "DE: { existing: preserve }",
                             twice: "decided") { entry, entryPath throws(CatalogReadError) in
            let fields = try mapping(entry.value, path: entryPath, allowed: Self.priceChangeTerritoryKeys)
            guard !fields.isEmpty else {
                throw CatalogReadError("\(entryPath): decides nothing (e.g. { existing: preserve })",
                                       at: entry.keyLocation)
            }
            return decision(fields, path: entryPath, at: entry.keyLocation)
        }
    }

    /// The `existing`, `increase` and `since` of one entry; each bad value is recorded and left out.
    private func decision(_ fields: [ConfigEntry], path: ConfigPath, at location: SourceLocation) -> PriceChangeDecision {
        var decision = PriceChangeDecision(location: location)
        for field in fields {
            let fieldPath = path.appending(key: field.key)
            do throws(CatalogReadError) {
                switch field.key {
                case "existing":
                    decision.existing = try choice(field.value, path: fieldPath, PriceChangeDecision.Existing.self,
                                                   what: "a decision for existing subscribers")
                case "increase":
                    decision.increase = try choice(field.value, path: fieldPath, PriceChangeDecision.Increase.self,
                                                   what: "a Play price increase type")
                case "since":
                    decision.since = try date(field.value, path: fieldPath)
                default:
                    break
                }
            } catch {
                problems.add(error)
            }
        }
        return decision
    }

    /// One of an enumeration's raw values, with the others named (and a near miss suggested) when it is none.
    private func choice<Value: RawRepresentable & CaseIterable>(
        _ node: ConfigNode, path: ConfigPath, _ type: Value.Type, what: String
    ) throws(CatalogReadError) -> Value where Value.RawValue == String {
        let text = try string(node, path: path)
        if let value = Value(rawValue: text) { return value }
        let names = Value.allCases.map(\.rawValue)
        var message = "\(path): \(ConfigScalar.quote(text)) is not \(what) (\(names.joined(separator: " or ")))"
        if let suggestion = nearest(text, in: names) { message += "; did you mean \"\(suggestion)\"?" }
        throw CatalogReadError(message, at: node.location)
    }
}
