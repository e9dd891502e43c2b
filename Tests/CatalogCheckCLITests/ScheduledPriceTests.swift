import Foundation
import TestSupport
import Testing

/// Issue #26, item 3: scheduled prices in the config (DESIGN.md §4 "Scheduled prices"), compared with App Store
/// Connect's dated rows. Fixtures: `Tests/Fixtures/prices/schedule` (see its NOTES.md).
@Suite("scheduled prices (issue #26)")
struct ScheduledPriceTests {
    static let folder = "Tests/Fixtures/prices/schedule"

    static func check(_ config: String, _ store: String, asOf: String = "2026-11-28") throws -> (Int32, [String]) {
        let result = try CommandRunner.run(["check", "--config", "\(folder)/\(config)",
                                            "--store", "asc-json:\(folder)/\(store)", "--as-of", asOf,
                                            "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout)\(result.stderr)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        return (result.exitCode, findings.map {
            "\($0["rule"] as? String ?? "?") \($0["territory"] as? String ?? "-") "
                + "\($0["expected"] as? String ?? "null") / \($0["actual"] as? String ?? "null")"
        })
    }

    @Test("the same schedule on both sides, and one price against a scheduled row, give no finding", arguments: [
        ("increase.yml", "scheduled"), ("plain.yml", "scheduled"), ("plain.yml", "unscheduled"),
        ("no-change.yml", "unscheduled"),
    ])
    func agreeing(config: String, store: String) throws {
        let (exitCode, findings) = try Self.check(config, store)
        #expect(exitCode == 0)
        #expect(findings.isEmpty)
    }

    @Test("a scheduled increase on one side only is price-schedule-mismatch")
    func oneSideOnly() throws {
        // Act
        let configOnly = try Self.check("increase.yml", "unscheduled")
        let storeOnly = try Self.check("no-change.yml", "scheduled")

        // Assert
        #expect(configOnly.0 == 1)
        #expect(configOnly.1 == ["price-schedule-mismatch US 5.99 USD from 2027-01-01 / null"])
        #expect(storeOnly.0 == 1)
        #expect(storeOnly.1 == ["price-schedule-mismatch US null / 5.99 USD from 2027-01-01"])
    }

    @Test("after the start, the scheduled entry is the price in effect on both sides")
    func afterTheStart() throws {
        let (exitCode, findings) = try Self.check("increase.yml", "scheduled", asOf: "2027-01-01")
        #expect(exitCode == 0)
        #expect(findings.isEmpty)
        let plain = try Self.check("plain.yml", "scheduled", asOf: "2027-01-01")
        #expect(plain.1 == ["price-mismatch US 4.99 USD / 5.99 USD"])
    }

    @Test("export writes a territory with scheduled rows as a schedule, and the round trip holds")
    func export() throws {
        // Act
        let result = try CommandRunner.run(["export", "asc-json:\(Self.folder)/scheduled", "--as-of", "2026-11-28"])

        // Assert
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("    prices:\n      US: [{price: 4.99 USD}, {from: 2027-01-01, price: 5.99 USD}]\n"),
                "\(result.stdout)")
        try ExportRoundTripTests.expectFixpoint(store: "asc-json:" + Fixtures.repositoryRoot.appendingPathComponent("\(Self.folder)/scheduled").path)
    }
}
