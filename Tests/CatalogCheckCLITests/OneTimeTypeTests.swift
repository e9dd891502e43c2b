import Foundation
import TestSupport
import Testing

/// The `one-time` type and `group` on `non-renewing` products (DESIGN.md §4), end to end: one config checked
/// against the App Store and Google Play, where Play does not say whether a one-time product is consumed and a
/// prepaid base plan belongs to a subscription.
@Suite("one-time products and Play prepaid base plans")
struct OneTimeTypeTests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let folder = "Tests/Fixtures/one-time"

    @Test("a config saying consumable, non-consumable and a grouped non-renewing pass passes against both stores",
          arguments: ["play", "appstore.storekit"])
    func oneConfigForBothStores(store: String) throws {
        // Arrange
        let arguments = ["check", "--config", "\(Self.folder)/consumable-and-prepaid.yml",
                         "--store", "\(Self.folder)/\(store)", "--strict", "--format", "json"] + Self.asOf
        // Act
        let result = try CommandRunner.run(arguments)
        // Assert: Play's one-time products match consumable and non-consumable; the App Store has no group for
        // the non-renewing pass, so the config group `pass` is not missing there. Only the StoreKit note remains.
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let rules = try Self.rules(in: result.stdout)
        #expect(rules == (store == "play" ? [] : ["storekit-single-storefront"]))
    }

    @Test("a Play one-time product is no subscription: type-mismatch names both types")
    func oneTimeIsNotASubscription() throws {
        // Act
        let result = try CommandRunner.run(
            ["check", "--config", "\(Self.folder)/one-time-as-subscription.yml", "--store", "\(Self.folder)/play"]
                + Self.asOf)
        // Assert
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == """
            \(Self.folder)/one-time-as-subscription.yml:5:5: error: [type-mismatch] com.example.app.coins: is \
            one-time in the store (\(Self.folder)/play/onetimeproducts.json:3:5), non-renewing in the config
            1 error, 0 warnings, 0 notes — 3 products compared (store: play (play-json), config: one-time-as-subscription.yml)

            """)
    }

    @Test("diff across formats reports no type change where check finds none, and the one check finds")
    func diffAgreesWithCheck() throws {
        // Act
        let same = try CommandRunner.run(
            ["diff", "\(Self.folder)/consumable-and-prepaid.yml", "\(Self.folder)/play", "--exit-code"] + Self.asOf)
        let changed = try CommandRunner.run(
            ["diff", "\(Self.folder)/one-time-as-subscription.yml", "\(Self.folder)/play", "--exit-code"] + Self.asOf)
        // Assert
        #expect(same.exitCode == 0, "\(same.stdout)\(same.stderr)")
        #expect(changed.exitCode == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.contains("~ com.example.app.coins\n    type: non-renewing -> one-time\n"))
        #expect(!changed.stdout.contains("com.example.app.unlock"))
    }

    @Test("export of Play one-time products and a prepaid base plan is a config that checks clean")
    func playExportIsAConfig() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let export = folder.appendingPathComponent("play.yml")
        // Act
        let exported = try CommandRunner.run(["export", "\(Self.folder)/play", "--output", export.path] + Self.asOf)
        let checked = try CommandRunner.run(
            ["check", "--config", export.path, "--store", "\(Self.folder)/play", "--strict"] + Self.asOf)
        // Assert
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(exported.stderr.isEmpty)
        let text = try String(contentsOf: export, encoding: .utf8)
        #expect(text.hasSuffix("""
            products:
              com.example.app.coins:
                type: one-time
                clearedForSale: true
                price: 0.99 USD
                purchaseOptions: {}
              com.example.app.unlock:
                type: one-time
                clearedForSale: true
                price: 4.99 USD
                purchaseOptions: {}
              "pass:month":
                type: non-renewing
                group: pass
                period: P1M
                clearedForSale: true
                price: 2.99 USD

            """))
        #expect(checked.exitCode == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.hasSuffix(
            "0 errors, 0 warnings, 0 notes — 3 products compared (store: play (play-json), config: play.yml)\n"))
    }

    /// The rule IDs of a JSON report's findings, in report order.
    static func rules(in json: String) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let findings = try #require(object?["findings"] as? [[String: Any]])
        return findings.compactMap { $0["rule"] as? String }
    }
}
