@testable import CatalogFetch
import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// `fetch revenuecat` against the fake RevenueCat API v2 (`RevenueCatFake`, built from RevenueCat's reference):
/// every page of every list, nested lists continued at their own endpoints, the refusals, the rate limit, and the
/// secret key kept out of every output and file.
@Suite(.serialized)
struct RevenueCatFetchTests {
    /// `export` of a snapshot, the header line (which names the folder) left out: what the snapshot declares.
    private func exported(_ folder: String) async throws -> String {
        let result = try await catalogcheck(["export", "revenuecat:" + folder])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .joined(separator: "\n")
    }

    @Test func everyPageOfEveryListIsFetchedAndReadsLikeOnePage() async throws {
        // Arrange: one page per list, and pages of 2 items with nested lists of 1 (packages and their products
        // continued at their own endpoints).
        let options = RevenueCatFake.Options()
        let whole = try await FetchScene.start(revenueCat: options)
        defer { Task { await whole.finish() } }
        var paged = options
        paged.pageSize = 2
        paged.nestedPageSize = 1
        let scene = try await FetchScene.start(revenueCat: paged)
        defer { Task { await scene.finish() } }

        // Act
        let one = try await whole.fetchRevenueCat("rc", key: options.apiKey)
        let many = try await scene.fetchRevenueCat("rc", key: options.apiKey)

        // Assert: both complete, the paged one by many requests the table allows, reading the same project.
        #expect(one.exitCode == 0, "\(one.stderr)")
        #expect(many.exitCode == 0, "\(many.stderr)")
        #expect(whole.server.requests.count == 4)
        #expect(scene.server.responsesByStatus[400] == nil)
        #expect(scene.server.requests.contains(
            "/v2/projects/proj5e7a1d2c/products?limit=100&starting_after=prod02tm"))
        #expect(scene.server.requests.contains { $0.hasPrefix("/v2/projects/proj5e7a1d2c/offerings/ofrng1a2b3c4d/packages?") })
        #expect(scene.server.requests.contains { $0.hasPrefix("/v2/projects/proj5e7a1d2c/packages/pkge1a2b3c4d/products?") })
        #expect(scene.server.requests.contains { $0.hasPrefix("/v2/projects/proj5e7a1d2c/entitlements/entl1a2b3c4d/products?") })
        let files = try scene.files("rc")
        #expect(files.contains("products-0007.json"))
        #expect(files.contains("offering-ofrng1a2b3c4d-packages-0001.json"))
        #expect(try await exported(whole.path("rc")) == exported(scene.path("rc")))
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: scene.path("rc") + "/.fetch.json"))) as? [String: Any]
        #expect(manifest?["store"] as? String == "revenuecat")
        #expect(manifest?["subject"] as? String == "proj5e7a1d2c")
        let kinds = (manifest?["kinds"] as? [String: Any])?.keys.sorted()
        #expect(kinds == ["apps", "entitlementProducts", "entitlements", "offeringPackages", "offerings",
                          "packageProducts", "products"])
    }

    /// `catalogs/demo/revenuecat` and `catalogs/demo-drift/revenuecat` are what `fetch revenuecat` writes against
    /// the fake (the projects of `Tests/Fixtures/fetch/revenuecat/demo-project.json` and
    /// `demo-drift-project.json`): the same pages, byte for byte, and the same manifest but for when and by which
    /// version it was fetched. `CATALOGCHECK_RECORD=DIR` copies a fresh fetch to DIR/demo (DIR/demo-drift) and
    /// fails, so a recording is never taken for a pass.
    @Test(arguments: [("demo-project.json", "demo"), ("demo-drift-project.json", "demo-drift")])
    func theDemoSnapshotIsWhatFetchWrites(fixture: String, set: String) async throws {
        let options = RevenueCatFake.Options(fixture: fixture)
        let scene = try await FetchScene.start(revenueCat: options)
        defer { Task { await scene.finish() } }

        let result = try await scene.fetchRevenueCat("revenuecat", key: options.apiKey, extra: ["--quiet"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        if let record = ProcessInfo.processInfo.environment["CATALOGCHECK_RECORD"] {
            let target = record + "/" + set
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.createDirectory(atPath: record, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: scene.path("revenuecat"), toPath: target)
            Issue.record("recorded the snapshot into \(target)")
            return
        }
        let demo = Fixtures.catalog(set + "/revenuecat").path
        let fresh = scene.path("revenuecat")
        let names = try FileManager.default.contentsOfDirectory(atPath: demo).sorted()
        #expect(names == (try scene.files("revenuecat")))
        for name in names where name != ".fetch.json" {
            #expect(FileManager.default.contents(atPath: demo + "/" + name)
                    == FileManager.default.contents(atPath: fresh + "/" + name), "\(name)")
        }
        func manifest(_ folder: String) throws -> [String: Any] {
            var object = try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder + "/.fetch.json"))) as? [String: Any] ?? [:]
            object["fetchedAt"] = nil
            object["fetchedBy"] = nil
            return object
        }
        #expect(NSDictionary(dictionary: try manifest(demo)) == NSDictionary(dictionary: try manifest(fresh)))
    }

    @Test func absoluteNextPagesAndAnOmittedLastOneAreFollowed() async throws {
        var options = RevenueCatFake.Options()
        options.pageSize = 3
        options.absoluteNextPages = true
        options.omitsLastNextPage = true
        let scene = try await FetchScene.start(revenueCat: options)
        defer { Task { await scene.finish() } }
        let reference = try await FetchScene.start(revenueCat: RevenueCatFake.Options(apiKey: options.apiKey))
        defer { Task { await reference.finish() } }

        let result = try await scene.fetchRevenueCat("rc", key: options.apiKey)
        _ = try await reference.fetchRevenueCat("rc", key: options.apiKey)

        #expect(result.exitCode == 0, "\(result.stderr)")
        // Requested at the base URL (the fake), never at api.revenuecat.com, with the first request's query kept.
        #expect(scene.server.requests.contains(
            "/v2/projects/proj5e7a1d2c/offerings?limit=100&expand=items.package&expand=items.package.product"))
        #expect(scene.server.requests.contains("/v2/projects/proj5e7a1d2c/products?limit=100&starting_after=prod03tm"))
        #expect(try await exported(scene.path("rc")) == exported(reference.path("rc")))
    }

    @Test func aRejectedKeyExits2SayingWhatToUseAndNeverShowsIt() async throws {
        let options = RevenueCatFake.Options()
        let scene = try await FetchScene.start(revenueCat: options)
        defer { Task { await scene.finish() } }

        let wrong = try await scene.fetchRevenueCat("rc", key: "sk_wrong_0123456789abcdef")
        let otherProject = try await scene.fetchRevenueCat("rc", key: options.otherProjectKey)
        let missing = try await scene.fetchRevenueCat("rc", key: nil)

        #expect(wrong.exitCode == 2)
        #expect(wrong.stderr.contains("RevenueCat refused the secret API key in $REVENUECAT_API_KEY (HTTP 401: "
                                      + "\"Authentication is not valid for the given API key.\") — use a secret API "
                                      + "key of version V2"), "\(wrong.stderr)")
        #expect(otherProject.exitCode == 2)
        #expect(otherProject.stderr.contains("(HTTP 403: \"The API key does not belong to the project you specified.\")"
                                             + " — check that the key belongs to the project proj5e7a1d2c"),
                "\(otherProject.stderr)")
        #expect(missing.exitCode == 2)
        #expect(missing.stderr == "error: missing the RevenueCat secret API key: set REVENUECAT_API_KEY (or name "
                + "another variable with --api-key-env)\n")
        #expect(!FileManager.default.fileExists(atPath: scene.path("rc")))
        let written = try scene.everythingWritten([wrong, otherProject, missing])
        #expect(!written.contains("sk_wrong_0123456789abcdef"))
        #expect(!written.contains(options.otherProjectKey))
    }

    @Test func aStoreThatQuotesTheKeyBackGetsItRedactedAndNoFileHoldsIt() async throws {
        // A 400 whose message quotes the request's Authorization header, as a proxy or a store may.
        let options = RevenueCatFake.Options()
        let faults = [FakeStoreServer.Fault(path: "/v2/projects/proj5e7a1d2c/offerings", status: 400,
                                            body: #"{"object": "error", "type": "parameter_error", "#
                                                + #""message": "bad header {authorization}", "retryable": false}"#)]
        let scene = try await FetchScene.start(faults: faults, revenueCat: options)
        defer { Task { await scene.finish() } }
        let clean = try await FetchScene.start(revenueCat: options)
        defer { Task { await clean.finish() } }

        let failed = try await scene.fetchRevenueCat("rc", key: options.apiKey)
        let fetched = try await clean.fetchRevenueCat("rc", key: options.apiKey)

        #expect(failed.exitCode == 2)
        #expect(failed.stderr.contains("HTTP 400: bad header Bearer [redacted]"), "\(failed.stderr)")
        #expect(fetched.exitCode == 0)
        #expect(try !scene.everythingWritten([failed]).contains(options.apiKey))
        #expect(try !clean.everythingWritten([fetched]).contains(options.apiKey))
        #expect(try !clean.everythingWritten([fetched]).contains("sk_test_"))
    }

    @Test func a429IsRetriedAfterRetryAfterThenStopsKeepingThePagesForResume() async throws {
        let options = RevenueCatFake.Options()
        let rateLimited = #"{"object": "error", "type": "rate_limit_error", "message": "Rate limit exceeded", "#
            + #""retryable": true, "backoff_ms": 0}"#
        // One 429 on the apps, then a list that answers 429 six times (every attempt a fetch makes).
        let faults = [
            FakeStoreServer.Fault(path: "/v2/projects/proj5e7a1d2c/apps", status: 429, retryAfter: "0", times: 1,
                                  body: rateLimited),
            FakeStoreServer.Fault(path: "/v2/projects/proj5e7a1d2c/entitlements", status: 429, retryAfter: "0",
                                  times: 6, body: rateLimited),
        ]
        let scene = try await FetchScene.start(faults: faults, revenueCat: options)
        defer { Task { await scene.finish() } }

        let stopped = try await scene.fetchRevenueCat("rc", key: options.apiKey)
        let resumed = try await scene.fetchRevenueCat("rc", key: options.apiKey, extra: ["--resume"])

        #expect(stopped.exitCode == 2)
        #expect(stopped.stderr.contains("GET \(scene.server.baseURL)/v2/projects/proj5e7a1d2c/entitlements?limit=100"
                                        + "&expand=items.product: gave up after 6 attempts: HTTP 429"),
                "\(stopped.stderr)")
        #expect(stopped.stderr.contains("run the same command with --resume to continue from there"))
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming the unfinished fetch in "))
        // Apps once more after its 429, the others once: no page fetched twice over the two runs.
        #expect(scene.server.requestsByPath["/v2/projects/proj5e7a1d2c/apps"] == 2)
        #expect(scene.server.requestsByPath["/v2/projects/proj5e7a1d2c/products"] == 1)
        #expect(scene.server.requestsByPath["/v2/projects/proj5e7a1d2c/entitlements"] == 7)
    }

    @Test func theRateLimitTheAnswersGiveIsNeverExceeded() async throws {
        var options = RevenueCatFake.Options()
        options.pageSize = 1
        options.nestedPageSize = 1
        let scene = try await FetchScene.start(revenueCat: options)
        defer { Task { await scene.finish() } }

        let result = try await scene.fetchRevenueCat("rc", key: options.apiKey, extra: ["--quiet"])

        // Every request fits the 60 a minute the fake reports (more than 60 requests would have to wait).
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(scene.server.responsesByStatus[429] == nil)
        #expect(scene.server.requests.count > 40)
        #expect(scene.server.revenueCatPeakUsage <= 60)
    }

    /// The pacer waits, on its clock, once the minute's requests reach the limit the answers report, or the usage
    /// they report (other clients of the key) leaves no room.
    @Test func thePacerWaitsForRoomInTheMinute() {
        let clock = TestClock()
        let pacer = RequestPacer(now: { clock.now })

        let first = pacer.reserve()
        pacer.observe(["revenuecat-rate-limit-current-usage": "1", "revenuecat-rate-limit-current-limit": "3"])
        clock.advance(10)
        let second = pacer.reserve()
        let third = pacer.reserve()
        let fourth = pacer.reserve()
        clock.advance(50)
        let afterTheMinute = pacer.reserve()
        pacer.observe(["revenuecat-rate-limit-current-usage": "3", "revenuecat-rate-limit-current-limit": "3"])
        clock.advance(1)
        let othersUsedIt = pacer.reserve()

        #expect(first == nil)
        #expect(second == nil)
        #expect(third == nil)
        #expect(fourth == .seconds(50))
        #expect(afterTheMinute == nil)
        #expect(othersUsedIt == .seconds(59))
    }
}

/// A clock a test moves by hand.
private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var time = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date { lock.withLock { time } }

    func advance(_ seconds: TimeInterval) {
        lock.withLock { time = time.addingTimeInterval(seconds) }
    }
}
