@testable import CatalogFetch
import FakeStoreServer
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// DESIGN.md §2b's bounds on `fetch`: server data never steers a request (IDs are percent-encoded or refused,
/// `links.next` stays on the API host and the list's path), no server holds a run (each attempt ends within its
/// timeout, body included; a long `Retry-After` stops the run at once), and a signal keeps the pages fetched so
/// far for `--resume`. The misbehaving servers are `ScriptedHTTPServer`s; the attempt timeout is shortened for
/// the tests with the hidden `--request-timeout-ms`.
@Suite(.serialized)
struct FetchBoundsTests {
    static let app = FakeStoreServer.app
    static let inAppPurchases = "/v1/apps/\(FakeStoreServer.app)/inAppPurchasesV2"
    static let groups = "/v1/apps/\(FakeStoreServer.app)/subscriptionGroups"

    // MARK: - Each attempt ends within its timeout

    /// A server that never answers, sends its headers a byte at a time, or sends its headers and then its body
    /// a byte at a time (30 s in all, which a per-read timeout never notices): the attempt ends at 500 ms with
    /// a timeout, where an attempt bounded only until the headers would wait out the body and succeed.
    @Test(arguments: ["silence", "headers", "body"])
    func anAttemptEndsWithinItsTimeoutHoweverSlowTheServer(stall: String) async throws {
        let server = try ScriptedHTTPServer { _ in
            switch stall {
            case "silence":
                return .silence
            case "headers":
                return .trickle(head: "HTTP/1.1 200 OK\r\n" + String(repeating: "X-Padding: 1\r\n", count: 40)
                                    + "Content-Length: 2\r\n\r\n", body: "{}", every: .milliseconds(50))
            default:
                return .trickle(head: "HTTP/1.1 200 OK\r\nContent-Length: 600\r\n\r\n",
                                body: String(repeating: " ", count: 600), every: .milliseconds(50))
            }
        }
        let transport = AsyncHTTPTransport()
        let url = try #require(URL(string: server.baseURL + "/v1/apps/1"))

        await #expect(throws: TransportFailure("no complete answer within 500 ms")) {
            _ = try await transport.send(HTTPRequest(url: url), timeout: .milliseconds(500))
        }

