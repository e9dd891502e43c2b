@testable import CatalogFetch
import Foundation
import Testing

/// A transport that answers from a script, one answer per attempt, and records the requests.
private final class ScriptedTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var script: [Result<HTTPResponse, TransportFailure>]
    private(set) var authorizations: [String] = []

    init(_ script: [Result<HTTPResponse, TransportFailure>]) {
        self.script = script
    }

    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse {
        let next = lock.withLock {
            authorizations += request.headers.filter { $0.name == "Authorization" }.map(\.value)
            return script.removeFirst()
        }
        return try next.get()
    }
}

/// Retries, backoff and error messages of `APISession`, without a network.
struct APISessionTests {
    private final class Sleeps: @unchecked Sendable {
        let lock = NSLock()
        var durations: [Duration] = []
    }

    private func session(_ transport: ScriptedTransport, sleeps: Sleeps, jitter: Double = 0) -> APISession {
        APISession(transport: transport, policy: RetryPolicy(jitter: { jitter }),
                   progress: FetchProgress(quiet: true, isTerminal: false) { _ in },
                   refusal: { .refused(request: $0.request, store: "Store", credential: "the key K", status: $0.status,
                                       reason: $0.reason, advice: "check it") },
                   sleep: { duration in sleeps.lock.withLock { sleeps.durations.append(duration) } })
    }

    private let request = HTTPRequest(url: URL(fileURLWithPath: "/").deletingLastPathComponent())

    @Test func backoffDoublesFromTheBaseDelayAndHonorsRetryAfter() async throws {
        let transport = ScriptedTransport([
            .success(HTTPResponse(status: 503)), .failure(TransportFailure("connection reset by peer")),
            .success(HTTPResponse(status: 429, headers: ["Retry-After": "7"])), .success(HTTPResponse(status: 500)),
            .success(HTTPResponse(status: 502)), .success(HTTPResponse(status: 200, body: Data("{}".utf8))),
        ])
        let sleeps = Sleeps()
        let response = try await session(transport, sleeps: sleeps).send(request, authorization: { "Bearer secret" })
        #expect(response.status == 200)
        #expect(sleeps.durations == [.seconds(1), .seconds(2), .seconds(7), .seconds(8), .seconds(16)])
        #expect(transport.authorizations.count == 6)
    }

    @Test func sixFailuresGiveUpNamingTheLastOneAndNoSecret() async throws {
        let transport = ScriptedTransport(Array(repeating: .failure(TransportFailure("connection refused")), count: 6))
        let sleeps = Sleeps()
        await #expect(throws: FetchError.gaveUp(request: "GET \(request.url.absoluteString)", attempts: 6,
                                                reason: "connection refused")) {
            try await session(transport, sleeps: sleeps).send(request, authorization: { "Bearer secret" })
        }
    }

    @Test func refusalsAndRejectionsAreNotRetried() async throws {
        let sleeps = Sleeps()
        await #expect(throws: FetchError.refused(request: "GET \(request.url.absoluteString)", store: "Store",
                                                 credential: "the key K", status: 403, reason: nil,
                                                 advice: "check it")) {
            try await session(ScriptedTransport([.success(HTTPResponse(status: 403))]), sleeps: sleeps).send(request)
        }
        let body = Data(#"{"errors":[{"status":"404","title":"Not found","detail":"There is no app 42."}]}"#.utf8)
        await #expect(throws: FetchError.rejected(request: "GET \(request.url.absoluteString)", status: 404,
                                                  detail: "There is no app 42.")) {
            try await session(ScriptedTransport([.success(HTTPResponse(status: 404, body: body))]), sleeps: sleeps)
                .send(request)
        }
        #expect(sleeps.durations.isEmpty)
    }

    @Test func jitterAddsUpToHalfOfEachBackoffAndFiveRetriesAreTheMost() async throws {
        let transport = ScriptedTransport(Array(repeating: .success(HTTPResponse(status: 503)), count: 6))
        let sleeps = Sleeps()
        let session = session(transport, sleeps: sleeps, jitter: 0.5)

        await #expect(throws: FetchError.gaveUp(request: "GET \(request.url.absoluteString)", attempts: 6,
                                                reason: "HTTP 503")) {
            try await session.send(request)
        }

        #expect(sleeps.durations == [.milliseconds(1250), .milliseconds(2500), .seconds(5), .seconds(10), .seconds(20)])
    }

    /// `Retry-After` digits beyond any integer are the longest wait there is, not a missing header: the run
    /// stops at the first answer instead of retrying after a backoff.
    @Test func aRetryAfterTooLargeForAnIntegerStopsWithoutRetrying() async throws {
        let transport = ScriptedTransport([
            .success(HTTPResponse(status: 429, headers: ["Retry-After": "99999999999999999999999"])),
            .success(HTTPResponse(status: 200, body: Data("{}".utf8))),
        ])
        let sleeps = Sleeps()

        await #expect(throws: FetchError.retryLater(request: "GET \(request.url.absoluteString)", seconds: nil,
                                                    after: nil)) {
            try await session(transport, sleeps: sleeps).send(request)
        }

        #expect(sleeps.durations.isEmpty)
    }

    /// A long `Retry-After` on the sixth attempt still says when to try again, not "gave up".
    @Test func aLongRetryAfterOnTheLastAttemptSaysWhenToTryAgain() async throws {
        let transport = ScriptedTransport(Array(repeating: .success(HTTPResponse(status: 503)), count: 5)
            + [.success(HTTPResponse(status: 429, headers: ["Retry-After": "3600"]))])
        let sleeps = Sleeps()

        do {
            _ = try await session(transport, sleeps: sleeps).send(request)
            Issue.record("no error")
        } catch let FetchError.retryLater(request, seconds, after) {
            #expect(request == "GET \(self.request.url.absoluteString)")
            #expect(seconds == 3600)
            #expect(after?.hasSuffix(" UTC") == true)
        }

        #expect(sleeps.durations.count == 5)
    }

    @Test func aRetryAfterBeyondTheWaitNamesTheTimeToTryAgain() {
        let now = Date(timeIntervalSince1970: 1_780_000_000)

        let stop = APISession.retryLater(request: "GET /x", retryAfter: .seconds(3600), now: now)

        #expect(stop == .retryLater(request: "GET /x", seconds: 3600, after: "2026-05-28 21:26:40 UTC"))
        #expect(stop.description == """
            GET /x: the store asks to wait 3600 s (Retry-After), longer than a fetch waits for one request; try \
            again after 2026-05-28 21:26:40 UTC
            """)
    }

    @Test func retryAfterIsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(RetryPolicy.parseRetryAfter("120", now: now) == .seconds(120))
        #expect(RetryPolicy.parseRetryAfter(" 61 ", now: now) == .seconds(61))
        let date = DateFormatter()
        date.locale = Locale(identifier: "en_US_POSIX")
        date.timeZone = TimeZone(identifier: "GMT")
        date.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        #expect(RetryPolicy.parseRetryAfter(date.string(from: now.addingTimeInterval(90)), now: now) == .seconds(90))
        #expect(RetryPolicy.parseRetryAfter(date.string(from: now.addingTimeInterval(-90)), now: now) == .seconds(0))
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
        // RFC 9110 delay-seconds is 1*DIGIT: no sign, no exponent.
        #expect(RetryPolicy.parseRetryAfter("-5", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter("+5", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter("1e3", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter("99999999999999999999999", now: now) == .seconds(Int64.max))
    }
}
