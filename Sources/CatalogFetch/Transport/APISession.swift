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

/// Sends requests to one store API with the retry policy: 429 (except App Store Connect's hourly
/// `RATE_LIMIT_EXCEEDED`, which ends the run), 5xx and requests without an answer are retried
/// (`RetryPolicy`), 401/403 become the client's `FetchError.refused` naming the endpoint, the store's reason
/// and what to check, any other non-2xx answer `FetchError.rejected` with the store's explanation. The
/// `Authorization` value is asked for on every attempt (a token may be renewed in between) and never appears
/// in an error: every store text shown passes through `redactor` first.
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
        for attempt in 0...policy.maxRetries {
            if attempt > 0 {
                try await sleep(pendingDelay)
            }
            var outgoing = request
            if let authorization {
                outgoing.headers.append((name: "Authorization", value: try await authorization()))
            }
            var retryAfter: Duration?
            do {
                let response = try await transport.send(outgoing, timeout: policy.requestTimeout)
                if (200...299).contains(response.status) { return response }
                if response.status == 401 || response.status == 403 {
                    let said = explanation(in: response.body)
                    throw refusal(StoreRefusal(request: name, status: response.status, reason: said.text,
                                               code: said.code))
                }
                // Apple, "Identifying Rate Limits": past the hourly limit "the API rejects requests with an HTTP
                // 429 response, with the RATE_LIMIT_EXCEEDED error code". The limit is a rolling hour, so the
                // minute of retries a run allows cannot outlast it: stop at once (the pages so far are kept).
                if response.status == 429 {
                    let said = explanation(in: response.body)
                    if said.code == "RATE_LIMIT_EXCEEDED" {
                        throw FetchError.rateLimited(request: name, detail: said.text)
                    }
                }
                guard RetryPolicy.isRetryable(status: response.status) else {
                    throw FetchError.rejected(request: name, status: response.status,
                                              detail: explanation(in: response.body).text)
                }
                lastFailure = "HTTP \(response.status)"
                retryAfter = response.headers["retry-after"].flatMap { RetryPolicy.parseRetryAfter($0, now: Date()) }
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
                throw FetchError.gaveUp(request: name, attempts: attempt + 1, reason: lastFailure)
            }
            waited += delay
            pendingDelay = delay
        }
        throw FetchError.gaveUp(request: name, attempts: policy.maxRetries + 1, reason: lastFailure)
    }

    /// The store's own words from an error body — App Store Connect `errors[0].detail` (or `title`), Google
    /// `error.message`, or an OAuth `error: error_description` — with every credential of the run redacted
    /// (`SecretRedactor`), and the store's code for the error.
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
