import CatalogCore
import CatalogReports
import Foundation
import TestSupport
import Testing

/// One canonical result with every kind of finding shape: product, territory, group (no product), file note,
/// config-only, a hint, and user text that needs escaping.
enum CanonicalResult {
    static func make(stores: Int = 1) -> CheckResult {
        let config = "catalogs/products.yml"
        let storekit = "catalogs/appstore.storekit"
        let play = "catalogs/play"
        func at(_ path: String, _ line: Int, _ column: Int) -> CatalogCore.SourceLocation {
            CatalogCore.SourceLocation(path: path, line: line, column: column)
        }
        var findings = [
            Finding(rule: .introOfferExceedsPeriod, productID: "com.example.weekly", expected: "P1W",
                    actual: "free-trial P1M",
                    message: "free trial of P1M (30 days) is longer than the subscription period P1W (7 days)",
                    configLocation: at(config, 40, 7), store: nil),
            Finding(rule: .storekitSingleStorefront, productID: nil, territory: Territory(code: "US"), actual: "US",
                    message: "only the US storefront is priced in this StoreKit file; other territories were not compared",
                    storeLocation: CatalogCore.SourceLocation(path: storekit), store: storekit),
            Finding(rule: .priceMismatch, productID: "com.example.app.premium.monthly", territory: Territory(code: "DE"),
                    expected: "9.99 EUR", actual: "8.99 EUR",
                    message: "DE is 8.99 EUR in the store (\(storekit):88:9), 9.99 EUR in the config",
                    configLocation: at(config, 14, 5), storeLocation: at(storekit, 88, 9), store: storekit),
            Finding(rule: .productMissingInConfig, productID: "com.example.coins.1OO",
                    message: "is in the store but not in the config (\(config))",
                    hint: "did you mean 'com.example.coins.100'?", storeLocation: at(storekit, 12, 7), store: storekit),
            Finding(rule: .nameMismatch, productID: "com.example.lifetime", expected: "Lifetime <\"VIP\"> & more",
                    actual: "Lifetime",
                    message: "reference name is 'Lifetime' in the store (\(storekit):30:7), 'Lifetime <\"VIP\"> & more' in the config",
                    configLocation: at(config, 30, 5), storeLocation: at(storekit, 30, 7), store: storekit),
        ]
        var comparisons = [StoreComparison(storePath: storekit, storeFormat: .storekit, configProducts: 4,
                                           storeProducts: 4, matchedProducts: 3)]
        if stores > 1 {
            findings.append(Finding(
                rule: .productMissingInStore, productID: "com.example.lifetime",
                message: "is in the config but not in the store (\(play))", configLocation: at(config, 30, 5),
                store: play))
            comparisons.append(StoreComparison(storePath: play, storeFormat: .playJSON, configProducts: 4,
                                               storeProducts: 3, matchedProducts: 3,
                                               remarks: ["2 auto-filled prices are taken to be in USD (--play-currency)"]))
        }
        return CheckResult(configPath: config, configFormat: .catalog, configProducts: 4, comparisons: comparisons,
                           findings: findings, strict: false)
    }
}

@Suite("Reporters")
struct ReporterTests {
    @Test("every format has a snapshot of the canonical result", arguments: ReportFormat.allCases)
    func snapshot(format: ReportFormat) {
        let output = format.reporter.report(CanonicalResult.make(), context: ReportContext())
        expectSnapshot(output, named: "canonical.\(format.rawValue)")
    }

    @Test("two stores: a header per store, a summary per store, and a total", arguments: ReportFormat.allCases)
    func twoStores(format: ReportFormat) {
        let output = format.reporter.report(CanonicalResult.make(stores: 2), context: ReportContext())
        expectSnapshot(output, named: "two-stores.\(format.rawValue)")
    }

    @Test("text: colors only when asked")
    func colors() {
        let plain = TextReporter().report(CanonicalResult.make(), context: ReportContext(colors: false))
        let colored = TextReporter().report(CanonicalResult.make(), context: ReportContext(colors: true))
        #expect(!plain.contains("\u{1B}["))
        #expect(colored.contains("\u{1B}[1;31merror\u{1B}[0m"))
    }

    @Test("json: exit code and counts in the summary, nulls written out")
    func jsonSummary() throws {
        let output = JSONReporter().report(CanonicalResult.make(), context: ReportContext())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["exitCode"] as? Int == 1)
        #expect(summary["errors"] as? Int == 2)
        #expect(summary["warnings"] as? Int == 1)
        #expect(summary["notes"] as? Int == 2)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 5)
        #expect(findings[0]["store"] is NSNull)
        #expect(findings[0]["hint"] is NSNull)
    }
}
