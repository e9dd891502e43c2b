import CatalogCore

/// A result with `count` findings on one store, every severity, for the tests of capped reports.
/// `message` is repeated in every finding (give it multi-byte text to test byte limits).
func manyFindings(_ count: Int, message: String = "DE is 8.99 EUR in the store, 9.99 EUR in the config") -> CheckResult {
    let store = "catalogs/appstore.storekit"
    let severities: [Severity] = [.error, .warning, .note]
    let findings = (0..<count).map { index in
        Finding(rule: .priceMismatch, severity: severities[index % 3], productID: "com.example.product.\(index)",
                territory: Territory(code: "DE"), expected: "9.99 EUR", actual: "8.99 EUR", message: message,
                configLocation: SourceLocation(path: "catalogs/products.yml", line: index + 1, column: 5),
                storeLocation: SourceLocation(path: store, line: index + 1, column: 9), store: store,
                storeInput: StoreInputID(position: 0), storeKind: .appStore)
    }
    return CheckResult(
        configPath: "catalogs/products.yml", configFormat: .catalog, configProducts: count,
        comparisons: [StoreComparison(input: StoreInputID(position: 0), storePath: store, storeFormat: .storekit, configProducts: count,
                                      storeProducts: count, matchedProducts: count)],
        findings: CheckResult.outputOrder(findings, comparisons: []), strict: false)
}

/// The canonical result with no finding left: what a clean run reports.
func cleanResult() -> CheckResult {
    var result = manyFindings(0)
    result.staleBaselineEntries = 0
    return result
}
