import Foundation
import TestSupport
import Testing

/// Issue #26, item 2: storefront currencies change on dated days (DESIGN.md §4 "Currencies change"). Fixtures:
/// `Tests/Fixtures/prices/currency` (see its NOTES.md).
@Suite("currency changeovers (issue #26)")
struct CurrencyChangeoverTests {
    static let folder = "Tests/Fixtures/prices/currency"

    /// `check` as JSON: exit code and the findings' (rule, product, territory) and messages.
    static func check(_ config: String, asOf: String) throws -> (Int32, [String], [String]) {
        let result = try CommandRunner.run(["check", "--config", "\(folder)/\(config)",
                                            "--store", "asc-json:\(folder)/snapshot-2025", "--as-of", asOf,
                                            "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout)\(result.stderr)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        return (result.exitCode,
                findings.map { "\($0["rule"] as? String ?? "?") \($0["productId"] as? String ?? "-") "
                    + "\($0["territory"] as? String ?? "-")" },
                findings.map { $0["message"] as? String ?? "" })
    }

    @Test("BG: 19.99 BGN as of 2026-11-28 is currency-not-valid-at-date, naming the legal conversion")
    func afterTheChangeover() throws {
        // Act
        let (exitCode, findings, messages) = try Self.check("bgn.yml", asOf: "2026-11-28")

        // Assert: the 2025 snapshot's BGN row still reads (and matches); the config's price is the error.
        #expect(exitCode == 1)
        #expect(findings == ["currency-not-valid-at-date com.example.atlas BG"])
        #expect(messages == ["BG is 19.99 BGN in the config, but the BG storefront is priced in EUR since "
            + "2026-01-01 (as of 2026-11-28); at the legal rate 1.95583 that is 10.22 EUR"])
    }

    @Test("BG: 19.99 BGN as of 2025-11-28 is a currency-changeover-ahead note, and the 2025 snapshot reads cleanly")
    func beforeTheChangeover() throws {
        // Act
        let (exitCode, findings, messages) = try Self.check("bgn.yml", asOf: "2025-11-28")

        // Assert
        #expect(exitCode == 0)
        #expect(findings == ["currency-changeover-ahead - BG"])
        #expect(messages == ["the BG storefront moves from BGN to EUR on 2026-01-01, in 34 days (at 1.95583 BGN "
            + "per EUR); 1 product is priced in BGN there; add the EUR price from 2026-01-01"])
    }

    @Test("no note when the changeover is more than 90 days ahead", arguments: ["2025-10-02", "2025-06-01"])
    func farAhead(asOf: String) throws {
        let (exitCode, findings, _) = try Self.check("bgn.yml", asOf: asOf)
        #expect(exitCode == 0)
        #expect(findings.isEmpty)
    }

    @Test("the EUR price before the changeover is not the storefront's currency either")
    func euroTooEarly() throws {
        // Act
        let (_, findings, _) = try Self.check("eur.yml", asOf: "2025-11-28")

        // Assert: and it differs from the store's BGN row.
        #expect(findings.contains("currency-not-valid-at-date com.example.atlas BG"))
        #expect(findings.contains("price-mismatch com.example.atlas BG"))
    }

    @Test("diff shows the changeover at the legal rate")
    func diffAtTheLegalRate() throws {
        // Act
        let result = try CommandRunner.run(["diff", "\(Self.folder)/bgn.yml", "\(Self.folder)/eur.yml"])

        // Assert
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("19.99 BGN -> 10.22 EUR (changeover at 1.95583)"), "\(result.stdout)")
    }
}
