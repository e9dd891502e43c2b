import CatalogCore

/// Writes a baseline (`--update-baseline`, DESIGN.md §5) as canonical JSON that `BaselineReader` reads back:
///
/// ```json
/// {
///   "version": 1,
///   "findings": [
///     {"rule": "name-mismatch", "productId": "com.example.pro", "field": "name", "territory": null, "store": "appstore", "expected": "Pro", "actual": "Pro Plan"},
///     {"rule": "price-mismatch", "productId": "com.example.pro", "field": "price", "territory": "DE", "store": "play", "expected": "64.99 EUR", "actual": "59.99 EUR"}
///   ]
/// }
/// ```
///
/// `version` then `findings`; the entries in `BaselineEntry` order (product-less first, then product ID, rule,
/// territory, field, store), one entry a line so that a baseline's diff in review is one line per finding; in
/// each entry the keys in the fixed order rule, productId, field, territory, store, expected, actual, every key
/// written (null for none) — but `expected` and `actual` only for an entry that records values (one read from
/// an older file keeps matching on identity alone). Two-space indent, a newline at the end, territories as
/// alpha-2. The same baseline always gives the same bytes.
public struct BaselineWriter: Sendable {
    /// Creates a writer.
    public init() {}

    /// The JSON text, ending in a newline.
    public func write(_ baseline: Baseline) -> String {
        guard !baseline.entries.isEmpty else { return "{\n  \"version\": 1,\n  \"findings\": []\n}\n" }
        var text = "{\n  \"version\": 1,\n  \"findings\": [\n"
        for (index, entry) in baseline.entries.sorted().enumerated() {
            let identity = entry.identity
            text += "    {\"rule\": \(JSONEscaper.quoted(identity.rule.rawValue))"
            text += ", \"productId\": \(literal(identity.productID))"
            text += ", \"field\": \(JSONEscaper.quoted(identity.field.rawValue))"
            text += ", \"territory\": \(literal(identity.territory?.alpha2))"
            text += ", \"store\": \(literal(identity.store?.rawValue))"
            if let values = entry.values {
                text += ", \"expected\": \(literal(values.expected)), \"actual\": \(literal(values.actual))"
            }
            text += "}"
            text += index == baseline.entries.count - 1 ? "\n" : ",\n"
        }
        return text + "  ]\n}\n"
    }

    private func literal(_ text: String?) -> String {
        text.map(JSONEscaper.quoted) ?? "null"
    }
}
