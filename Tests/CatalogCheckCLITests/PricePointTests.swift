import Foundation
import TestSupport
import Testing

/// Issue #26, item 4: App Store prices against Apple's price points (`price-not-a-price-point`,
/// `price-points-missing`). Fixture: `Tests/Fixtures/price-points` (`make.py` says which OpenAPI operations
/// its pages answer and where its amounts come from).
@Suite("price points (issue #26)")
struct PricePointTests {
    static let folder = "Tests/Fixtures/price-points"

    static func findings(_ arguments: [String]) throws -> (Int32, [[String: Any]]) {
        let result = try CommandRunner.run(arguments + ["--format", "json", "--as-of", "2026-11-28"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                  "\(result.stdout)\(result.stderr)")
        return (result.exitCode, try #require(object["findings"] as? [[String: Any]]))
    }

    @Test("9.97 USD names the points 9.95 and 9.99 USD; a territory without a table is one note")
    func notAPricePoint() throws {
        // Act
        let (exitCode, findings) = try Self.findings(["check", "--config", "\(Self.folder)/products.yml",
                                                      "--store", "asc-json:\(Self.folder)/asc"])

        // Assert
        #expect(exitCode == 1)
        let points = findings.filter { ($0["rule"] as? String)?.hasPrefix("price-not") == true
            || ($0["rule"] as? String) == "price-points-missing" }
        #expect(points.map { "\($0["rule"] as? String ?? "?") \($0["productId"] as? String ?? "-") "
            + "\($0["territory"] as? String ?? "-") \($0["expected"] as? String ?? "-") "
            + "\($0["actual"] as? String ?? "-") \($0["severity"] as? String ?? "?")" } == [
                "price-points-missing - BR - 1 note",
                "price-not-a-price-point com.example.pro.monthly US 24.95 USD or 24.99 USD 24.97 USD error",
                "price-not-a-price-point com.example.pro.monthly US 9.95 USD or 9.99 USD 9.97 USD error",
            ])
        #expect(points.first?["message"] as? String == "1 App Store price in 1 territory (BR) was not checked "
            + "against price points: the price-point table of unknown date (Tests/Fixtures/price-points/asc) has "
            + "none for it; fetch them with `fetch appstore --price-points`")
        #expect(points.last?["message"] as? String == "US price 9.97 USD in the config is no App Store "
            + "subscription price point: it lies between the price points 9.95 USD and 9.99 USD (price points of "
            + "unknown date, Tests/Fixtures/price-points/asc)")
        #expect((points.dropFirst().first?["message"] as? String)?.hasPrefix("US offer promotional:spring price "
            + "24.97 USD in the config is no App Store subscription price point") == true)
    }

    @Test("the same prices against a store input without a table: nothing about price points")
    func noTableNoWord() throws {
        // Act: the snapshot without its two pricePoints pages.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("price-points-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "\(Self.folder)/asc"), to: copy)
        for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) where name.hasSuffix("pricePoints.json") {
            try FileManager.default.removeItem(at: copy.appendingPathComponent(name))
        }
        let (_, findings) = try Self.findings(["check", "--config", "\(Self.folder)/products.yml",
                                               "--store", "asc-json:\(copy.path)"])

        // Assert
        #expect(findings.map { $0["rule"] as? String ?? "?" } == ["price-mismatch"])
    }

    @Test("a consumable is checked against in-app purchase points, in its own territory and currency")
    func inAppPurchaseTable() throws {
        // Arrange: 4.97 USD for the consumable; the table's in-app purchase points hold 4.95 and 4.99.
        let config = try String(contentsOfFile: "\(Self.folder)/products.yml", encoding: .utf8)
            .replacingOccurrences(of: "price: 4.99 USD", with: "price: 4.97 USD")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("points-\(UUID().uuidString).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try config.write(to: file, atomically: true, encoding: .utf8)

        // Act
        let (_, findings) = try Self.findings(["check", "--config", file.path, "--store",
                                               "asc-json:\(Self.folder)/asc"])

        // Assert
        let coins = findings.filter { $0["productId"] as? String == "com.example.coins.500" }
        #expect(coins.map { "\($0["rule"] as? String ?? "?") \($0["expected"] as? String ?? "-")" } == [
            "price-mismatch 4.97 USD",
            "price-not-a-price-point 4.95 USD or 4.99 USD",
        ])
        #expect((coins.last?["message"] as? String)?.contains("no App Store in-app purchase price point") == true)
    }

    @Test("a listed price point without its price or territory is a damaged page: exit 2 at the point",
          arguments: [("\"customerPrice\":\"0.29\",", "has no attributes.customerPrice"),
                      (",\"relationships\":{\"territory\":{\"data\":{\"type\":\"territories\",\"id\":\"DEU\"}}}",
                       "has no territory")])
    func damagedPage(remove: String, message: String) throws {
        // Arrange: the subscription's first listed point loses its price, or its territory.
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("price-points-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: "\(Self.folder)/asc"), to: copy)
        let page = copy.appendingPathComponent("subscription-7000000001-pricePoints.json")
        let text = try String(contentsOf: page, encoding: .utf8)
        let range = try #require(text.range(of: remove))
        try text.replacingCharacters(in: range, with: "").write(to: page, atomically: true, encoding: .utf8)

        // Act
        let result = try CommandRunner.run(["check", "--config", "\(Self.folder)/products.yml", "--store",
                                            "asc-json:\(copy.path)", "--as-of", "2026-11-28"])

        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("\(page.path):1:"), "\(result.stderr)")
        #expect(result.stderr.contains("subscriptionPricePoints \"7000000001-DEU-0.29\" \(message)"), "\(result.stderr)")
    }
}
