import Foundation
import JWTKit
import NIOHTTP1

/// A local App Store Connect API and Google Play Developer API for the `fetch` tests, in the test process on
/// 127.0.0.1 with an ephemeral port. It serves the demo catalogs split into pages, checks the credentials on
/// every request as the stores document them (`AppleTokenRules`, `GoogleAssertionRules`: App Store Connect's
/// ES256 JWT on every request; Play's RS256 assertion at `/token`, then the bearer token it issued), checks every
/// request against the specs' operations, parameters, enums and limits (`APISpecTable`; 400 naming what is wrong),
/// keeps App Store Connect's hourly budget as Apple documents it (`X-Rate-Limit` on every answer, 429
/// `RATE_LIMIT_EXCEEDED` once it is spent), answers scripted faults (429 with `Retry-After`, 503, a store's error
/// body), and counts what it served. Its clock may run apart from the client's (`clockOffset`), as Apple's and
/// Google's do from a user's machine.
public final class FakeStoreServer: Sendable {
    /// A scripted failure: requests whose path is `path` get `status` (with `retryAfter` seconds when set) the
    /// first `times` times, or always when `times` is nil. `body` is the JSON served (`{}` when nil); in it,
    /// `{authorization}` stands for the request's own `Authorization` value, as a store that quotes it back.
    /// `remaining`, for an App Store Connect path, is the `user-hour-rem` its `X-Rate-Limit` reports instead of
    /// the key's budget (a budget another client of the key has spent).
    public struct Fault: Sendable {
        let path: String
        let status: Int
        let retryAfter: String?
        let times: Int?
        let body: String?
        let remaining: Int?

        /// Creates a fault.
        public init(path: String, status: Int, retryAfter: String? = nil, times: Int? = 1, body: String? = nil,
                    remaining: Int? = nil) {
            self.path = path
            self.status = status
            self.retryAfter = retryAfter
            self.times = times
            self.body = body
            self.remaining = remaining
        }
    }

    /// App Store Connect's 429: "If you exceed a per-hour limit, the API rejects requests with an HTTP 429
    /// response, with the RATE_LIMIT_EXCEEDED error code" (Apple, "Identifying Rate Limits"); it also answers so
    /// for a short burst while `user-hour-rem` still shows thousands left (Apple Developer Forums thread 731014:
    /// "HTTP 429 RATE_LIMIT_EXCEEDED, while at the same time getting a header back indicating that there are
    /// plenty of requests left this hour"). The title and detail as developers quote Apple's answer.
    public static let rateLimitExceededBody = """
        {"errors": [{"status": "429", "code": "RATE_LIMIT_EXCEEDED", "title": "The request rate limit has been \
        reached.", "detail": "We've received too many requests for this API. Please wait and try again or slow \
        down your request rate."}]}
        """

    /// App Store Connect's 403 for a team whose agreement lapsed, as Apple answered it (Apple Developer Forums
    /// thread 700371; the code as Apple's "Parsing the Error Response Code" describes codes, hierarchical).
    public static let agreementsMissingBody = """
        {"errors": [{"id": "c1a5c2b4-6f5e-4d1e-9b53-2f1e8a7d0e11", "status": "403", "code": \
        "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED", "title": "A required agreement is missing or has \
        expired.", "detail": "This request requires an in-effect agreement that has not been signed or has \
        expired.", "links": {"see": "/agreements"}}]}
        """

    /// Play's answer to the legacy `inappproducts` list for an app on the new one-time-product model, as quoted
    /// in Triple-T/gradle-play-publisher#1174 (the Android Publisher API's own JSON error).
    public static let playMigrateBody = """
        {"error": {"code": 403, "errors": [{"domain": "global", "message": "Please migrate to the new publishing \
        API.", "reason": "forbidden"}], "message": "Please migrate to the new publishing API.", "status": \
        "PERMISSION_DENIED"}}
        """

