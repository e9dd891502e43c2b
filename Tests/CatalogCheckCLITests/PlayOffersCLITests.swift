import Foundation
import TestSupport
import Testing

/// Play offers end to end: a malformed offer in a Play folder stops `check` with exit 2 at the value's
/// file:line:column, and the demo's Play folder, which now holds offers and purchase options, still checks clean.
@Suite("Play offers end to end")
struct PlayOffersCLITests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let folder = "Tests/Fixtures/play/offers-malformed"

    /// `check` of the demo config against one file of the malformed fixtures.
    static func checkDemoConfig(against file: String) throws -> CommandResult {
        try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml", "--store",
                               "play-json:\(folder)/\(file)"] + asOf)
    }

    @Test("a one-time offer's relativeDiscount outside (0, 1) exits 2 naming file:line:column")
    func malformedOneTimeOfferExits2() throws {
        // Act
        let result = try Self.checkDemoConfig(against: "onetimeproduct-offers.json")
        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == """
            \(Self.folder)/onetimeproduct-offers.json:10:51: error: oneTimeProductOffers[0].\
            regionalPricingAndAvailabilityConfigs[0].relativeDiscount: expected a fraction between 0 and 1, found 20

            """)
    }

    @Test("a targeting scope with none of Play's scopes exits 2 naming file:line:column")
    func malformedTargetingExits2() throws {
        // Act
        let result = try Self.checkDemoConfig(against: "subscription-offers.json")
        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stderr == """
            \(Self.folder)/subscription-offers.json:17:48: error: subscriptionOffers[0].targeting.upgradeRule.scope: \
            a targeting scope has exactly one of "thisSubscription", "anySubscriptionInApp", \
            "specificSubscriptionInApp"; found none

            """)
    }

    @Test("the demo's Play folder, with offers and purchase options, checks clean")
    func demoPlayChecksClean() throws {
        // Act
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo/products.yml", "--store", "play-json:catalogs/demo/play",
             "--strict"] + Self.asOf)
        // Assert
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        // The demo's in-app purchases are equalized: Play does not say which of its regional prices are.
        #expect(result.stdout == """
            catalogs/demo/play: note: [prices-not-compared] 9 store prices in 3 territories of 3 products were not \
            compared: the config leaves them to equalization and this store input does not say whether they are \
            equalized
            0 errors, 0 warnings, 1 note — 6 products compared (store: play (play-json), config: products.yml)

            """)
    }

    @Test("a Play free trial written as introOffer is one offer, matched once: not also offer-missing-in-config")
    func freeTrialAsIntroOfferMatchedOnce() throws {
        // Arrange: the base plan's first offer is an upgrade discount, its free trial comes second; the config
        // writes the trial as introOffer and lists only the discount under offers.
        let folder = "Tests/Fixtures/play/intro-offer"

        // Act
        let result = try CommandRunner.run(["check", "--config", "\(folder)/products.yml", "--store",
                                            "play-json:\(folder)/store", "--strict"] + Self.asOf)

        // Assert
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == """
            0 errors, 0 warnings, 0 notes — 1 product compared (store: store (play-json), config: products.yml)

            """)
    }

    @Test("a Play free trial that differs from the config's introOffer is one intro-offer-mismatch, nothing more")
    func differingFreeTrialReportedOnce() throws {
        // Arrange: the store's trial lasts 14 days, the config's one week.
        let folder = "Tests/Fixtures/play/intro-offer"

        // Act
        let result = try CommandRunner.run(["check", "--config", "\(folder)/products.yml", "--store",
                                            "play-json:\(folder)/store-longer-trial", "--format", "json",
                                            "--strict"] + Self.asOf)

        // Assert: intro-offer-mismatch is a warning, so --strict fails the gate on it, and on it alone
        #expect(result.exitCode == 1, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"] ?? "") \($0["expected"] ?? "") -> \($0["actual"] ?? "")" }
                == ["intro-offer-mismatch free-trial P1W -> free-trial P2W"])
    }
}
