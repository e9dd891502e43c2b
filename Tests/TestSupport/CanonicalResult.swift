import CatalogCore

/// One canonical result with every kind of finding shape: product, territory, file note, config-only, a hint,
/// a suppressed finding (baseline), a stale baseline entry, and a store reference name that is hostile in
/// every output language. Every reporter has a snapshot of it.
public enum CanonicalResult {
    /// A reference name holding HTML, quotes, Markdown and workflow-command syntax, a line break and terminal
    /// escape sequences: it must come out inert in every format.
    public static let hostileName =
        "<script>alert(\"x\")</script> & 'VIP' | 100% , a:b `tick` *bold*\nfile.swift:1:1: error: forged \u{1B}[31mred\u{1B}[0m\u{7}"

    /// The result; `stores: 2` adds a Play input with one finding of its own.
    public static func make(stores: Int = 1) -> CheckResult {
        let config = "catalogs/products.yml"
        let storekit = "catalogs/appstore.storekit"
        let play = "catalogs/play"
        func at(_ path: String, _ line: Int, _ column: Int) -> SourceLocation {
            SourceLocation(path: path, line: line, column: column)
        }
        var findings = [
            Finding(rule: .introOfferExceedsPeriod, productID: "com.example.weekly", expected: "P1W",
                    actual: "free-trial P1M",
                    message: "free trial of P1M (30 days) is longer than the subscription period P1W (7 days)",
                    configLocation: at(config, 40, 7), store: nil),
            Finding(rule: .storekitSingleStorefront, productID: nil, territory: Territory(code: "US"), actual: "US",
                    message: "only the US storefront is priced in this StoreKit file; other territories were not compared",
                    storeLocation: SourceLocation(path: storekit), store: storekit),
            Finding(rule: .priceMismatch, productID: "com.example.app.premium.monthly", territory: Territory(code: "DE"),
                    expected: "9.99 EUR", actual: "8.99 EUR",
                    message: "DE is 8.99 EUR in the store (\(storekit):88:9), 9.99 EUR in the config",
                    configLocation: at(config, 14, 5), storeLocation: at(storekit, 88, 9), store: storekit),
            Finding(rule: .productMissingInConfig, productID: "com.example.coins.1OO",
                    message: "is in the store but not in the config (\(config))",
                    hint: "did you mean 'com.example.coins.100'?", storeLocation: at(storekit, 12, 7), store: storekit),
            Finding(rule: .nameMismatch, productID: "com.example.lifetime", expected: "Lifetime",
                    actual: hostileName,
                    message: "reference name is '\(hostileName)' in the store (\(storekit):30:7), 'Lifetime' in the config",
                    configLocation: at(config, 30, 5), storeLocation: at(storekit, 30, 7), store: storekit),
            Finding(rule: .priceMismatch, productID: "com.example.app.premium.monthly", territory: Territory(code: "GB"),
                    expected: "8.99 GBP", actual: "7.99 GBP",
                    message: "GB is 7.99 GBP in the store (\(storekit):90:9), 8.99 GBP in the config",
                    configLocation: at(config, 15, 5), storeLocation: at(storekit, 90, 9), store: storekit,
                    suppression: Suppression(kind: .baseline, reason: "recorded in catalogcheck-baseline.json")),
        ]
        for index in findings.indices where findings[index].store != nil {
            findings[index].storeInput = StoreInputID(position: 0)
            findings[index].storeKind = .appStore
        }
        var comparisons = [StoreComparison(input: StoreInputID(position: 0), storePath: storekit, storeFormat: .storekit, configProducts: 4,
                                           storeProducts: 4, matchedProducts: 3,
                                           productIDs: ["com.example.app.premium.monthly", "com.example.coins.100",
                                                        "com.example.coins.1OO", "com.example.lifetime",
                                                        "com.example.weekly"])]
        if stores > 1 {
            findings.append(Finding(
                rule: .productMissingInStore, productID: "com.example.lifetime",
                message: "is in the config but not in the store (\(play))", configLocation: at(config, 30, 5),
                store: play, storeInput: StoreInputID(position: 1), storeKind: .play))
            comparisons.append(StoreComparison(input: StoreInputID(position: 1), storePath: play, storeFormat: .playJSON, configProducts: 4,
                                               storeProducts: 3, matchedProducts: 3,
                                               productIDs: ["com.example.app.premium.monthly", "com.example.coins.100",
                                                            "com.example.lifetime", "com.example.weekly"],
                                               remarks: ["2 auto-filled prices are not compared: with Auto Fill Prices true, Price is one "
                                                        + "amount in the merchant's home currency, not a price for a country"]))
        }
        return CheckResult(configPath: config, configFormat: .catalog, configProducts: 4, comparisons: comparisons,
                           findings: CheckResult.outputOrder(findings, comparisons: comparisons), strict: false,
                           staleBaselineEntries: 1)
    }
}

