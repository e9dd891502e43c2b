import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// What `fetch appstore` asks for beyond products and prices (DESIGN.md §2b "What App Store Connect fetch
/// reads"): IAP price rows with their dates, each IAP price schedule's base territory, where each product is
/// sold, and the app's bundle ID; every request one of the OpenAPI 4.4.1 document's operations.
@Suite(.serialized)
struct FetchAvailabilityTests {
    static let asOf = ["--as-of", "2026-11-22"]

    @Test func asksForPriceDatesAvailabilityBaseTerritoryAndTheApp() async throws {
        // Arrange
        let scene = try await FetchScene.start()

        // Act
        let fetched = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        // Assert
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        let targets = scene.server.requestTargets
        // The first page of each IAP price list (later pages follow links.next as the server wrote them).
        let priceLists = targets.filter { $0.hasPrefix("/v1/inAppPurchasePriceSchedules/") && !$0.contains("cursor=") }
        #expect(priceLists.count == 8)
        #expect(priceLists.allSatisfy {
            $0.hasSuffix("?include=inAppPurchasePricePoint,territory&fields%5BinAppPurchasePrices%5D=startDate,"
                + "endDate,manual,inAppPurchasePricePoint,territory&limit=200")
        }, "\(priceLists)")
        let expected = [
            // apps_getInstance
            "/v1/apps/6449990000?fields%5Bapps%5D=bundleId,name",
            // inAppPurchasesV2_iapPriceSchedule_getToOneRelated
            "/v2/inAppPurchases/6450000000/iapPriceSchedule?include=baseTerritory",
            // apps_inAppPurchasesV2_getToManyRelated, each availability included
            "/v1/apps/6449990000/inAppPurchasesV2?include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50",
            // inAppPurchaseAvailabilities_availableTerritories_getToManyRelated
            "/v1/inAppPurchaseAvailabilities/availability-6450000000/availableTerritories?limit=200",
            // subscriptionGroups_subscriptions_getToManyRelated, each subscription's plan availabilities included
            "/v1/subscriptionGroups/21450001/subscriptions" + FetchScene.subscriptionsQuery,
            // subscriptionPlanAvailabilities_availableTerritories_getToManyRelated
            "/v1/subscriptionPlanAvailabilities/plan-availability-6450000004-upfront/availableTerritories?limit=200",
        ]
        for target in expected { #expect(targets.filter { $0 == target }.count == 1, "\(target) in \(targets)") }
        #expect(!targets.contains { $0.contains("subscriptionAvailability") })  // deprecated in 4.4

        let manifest = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: scene.path("asc") + "/.fetch.json"))) as? [String: Any])
        let kinds = manifest["kinds"] as? [String: [String: Int]]
        #expect(kinds?["apps"] == ["pages": 1, "resources": 1])
        // Included with the in-app purchases, not asked for on their own.
        #expect(kinds?["inAppPurchaseAvailabilities"] == nil)
        #expect(!targets.contains { $0.hasSuffix("/inAppPurchaseAvailability") })
        // Listed although none was asked for on its own: `.fetch.json` says fetch asked for plans.
        #expect(kinds?["subscriptionPlanAvailabilities"] == ["pages": 0, "resources": 3])
        #expect(!targets.contains { $0.contains("/planAvailabilities?") })
        #expect(kinds?["availableTerritories"] == ["pages": 14, "resources": 28])
        await scene.finish()
    }

    /// The availabilities come with the lists (`include=inAppPurchaseAvailability` on the in-app purchases,
    /// `include=planAvailabilities` on the subscriptions), not from requests of their own: the reader must still
    /// tie each to its product by the linkage, so a territory its `availableTerritories` leave out is not a
    /// price there.
    @Test func anIncludedAvailabilityStillLimitsWhereTheProductIsSold() async throws {
        // Arrange: a snapshot at Apple's page size, then the USA taken out of where 100 Coins and Pro Yearly are
        // sold.
        let scene = try await FetchScene.start(pageSize: 200)
        let fetched = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(!scene.server.requests.contains { $0.hasSuffix("/inAppPurchaseAvailability") })
        #expect(!scene.server.requests.contains { $0.contains("/planAvailabilities?") })
        for page in ["in-app-purchase-availability-availability-6450000000-availableTerritories-0001.json",
                     "subscription-plan-availability-plan-availability-6450000004-upfront-availableTerritories-0001.json"] {
            let url = URL(fileURLWithPath: scene.path("asc") + "/" + page)
            var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            let territories = object["data"] as? [[String: Any]] ?? []
            object["data"] = territories.filter { $0["id"] as? String != "USA" }
            #expect((object["data"] as? [[String: Any]])?.count == territories.count - 1, "\(page)")
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
        }
        try SnapshotFolders.reseal(URL(fileURLWithPath: scene.path("asc")))

        // Act
        let export = try await catalogcheck(["export", "--store-format", "asc-json", "--format", "json",
                                             scene.path("asc")] + Self.asOf)

        // Assert
        #expect(export.exitCode == 0, "\(export.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let products = object["products"] as? [String: [String: Any]] ?? [:]
        let coins = try #require(products["com.trailmate.app.coins.100"])
        #expect((coins["prices"] as? [String: String]) == ["DE": "0.99 EUR", "GB": "0.99 GBP", "JP": "160 JPY"])
        #expect(coins["$comment"] as? [String] == ["not compared: unavailable US 0.99 USD"])
        let yearly = try #require(products["com.trailmate.app.pro.yearly"])
        // A territory with scheduled rows is written as its schedule, whose first entry is today's price.
        let yearlyPrices = (yearly["prices"] as? [String: Any] ?? [:]).mapValues { value in
            value as? String ?? (value as? [[String: String]])?.first?["price"] ?? ""
        }
        #expect(yearlyPrices == ["DE": "59.99 EUR", "GB": "54.99 GBP", "JP": "9800 JPY"])
        #expect((yearly["$comment"] as? [String])?.contains("not compared: unavailable US 59.99 USD") == true,
                "\(yearly["$comment"] ?? "")")
        await scene.finish()
    }

    @Test func aFetchedSnapshotOfAnotherAppIsAppMismatch() async throws {
        // Arrange: the fake store's app is com.trailmate.app; this config names com.example.other.
        let scene = try await FetchScene.start()
        let fetched = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")

        // Act
        let check = try await catalogcheck(["check", "--config", "Tests/Fixtures/asc/availability/other-app.yml",
                                            "--store", "asc-json:" + scene.path("asc"), "--format", "json"]
                                           + Self.asOf)

        // Assert
        #expect(check.exitCode == 1, "\(check.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let app = findings.filter { $0["rule"] as? String == "app-mismatch" }
        #expect(app.count == 1)
        #expect(app.first?["actual"] as? String == "com.trailmate.app")
        #expect(app.first?["expected"] as? String == "com.example.other")
        await scene.finish()
    }
}
