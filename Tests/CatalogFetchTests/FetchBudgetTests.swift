@testable import CatalogFetch
import CatalogSnapshot
import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// App Store Connect's hourly request budget (`X-Rate-Limit`), the stop before Apple's 429, and `--resume`.
@Suite(.serialized)
struct FetchBudgetTests {
    /// Requests (and pages) of an uninterrupted `fetch appstore` of the demo app at the fake's page size 2.
    static let demoRequests = 61

    @Test func aBudgetStopThenResumeFetchesNoPageTwiceAndReadsLikeOneFetch() async throws {
        // Arrange: an uninterrupted fetch to compare with, and a key with 20 requests left this hour.
        let whole = try await FetchScene.start()
        #expect(try await whole.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 0)
        #expect(whole.server.requests.count == Self.demoRequests)
        let scene = try await FetchScene.start(budget: 20)

        // Act: the first run stops on the budget; an hour later, --resume finishes.
        let stopped = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        let firstRun = scene.server.requests
        let targetAfterStop = FileManager.default.fileExists(atPath: scene.path("asc"))
        scene.server.renewBudget()
        let resumed = try await scene.fetchAppStore("asc", extra: ["--resume"])

        // Assert: stopped before Apple's 429, saying what is left, what is needed, when it renews, what is kept.
        #expect(stopped.exitCode == 2)
        #expect(scene.server.responsesByStatus[429] == nil)
        #expect(firstRun.count <= 20)
        let lines = stopped.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(stopped.stderr)")
        #expect(lines.first?.hasPrefix("warning: App Store Connect rate limit low: ") == true)
        // What is left is what the answers said, less the requests that were in flight: at most what is left.
        let error = lines.dropFirst().first ?? ""
        let prefix = "error: App Store Connect's hourly request budget for this key is spent: "
        #expect(error.hasPrefix(prefix), "\(stopped.stderr)")
        let left = Int(error.dropFirst(prefix.count).prefix { $0.isNumber }) ?? -1
        #expect(left >= 0 && left <= max(0, 20 - firstRun.count), "\(stopped.stderr)")
        #expect(error.contains(" of 3500 requests left, and this fetch needs at least "), "\(stopped.stderr)")
        // "at 15:00:36 UTC" when every request went out within one second, else "from … to …".
        #expect(lines.dropFirst().first?.contains("""
            more; stopped before Apple answers 429. The budget is a rolling hour: the \(firstRun.count) requests of \
            this run come back
            """) == true, "\(stopped.stderr)")
        #expect(lines.last == """
            note: the \(firstRun.count) pages fetched so far are kept in \(scene.path(".asc.fetch-partial")); run \
            the same command with --resume to continue from there
            """)
        #expect(!targetAfterStop)

        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.hasPrefix("""
            resuming the unfinished fetch in \(scene.path(".asc.fetch-partial")): \(firstRun.count) pages already \
            fetched

            """), "\(resumed.stderr)")
        let all = scene.server.requests
        #expect(all.count == Self.demoRequests)
        #expect(Set(all).count == all.count, "a page was requested twice: \(all)")
        #expect(Set(all) == Set(whole.server.requests))
        #expect(!FileManager.default.fileExists(atPath: scene.path(".asc.fetch-partial")))
        let (mine, theirs) = (try pages(scene, "asc"), try pages(whole, "asc"))
        #expect(mine.keys.sorted() == theirs.keys.sorted())
        #expect(mine.keys.sorted().filter { mine[$0] != theirs[$0] } == [])
        #expect(try manifestRequests(scene, "asc") == manifestRequests(whole, "asc"))
        let check = ["check", "--config", "catalogs/demo/products.yml", "--as-of", "2026-11-22"]
        let expected = try await catalogcheck(check + ["--store", "asc-json:" + whole.path("asc")])
        let actual = try await catalogcheck(check + ["--store", "asc-json:" + scene.path("asc")])
        #expect(actual.exitCode == 0)
        #expect(actual.stdout == expected.stdout.replacingOccurrences(of: whole.folder.path, with: scene.folder.path))
        await whole.finish()
        await scene.finish()
    }

    @Test func withoutResumeAnUnfinishedFetchIsDiscardedAndFetchedAgain() async throws {
        let scene = try await FetchScene.start(budget: 10)
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 2)
        scene.server.renewBudget()
        let before = scene.server.requests.count

        let again = try await scene.fetchAppStore("asc")

        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(again.stderr.hasPrefix("""
            discarded the unfinished fetch in \(scene.path(".asc.fetch-partial")) (--resume continues one)

            """), "\(again.stderr)")
        #expect(scene.server.requests.count - before == Self.demoRequests)
        await scene.finish()
    }

    @Test func aResumedPageThatNoLongerReadsIsFetchedAgain() async throws {
        let scene = try await FetchScene.start(budget: 10)
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 2)
        try Data("{\"data\": [".utf8).write(to: URL(fileURLWithPath: scene.path(".asc.fetch-partial/in-app-purchases-0001.json")))
        scene.server.renewBudget()
        let before = scene.server.requests

        let resumed = try await scene.fetchAppStore("asc", extra: ["--resume", "--quiet"])

        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        let again = Array(scene.server.requests.dropFirst(before.count))
        #expect(again.filter(before.contains)
            == ["/v1/apps/\(FakeStoreServer.app)/inAppPurchasesV2?include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50"])
        #expect(scene.server.requests.count == Self.demoRequests + 1)
        let page = try String(contentsOfFile: scene.path("asc/in-app-purchases-0001.json"), encoding: .utf8)
        #expect(page.hasPrefix("{"))
        #expect(page.contains("\"included\""))
        await scene.finish()
    }

    @Test func resumingAnotherAppsFetchExits2() async throws {
        let scene = try await FetchScene.start(budget: 10)
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 2)
        let other = try await catalogcheck([
            "fetch", "appstore", "--key-id", scene.credentials.keyID, "--issuer-id", scene.credentials.issuerID,
            "--private-key", scene.ascKeyPath, "--app", "123", "--output", scene.path("asc"),
            "--base-url", scene.server.baseURL, "--resume",
        ])
        #expect(other.exitCode == 2)
        #expect(other.stderr == """
            \(scene.path(".asc.fetch-partial")): error: holds an unfinished fetch of appstore app=\(FakeStoreServer.app), \
            not of appstore app=123; run without --resume to discard it

            """)
        await scene.finish()
    }

    /// docs/fetch.md's count: the demo app (4 in-app purchases, 1 group, 3 subscriptions, one with introductory
    /// offers; 4 offers with prices and 1 free one) at Apple's page size costs 31 requests (3 + 1 group + 4 × 4
    /// in-app purchases + 2 × 3 subscriptions + 1 offers list + 4 offers' prices); the offers lists come with the
    /// in-app purchases and subscriptions (`include=`), so offers cost one request per priced offer and nothing
    /// per product. Before `include=` it cost 36 without offers (3 + 1 group + 5 × 4 in-app purchases + 4 × 3
    /// subscriptions), one per in-app purchase for its availability and per subscription one for its plan
    /// availabilities and one for its introductory offers more.
    @Test func theDemoAppCosts31RequestsAtApplesPageSize() async throws {
        let scene = try await FetchScene.start(pageSize: 200)

        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        let app = "/v1/apps/\(FakeStoreServer.app)"
        let prices = "?include=inAppPurchasePricePoint,territory"
            + "&fields%5BinAppPurchasePrices%5D=startDate,endDate,manual,inAppPurchasePricePoint,territory&limit=200"
        let subscriptionOfferPrices = "?include=subscriptionPricePoint,territory&limit=200"
        let iaps = ["6450000000", "6450000001", "6450000002", "6450000003"]
        let subscriptions = ["6450000004", "6450000005", "6450000006"]
        var expected: [String] = [
            app + "?fields%5Bapps%5D=bundleId,name",
            app + "/inAppPurchasesV2?include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50",
            app + "/subscriptionGroups?limit=200",
            "/v1/inAppPurchasePriceSchedules/6450000000/automaticPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000000/manualPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000001/automaticPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000001/manualPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000002/automaticPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000002/manualPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000003/automaticPrices" + prices,
            "/v1/inAppPurchasePriceSchedules/6450000003/manualPrices" + prices,
            "/v1/subscriptionGroups/21450001/subscriptions" + FetchScene.subscriptionsQuery,
            // One request per priced offer (the free-trial offer code `Trail Friends` has no prices to ask for).
            "/v1/subscriptionPromotionalOffers/6450000004-promo1/prices" + subscriptionOfferPrices,
            "/v1/subscriptionPromotionalOffers/6450000005-promo1/prices" + subscriptionOfferPrices,
            "/v1/winBackOffers/6450000004-winback1/prices" + subscriptionOfferPrices,
            "/v1/inAppPurchaseOfferCodes/6450000001-code1/prices?include=pricePoint,territory&limit=200",
            "/v1/subscriptions/6450000004/introductoryOffers?include=territory,subscriptionPricePoint&limit=200",
            "/v1/subscriptions/6450000004/prices?include=subscriptionPricePoint,territory&limit=200",
            "/v1/subscriptions/6450000005/prices?include=subscriptionPricePoint,territory&limit=200",
            "/v1/subscriptions/6450000006/prices?include=subscriptionPricePoint,territory&limit=200",
        ]
        for iap in iaps {
            expected.append("/v2/inAppPurchases/\(iap)/iapPriceSchedule?include=baseTerritory")
            expected.append("/v1/inAppPurchaseAvailabilities/availability-\(iap)/availableTerritories?limit=200")
        }
        for subscription in subscriptions {
            expected.append("/v1/subscriptionPlanAvailabilities/plan-availability-\(subscription)-upfront"
                + "/availableTerritories?limit=200")
        }
        #expect(scene.server.requests.sorted() == expected.sorted())
        #expect(scene.server.requests.count == 31)
        await scene.finish()
    }

    @Test func aServerThatIgnoresIncludeStillGetsEveryPriceAndOffer() async throws {
        let scene = try await FetchScene.start(pageSize: 200, honorsInclude: false)

        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        // Without the linkage, each availability and each offers list is asked for on its own: 36 requests as
        // before include=, plus each product's offer lists (4 in-app purchases, 3 × 3 subscription lists) and the
        // 4 priced offers' prices.
        #expect(scene.server.requests.filter { $0.hasSuffix("/inAppPurchaseAvailability") }.count == 4)
        #expect(scene.server.requests.filter { $0.contains("/planAvailabilities?") }.count == 3)
        #expect(scene.server.requests.filter { $0.contains("/introductoryOffers?") }.count == 3)
        #expect(scene.server.requests.filter { $0.contains("/offerCodes?") }.count == 7)
        #expect(scene.server.requests.filter { $0.contains("/promotionalOffers?") }.count == 3)
        #expect(scene.server.requests.filter { $0.contains("/winBackOffers?") }.count == 3)
        #expect(scene.server.requests.filter { $0.contains("/prices?include=") && $0.contains("ffer") }.count == 4)
        #expect(scene.server.requests.count == 53)
        let check = ["check", "--config", "catalogs/demo/products.yml", "--as-of", "2026-11-22"]
        let expected = try await catalogcheck(check + ["--store", "asc-json:catalogs/demo/asc"])
        let actual = try await catalogcheck(check + ["--store", "asc-json:" + scene.path("asc")])
        #expect(actual.exitCode == expected.exitCode)
        #expect(actual.stdout == expected.stdout.replacingOccurrences(of: "catalogs/demo/asc", with: scene.path("asc")))
        await scene.finish()
    }

    @Test func aPagesParentComesFromItsRecordedRequestNotItsLinksSelf() async throws {
        let scene = try await FetchScene.start()
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 0)
        // A store may write any links.self (or none): remove every page's `links`.
        for name in try scene.files("asc") where name != ".fetch.json" {
            let url = URL(fileURLWithPath: scene.path("asc") + "/" + name)
            var object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
            object["links"] = nil
            try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: url)
        }
        try SnapshotFolders.reseal(URL(fileURLWithPath: scene.path("asc")))

        let check = ["check", "--config", "catalogs/demo/products.yml", "--as-of", "2026-11-22", "--format", "json"]
        let expected = try await catalogcheck(check + ["--store", "asc-json:catalogs/demo/asc"])
        let actual = try await catalogcheck(check + ["--store", "asc-json:" + scene.path("asc")])

        #expect(actual.exitCode == expected.exitCode, "\(actual.stderr)")
        let export = ["export", "--store-format", "asc-json", "--format", "json", "--as-of", "2026-11-22"]
        let expectedExport = try await catalogcheck(export + ["catalogs/demo/asc"])
        let actualExport = try await catalogcheck(export + [scene.path("asc")])
        #expect(actualExport.exitCode == 0, "\(actualExport.stderr)")
        // The snapshot also holds the app (`/v1/apps/{id}`), which the demo folder lacks: its bundle ID is exported.
        #expect(actualExport.stdout.replacingOccurrences(of: scene.path("asc"), with: "catalogs/demo/asc")
            == expectedExport.stdout.replacingOccurrences(of: """
                "baseTerritory" : "US"
                """, with: """
                "baseTerritory" : "US",
                    "bundleId" : "com.trailmate.app"
                """))
        await scene.finish()
    }

    @Test func xRateLimitIsReadAsAppleDocumentsIt() {
        #expect(RateLimit(header: "user-hour-lim:3500;user-hour-rem:500;") == RateLimit(limit: 3500, remaining: 500))
        #expect(RateLimit(header: " user-hour-lim: 3600 ; user-hour-rem: 0") == RateLimit(limit: 3600, remaining: 0))
        #expect(RateLimit(header: "user-minute-lim:50;user-hour-rem:7;user-hour-lim:3500;")
            == RateLimit(limit: 3500, remaining: 7))
        #expect(RateLimit(header: "user-hour-lim:3500;") == nil)
        #expect(RateLimit(header: "user-hour-lim:3500;user-hour-rem:-1;") == nil)
        #expect(RateLimit(header: "user-hour-lim:lots;user-hour-rem:5") == nil)
        #expect(RateLimit(header: "") == nil)
    }

    @Test func theBudgetRefusesTheRequestThatWouldMeetA429() throws {
        let budget = RequestBudget(progress: FetchProgress(quiet: true, isTerminal: false) { _ in },
                                   now: { Date(timeIntervalSince1970: 1_780_000_000) })
        try budget.reserve()  // Unknown before the first answer: the request goes.
        budget.attempt()
        budget.observe(["x-rate-limit": "user-hour-lim:3500;user-hour-rem:3;"])
        budget.release()
        budget.startPhase(listings: 5)
        try budget.reserve()
        try budget.reserve()
        // Two in flight; an earlier request's answer, arriving late, says 3: it cannot raise the estimate.
        budget.observe(["x-rate-limit": "user-hour-lim:3500;user-hour-rem:3;"])
        try budget.reserve()
        #expect(throws: FetchError.budgetSpent(limit: 3500, remaining: 0, needed: 5, sent: 1,
                                               renews: "at 2026-05-28 21:26:40 UTC")) {
            try budget.reserve()
        }
    }

    /// An answer sent early and received late says more is left than a later answer did: under load (CI) the
    /// old rule took a count well above the estimate for "the rolling hour gave requests back", and a fetch with
    /// a budget of 20 sent more than 20 requests.
    @Test func aLateAnswerWithAHigherCountNeverRaisesTheBudget() throws {
        let budget = RequestBudget(progress: FetchProgress(quiet: true, isTerminal: false) { _ in },
                                   now: { Date(timeIntervalSince1970: 1_780_000_000) })
        try budget.reserve()
        budget.attempt()
        budget.observe(["x-rate-limit": "user-hour-lim:3500;user-hour-rem:2;"])
        budget.release()
        budget.startPhase(listings: 3)
        // A stale answer (sent when 12 were left) arrives with nothing in flight.
        budget.observe(["x-rate-limit": "user-hour-lim:3500;user-hour-rem:12;"])
        try budget.reserve()
        try budget.reserve()
        #expect(throws: FetchError.budgetSpent(limit: 3500, remaining: 0, needed: 3, sent: 1,
                                               renews: "at 2026-05-28 21:26:40 UTC")) {
            try budget.reserve()
        }
    }

    @Test func theSpecTableRefusesWhatTheSpecsDoNotAllow() throws {
        let spec = try APISpecTable.load()
        let iaps = "/v1/apps/1/inAppPurchasesV2"
        #expect(spec.refusal(path: iaps, query: [("include", "iapPriceSchedule"), ("limit", "200")]) == nil)
        #expect(spec.refusal(path: iaps, query: [("limit", "201")])
            == "apps_inAppPurchasesV2_getToManyRelated: limit=201 is above the maximum 200")
        #expect(spec.refusal(path: iaps, query: [("include", "prices")])?.hasPrefix(
            "apps_inAppPurchasesV2_getToManyRelated: include=prices is not one of appStoreReviewScreenshot, content,")
            == true)
        #expect(spec.refusal(path: iaps, query: [("pageSize", "10")])
            == "apps_inAppPurchasesV2_getToManyRelated has no parameter pageSize")
        #expect(spec.refusal(path: "/v1/subscriptionGroups/1/subscriptions",
                             query: [("limit[introductoryOffers]", "51")])
            == "subscriptionGroups_subscriptions_getToManyRelated: limit[introductoryOffers]=51 is above the maximum 50")
        #expect(spec.refusal(path: "/v1/inAppPurchasePriceSchedules/1/manualPrices",
                             query: [("fields[inAppPurchasePrices]", "startDate,endDate,manual,inAppPurchasePricePoint,territory")])
            == nil)
        #expect(spec.refusal(path: "/v1/subscriptionGroups//subscriptions", query: [])
            == "GET /v1/subscriptionGroups//subscriptions is not an operation fetch may call")
        #expect(spec.refusal(path: "/androidpublisher/v3/applications/a.b/subscriptions", query: [("pageSize", "1001")])
            == "androidpublisher.monetization.subscriptions.list: pageSize=1001 is above the maximum 1000")
        #expect(spec.refusal(path: "/androidpublisher/v3/applications/a.b/inappproducts", query: [("pageSize", "10")])
            == "androidpublisher.inappproducts.list has no parameter pageSize")
    }

    /// The snapshot's page files and their bytes (the manifest aside: it is dated).
    private func pages(_ scene: FetchScene, _ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try scene.files(folder) where name != ".fetch.json" {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: scene.path(folder) + "/" + name))
        }
        return result
    }

    private func manifestRequests(_ scene: FetchScene, _ folder: String) throws -> [SnapshotManifest.Page] {
        try SnapshotFolders.manifest(in: URL(fileURLWithPath: scene.path(folder))).pages
    }
}

/// Apple's 429 `RATE_LIMIT_EXCEEDED` (DESIGN.md §2b as amended): retried while the last `X-Rate-Limit` seen shows
/// requests left this hour (a short-burst limit: Apple Developer Forums thread 731014); when it shows none, or the
/// retries are used up, the run stops with exit 2, keeps its pages for `--resume` and says when to come back.
@Suite("App Store Connect RATE_LIMIT_EXCEEDED", .serialized)
struct RateLimitExceededTests {
    static let groups = "/v1/apps/\(FakeStoreServer.app)/subscriptionGroups"

    @Test func aRateLimitExceededAnswerWithNoRequestsLeftIsNotRetried() async throws {
        // Arrange: a key whose hourly budget another client has already spent.
        let scene = try await FetchScene.start(budget: 0)

        // Act
        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        // Assert: each request that went out was sent once, and the error says why no retry could help and when to
        // come back.
        #expect(result.exitCode == 2)
        #expect(Set(scene.server.requestsByPath.values) == [1], "\(scene.server.requestsByPath)")
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "warning: App Store Connect rate limit low: 0 of 3500 requests left this hour")
        let first = lines.first { $0.hasPrefix("error: ") } ?? ""
        #expect(first.hasPrefix("error: GET \(scene.server.baseURL)/v1/"), "\(result.stderr)")
        #expect(first.contains("""
            : App Store Connect answered HTTP 429 RATE_LIMIT_EXCEEDED ("We've received too many requests for this \
            API. Please wait and try again or slow down your request rate.") and its X-Rate-Limit shows 0 of 3500 \
            requests left: the hourly request budget of this key is spent, by this run or by another client using \
            the same key, and retrying within the run cannot help. The budget is a rolling hour: try again after
            """ + " "), "\(result.stderr)")
        #expect(first.hasSuffix(" UTC at the latest"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scene.path("asc")))
        await scene.finish()
    }

    /// A burst 429 while thousands of requests are left: before, the run stopped at once; now it waits and retries.
    @Test func aBurstLimitWithRequestsLeftIsRetriedAndTheFetchSucceeds() async throws {
        // Arrange: the subscription groups answered twice with 429 RATE_LIMIT_EXCEEDED, the hour far from spent.
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.groups, status: 429, times: 2, body: FakeStoreServer.rateLimitExceededBody),
        ])

        // Act
        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        // Assert
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(scene.server.responsesByStatus[429] == 2)
        #expect(scene.server.requestsByPath[Self.groups] == 3)
        let check = try await catalogcheck(["check", "--config", "catalogs/demo/products.yml", "--as-of",
                                            "2026-11-22", "--store", "asc-json:" + scene.path("asc")])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        await scene.finish()
    }

    @Test func aBurstLimitThatOutlastsTheRetriesStopsKeepingThePages() async throws {
        // Arrange
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.groups, status: 429, times: nil, body: FakeStoreServer.rateLimitExceededBody),
        ])

        // Act
        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        // Assert: six attempts, then exit 2 saying what happened and when to come back; the pages are kept.
        #expect(result.exitCode == 2)
        #expect(scene.server.requestsByPath[Self.groups] == 6)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("error: GET \(scene.server.baseURL)\(Self.groups)?limit=200: App Store Connect "
            + "answered HTTP 429 RATE_LIMIT_EXCEEDED (\"We've received too many requests for this API. Please wait "
            + "and try again or slow down your request rate.\") to all 6 attempts although its X-Rate-Limit shows ")
            == true, "\(result.stderr)")
        #expect(lines.first?.hasSuffix(" of 3500 requests left this hour: a limit on short bursts of requests, not "
            + "the hourly budget; try again in a few minutes") == true, "\(result.stderr)")
        #expect(lines.last?.hasPrefix("note: the ") == true)
        #expect(lines.last?.hasSuffix("kept in \(scene.path(".asc.fetch-partial")); run the same command with "
            + "--resume to continue from there") == true, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scene.path("asc")))
        await scene.finish()
    }

    /// Another client spends the key's hour while this run is under way: Apple's 429 says no request is left.
    @Test func aRateLimitExceededMidwayWithNoneLeftStopsAtOnceAndResumeFinishes() async throws {
        // Arrange
        let prices = "/v1/subscriptions/6450000005/prices"
        let scene = try await FetchScene.start(faults: [
            .init(path: prices, status: 429, times: 1, body: FakeStoreServer.rateLimitExceededBody, remaining: 0),
        ])

        // Act
        let stopped = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        let firstRun = scene.server.requests
        let journal = try String(contentsOfFile: scene.path(".asc.fetch-partial/.fetch-journal"), encoding: .utf8)
        let kept = try journal.split(separator: "\n").dropFirst().map {
            try JSONDecoder().decode(SnapshotManifest.Page.self, from: Data($0.utf8)).request
        }
        let resumed = try await scene.fetchAppStore("asc", extra: ["--resume", "--quiet"])

        // Assert: the 429 was not retried; the pages were kept and --resume asked for none of them again.
        #expect(stopped.exitCode == 2)
        let firstPage = prices + "?include=subscriptionPricePoint,territory&limit=200"
        #expect(firstRun.filter { $0 == firstPage }.count == 1)
        #expect(scene.server.requests.filter { $0 == firstPage }.count == 2)
        #expect(!kept.isEmpty)
        #expect(stopped.stderr.contains("""
            \(prices)?include=subscriptionPricePoint,territory&limit=200: App Store Connect answered HTTP 429 \
            RATE_LIMIT_EXCEEDED
            """), "\(stopped.stderr)")
        #expect(stopped.stderr.contains(" and its X-Rate-Limit shows 0 of 3500 requests left: "), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("run the same command with --resume to continue from there\n"))
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        let again = Array(scene.server.requests.dropFirst(firstRun.count))
        #expect(again.filter(kept.contains) == [])
        let check = try await catalogcheck(["check", "--config", "catalogs/demo/products.yml", "--as-of",
                                            "2026-11-22", "--store", "asc-json:" + scene.path("asc")])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        await scene.finish()
    }
}
