import Foundation

/// Sends requests to one store API with the retry policy: 429, 5xx and requests without an answer are retried
/// (`RetryPolicy`), 401/403 become `FetchError.refused`, any other non-2xx answer `FetchError.rejected` with the
/// store's explanation. The `Authorization` value is asked for on every attempt (a token may be renewed in
/// between) and never appears in an error.
public struct APISession: Sendable {
    /// The HTTP client.
    public let transport: any HTTPTransport
    /// When to retry.
    public let policy: RetryPolicy
    /// What a 401/403 answer means for this store's credential.
    let refusal: @Sendable (Int) -> FetchError
    /// Where warnings go.
    let progress: FetchProgress
    /// Waits between attempts (`Task.sleep`; tests may pass their own).
    let sleep: @Sendable (Duration) async throws -> Void

    /// Creates a session.
    public init(transport: any HTTPTransport, policy: RetryPolicy, progress: FetchProgress,
                refusal: @escaping @Sendable (Int) -> FetchError,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.transport = transport
        self.policy = policy
        self.progress = progress
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
                if response.status == 401 || response.status == 403 { throw refusal(response.status) }
                guard RetryPolicy.isRetryable(status: response.status) else {
                    throw FetchError.rejected(request: name, status: response.status,
                                              detail: Self.explanation(in: response.body))
                }
                lastFailure = "HTTP \(response.status)"
                retryAfter = response.headers["retry-after"].flatMap { RetryPolicy.parseRetryAfter($0, now: Date()) }
            } catch let failure as TransportFailure {
                lastFailure = failure.reason
            }
            guard attempt < policy.maxRetries else { break }
            let delay = policy.delay(beforeRetry: attempt + 1, retryAfter: retryAfter)
            if let retryAfter, waited + retryAfter > policy.maxWait {
                let seconds = Int(retryAfter.components.seconds)
                throw FetchError.retryLater(request: name, seconds: seconds,
                                            after: Self.timestamp(Date().addingTimeInterval(Double(seconds))))
            }
            guard waited + delay <= policy.maxWait else {
                throw FetchError.gaveUp(request: name, attempts: attempt + 1, reason: lastFailure)
            }
            waited += delay
            pendingDelay = delay
        }
        throw FetchError.gaveUp(request: name, attempts: policy.maxRetries + 1, reason: lastFailure)
    }

    /// The store's own words from an error body: App Store Connect `errors[0].detail` (or `title`), Google
    /// `error.message`, or an OAuth `error_description` / `error`; at most 300 characters.
    static func explanation(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        var text: String?
        if let errors = object["errors"] as? [[String: Any]], let first = errors.first {
            text = (first["detail"] as? String) ?? (first["title"] as? String)
        } else if let error = object["error"] as? [String: Any] {
            text = error["message"] as? String
        } else if let error = object["error"] as? String {
            text = (object["error_description"] as? String).map { "\(error): \($0)" } ?? error
        }
        return text.map { String($0.prefix(300)) }
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
