import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// `fetch appstore --price-points` (issue #26, DESIGN §2b): the price points of one subscription and one in-app
/// purchase, asked for as OpenAPI 4.4.1 allows (`filter[territory]` a comma-separated list, `limit` ≤ 8000; the
/// fake server refuses anything else with 400), written with the snapshot and read back by `check`.
@Suite(.serialized)
struct FetchPricePointTests {
    static let subscriptionPoints = "/v1/subscriptions/6450000004/pricePoints"
    static let iapPoints = "/v2/inAppPurchases/6450000000/pricePoints"

    @Test("available: the territories the products are sold in, one request per kind and page; check reads the table")
    func available() async throws {
        // Arrange
        let scene = try await FetchScene.start()

        // Act
        let fetched = try await scene.fetchAppStore("asc", extra: ["--price-points", "available"])

        // Assert
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(fetched.stderr.contains("subscription price points: "), "\(fetched.stderr)")
        #expect(fetched.stderr.contains("in-app purchase price points: "), "\(fetched.stderr)")
        let asked = scene.server.requests.filter { $0.contains("/pricePoints") }
        #expect(asked.contains(Self.subscriptionPoints + "?filter%5Bterritory%5D=DEU,GBR,JPN,USA"
            + "&include=territory&fields%5BsubscriptionPricePoints%5D=customerPrice,territory"
            + "&fields%5Bterritories%5D=currency&limit=8000"))
        #expect(asked.contains { $0.hasPrefix(Self.iapPoints + "?filter%5Bterritory%5D=DEU,GBR,JPN,USA&") })
        // Only these two products' points: one product stands for its kind.
        #expect(Set(asked.map { String($0.prefix { $0 != "?" }) }) == [Self.subscriptionPoints, Self.iapPoints])
        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: scene.path("asc") + "/.fetch.json"))) as? [String: Any])
        let kinds = manifest["kinds"] as? [String: [String: Int]]
        #expect(kinds?["subscriptionPricePoints"]?["resources"] ?? 0 > 0)
        #expect(kinds?["inAppPurchasePricePoints"]?["resources"] ?? 0 > 0)

        // Act: the demo config against the snapshot; 59.97 USD instead of 59.99 USD for Pro Yearly.
        let config = try String(contentsOfFile: "catalogs/demo/products.yml", encoding: .utf8)
            .replacingOccurrences(of: "US: 59.99 USD", with: "US: 59.97 USD")
        let file = URL(fileURLWithPath: scene.path("products.yml"))
        try config.write(to: file, atomically: true, encoding: .utf8)
        let checked = try CommandRunner.run(["check", "--config", file.path, "--store", "asc-json:" + scene.path("asc"),
                                             "--as-of", "2026-11-22", "--format", "json"])

        // Assert: the table is dated by the snapshot (today, as the fake serves it).
        let object = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any],
                                  "\(checked.stdout)\(checked.stderr)")
        let findings = try #require(object["findings"] as? [[String: Any]])
        let points = findings.filter { ($0["rule"] as? String) == "price-not-a-price-point" }
        #expect(points.map { "\($0["productId"] as? String ?? "-") \($0["territory"] as? String ?? "-") "
            + "\($0["actual"] as? String ?? "-")" } == ["com.trailmate.app.pro.yearly US 59.97 USD"])
        let today = ISO8601DateFormatter().string(from: Date()).prefix(10)
        #expect((points.first?["message"] as? String)?.contains("(price points of \(today), ") == true,
                "\(points.first?["message"] ?? "")")
    }

    @Test("at Apple's page size the demo app costs 33 requests with price points, 2 more than without")
    func demoCost() async throws {
        // Arrange
        let scene = try await FetchScene.start(pageSize: 200)

        // Act
        let fetched = try await scene.fetchAppStore("asc", extra: ["--quiet", "--price-points", "available"])

        // Assert: one subscription's and one in-app purchase's points for the 4 territories, one page each.
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(scene.server.requests.count == 33)
    }

    @Test("territory codes become App Store Connect's IDs, sorted, each once; all asks without a filter",
          arguments: [("us,DEU,de", "?filter%5Bterritory%5D=DEU,USA&"), ("all", "?include=territory&")])
    func selection(value: String, query: String) async throws {
        // Arrange
        let scene = try await FetchScene.start()

        // Act
        let fetched = try await scene.fetchAppStore("asc", extra: ["--price-points", value])

        // Assert
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(scene.server.requests.contains { $0.hasPrefix(Self.subscriptionPoints + query) })
        #expect(scene.server.requests.contains { $0.hasPrefix(Self.iapPoints + query) })
    }

    @Test("a code that is no territory is a usage error (64) before any request")
    func refused() async throws {
        // Arrange
        let scene = try await FetchScene.start()

        // Act
        let fetched = try await scene.fetchAppStore("asc", extra: ["--price-points", "US,XX"])

        // Assert
        #expect(fetched.exitCode == 64)
        #expect(fetched.stderr.contains("--price-points takes 'available', 'all' or territory codes such as US,DE; "
            + "'XX' is no ISO 3166-1 territory code"), "\(fetched.stderr)")
        #expect(scene.server.requests.isEmpty)
    }
}
