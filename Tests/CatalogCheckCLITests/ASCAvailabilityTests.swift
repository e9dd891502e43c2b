import Foundation
import TestSupport
import Testing

/// FORMATS.md "ASC availability" and the `app-mismatch` rule (DESIGN.md §5), end to end: a price row for a
/// territory where the product is not sold is no price there, and a config naming another app than the store's
/// fails the check.
@Suite("App Store Connect availability and app-mismatch")
struct ASCAvailabilityTests {
    static let folder = "Tests/Fixtures/asc/availability"
    static let asOf = ["--as-of", "2026-11-22"]

    @Test("prices outside the available territories are missing in the store; another app is app-mismatch")
    func unsoldTerritoriesAndAnotherApp() throws {
        // Arrange: the IAP is sold in US and DE (not CN, which has a price row); the monthly subscription's
        // up-front plan in the US only (its MONTHLY plan in GB); the yearly one's list is one page of 175, so
        // it limits nothing. The config names com.example.other; the store's app is com.example.app.
        let arguments = ["check", "--config", "\(Self.folder)/products.yml", "--store", "asc-json:\(Self.folder)/store"]
            + Self.asOf

        // Act
        let result = try CommandRunner.run(arguments)

        // Assert
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            \(Self.folder)/products.yml:3:13: error: [app-mismatch] the store's app has bundle ID 'com.example.app', \
            the config's app.bundleId is 'com.example.other': the store input is another app's, or the config \
            names the wrong app
            \(Self.folder)/products.yml:12:47: error: [price-missing-in-store] com.example.coins.100: CN is 6 CNY in \
            the config but the store does not sell the product there (not in its available territories) \
            (\(Self.folder)/store/02-in-app-purchases.json:3:5)
            \(Self.folder)/products.yml:19:33: error: [price-missing-in-store] com.example.premium.monthly: GB is \
            8.99 GBP in the config but the store does not sell the product there (not in its available \
            territories) (\(Self.folder)/store/07-subscription-groups.json:26:5)
            3 errors, 0 warnings, 0 notes — 3 products compared (store: store (asc-json), config: products.yml)

            """)
    }

    @Test("export keeps a price row outside the available territories as unavailable, never as a price")
    func exportMarksUnsoldPrices() throws {
        let result = try CommandRunner.run(["export", "asc-json:\(Self.folder)/store", "--format", "json"] + Self.asOf)

        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let app = try #require(object["app"] as? [String: Any])
        #expect(app["bundleId"] as? String == "com.example.app")
        let byID = try #require(object["products"] as? [String: [String: Any]])
        let products = byID.sorted { $0.key < $1.key }.map(\.value)
        let other = byID.sorted { $0.key < $1.key }.map { ($0.key, $0.value["$comment"] as? [String] ?? []) }
        #expect(other.map(\.0) == ["com.example.coins.100", "com.example.premium.monthly", "com.example.premium.yearly"])
        #expect(other.map(\.1) == [["not compared: unavailable CN 6 CNY"], ["not compared: unavailable GB 8.99 GBP"], []])
        let prices = products.map { ($0["prices"] as? [String: String] ?? [:]).keys.sorted() }
        // One price in the base territory (US) is the config's `price:`, as in the YAML export.
        #expect(prices == [["DE", "US"], [], ["GB", "US"]])
        #expect(products[1]["price"] as? String == "9.99 USD")
    }

    @Test("a config for another app than the Play package is app-mismatch naming the package")
    func anotherPlayPackage() throws {
        let result = try CommandRunner.run(["check", "--config", "\(Self.folder)/other-app.yml",
                                            "--store", "catalogs/demo/play", "--format", "json"] + Self.asOf)

        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let app = findings.filter { $0["rule"] as? String == "app-mismatch" }
        #expect(app.count == 1)
        #expect(app.first?["message"] as? String == "the store's app has package name 'com.trailmate.app', the "
            + "config's app.bundleId is 'com.example.other': the store input is another app's, or the config names "
            + "the wrong app")
        #expect(app.first?["expected"] as? String == "com.example.other")
        #expect(app.first?["actual"] as? String == "com.trailmate.app")
        #expect(app.first?["field"] as? String == "app")
        #expect(app.first?["productId"] is NSNull)
    }

    @Test("the demo config names the demo stores' app: no app-mismatch")
    func theDemoIsOneApp() throws {
        let result = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml",
                                            "--store", "catalogs/demo/play", "--format", "json"] + Self.asOf)

        #expect(!result.stdout.contains("app-mismatch"), "\(result.stdout)")
    }

    @Test("catalogcheck rules lists app-mismatch as an error")
    func rulesListsAppMismatch() throws {
        let result = try CommandRunner.run(["rules"])

        #expect(result.exitCode == 0)
        #expect(result.stdout.split(separator: "\n").contains { $0.hasPrefix("app-mismatch ") && $0.contains(" error ") })
    }
}
