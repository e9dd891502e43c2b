import Foundation

/// What a store said when it refused a request (401/403): the request, the status, the store's own words
/// (every credential of the run already redacted) and its machine-readable code (App Store Connect
/// `errors[0].code`, Google `error.status` or `error.errors[0].reason`), from which a client says what to check.
public struct StoreRefusal: Sendable, Equatable {
    /// `GET https://…`: the endpoint refused.
    public var request: String
    /// 401 or 403.
    public var status: Int
    /// The store's explanation, redacted and bounded; nil when the body held none.
    public var reason: String?
    /// `NOT_AUTHORIZED`, `PERMISSION_DENIED`, `forbidden`, …; nil when the body held none.
    public var code: String?

    /// Creates a refusal.
    public init(request: String, status: Int, reason: String?, code: String?) {
        self.request = request
        self.status = status
        self.reason = reason
        self.code = code
    }
}

/// Sends requests to one store API with the retry policy: 429, 5xx and requests without an answer are retried
/// (`RetryPolicy`) — App Store Connect's 429 `RATE_LIMIT_EXCEEDED` only while the last `X-Rate-Limit` seen shows
/// requests left this hour (`rateLimits`) —, 401/403 become the client's `FetchError.refused` naming the endpoint,
/// the store's reason and what to check, any other non-2xx answer `FetchError.rejected` with the store's
/// explanation. The `Authorization` value is asked for on every attempt (a token may be renewed in between) and
/// never appears in an error: every store text shown passes through `redactor` first.
public struct APISession: Sendable {
    /// The HTTP client.
    public let transport: any HTTPTransport
    /// When to retry.
    public let policy: RetryPolicy
    /// The run's credentials, to redact from every store text shown.
    public let redactor: SecretRedactor
    /// What a 401/403 answer means for this store's credential.
    let refusal: @Sendable (StoreRefusal) -> FetchError
    /// Where warnings go.
    let progress: FetchProgress
    /// Waits between attempts (`Task.sleep`; tests may pass their own).
    let sleep: @Sendable (Duration) async throws -> Void
    /// App Store Connect's hourly budget, which every answer's `X-Rate-Limit` updates; nil for other stores.
    var rateLimits: RequestBudget?

    /// Creates a session.
    public init(transport: any HTTPTransport, policy: RetryPolicy, progress: FetchProgress,
                redactor: SecretRedactor = SecretRedactor(),
                refusal: @escaping @Sendable (StoreRefusal) -> FetchError,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.transport = transport
        self.policy = policy
        self.progress = progress
        self.redactor = redactor
        self.refusal = refusal
        self.sleep = sleep
    }

    /// Sends `request` with `Authorization: <authorization()>` added, until a final answer.
    public func send(_ request: HTTPRequest, authorization: (@Sendable () async throws -> String)? = nil)
        async throws -> HTTPResponse
    {
        let name = "\(request.method) \(request.url.absoluteString)"
        var waited = Duration.zero
        var lastFailure = ""
        var pendingDelay = Duration.zero
        // The last answer's 429 RATE_LIMIT_EXCEEDED with requests left: Apple's text and the X-Rate-Limit.
        var burst: (detail: String?, limit: RateLimit)?
        for attempt in 0...policy.maxRetries {
            if attempt > 0 {
                try await sleep(pendingDelay)
            }
            var outgoing = request
            if let authorization {
                outgoing.headers.append((name: "Authorization", value: try await authorization()))
            }
            var retryAfter: Duration?
            burst = nil
            do {
                let response = try await transport.send(outgoing, timeout: policy.requestTimeout)
                if (200...299).contains(response.status) { return response }
                if response.status == 401 || response.status == 403 {
                    let said = explanation(in: response.body)
                    throw refusal(StoreRefusal(request: name, status: response.status, reason: said.text,
                                               code: said.code))
                }
                retryAfter = response.headers["retry-after"].flatMap { RetryPolicy.parseRetryAfter($0, now: Date()) }
                if response.status == 429 {
                    let said = explanation(in: response.body)
                    if said.code == "RATE_LIMIT_EXCEEDED" {
                        burst = try rateLimitExceeded(response, request: name, detail: said.text,
                                                      retryAfter: retryAfter)
                    }
                }
                guard RetryPolicy.isRetryable(status: response.status) else {
                    throw FetchError.rejected(request: name, status: response.status,
                                              detail: explanation(in: response.body).text)
                }
                lastFailure = "HTTP \(response.status)"
            } catch let failure as TransportFailure {
                lastFailure = failure.reason
            }
            // Before the attempt count: a long Retry-After on the last attempt still says when to try again.
            if let retryAfter, waited + retryAfter > policy.maxWait {
                throw Self.retryLater(request: name, retryAfter: retryAfter, now: Date())
            }
            guard attempt < policy.maxRetries else { break }
            let delay = policy.delay(beforeRetry: attempt + 1, retryAfter: retryAfter)
            guard waited + delay <= policy.maxWait else {
                throw Self.exhausted(request: name, attempts: attempt + 1, lastFailure: lastFailure, burst: burst)
            }
            waited += delay
            pendingDelay = delay
        }
        throw Self.exhausted(request: name, attempts: policy.maxRetries + 1, lastFailure: lastFailure, burst: burst)
    }

