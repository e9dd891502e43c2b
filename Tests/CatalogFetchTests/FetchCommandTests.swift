import CatalogCore
import CatalogFormats
import CatalogSnapshot
import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// `catalogcheck fetch` end to end: the built binary against a fake App Store Connect / Play server in this
/// process, whose pages come from `catalogs/demo`, so a fetched snapshot must check exactly as the demo does.
@Suite(.serialized)
struct FetchCommandTests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let app = "/v1/apps/\(FakeStoreServer.app)"
    static let play = "/androidpublisher/v3/applications/\(FakeStoreServer.package)"

    @Test func appStoreSnapshotChecksExactlyLikeTheDemo() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.app + "/inAppPurchasesV2", status: 429, retryAfter: "1"),
            .init(path: Self.app + "/subscriptionGroups", status: 503),
        ])
        let fetched = try await scene.fetchAppStore("asc")
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(fetched.stdout == "")
        // No request per in-app purchase or subscription for its availability (included with the lists), none for
        // the offers of the two subscriptions whose included linkage says they have none.
        #expect(fetched.stderr == """
            in-app purchases: 4 in 2 pages
            subscription groups: 1 in 1 page
            apps: 1 in 1 page
            subscriptions: 3 in 2 pages
            in-app purchase price schedules: 4 in 4 pages
            in-app purchase offer prices: 1 in 1 page
            subscription prices: 38 in 19 pages
            introductory offers: 4 in 2 pages
            subscription offer prices: 4 in 3 pages
            in-app purchase prices: 16 in 12 pages
            available territories: 28 in 14 pages
            wrote 61 pages to \(scene.path("asc"))

            """, "\(fetched.stderr)")
        // The retries happened: 429 (Retry-After: 1) once, 503 once, each followed by the page.
        #expect(scene.server.responsesByStatus[429] == 1)
        #expect(scene.server.responsesByStatus[503] == 1)
        #expect(scene.server.requestsByPath[Self.app + "/inAppPurchasesV2"] == 3)
        #expect(scene.server.requestsByPath[Self.app + "/subscriptionGroups"] == 2)

        let files = try scene.files("asc")
        #expect(files.first == ".fetch.json")
        #expect(files.contains("in-app-purchases-0002.json"))
        #expect(files.contains("subscription-6450000004-introductoryOffers-0002.json"))
        #expect(!files.contains("subscription-6450000005-introductoryOffers-0001.json"))
        #expect(files.contains("in-app-purchase-price-schedule-6450000000-automaticPrices-0002.json"))

        // The snapshot also holds the app (`/v1/apps/{id}`), which the demo folder lacks: its bundle ID is exported.
        try await expectReadsLikeTheDemo(scene.path("asc"), demo: "catalogs/demo/asc", format: "asc-json",
                                         bundleID: "com.trailmate.app")

        let manifest = try manifestObject(scene, "asc")
        #expect(manifest["version"] as? Int == 2)
        #expect(manifest["store"] as? String == "appstore")
        #expect(manifest["subject"] as? String == FakeStoreServer.app)
        #expect(Set(manifest.keys) == ["fetchedAt", "fetchedBy", "kinds", "pages", "store", "subject", "version"])
        let kinds = manifest["kinds"] as? [String: [String: Int]]
        #expect(kinds?["inAppPurchases"] == ["pages": 2, "resources": 4])
        #expect(kinds?["subscriptionPrices"] == ["pages": 19, "resources": 38])
        // Every offer kind fetch asked for, also those that came only with their parents' lists (DESIGN §2b).
        #expect(kinds?["subscriptionPromotionalOffers"] == ["pages": 0, "resources": 2])
        #expect(kinds?["subscriptionOfferCodes"] == ["pages": 0, "resources": 1])
        #expect(kinds?["winBackOffers"] == ["pages": 0, "resources": 1])
        #expect(kinds?["inAppPurchaseOfferCodes"] == ["pages": 0, "resources": 1])
        #expect(kinds?["subscriptionPlanAvailabilities"] == ["pages": 0, "resources": 3])
        // Each page's request, path and query as sent, so a page's parent never depends on its links.self, and
        // the SHA-256 of its bytes, so a page changed or lost since is told from the one fetch wrote.
        let requests = manifest["pages"] as? [[String: String]] ?? []
        #expect(requests.count == 61)
        #expect(requests.map { $0["file"] ?? "" } == files.filter { $0 != ".fetch.json" })
        for page in requests {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: scene.path("asc") + "/" + (page["file"] ?? "")))
            #expect(page["sha256"] == SnapshotDigest.sha256(of: bytes), "\(page)")
        }
        #expect(requests.first { $0["file"] == "in-app-purchases-0002.json" }?.filter { $0.key != "sha256" } == [
            "file": "in-app-purchases-0002.json", "path": Self.app + "/inAppPurchasesV2",
            "query": "include=inAppPurchaseAvailability,offerCodes&limit%5BofferCodes%5D=50&cursor=2&limit=2",
        ])
        #expect(requests.first { $0["file"] == "subscription-group-21450001-subscriptions-0001.json" }?
            .filter { $0.key != "sha256" } == [
            "file": "subscription-group-21450001-subscriptions-0001.json",
            "path": "/v1/subscriptionGroups/21450001/subscriptions",
            "query": String(FetchScene.subscriptionsQuery.dropFirst()),
        ])
        #expect(scene.server.requests.filter { $0.hasSuffix("/inAppPurchaseAvailability") }.isEmpty)

        let written = try scene.everythingWritten([fetched])
        for secret in scene.secrets { #expect(!written.contains(secret)) }
        #expect(!scene.server.tokensSeen.isEmpty)
        await scene.finish()
    }

    /// The offers (issue 19): each priced offer's prices in a file of their own, none for the free-trial offer
    /// code, and the snapshot reads back with the demo folder's offers, billing plans and carried kinds.
    @Test func appStoreSnapshotHoldsTheDemosOffersAndBillingPlans() async throws {
        let scene = try await FetchScene.start()
        let fetched = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")

        let files = try scene.files("asc")
        #expect(files.filter { $0.contains("offer") } == [
            "in-app-purchase-offer-code-6450000001-code1-prices-0001.json",
            "subscription-promotional-offer-6450000004-promo1-prices-0001.json",
            "subscription-promotional-offer-6450000005-promo1-prices-0001.json",
            "win-back-offer-6450000004-winback1-prices-0001.json",
        ])
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        let demo = try AppStoreConnectReader().read(contentsOf: Fixtures.catalog("demo/asc"), displayPath: "asc",
                                                    options: options)
        let snapshot = try AppStoreConnectReader().read(contentsOf: URL(fileURLWithPath: scene.path("asc")),
                                                        displayPath: "asc", options: options)
        #expect(snapshot.capabilities == demo.capabilities)
        // Offers and plans without their locations (the files differ), by product.
        func offers(_ catalog: Catalog) -> [String: [Offer]?] {
            Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id.rawValue, $0.offers?.map(\.unlocated)) })
        }
        func plans(_ catalog: Catalog) -> [String: [BillingPlan]?] {
            Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id.rawValue, $0.billingPlans?.map(\.unlocated)) })
        }
        #expect(offers(snapshot) == offers(demo))
        #expect(plans(snapshot) == plans(demo))
        #expect(snapshot.products.compactMap(\.offers).joined().count == 5)
        await scene.finish()
    }

    @Test func playSnapshotChecksExactlyLikeTheDemo() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.play + "/subscriptions", status: 429, retryAfter: "1"),
            .init(path: Self.play + "/oneTimeProducts", status: 503),
        ])
        let fetched = try await scene.fetchPlay("play")
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(fetched.stderr == """
            subscriptions: 1 in 1 page
            subscription offers: 3 in 2 pages
            in-app products (legacy): 0 in 1 page
            one-time products: 3 in 2 pages
            one-time offers: 1 in 1 page
            wrote 7 pages to \(scene.path("play"))

            """)
        #expect(scene.server.responsesByStatus[429] == 1)
        #expect(scene.server.responsesByStatus[503] == 1)
        #expect(scene.server.requestsByPath[Self.play + "/oneTimeProducts"] == 3)
        // Every one-time offer of the app in one listing ('-' for product and purchase option): one request.
        #expect(scene.server.requestsByPath[Self.play + "/oneTimeProducts/-/purchaseOptions/-/offers"] == 1)
        let kinds = try manifestObject(scene, "play")["kinds"] as? [String: Any]
        #expect(kinds?["oneTimeProductOffers"] as? [String: Int] == ["pages": 1, "resources": 1])
        #expect(scene.server.requestsByPath["/token"] == 1)
        #expect(try scene.files("play") == [
            ".fetch.json", "inappproducts-0001.json", "onetimeproduct-offers-0001.json", "onetimeproducts-0001.json",
            "onetimeproducts-0002.json", "subscription-offers-0001.json", "subscription-offers-0002.json",
            "subscriptions-0001.json",
        ])

        try await expectReadsLikeTheDemo(scene.path("play"), demo: "catalogs/demo/play", format: "play-json")

        let written = try scene.everythingWritten([fetched])
        for secret in scene.secrets { #expect(!written.contains(secret)) }
        await scene.finish()
    }

    @Test func aRefusedAppStoreKeyExits2NamingTheKey() async throws {
        let scene = try await FetchScene.start()
        let other = try TestCredentials()
        let otherKeys = scene.folder.appendingPathComponent("keys/other")
        try FileManager.default.createDirectory(at: otherKeys, withIntermediateDirectories: false)
        let wrongKey = try other.writeASCKey(in: otherKeys)
        let result = try await scene.fetchAppStore("asc", keyPath: wrongKey)
        #expect(result.exitCode == 2)
        // The app and both first listings run at once; whichever is refused first is named.
        let refused = ["?fields%5Bapps%5D=bundleId,name", "/inAppPurchasesV2?include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50",
                       "/subscriptionGroups?limit=200",
        ].map { request in """
            error: GET \(scene.server.baseURL)\(Self.app)\(request): App Store Connect refused the API \
            key FAKEKEY123 (HTTP 401: "Provide a properly configured and signed bearer token, and make sure that it \
            has not expired.") — check the key ID, issuer ID, that the key is not revoked and that this machine's \
            clock is right

            """ }
        #expect(refused.contains(result.stderr), "\(result.stderr)")
        #expect(scene.server.rejections.allSatisfy { $0 == "bad signature" }, "\(scene.server.rejections)")
        #expect(!FileManager.default.fileExists(atPath: scene.path("asc")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.folder.path) == ["keys"])
        let written = try scene.everythingWritten([result])
        for secret in scene.secrets + [other.ascPrivateKeyPEM] { #expect(!written.contains(secret)) }
        await scene.finish()
    }

    @Test func aRefusedServiceAccountExits2NamingTheAccount() async throws {
        let scene = try await FetchScene.start()
        let other = try TestCredentials()
        let wrongKey = try other.writeServiceAccount(in: scene.folder, tokenURI: scene.server.tokenURI)
        let result = try await scene.fetchPlay("play", keyPath: wrongKey)
        #expect(result.exitCode == 2)
        #expect(result.stderr == """
            error: POST \(scene.server.tokenURI): Google's token endpoint refused the service account \
            \(other.clientEmail) (HTTP 400: "invalid_grant: Invalid JWT Signature.") — check that the key file is \
            current, its key not deleted, and that this machine's clock is right

            """)
        #expect(scene.server.rejections == ["bad signature"])
        await scene.finish()
    }

    @Test func anEmptyStoreReadsBackAsAnEmptyCatalog() async throws {
        let scene = try await FetchScene.start(empty: true)
        let asc = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(asc.exitCode == 0, "\(asc.stderr)")
        #expect(asc.stderr == "")
        #expect(try scene.files("asc") == [".fetch.json", "app-0001.json", "in-app-purchases-0001.json",
                                           "subscription-groups-0001.json"])
        let play = try await scene.fetchPlay("play")
        #expect(play.exitCode == 0, "\(play.stderr)")
        #expect(try String(contentsOfFile: scene.path("play") + "/subscriptions-0001.json", encoding: .utf8) == "{\n\n}")
        for (folder, format) in [("asc", "asc-json"), ("play", "play-json")] {
            let export = try await catalogcheck(["export", scene.path(folder), "--store-format", format,
                                                 "--format", "json"] + Self.asOf)
            #expect(export.exitCode == 0, "\(export.stderr)")
            #expect(export.stdout.contains("\"products\" : {},"), "\(export.stdout)")
        }
        await scene.finish()
    }

    @Test func aFetchFailingMidwayLeavesThePreviousSnapshotIntact() async throws {
        let scene = try await FetchScene.start()
        #expect(try await scene.fetchAppStore("asc").exitCode == 0)
        let before = try snapshotBytes(scene, "asc")
        await scene.server.stop()

        let failing = try await FetchScene.start(
            faults: [.init(path: "/v1/subscriptions/6450000005/prices", status: 500, times: nil)],
            credentials: scene.credentials)
        let result = try await catalogcheck([
            "fetch", "appstore", "--key-id", scene.credentials.keyID, "--issuer-id", scene.credentials.issuerID,
            "--private-key", scene.ascKeyPath, "--app", FakeStoreServer.app, "--output", scene.path("asc"),
            "--base-url", failing.server.baseURL, "--retry-base-delay-ms", "10", "--quiet",
        ])
        #expect(result.exitCode == 2)
        // A network failure keeps the pages fetched so far for --resume, beside the untouched snapshot.
        let pagesKept = try FileManager.default.contentsOfDirectory(atPath: scene.path(".asc.fetch-partial"))
            .filter { $0.hasSuffix(".json") }.count
        #expect(result.stderr == """
            error: GET \(failing.server.baseURL)/v1/subscriptions/6450000005/prices\
            ?include=subscriptionPricePoint,territory&limit=200: gave up after 6 attempts: HTTP 500
            note: the \(pagesKept) pages fetched so far are kept in \(scene.path(".asc.fetch-partial")); run the \
            same command with --resume to continue from there

            """, "\(result.stderr)")
        #expect(pagesKept > 0)
        #expect(failing.server.requestsByPath["/v1/subscriptions/6450000005/prices"] == 6)
        #expect(try snapshotBytes(scene, "asc") == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.folder.path).sorted()
            == [".asc.fetch-partial", "asc", "keys"])
        await failing.finish()
        try? FileManager.default.removeItem(at: scene.folder)
    }

    @Test func aServerThatIsNotThereExits2AfterSixAttempts() async throws {
        let scene = try await FetchScene.start()
        await scene.server.stop()
        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains(": gave up after 6 attempts: connection refused\n"), "\(result.stderr)")
        // The app itself (`/v1/apps/{id}`) or one of its lists, whichever request fails first.
        #expect(result.stderr.hasPrefix("error: GET \(scene.server.baseURL)/v1/apps/\(FakeStoreServer.app)"))
        try? FileManager.default.removeItem(at: scene.folder)
    }

    @Test func aLongRetryAfterExits2SayingWhenToTryAgain() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.app + "/inAppPurchasesV2", status: 429, retryAfter: "3600"),
        ])
        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("""
            /inAppPurchasesV2?include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50: the store asks to wait 3600 s (Retry-After), \
            longer than a fetch waits \
            for one request; try again after
            """), "\(result.stderr)")
        await scene.finish()
    }

    @Test func credentialProblemsExit2BeforeAnyRequest() async throws {
        let scene = try await FetchScene.start()
        let missing = try await catalogcheck(["fetch", "appstore", "--app", "1", "--output", scene.path("asc")])
        #expect(missing.exitCode == 2)
        #expect(missing.stderr == "error: missing the API key ID: pass --key-id or set ASC_KEY_ID\n")
        let unreadable = try await scene.fetchAppStore("asc", keyPath: scene.path("nowhere.p8"))
        #expect(unreadable.stderr == "error: cannot read the private key file \(scene.path("nowhere.p8")): No such file or directory\n")
        #expect(unreadable.exitCode == 2)
        let notAKey = try await scene.fetchAppStore("asc", keyPath: scene.serviceAccountPath)
        #expect(notAKey.exitCode == 2)
        #expect(notAKey.stderr.hasPrefix("error: the private key file \(scene.serviceAccountPath) does not hold"))
        #expect(scene.server.requestsByPath.isEmpty)
        for secret in scene.secrets { #expect(!(notAKey.stderr + missing.stderr).contains(secret)) }
        await scene.finish()
    }

    @Test func aKeyFileReadableByOthersIsWarnedAbout() async throws {
        let scene = try await FetchScene.start()
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: scene.ascKeyPath)
        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.hasPrefix("""
            warning: the private key file \(scene.ascKeyPath) is readable by group or others (mode 644); \
            restrict it with chmod 600 \(scene.ascKeyPath)

            """), "\(result.stderr)")
        await scene.finish()
    }

    @Test func aFolderThatIsNotASnapshotIsNeverReplaced() async throws {
        let scene = try await FetchScene.start()
        let result = try await scene.fetchAppStore("keys")
        #expect(result.exitCode == 2)
        #expect(result.stderr == """
            \(scene.path("keys")): error: holds files but no .fetch.json, so it is not a snapshot fetch wrote; \
            fetch into a new or empty folder (fetch replaces the whole folder)

            """)
        #expect(try scene.files("keys") == ["AuthKey_FAKEKEY123.p8", "service-account.json"])
        let noParent = try await scene.fetchAppStore("missing/asc")
        #expect(noParent.exitCode == 2)
        #expect(noParent.stderr == "\(scene.path("missing/asc")): error: the folder \(scene.path("missing")) does not exist\n")
        await scene.finish()
    }

    /// `check` against the demo config gives the same output and exit code for the snapshot as for the demo
    /// folder (both folders have the same name, which the output shows), and `export` the same catalog.
    private func expectReadsLikeTheDemo(_ folder: String, demo: String, format: String,
                                        bundleID: String? = nil) async throws {
        let check = ["check", "--config", "catalogs/demo/products.yml"] + Self.asOf
        let expected = try await catalogcheck(check + ["--store", "\(format):\(demo)"])
        let actual = try await catalogcheck(check + ["--store", "\(format):\(folder)"])
        #expect(expected.exitCode == 0)
        #expect(actual.exitCode == expected.exitCode)
        // A note on the whole input (Play's prices-not-compared) names the folder as given.
        #expect(actual.stdout.replacingOccurrences(of: folder, with: demo) == expected.stdout)
        #expect(actual.stderr == expected.stderr)
        let export = ["export", "--store-format", format] + Self.asOf
        let expectedExport = try await catalogcheck(export + [demo])
        let actualExport = try await catalogcheck(export + [folder])
        #expect(actualExport.exitCode == 0)
        // The first line names the input path; the catalog below it must be the same, byte for byte.
        var expectedLines = Array(expectedExport.stdout.split(separator: "\n").dropFirst())
        if let bundleID, let app = expectedLines.firstIndex(of: "app:") {
            expectedLines.insert("  bundleId: \(bundleID)", at: app + 1)
        }
        #expect(Array(actualExport.stdout.split(separator: "\n").dropFirst()) == expectedLines)
    }

    private func manifestObject(_ scene: FetchScene, _ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: scene.path(folder) + "/.fetch.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    private func snapshotBytes(_ scene: FetchScene, _ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for name in try scene.files(folder) {
            result[name] = try Data(contentsOf: URL(fileURLWithPath: scene.path(folder) + "/" + name))
        }
        return result
    }
}
