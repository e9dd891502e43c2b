import Foundation
import TestSupport
import Testing

/// Issue #26, item 4 (`subscription-price-matrix-incomplete`) and the `prices-not-compared` note for an
/// equalized subscription. Fixture: `Tests/Fixtures/prices/matrix` (see its NOTES.md).
@Suite("subscription price matrix (issue #26)")
struct SubscriptionPriceMatrixTests {
    static let folder = "Tests/Fixtures/prices/matrix"

    @Test("a subscription for sale without a price in a territory of its availability is flagged per territory")
    func incomplete() throws {
        // Act
        let result = try CommandRunner.run(["check", "--config", "\(Self.folder)/products.yml", "--store",
                                            "asc-json:\(Self.folder)/store", "--as-of", "2026-11-28",
                                            "--format", "json"])

        // Assert
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout)\(result.stderr)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"] as? String ?? "?") \($0["productId"] as? String ?? "-") "
            + "\($0["territory"] as? String ?? "-") \($0["severity"] as? String ?? "?")" } == [
                "prices-not-compared - - note",
                "subscription-price-matrix-incomplete com.example.plus.yearly DE warning",
                "subscription-price-matrix-incomplete com.example.plus.yearly GB warning",
            ])
        #expect(findings.first?["message"] as? String == "2 store prices in 2 territories of 1 product were not "
            + "compared: the config leaves them to equalization and this store input does not say whether they "
            + "are equalized")
        #expect(result.exitCode == 0)
    }
}
