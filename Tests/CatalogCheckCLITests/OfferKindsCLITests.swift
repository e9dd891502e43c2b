import Foundation
import TestSupport
import Testing

/// Offer kinds by the format's keys and StoreKit win-back prices, end to end (DESIGN.md §5a.15): a `.storekit`
/// file whose subscriptions hold `"adHocOffers" : []` states promotional offers, so a config promotional offer it
/// lacks is missing; a win-back `displayPrice` (Xcode-synced files) is compared like any offer price.
@Suite("Offer kinds and win-back prices end to end")
struct OfferKindsCLITests {
    static let folder = "Tests/Fixtures/offers"

    static func check(config: String, store: String) throws -> CommandResult {
        try CommandRunner.run(["check", "--config", "\(folder)/\(config)", "--store", "\(folder)/\(store)",
                               "--as-of", "2026-11-22", "--format", "json"])
    }

    /// The findings' `rule field expected actual` lines of a JSON report.
    static func findings(_ result: CommandResult) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = try #require(object?["findings"] as? [[String: Any]])
        return findings.map { finding in
            ["rule", "field", "expected", "actual"].map { "\(finding[$0] as? String ?? "-")" }.joined(separator: " ")
        }
    }

    @Test("a config promotional offer against a .storekit file with adHocOffers [] everywhere is missing")
    func emptyOfferListStatesTheKind() throws {
        // Act
        let result = try Self.check(config: "welcome.yml", store: "empty-offer-lists.storekit")
        // Assert
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(try Self.findings(result).filter { $0.hasPrefix("offer-") } == [
            "offer-missing-in-store offer:promotional:WELCOME pay-as-you-go P1M 2.99 USD -",
        ])
    }

    @Test("a win-back offer priced 5.99 USD in the config against a displayPrice of 4.99 is an offer mismatch")
    func winBackDisplayPriceIsCompared() throws {
        // Act
        let result = try Self.check(config: "winback-prices.yml", store: "winback-prices.storekit")
        // Assert
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(try Self.findings(result).filter { $0.hasPrefix("offer-") } == [
            "offer-mismatch offer:win-back:WINBACK6 pay-as-you-go P1M 5.99 USD pay-as-you-go P1M 4.99 USD",
        ])
    }
}
