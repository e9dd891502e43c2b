import CatalogFetch
import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// `fetch` against a fake store that applies Apple's and Google's documented token rules and answers refusals
/// and errors as the stores do: clock skew, Play's migrate-403, other refusals naming the endpoint, the store's
/// reason and what to check, and store texts shown only with every credential redacted and escaped.
@Suite(.serialized)
struct FetchRefusalTests {
    static let app = "/v1/apps/\(FakeStoreServer.app)"
    static let play = "/androidpublisher/v3/applications/\(FakeStoreServer.package)"

    @Test func aClientClockFourMinutesFastStillFetchesFromAppStoreConnect() async throws {
        // Apple's clock (the server's) is 240 s behind this machine's.
        let scene = try await FetchScene.start(clockOffset: -240)

        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(scene.server.rejections == [])
        #expect(scene.server.responsesByStatus[401] == nil)
        await scene.finish()
    }

    @Test func theFakeStoresAnswerOnlyTheMethodEachPathTakes() async throws {
        // What keeps every fetch test honest about methods: an API operation is a GET, the token request a POST.
        let scene = try await FetchScene.start()
        let transport = AsyncHTTPTransport()
        let list = try #require(URL(string: scene.server.baseURL + Self.app + "/inAppPurchasesV2"))
        let token = try #require(URL(string: scene.server.tokenURI))

        let posted = try await transport.send(HTTPRequest(method: "POST", url: list, body: Data("{}".utf8)),
                                              timeout: .seconds(30))
        let got = try await transport.send(HTTPRequest(url: token), timeout: .seconds(30))

        #expect(posted.status == 405)
        #expect(posted.headers["allow"] == "GET")
        #expect(got.status == 405)
        #expect(got.headers["allow"] == "POST")
        await transport.shutdown()
        await scene.finish()
    }

    @Test func playsMigrateAnswerOnTheLegacyListIsARemarkAndTheFetchGoesOn() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.play + "/inappproducts", status: 403, times: nil, body: FakeStoreServer.playMigrateBody),
        ])

        let fetched = try await scene.fetchPlay("play")

        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(fetched.stderr == """
            subscriptions: 1 in 1 page
            subscription offers: 3 in 2 pages
            in-app products (legacy): 0 in 0 pages
            one-time products: 3 in 2 pages
            one-time offers: 1 in 1 page
            remark: Google Play answered the legacy inappproducts list with HTTP 403 "Please migrate to the new \
            publishing API.": this app's one-time products are on the new model and come from \
            monetization.onetimeproducts
            wrote 6 pages to \(scene.path("play"))

            """)
        #expect(scene.server.requestsByPath[Self.play + "/inappproducts"] == 1)
        #expect(try scene.files("play") == [
            ".fetch.json", "onetimeproduct-offers-0001.json", "onetimeproducts-0001.json", "onetimeproducts-0002.json",
            "subscription-offers-0001.json", "subscription-offers-0002.json",
            "subscriptions-0001.json",
        ])
        // The snapshot checks exactly as the demo does (whose legacy list is empty).
        let check = ["check", "--config", "catalogs/demo/products.yml", "--as-of", "2026-11-22"]
        let expected = try await catalogcheck(check + ["--store", "play-json:catalogs/demo/play"])
        let actual = try await catalogcheck(check + ["--store", "play-json:\(scene.path("play"))"])
        #expect(actual.exitCode == expected.exitCode)
        #expect(actual.stdout.replacingOccurrences(of: scene.path("play"), with: "catalogs/demo/play") == expected.stdout)
        await scene.finish()
    }

    @Test func anyOtherPlayRefusalExits2NamingTheEndpointTheReasonAndThePermission() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.play + "/inappproducts", status: 403, times: nil,
                  body: FakeStoreServer.playPermissionDeniedBody),
        ])

        let result = try await scene.fetchPlay("play")

        #expect(result.exitCode == 2)
        #expect(result.stderr.hasSuffix("""
            error: GET \(scene.server.baseURL)\(Self.play)/inappproducts: Google Play refused the service account \
            \(scene.credentials.clientEmail) (HTTP 403: "The caller does not have permission") — check that the \
            Play Console lists it under Users and permissions with access to \(FakeStoreServer.package) ("View app \
            information" and "View financial data") and that the Play Developer API is enabled

            """), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scene.path("play")))
        await scene.finish()
    }

    /// Apple's 403 FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED is the team's agreement, never the key's: it
    /// was reported as "App Store Connect refused the API key …".
    @Test func anAppStoreAgreementRefusalSaysWhoMustAcceptWhat() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.app + "/inAppPurchasesV2", status: 403, times: nil,
                  body: FakeStoreServer.agreementsMissingBody),
        ])

        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        #expect(result.exitCode == 2)
        #expect(result.stderr == """
            error: GET \(scene.server.baseURL)\(Self.app)/inAppPurchasesV2?include=inAppPurchaseAvailability,\
            offerCodes&limit=200&limit%5BofferCodes%5D=50: App Store Connect answered HTTP 403 \
            FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED ("This request requires an in-effect agreement that has \
            not been signed or has expired."): an agreement of the team is not signed or has expired, which no API \
            key can make up for. The Account Holder must accept it in App Store Connect, Business (in-app purchases \
            need the Paid Applications Agreement in effect); then run fetch again

            """, "\(result.stderr)")
        #expect(!result.stderr.contains(scene.credentials.keyID))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.folder.path) == ["keys"])
        await scene.finish()
    }

    @Test func aPlayErrorQuotingTheAccessTokenIsShownRedactedAndEscaped() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.play + "/subscriptions", status: 400, times: nil, body: #"""
                {"error": {"code": 400, "message": "Invalid request for token {authorization}\u001b[0m", \#
                "status": "INVALID_ARGUMENT"}}
                """#),
        ])

        let result = try await scene.fetchPlay("play")

        #expect(result.exitCode == 2)
        #expect(result.stderr.hasSuffix("""
            error: GET \(scene.server.baseURL)\(Self.play)/subscriptions?pageSize=1000: HTTP 400: Invalid request \
            for token Bearer [redacted]\\u{1B}[0m

            """), "\(result.stderr)")
        let written = try scene.everythingWritten([result])
        #expect(!scene.server.tokensSeen.isEmpty)
        for secret in scene.secrets { #expect(!written.contains(secret)) }
        await scene.finish()
    }

    @Test func anAppStoreErrorQuotingTheJWTIsShownRedactedWhateverItsLength() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.app + "/inAppPurchasesV2", status: 400, times: nil, body: """
                {"errors": [{"status": "400", "code": "PARAMETER_ERROR.INVALID", "title": "A parameter has an \
                invalid value", "detail": "The header Authorization: {authorization} is not valid here"}]}
                """),
        ])

        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        #expect(result.exitCode == 2)
        #expect(result.stderr.hasSuffix("""
            error: GET \(scene.server.baseURL)\(Self.app)/inAppPurchasesV2?include=inAppPurchaseAvailability,\
            offerCodes&limit=200&limit%5BofferCodes%5D=50: \
            HTTP 400: The header Authorization: Bearer [redacted] is not valid here

            """), "\(result.stderr)")
        // No piece of a JWT either: its signature is the secret part, and a cut text would have kept some of it.
        for token in scene.server.tokensSeen {
            for piece in token.split(separator: ".") where piece.count > 20 {
                #expect(!result.stderr.contains(piece))
            }
        }
        await scene.finish()
    }
}