    /// Play's answer to an account without access to the app, as quoted in Triple-T/gradle-play-publisher#805.
    public static let playPermissionDeniedBody = """
        {"error": {"code": 403, "errors": [{"domain": "global", "message": "The caller does not have permission", \
        "reason": "forbidden"}], "message": "The caller does not have permission", "status": "PERMISSION_DENIED"}}
        """

    /// The app's Apple ID the server knows.
    public static let app = "6449990000"
    /// The package name the server knows.
    public static let package = "com.trailmate.app"

    /// `http://127.0.0.1:PORT`.
    public let baseURL: String
    /// The Play token endpoint (`baseURL/token`), for the service account file's `token_uri`.
    public var tokenURI: String { baseURL + "/token" }
    private let state: ServerState
    private let server: LoopbackHTTPServer

    /// Apple's documented default hourly limit per key ("Identifying Rate Limits": `user-hour-lim:3500`).
    public static let hourlyLimit = 3500

    /// Starts a server for `credentials`, serving pages of `pageSize` items; App Store Connect requests may spend
    /// `budget` of the key's hourly limit before Apple's 429. `clockOffset` is how far the server's clock is ahead
    /// of this machine's (negative: behind).
    /// With `revenueCat`, it also serves a RevenueCat project (API v2, `RevenueCatFake`) under `/v2/`.
    public static func start(credentials: TestCredentials, pageSize: Int = 2, empty: Bool = false,
                             faults: [Fault] = [], budget: Int = hourlyLimit, honorsInclude: Bool = true,
                             clockOffset: TimeInterval = 0,
                             revenueCat: RevenueCatFake.Options? = nil) async throws -> FakeStoreServer {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let spec = try APISpecTable.load()
        let fixture = try StoreFixture(asc: root.appendingPathComponent("catalogs/demo/asc"),
                                       play: root.appendingPathComponent("catalogs/demo/play"),
                                       app: app, package: package, pageSize: pageSize, empty: empty)
        let keys = await JWTKeyCollection()
            .add(ecdsa: credentials.ascPublicKey, kid: JWKIdentifier(string: credentials.keyID))
        let googleKeys = await JWTKeyCollection().add(rsa: credentials.googlePublicKey, digestAlgorithm: .sha256)
        let state = ServerState(fixture: fixture, pageSize: pageSize, credentials: credentials, ascKeys: keys,
                                googleKeys: googleKeys, faults: faults, spec: spec, budget: budget,
                                honorsInclude: honorsInclude, clockOffset: clockOffset,
                                revenueCat: try revenueCat.map(RevenueCatFake.init(options:)))
        let server = try await LoopbackHTTPServer.start { request in await state.respond(to: request) }
        state.setBase("http://127.0.0.1:\(server.port)")
        return FakeStoreServer(baseURL: "http://127.0.0.1:\(server.port)", state: state, server: server)
    }

    private init(baseURL: String, state: ServerState, server: LoopbackHTTPServer) {
        self.baseURL = baseURL
        self.state = state
        self.server = server
    }

    /// Stops the server.
    public func stop() async {
        await server.stop()
    }

    /// Requests served per path, and answers per status code.
    public var requestsByPath: [String: Int] { state.snapshot().paths }
    /// Every request's path and query as sent (`/v1/…?include=…`), in arrival order.
    public var requestTargets: [String] { state.snapshot().targets }
    /// Answers per status code (200, 401, 429, 503, …).
    public var responsesByStatus: [Int: Int] { state.snapshot().statuses }
    /// Every bearer JWT and access token that crossed the wire: the secrets no output may contain.
    public var tokensSeen: Set<String> { state.snapshot().tokens }
    /// Every request but the token endpoint's, as `path?query` (percent-encoded as sent), in order of arrival.
    public var requests: [String] { state.requestLog() }
    /// The App Store Connect requests the key may still send this hour.
    public var budgetRemaining: Int { state.remainingBudget() }

