import Foundation
import TestSupport
import Testing

/// Issue 18: an in-app purchase price schedule's `baseTerritory` (fetched with `include=baseTerritory`) is read,
/// and a price mismatch in another territory says that App Store Connect equalizes that price from the base.
@Suite("App Store Connect IAP base territory")
struct ASCBaseTerritoryTests {
    static let folder = "Tests/Fixtures/asc/base-territory"

    @Test("a mismatch outside the base territory names the base territory and its price")
    func mismatchOutsideTheBase() throws {
        // Arrange: the IAP's base territory is DE (manual 4.99 EUR); US is an automatic 5.99 USD.
        let arguments = ["check", "--config", "\(Self.folder)/products.yml", "--store", "asc-json:\(Self.folder)/store",
                         "--as-of", "2026-11-22", "--format", "json"]

        // Act
        let result = try CommandRunner.run(arguments)

        // Assert
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["rule"] as? String == "price-mismatch")
        #expect(findings.first?["territory"] as? String == "US")
        #expect(findings.first?["hint"] as? String == "the store's base territory for this price is DE (4.99 EUR); "
            + "unless US has a manual price, App Store Connect equalizes it from there")
    }

    @Test("a base territory that is no territory code stops the read at the schedule")
    func badBaseTerritory() throws {
        // Arrange: the same store with the schedule's base territory written as "XXX".
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogcheck-base-territory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = Fixtures.repositoryRoot.appendingPathComponent("\(Self.folder)/store")
        for name in ["01-in-app-purchases.json", "02-in-app-purchase-6500000009-iapPriceSchedule.json"] {
            var text = try String(contentsOf: source.appendingPathComponent(name), encoding: .utf8)
            text = text.replacingOccurrences(of: #""baseTerritory": { "data": { "type": "territories", "id": "DEU" } }"#,
                                             with: #""baseTerritory": { "data": { "type": "territories", "id": "XXX" } }"#)
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }

        // Act
        let result = try CommandRunner.run(["export", "asc-json:\(folder.path)", "--as-of", "2026-11-22"])

        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("\(folder.path)/02-in-app-purchase-6500000009-iapPriceSchedule.json:2:11: "
            + "error: the price schedule's baseTerritory \"XXX\" is not an ISO 3166-1 territory code\n"),
            "\(result.stderr)")
    }
}