    /// App Store Connect's 429 `RATE_LIMIT_EXCEEDED`. Apple, "Identifying Rate Limits"
    /// (developer.apple.com/documentation/appstoreconnectapi/identifying-rate-limits): "If you exceed a per-hour
    /// limit, the API rejects requests with an HTTP 429 response, with the RATE_LIMIT_EXCEEDED error code", and
    /// "Every response from the API includes an X-Rate-Limit HTTP header" whose `user-hour-rem` "shows the number of
    /// requests remaining" in a rolling hour. Apple also answers it to a short burst while the hour still has
    /// requests: "I'm getting HTTP 429 RATE_LIMIT_EXCEEDED, while at the same time getting a header back indicating
    /// that there are plenty of requests left this hour (e.g. "x-rate-limit": "user-hour-lim:3600;user-hour-rem:
    /// 3121;")" (Apple Developer Forums thread 731014). So the last `X-Rate-Limit` seen — this answer's, else the
    /// run's last — decides: requests left, and the 429 is retried like any other (returned, for the error when
    /// the retries run out); none left (or no header seen), and no retry within the run can outlast the rolling
    /// hour: the run stops at once, keeping its pages, saying when the budget is whole again.
    private func rateLimitExceeded(_ response: HTTPResponse, request: String, detail: String?,
                                   retryAfter: Duration?) throws(FetchError) -> (detail: String?, limit: RateLimit) {
        let seen = response.headers["x-rate-limit"].flatMap(RateLimit.init(header:)) ?? rateLimits?.lastRateLimit
        if let seen, seen.remaining > 0 { return (detail, seen) }
        let now = Date()
        // The rolling hour: every request older than 60 minutes is back, so in an hour at the latest.
        let after = retryAfter.map { now.addingTimeInterval(Double($0.components.seconds)) }
            .map { min($0, now.addingTimeInterval(3600)) } ?? now.addingTimeInterval(3600)
        throw FetchError.rateLimited(request: request, detail: detail, remaining: seen?.remaining, limit: seen?.limit,
                                     after: Self.timestamp(after) + (retryAfter == nil ? " at the latest" : ""))
    }

    /// The stop when the retries are used up: the last answer's burst 429 (requests left this hour) says so;
    /// anything else is `gaveUp` with the last failure.
    private static func exhausted(request: String, attempts: Int, lastFailure: String,
                                  burst: (detail: String?, limit: RateLimit)?) -> FetchError {
        guard let burst else { return .gaveUp(request: request, attempts: attempts, reason: lastFailure) }
        return .burstLimited(request: request, detail: burst.detail, attempts: attempts,
                             remaining: burst.limit.remaining, limit: burst.limit.limit)
    }

    /// The store's own words from an error body — App Store Connect `errors[0].detail` (or `title`), Google
    /// `error.message`, an OAuth `error: error_description`, or RevenueCat's `message` (code: its `type`) — with
    /// every credential of the run redacted (`SecretRedactor`), and the store's code for the error.
    func explanation(in body: Data) -> (text: String?, code: String?) {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return (nil, nil) }
        var text: String?
        var code: String?
        if let errors = object["errors"] as? [[String: Any]], let first = errors.first {
            text = (first["detail"] as? String) ?? (first["title"] as? String)
            code = first["code"] as? String
        } else if let error = object["error"] as? [String: Any] {
            text = error["message"] as? String
            code = (error["status"] as? String)
                ?? ((error["errors"] as? [[String: Any]])?.first?["reason"] as? String)
        } else if let error = object["error"] as? String {
            text = (object["error_description"] as? String).map { "\(error): \($0)" } ?? error
            code = error
        } else if let message = object["message"] as? String {
            // RevenueCat API v2, "Error Handling": `{"object": "error", "type": "authentication_error", "message": …}`.
            text = message
            code = object["type"] as? String
        }
        return (text.map(redactor.redact), code)
    }

    /// The stop for a `Retry-After` longer than the run waits: the wait in seconds (nil when the store's value
    /// does not fit an integer) and, when it is within a century, the time to try again.
    static func retryLater(request: String, retryAfter: Duration, now: Date) -> FetchError {
        let seconds = retryAfter.components.seconds
        let century: Int64 = 100 * 366 * 86_400
        return .retryLater(request: request, seconds: seconds == Int64.max ? nil : Int(seconds),
                           after: seconds < century ? timestamp(now.addingTimeInterval(Double(seconds))) : nil)
    }

    /// `2026-11-23 14:05:00 UTC`.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss 'UTC'"
        return formatter.string(from: date)
    }
}