    /// The rolling hour has passed: the key's whole hourly limit is available again.
    public func renewBudget() {
        state.renewBudget()
    }
    /// Why each refused token was refused, in order: the rule of the stores' documentation it broke.
    public var rejections: [String] { state.snapshot().rejections }
    /// The most RevenueCat requests one minute saw (never above the fake's limit: past it, 429).
    public var revenueCatPeakUsage: Int { state.revenueCat?.peak ?? 0 }
}

/// The server's state: fixture, keys, fault budget and counters.
private final class ServerState: @unchecked Sendable {
    let fixture: StoreFixture
    let pageSize: Int
    let credentials: TestCredentials
    let ascKeys: JWTKeyCollection
    let googleKeys: JWTKeyCollection
    private let lock = NSLock()
    private var faults: [(fault: FakeStoreServer.Fault, left: Int?)]
    private var paths: [String: Int] = [:]
    private var targets: [String] = []
    private var statuses: [Int: Int] = [:]
    private var tokens: Set<String> = []
    private var issued: Set<String> = []
    private var rejections: [String] = []
    private var base = ""
    private var log: [String] = []
    private var budget: Int
    let spec: APISpecTable
    /// False: `include=` is accepted and ignored, as a server that does not honor it would answer.
    let honorsInclude: Bool
    let clockOffset: TimeInterval
    /// The RevenueCat project served under `/v2/`, if any.
    let revenueCat: RevenueCatFake?

    init(fixture: StoreFixture, pageSize: Int, credentials: TestCredentials, ascKeys: JWTKeyCollection,
         googleKeys: JWTKeyCollection, faults: [FakeStoreServer.Fault], spec: APISpecTable, budget: Int,
         honorsInclude: Bool, clockOffset: TimeInterval, revenueCat: RevenueCatFake?) {
        self.clockOffset = clockOffset
        self.revenueCat = revenueCat
        self.spec = spec
        self.honorsInclude = honorsInclude
        self.budget = budget
        self.fixture = fixture
        self.pageSize = pageSize
        self.credentials = credentials
        self.ascKeys = ascKeys
        self.googleKeys = googleKeys
        self.faults = faults.map { ($0, $0.times) }
    }

    func setBase(_ value: String) { lock.withLock { base = value } }

    func requestLog() -> [String] { lock.withLock { log } }

    func remainingBudget() -> Int { lock.withLock { budget } }

    func renewBudget() { lock.withLock { budget = FakeStoreServer.hourlyLimit } }

    func snapshot() -> (paths: [String: Int], statuses: [Int: Int], tokens: Set<String>, rejections: [String],
                        targets: [String]) {
        lock.withLock { (paths, statuses, tokens, rejections, targets) }
    }

    /// The server's clock.
    var now: Date { Date().addingTimeInterval(clockOffset) }

    private func reject(_ rule: String) {
        lock.withLock { rejections.append(rule) }
    }

    func respond(to request: FakeRequest) async -> FakeResponse {
        let path = request.path
        if path != "/token" {
            lock.withLock { log.append(request.target) }
        }
        var response = await answer(request, path: path)
        // RevenueCat sends its own rate-limit headers (`RevenueCatFake`), never Apple's.
        if !path.hasPrefix("/androidpublisher/"), !(path.hasPrefix("/v2/") && revenueCat != nil), path != "/token",
           !response.headers.contains(name: "X-Rate-Limit") {
            // "Every response from the API includes an X-Rate-Limit HTTP header" (Apple, Identifying Rate Limits).
            response.headers.add(name: "X-Rate-Limit", value: Self.rateLimit(remaining: remainingBudget()))
        }
        lock.withLock {
            paths[path, default: 0] += 1
            targets.append(request.target)
            statuses[response.status, default: 0] += 1
        }
        return response
    }

