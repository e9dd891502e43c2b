import CatalogCore

/// `priceChange` in both exporters (DESIGN.md §2c): a config's own decisions, or what a store snapshot states
/// (`existing: preserve` where App Store Connect's latest change of a territory kept existing subscribers on
/// their price), so an export read back as a config keeps them.
enum PriceChangeExport {
    /// The policy to write for a product; nil when there is none.
    static func policy(of product: Product) -> PriceChangePolicy? {
        product.priceChange ?? PriceChangePolicy.stated(by: product.recordedPriceChanges)
    }

    /// A decision's fields in key order (`existing`, `increase`, `since`), as text.
    static func fields(_ decision: PriceChangeDecision) -> [(key: String, value: String)] {
        var fields: [(key: String, value: String)] = []
        if let existing = decision.existing { fields.append(("existing", existing.rawValue)) }
        if let increase = decision.increase { fields.append(("increase", increase.rawValue)) }
        if let since = decision.since { fields.append(("since", since.description)) }
        return fields
    }

    /// The territories' entries, sorted by territory.
    static func territories(_ policy: PriceChangePolicy) -> [(territory: Territory, decision: PriceChangeDecision)] {
        policy.territories.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

extension CatalogYAMLExporter {
    /// `priceChange:` with the product's fields, then `territories:` one flow mapping a line.
    func writePriceChange(of product: Product, to out: inout YAMLLines) {
        guard let policy = PriceChangeExport.policy(of: product) else { return }
        out.line("    priceChange:")
        for field in PriceChangeExport.fields(policy.product) {
            out.line("      \(field.key): \(field.value)")
        }
        let territories = PriceChangeExport.territories(policy)
        guard !territories.isEmpty else { return }
        out.line("      territories:")
        for (territory, decision) in territories {
            let fields = PriceChangeExport.fields(decision).map { "\($0.key): \($0.value)" }
            out.line("        \(territory.alpha2): { \(fields.joined(separator: ", ")) }")
        }
    }
}

extension CatalogJSONExporter {
    /// `"priceChange": {"existing", "increase", "since", "territories": {"DE": {…}}}`, keys sorted.
    func writePriceChange(of product: Product, to json: inout PrettyJSONWriter) {
        guard let policy = PriceChangeExport.policy(of: product) else { return }
        json.key("priceChange")
        json.beginObject()
        for field in PriceChangeExport.fields(policy.product) {
            json.member(field.key, field.value)
        }
        let territories = PriceChangeExport.territories(policy)
        if !territories.isEmpty {
            json.key("territories")
            json.beginObject()
            for (territory, decision) in territories {
                json.key(territory.alpha2)
                json.beginObject()
                for field in PriceChangeExport.fields(decision) {
                    json.member(field.key, field.value)
                }
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
    }
}
