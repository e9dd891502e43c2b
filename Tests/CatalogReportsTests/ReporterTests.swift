import CatalogCore
import CatalogReports
import Foundation
import TestSupport
import Testing

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
        #expect(summary["suppressed"] as? Int == 1)
        #expect(summary["stale"] as? Int == 1)
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 6)
        #expect(findings[0]["store"] is NSNull)
        #expect(findings[0]["hint"] is NSNull)
        #expect(findings[0]["suppression"] is NSNull)
        let suppressed = try #require(findings.first { !($0["suppression"] is NSNull) })
        #expect(suppressed["territory"] as? String == "GB")
        #expect(suppressed["suppression"] as? [String: String] == ["kind": "baseline",
                                                                    "reason": "recorded in catalogcheck-baseline.json"])
        let named = try #require(findings.first { $0["rule"] as? String == "name-mismatch" })
        #expect(named["actual"] as? String == CanonicalResult.hostileName)
    }

    @Test("the changed count (baselined findings whose values moved) is in every summary that shows stale")
    func changedCount() throws {
        var result = CanonicalResult.make()
        result.changedBaselineFindings = 2
        let policyLine = "1 finding suppressed (rules-file ignore entries or the baseline) and not shown; "
            + "1 baseline entry matches no finding (stale); 2 findings changed since the baseline recorded them "
            + "(new drift)"

        let json = JSONReporter().report(result, context: ReportContext())
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect((object["summary"] as? [String: Any])?["changed"] as? Int == 2)
        let text = TextReporter().report(result, context: ReportContext(colors: false))
        #expect(text.hasSuffix("\n1 finding suppressed (rules-file ignore entries or the baseline); 1 baseline entry "
                               + "matches no finding (stale); 2 findings changed since the baseline recorded them "
                               + "(new drift)\n"))
        #expect(MarkdownReporter().report(result, context: ReportContext()).contains(policyLine))
        #expect(GitHubReporter().report(result, context: ReportContext()).hasSuffix("; " + policyLine + "\n"))
        #expect(HTMLReporter().report(result, context: ReportContext()).contains(policyLine))

        // One is singular; none says nothing.
        result.changedBaselineFindings = 1
        #expect(TextReporter().report(result, context: ReportContext(colors: false))
            .contains("; 1 finding changed since the baseline recorded it (new drift)\n"))
        result.changedBaselineFindings = 0
        #expect(!TextReporter().report(result, context: ReportContext(colors: false)).contains("changed"))
    }

    @Test("JSON summary.products: in all, the sums of the per-store counts (before: the config's own total beside sums)")
    func jsonProductCounts() throws {
        let output = JSONReporter().report(CanonicalResult.make(stores: 2), context: ReportContext())

        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let summary = try #require(document["summary"] as? [String: Any])
        let stores = try #require(summary["stores"] as? [[String: Any]]).compactMap { $0["products"] as? [String: Int] }
        #expect(stores == [["config": 4, "store": 4, "matched": 3], ["config": 4, "store": 3, "matched": 3]])
        #expect(summary["products"] as? [String: Int] == ["config": 8, "store": 7, "matched": 6])
        // The config's own findings in their own entry, as in the text and Markdown summaries.
        let config = try #require(summary["config"] as? [String: Any])
        #expect(config["path"] as? String == "catalogs/products.yml")
        #expect([config["errors"], config["warnings"], config["notes"]].map { $0 as? Int } == [0, 1, 0])
    }

    @Test("text: the config's own findings count in their own line, never in the first store's")
    func textConfigLine() {
        let output = TextReporter().report(CanonicalResult.make(stores: 2), context: ReportContext(colors: false))

        let lines = output.split(separator: "\n").map(String.init)
        #expect(Array(lines.suffix(5)) == [
            "0 errors, 1 warning, 0 notes — on the config and the rules file alone (config: products.yml)",
            "2 errors, 0 warnings, 2 notes — 3 products compared (store: appstore.storekit (storekit), "
                + "config: products.yml)",
            "1 error, 0 warnings, 0 notes — 3 products compared (store: play (play-json), config: products.yml)",
            "in all: 3 errors, 1 warning, 2 notes",
            "1 finding suppressed (rules-file ignore entries or the baseline); 1 baseline entry matches no finding (stale)",
        ])
    }

    @Test("text: the hostile name is inert, one finding is one line, suppressed findings are left out")
    func textEscapes() {
        let output = TextReporter().report(CanonicalResult.make(), context: ReportContext(colors: false))
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{7}"))
        #expect(lines.filter { $0.hasPrefix("file.swift") }.isEmpty)
        // 5 findings, the config's own line, the store's, in all, the policy line, the final newline
        #expect(lines.count == 10)
        let named = lines.first { $0.contains("[name-mismatch]") } ?? ""
        #expect(named.contains(#"\u{A}file.swift:1:1: error: forged \u{1B}[31mred\u{1B}[0m\u{7}'"#))
        #expect(!output.contains("GB is 7.99 GBP"))
    }
}