    private func answer(_ request: FakeRequest, path: String) async -> FakeResponse {
        // The token endpoint takes a POST (Google, "Using OAuth 2.0 for Server to Server Applications", making the
        // access token request: the JWT is sent "in an HTTP/HTTPS POST request"); every operation fetch may call is
        // a GET (the spec table holds the specs' GET operations). Another method: 405 with the method the path
        // takes (RFC 9110 §15.5.6: a 405 carries `Allow`).
        let allowed = path == "/token" ? "POST" : "GET"
        guard request.method == allowed else {
            var headers = Self.jsonHeaders
            headers.add(name: "Allow", value: allowed)
            return FakeResponse(status: 405, headers: headers, body: Array(
                #"{"error": "\#(request.method) \#(path): this path takes \#(allowed)"}"#.utf8))
        }
        if path == "/token" { return await token(request) }
        if path.hasPrefix("/v2/"), let revenueCat { return answerRevenueCat(request, path: path, fake: revenueCat) }
        let bearer = request.header("Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        if let bearer { lock.withLock { _ = tokens.insert(bearer) } }
        let isPlay = path.hasPrefix("/androidpublisher/")
        if isPlay {
            guard let bearer, lock.withLock({ issued.contains(bearer) }) else {
                return json(401, ["error": ["code": 401, "message": "Request had invalid authentication credentials.",
                                            "status": "UNAUTHENTICATED"]])
            }
        } else {
            let broken: String?
            if let bearer { broken = await AppleTokenRules.brokenRule(bearer, keys: ascKeys, credentials: credentials,
                                                                       now: now) } else { broken = "no bearer token" }
            if let broken {
                reject(broken)
                // Apple's answer to a token it refuses, as developers quote it on Apple's forums.
                return json(401, ["errors": [["status": "401", "code": "NOT_AUTHORIZED",
                                              "title": "Authentication credentials are missing or invalid.",
                                              "detail": "Provide a properly configured and signed bearer token, "
                                                + "and make sure that it has not expired."]]])
            }
        }
        if !isPlay {
            // Apple counts every request of the key against the rolling hour; past it: 429 RATE_LIMIT_EXCEEDED.
            let spent = lock.withLock {
                guard budget > 0 else { return true }
                budget -= 1
                return false
            }
            if spent {
                return FakeResponse(status: 429, headers: Self.jsonHeaders,
                                    body: Array(FakeStoreServer.rateLimitExceededBody.utf8))
            }
        }
        var parts = URLComponents()
        parts.percentEncodedQuery = request.query
        let items = (parts.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        if let refusal = spec.refusal(path: path, query: items) {
            return json(400, isPlay ? ["error": ["code": 400, "message": refusal, "status": "INVALID_ARGUMENT"]]
                        : ["errors": [["status": "400", "code": "PARAMETER_ERROR.INVALID",
                                       "title": "A parameter has an invalid value", "detail": refusal]]])
        }
        if let fault = takeFault(path) {
            var headers = Self.jsonHeaders
            if let retryAfter = fault.retryAfter { headers.add(name: "Retry-After", value: retryAfter) }
            if let remaining = fault.remaining {
                headers.add(name: "X-Rate-Limit", value: Self.rateLimit(remaining: remaining))
            }
            let body = (fault.body ?? "{}").replacingOccurrences(
                of: "{authorization}", with: request.header("Authorization") ?? "")
            return FakeResponse(status: fault.status, headers: headers, body: Array(body.utf8))
        }
        let include = items.first { $0.name == "include" && honorsInclude }.map {
            "|include=" + $0.value.split(separator: ",").sorted().joined(separator: ",")
        }
        guard let pages = include.flatMap({ fixture.pages[path + $0] }) ?? fixture.pages[path] else {
            return json(404, isPlay ? ["error": ["code": 404, "message": "Not found."]]
                        : ["errors": [["status": "404", "code": "NOT_FOUND", "title": "The specified resource does not exist"]]])
        }
        let query = Dictionary(items.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        let index: Int
        if let cursor = query["cursor"].flatMap({ Int($0) }) {
            index = cursor / max(1, pageSize)
        } else if let token = query["pageToken"] ?? query["token"], token.hasPrefix("page-") {
            index = Int(token.dropFirst(5)) ?? 0
        } else {
            index = 0
        }
        guard pages.indices.contains(index) else { return json(400, ["error": "bad page"]) }
        return FakeResponse(status: 200, headers: Self.jsonHeaders, body: Array(pages[index]))
    }

    /// The `X-Rate-Limit` value, in the form Apple documents (`user-hour-lim:3500;user-hour-rem:500;`).
    private static func rateLimit(remaining: Int) -> String {
        "user-hour-lim:\(FakeStoreServer.hourlyLimit);user-hour-rem:\(remaining);"
    }

    /// RevenueCat, in the order its reference gives: the key, then the request against the operation table,
    /// then scripted faults, the per-minute limit, the list.
    private func answerRevenueCat(_ request: FakeRequest, path: String, fake: RevenueCatFake) -> FakeResponse {
        if let authorization = request.header("Authorization"), authorization.hasPrefix("Bearer ") {
            lock.withLock { _ = tokens.insert(String(authorization.dropFirst(7))) }
        }
        var parts = URLComponents()
        parts.percentEncodedQuery = request.query
        let items = (parts.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
        let answer: RevenueCatFake.Answer
        if let refused = fake.refusal(authorization: request.header("Authorization")) {
            answer = refused
        } else if let refusal = spec.refusal(path: path, query: items) {
            answer = fake.error(400, "parameter_error", refusal)
        } else if let fault = takeFault(path) {
            var headers: [String: String] = [:]
            if let retryAfter = fault.retryAfter { headers["Retry-After"] = retryAfter }
            answer = RevenueCatFake.Answer(status: fault.status, headers: headers, body: Data((fault.body ?? "{}")
                .replacingOccurrences(of: "{authorization}", with: request.header("Authorization") ?? "").utf8))
        } else if let limited = fake.meter() {
            answer = limited
        } else {
            answer = fake.answer(path: path, query: items)
        }
        var headers = Self.jsonHeaders
        for (name, value) in answer.headers.sorted(by: { $0.key < $1.key }) { headers.add(name: name, value: value) }
        return FakeResponse(status: answer.status, headers: headers, body: Array(answer.body))
    }

    private func takeFault(_ path: String) -> FakeStoreServer.Fault? {
        lock.withLock {
            guard let index = faults.firstIndex(where: { $0.fault.path == path && $0.left != 0 }) else { return nil }
            if let left = faults[index].left { faults[index].left = left - 1 }
            return faults[index].fault
        }
    }

    /// The OAuth token endpoint: a JWT-bearer grant whose RS256 assertion the service account's key signed,
    /// checked by `GoogleAssertionRules`; refusals in Google's words (`invalid_grant`).
    private func token(_ request: FakeRequest) async -> FakeResponse {
        let body = String(decoding: request.body, as: UTF8.self)
        var form = URLComponents()
        form.percentEncodedQuery = body
        let fields = Dictionary((form.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer", let assertion = fields["assertion"]
        else {
            reject("not a JWT-bearer grant")
            return json(400, ["error": "unsupported_grant_type", "error_description": "Invalid grant_type: "])
        }
        if let broken = await GoogleAssertionRules.brokenRule(
            assertion, keys: googleKeys, clientEmail: credentials.clientEmail,
            tokenURI: lock.withLock { base } + "/token", now: now) {
            reject(broken.rule)
            return json(400, ["error": "invalid_grant", "error_description": broken.description])
        }
        let token = "ya29.fake-" + UUID().uuidString
        lock.withLock {
            _ = issued.insert(token)
            _ = tokens.insert(token)
            _ = tokens.insert(assertion)
        }
        return json(200, ["access_token": token, "expires_in": 3599, "token_type": "Bearer"])
    }

    private func json(_ status: Int, _ object: [String: Any]) -> FakeResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return FakeResponse(status: status, headers: Self.jsonHeaders, body: Array(data))
    }

    private static let jsonHeaders: HTTPHeaders = ["Content-Type": "application/json"]
}
