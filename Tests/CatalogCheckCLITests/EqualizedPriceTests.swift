import Foundation
import TestSupport
import Testing

/// Issue #26, item 1: equalized prices (DESIGN.md §4 "Equalized prices"). App Store Connect keeps each in-app
/// purchase price as manual or automatic; a config that writes `others: equalized` (or `equalized: true`) fixes
/// the listed territories and leaves the others to the store. Fixtures: `Tests/Fixtures/prices/equalized` (see
/// its NOTES.md for the documented shapes).
@Suite("equalized prices (issue #26)")
struct EqualizedPriceTests {
    static let folder = "Tests/Fixtures/prices/equalized"
    static let asOf = ["--as-of", "2026-11-28"]

    /// `check --config CONFIG --store asc-json:STORE --format json`: exit code and (rule, territory) pairs.
    static func check(_ config: String, _ store: String,
                      extra: [String] = []) throws -> (exitCode: Int32, findings: [String], messages: [String]) {
        let result = try CommandRunner.run(["check", "--config", "\(folder)/\(config)",
                                            "--store", "asc-json:\(folder)/\(store)", "--format", "json"]
                                           + asOf + extra)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout)\(result.stderr)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        return (result.exitCode,
                findings.map { "\($0["rule"] as? String ?? "?") \($0["territory"] as? String ?? "-")" },
                findings.map { $0["message"] as? String ?? "" })
    }

    @Test("an automatic-price update between two snapshots gives no finding against an equalized config",
          arguments: ["equalized.yml", "equalized-prices.yml"])
    func automaticUpdateEqualized(config: String) throws {
        // Arrange: before and after Apple's tax and exchange-rate update (DE, GB, JP automatic amounts moved).
        // Act
        let before = try Self.check(config, "before")
        let after = try Self.check(config, "after")

        // Assert
        #expect(before.exitCode == 0 && before.findings.isEmpty, "\(before.findings)")
        #expect(after.exitCode == 0 && after.findings.isEmpty, "\(after.findings)")
    }

    @Test("the same update is price-mismatch in every automatic territory against a pinned config")
    func automaticUpdatePinned() throws {
        // Arrange: pinned.yml fixes the four amounts of `before`.
        // Act
        let before = try Self.check("pinned.yml", "before")
        let after = try Self.check("pinned.yml", "after")

        // Assert
        #expect(before.exitCode == 0 && before.findings.isEmpty, "\(before.findings)")
        #expect(after.exitCode == 1)
        #expect(after.findings == ["price-mismatch DE", "price-mismatch GB", "price-mismatch JP"])
    }

    @Test("a manual override in an equalized territory is price-not-equalized (a warning)")
    func manualOverride() throws {
        // Arrange: DE is set by hand to 1.29 EUR (`manualPrices`).
        // Act
        let result = try Self.check("equalized.yml", "override")
        let strict = try Self.check("equalized.yml", "override", extra: ["--strict"])

        // Assert
        #expect(result.findings == ["price-not-equalized DE"])
        #expect(result.messages.first?.hasPrefix("DE is set by hand to 1.29 EUR in the store (") == true,
                "\(result.messages)")
        #expect(result.exitCode == 0)
        #expect(strict.exitCode == 1)
    }

    @Test("export of automatic IAP prices writes the manual rows and others: equalized, and reads back clean")
    func exportWritesEqualized() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("products.yml")

        // Act
        let exported = try CommandRunner.run(["export", "asc-json:\(Self.folder)/override", "--output", export.path]
                                             + Self.asOf)
        let text = try String(contentsOf: export, encoding: .utf8)
        let check = try CommandRunner.run(["check", "--config", export.path, "--store",
                                           "asc-json:\(Self.folder)/after", "--strict"] + Self.asOf)

        // Assert: the two manual rows, no automatic amount.
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(ExportRoundTripTests.contentLines(text).joined(separator: "\n") == """
            version: 1
            app:
              baseTerritory: US
            products:
              com.example.coins.100:
                type: consumable
                name: 100 Coins
                clearedForSale: true
                prices:
                  DE: 1.29 EUR
                  US: 0.99 USD
                  others: equalized

            """, "\(text)")
        // Against the snapshot where DE is automatic again at 1.09 EUR: that is drift from the pinned DE.
        #expect(check.exitCode == 1, "\(check.stdout)")
        #expect(check.stdout.contains("price-mismatch"), "\(check.stdout)")
    }

    @Test("export of one manual base price writes price: and equalized: true")
    func exportSingleBase() throws {
        // Act
        let exported = try CommandRunner.run(["export", "asc-json:\(Self.folder)/before"] + Self.asOf)

        // Assert
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("    price: 0.99 USD\n    equalized: true\n"), "\(exported.stdout)")
        #expect(!exported.stdout.contains("JP"), "\(exported.stdout)")
    }

    @Test("others: equalized and equalized: true are round-tripped by export, for every snapshot",
          arguments: ["before", "after", "override"])
    func fixpoint(store: String) throws {
        try ExportRoundTripTests.expectFixpoint(store: "asc-json:" + Fixtures.repositoryRoot.appendingPathComponent("\(Self.folder)/\(store)").path)
    }
}