        await transport.shutdown()
        server.stop()
    }

    @Test func aServerThatTricklesItsAnswerCannotHoldTheRun() async throws {
        let scene = try BoundsScene.start { target in
            target.hasPrefix(Self.inAppPurchases)
                ? .trickle(head: "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n",
                           body: String(repeating: " ", count: 100), every: .milliseconds(50))
                : BoundsScene.standard(target)
        }

        let result = try await catalogcheck(scene.fetchArguments(extra: ["--request-timeout-ms", "300", "--quiet"]))

        #expect(result.exitCode == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("error: GET \(scene.server.baseURL)\(Self.inAppPurchases)") == true,
                "\(result.stderr)")
        #expect(lines.first?.hasSuffix(": gave up after 6 attempts: no complete answer within 300 ms") == true,
                "\(result.stderr)")
        #expect(scene.server.requests.filter { $0.hasPrefix(Self.inAppPurchases) }.count == 6)
        // A network failure is worth resuming: the pages the other first listings got (the groups and the app)
        // stay in the hidden folder, and the run says so.
        let kept = scene.folder.appendingPathComponent(".asc.fetch-partial").path
        #expect(lines.last == """
            note: the 2 pages fetched so far are kept in \(kept); run the same command with --resume to continue \
            from there
            """)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scene.folder.path).sorted()
            == [".asc.fetch-partial", "keys"])
        #expect(try scene.stagingPages() == ["app-0001.json", "subscription-groups-0001.json"])
        scene.finish()
    }

    // MARK: - Retry-After

    @Test func aRetryAfterTooLargeForAnIntegerStopsTheRunAtOnce() async throws {
        let scene = try await FetchScene.start(faults: [
            .init(path: Self.inAppPurchases, status: 429, retryAfter: "99999999999999999999999"),
        ])

        let result = try await scene.fetchAppStore("asc", extra: ["--quiet"])

        #expect(result.exitCode == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("error: GET \(scene.server.baseURL)\(Self.inAppPurchases)") == true,
                "\(result.stderr)")
        #expect(lines.first?.hasSuffix("""
            : the store asks to wait more seconds than an integer holds (Retry-After), longer than a fetch waits \
            for one request; try again much later
            """) == true, "\(result.stderr)")
        // The first listings run side by side: a page one of them wrote before the stop is kept for --resume.
        #expect(lines.count == 1 || lines.last?.hasPrefix("note: the ") == true, "\(result.stderr)")
        #expect(scene.server.requestsByPath[Self.inAppPurchases] == 1)
        #expect(!FileManager.default.fileExists(atPath: scene.path("asc")))
        await scene.finish()
    }

    // MARK: - Requests go only to the API host, on the list's own path

    /// Each `links.next` and why it is refused; `{base}` stands for the server's `http://127.0.0.1:PORT`.
    static let foreignNextLinks: [(next: String, reason: String)] = [
        ("https://evil.example\(inAppPurchases)?cursor=2&limit=200",
         "links.next leads to https://evil.example, not to the API host {base}; it is not requested"),
        ("http://api.appstoreconnect.apple.com\(inAppPurchases)?cursor=2&limit=200",
         "links.next leads to http://api.appstoreconnect.apple.com, not to the API host {base}; it is not requested"),
        ("https://api.appstoreconnect.apple.com:8443\(inAppPurchases)?cursor=2",
         "links.next leads to https://api.appstoreconnect.apple.com:8443, not to the API host {base}; it is not "
            + "requested"),
        ("http://127.0.0.1:1\(inAppPurchases)?cursor=2",
         "links.next leads to http://127.0.0.1:1, not to the API host {base}; it is not requested"),
        ("\(inAppPurchases)?cursor=2", "links.next is not an absolute URL"),
        ("https://api.appstoreconnect.apple.com/v1/apps/1/inAppPurchasesV2?cursor=2",
         "links.next leads to the path /v1/apps/1/inAppPurchasesV2, not to the next page of this list; it is not "
            + "requested"),
    ]

    @Test(arguments: foreignNextLinks)
    func aNextLinkOffTheAPIHostOrTheListIsRefused(next: String, reason: String) async throws {
        let scene = try BoundsScene.start { target in
            target.hasPrefix(Self.inAppPurchases) && !target.contains("cursor=")
                ? BoundsScene.list(target, ids: ["6450000000"], next: next)
                : BoundsScene.standard(target)
        }

        let result = try await catalogcheck(scene.fetchArguments(extra: ["--quiet"]))

        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: GET \(scene.server.baseURL)\(Self.inAppPurchases)"), "\(result.stderr)")
        let expected = reason.replacingOccurrences(of: "{base}", with: scene.server.baseURL)
        #expect(result.stderr.hasSuffix(": \(expected)\n"), "\(result.stderr)")
        #expect(scene.server.requests.filter { $0.contains("cursor=") } == [])
        scene.finish()
    }

    // MARK: - Server IDs in request paths

    @Test(arguments: ["..", ".", ""])
    func anIDThatIsADotSegmentOrEmptyIsRefused(id: String) async throws {
        let scene = try BoundsScene.start { target in
            target.hasPrefix(Self.groups) ? BoundsScene.list(target, ids: [id]) : BoundsScene.standard(target)
        }

        let result = try await catalogcheck(scene.fetchArguments(extra: ["--quiet"]))

        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: GET \(scene.server.baseURL)\(Self.groups)"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix(": data[0] has the id '\(id)', which cannot name a resource in a request path\n"),
                "\(result.stderr)")
        #expect(scene.server.requests.filter { $0.hasPrefix("/v1/subscriptionGroups") || $0.contains("..") } == [])
        scene.finish()
    }

    @Test func anIDIsPercentEncodedDownToTheUnreservedCharacters() async throws {
        let scene = try BoundsScene.start { target in
            target.hasPrefix(Self.groups) ? BoundsScene.list(target, ids: ["a/b?c;d%e+f g#h"])
                : BoundsScene.standard(target)
        }

        let result = try await catalogcheck(scene.fetchArguments(extra: ["--quiet"]))

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(scene.server.requests.filter { $0.hasPrefix("/v1/subscriptionGroups/") }.map { $0.prefix { $0 != "?" } }
            == ["/v1/subscriptionGroups/a%2Fb%3Fc%3Bd%25e%2Bf%20g%23h/subscriptions"])
        scene.finish()
    }

    /// Whatever builds a path, `Listing` refuses an empty or dot segment, percent-encoded ones included.
    @Test(arguments: ["/v1/subscriptionGroups/%2e%2E/subscriptions", "/v1/subscriptionGroups/./subscriptions",
                      "/v1/subscriptionGroups//subscriptions"])
    func aListingWithADotOrEmptySegmentIsRefused(path: String) throws {
        let base = try #require(URL(string: "https://api.appstoreconnect.apple.com"))
        let segment = path.split(separator: "/", omittingEmptySubsequences: false)[3]

        #expect(throws: FetchError.malformed(request: "GET https://api.appstoreconnect.apple.com\(path)?limit=200",
                                             reason: "the path segment '\(segment)' cannot name a resource")) {
            try Listing(ResourceKind(key: "subscriptions", label: "subscriptions"), "stem", base,
                        path + "?limit=200", paging: .jsonAPI(base: base))
        }
    }

    /// A Play page token is server data too: `+`, `/`, `=` and `&` in it stay part of the token (a `+` left
    /// bare reads as a space), and the previous token is replaced, not repeated.
    @Test func aPageTokenIsPercentEncodedIntoTheQuery() throws {
        let url = try #require(URL(string: "https://androidpublisher.googleapis.com/androidpublisher/v3/applications/"
            + "com.example.app/oneTimeProducts?pageSize=1000&pageToken=old"))

        let next = Pager.setting("pageToken", to: "a+b/c=d&e f", in: url)

        #expect(next?.absoluteString == "https://androidpublisher.googleapis.com/androidpublisher/v3/applications/"
            + "com.example.app/oneTimeProducts?pageSize=1000&pageToken=a%2Bb%2Fc%3Dd%26e%20f")
    }

    @Test func anAppIDThatIsNotANumberIsAUsageError() async throws {
        let result = try await catalogcheck(["fetch", "appstore", "--app", "..", "--output", "/nonexistent/asc"])

        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--app takes the app's Apple ID, a number such as 1234567890, not '..'"),
                "\(result.stderr)")
    }

    // MARK: - SIGINT and SIGTERM keep the temporary folder for --resume

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalKeepsThePagesFetchedSoFarForResume(signal number: Int32) async throws {
        // The first page of in-app purchases names a second, which never comes (until the store recovers): the
        // run waits there.
        let recovered = Flag()
        let scene = try BoundsScene.start { target in
            guard target.hasPrefix(Self.inAppPurchases) else { return BoundsScene.standard(target) }
            if target.contains("cursor=") {
                return recovered.isSet ? BoundsScene.list(target, ids: ["6450000001"]) : .silence
            }
            return BoundsScene.list(
                target, ids: ["6450000000"],
                next: "https://api.appstoreconnect.apple.com\(Self.inAppPurchases)?cursor=1&limit=200")
        }
        let process = Process()
        process.executableURL = CommandRunner.productsDirectory.appendingPathComponent("catalogcheck")
        // A bound on the stalled page, so that a run the signal failed to end still ends.
        process.arguments = scene.fetchArguments(extra: ["--quiet", "--request-timeout-ms", "20000"])
        process.environment = ["PATH": "/usr/bin:/bin"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        try await waitUntil {
            scene.server.requests.contains { $0.contains("cursor=") } && (try? scene.stagingPages().count) ?? 0 >= 2
        }

        if number == SIGINT { process.interrupt() } else { process.terminate() }
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                process.waitUntilExit()
                continuation.resume()
            }
        }

        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == number)
        let staging = try #require(try scene.stagingFolder())
        #expect(staging == scene.folder.appendingPathComponent(".asc.fetch-partial").path)
        let pages = try scene.stagingPages()
        #expect(pages.contains("in-app-purchases-0001.json"))
        for page in pages {
            let data = try Data(contentsOf: URL(fileURLWithPath: staging + "/" + page))
            #expect((try? JSONSerialization.jsonObject(with: data)) != nil, "\(page) is not whole")
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr == """
            interrupted (\(number == SIGINT ? "SIGINT" : "SIGTERM")): the \(pages.count) pages fetched so far are \
            kept in \(staging); run again with --resume to continue from them

            """)
        #expect(!FileManager.default.fileExists(atPath: scene.folder.appendingPathComponent("asc").path))

        // Then --resume finishes from the kept pages: only the page that never came is requested again.
        let before = scene.server.requests
        recovered.set()
        let resumed = try await catalogcheck(scene.fetchArguments(extra: ["--resume", "--quiet"]))
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        let again = Array(scene.server.requests.dropFirst(before.count))
        #expect(again.filter(before.contains) == [Self.inAppPurchases + "?cursor=1&limit=200"], "\(again)")
        #expect(FileManager.default.fileExists(
            atPath: scene.folder.appendingPathComponent("asc/in-app-purchases-0002.json").path))
        #expect(try scene.stagingFolder() == nil)
        scene.finish()
    }

    /// Polls `condition` every 20 ms for up to 30 s.
    private func waitUntil(_ condition: () -> Bool) async throws {
        for _ in 0..<1500 where !condition() {
            try await Task.sleep(for: .milliseconds(20))
        }
        try #require(condition())
    }
}

/// A `ScriptedHTTPServer` standing in for App Store Connect, the test's key file and a scratch folder.
struct BoundsScene {
    let credentials: TestCredentials
    let server: ScriptedHTTPServer
    let folder: URL
    let keyPath: String

    static func start(reply: @escaping @Sendable (String) -> ScriptedHTTPServer.Reply) throws -> BoundsScene {
        let credentials = try TestCredentials()
        let folder = try Fixtures.temporaryFolder(suffix: "-bounds")
        let keys = folder.appendingPathComponent("keys")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: false)
        return BoundsScene(credentials: credentials, server: try ScriptedHTTPServer(reply: reply), folder: folder,
                           keyPath: try credentials.writeASCKey(in: keys))
    }

    /// `fetch appstore` against the server into `asc` under the scene's folder, with a 10 ms backoff.
    func fetchArguments(extra: [String]) -> [String] {
        ["fetch", "appstore", "--key-id", credentials.keyID, "--issuer-id", credentials.issuerID,
         "--private-key", keyPath, "--app", FakeStoreServer.app, "--output", folder.appendingPathComponent("asc").path,
         "--base-url", server.baseURL, "--retry-base-delay-ms", "10"] + extra
    }

    /// The hidden temporary folder beside `asc`, if there is one.
    func stagingFolder() throws -> String? {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix(".asc.fetch-") }
            .map { folder.appendingPathComponent($0).path }
    }

    /// The page files in the temporary folder, sorted.
    func stagingPages() throws -> [String] {
        guard let staging = try stagingFolder() else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: staging).filter { $0.hasSuffix(".json") }.sorted()
    }

    /// An App Store Connect answer for `target`: the app for `/v1/apps/{id}`, otherwise an empty list.
    static func standard(_ target: String) -> ScriptedHTTPServer.Reply {
        let path = String(target.prefix { $0 != "?" })
        if path == "/v1/apps/\(FakeStoreServer.app)" {
            return .answer(status: 200, body: json([
                "data": ["type": "apps", "id": FakeStoreServer.app, "attributes": ["bundleId": "com.trailmate.app"]],
                "links": ["self": "https://api.appstoreconnect.apple.com" + path],
            ]))
        }
        return list(target)
    }

    /// A JSON:API list page of `ids`, with `links.next` when given.
    static func list(_ target: String, ids: [String] = [], next: String? = nil) -> ScriptedHTTPServer.Reply {
        var links = ["self": "https://api.appstoreconnect.apple.com" + target]
        if let next { links["next"] = next }
        let type = target.contains("/inAppPurchasesV2") ? "inAppPurchases" : "subscriptionGroups"
        let data = ids.map { ["type": type, "id": $0, "attributes": [String: String]()] as [String: Any] }
        return .answer(status: 200, body: json(["data": data, "links": links]))
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    func finish() {
        server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// A switch a test flips while a server's reply closure reads it.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool { lock.withLock { value } }

    func set() {
        lock.withLock { value = true }
    }
}
