import Foundation

/// When to try a request again (DESIGN.md §2b): 429 and 5xx answers and requests that got no answer are retried
/// at most `maxRetries` times, after an exponential backoff with jitter, or after the server's `Retry-After`
/// when it names one; a request never waits more than `maxWait` in all. A longer `Retry-After` is not waited
/// for: the run stops at once and says when to try again. Each attempt (connecting, the headers and the whole
/// body) ends within `requestTimeout`.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (5: six attempts in all).
    public var maxRetries: Int
    /// The first backoff; each next one doubles.
    public var baseDelay: Duration
    /// The most one request waits, summed over its retries.
    public var maxWait: Duration
    /// The most one attempt takes, from connecting to the last byte of the body (DESIGN.md §2b: 60 s).
    public var requestTimeout: Duration
    /// A number in 0..<1 (random by default): the jitter adds up to half the backoff.
    public var jitter: @Sendable () -> Double

    /// The defaults: 5 retries from 1 s (1, 2, 4, 8, 16 s + jitter), 60 s of waiting at most, 60 s per attempt.
    public init(maxRetries: Int = 5, baseDelay: Duration = .seconds(1), maxWait: Duration = .seconds(60),
                requestTimeout: Duration = .seconds(60),
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.maxWait = maxWait
        self.requestTimeout = requestTimeout
        self.jitter = jitter
    }

    /// Whether an answer with `status` is worth another attempt.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// The wait before retry number `retry` (1-based): the server's `Retry-After` when given, else
    /// `baseDelay · 2^(retry-1)` plus up to half of it as jitter.
    public func delay(beforeRetry retry: Int, retryAfter: Duration?) -> Duration {
        if let retryAfter { return retryAfter }
        let backoff = baseDelay * (1 << min(max(retry - 1, 0), 20))
        return backoff + backoff * (jitter() / 2)
    }

    /// A `Retry-After` value, relative to `now`: RFC 9110 §10.2.3 allows `delay-seconds` (`1*DIGIT`, "a
    /// non-negative decimal integer") or an HTTP-date; nil when it is neither. Digits too many for an integer
    /// are still a delay, the longest one there is (`Duration.seconds(Int64.max)`), so the run stops at once
    /// instead of reading the value as absent and retrying.
    public static func parseRetryAfter(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return .seconds(Int64(text) ?? Int64.max)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        let seconds = date.timeIntervalSince(now).rounded(.up)
        return .seconds(seconds <= 0 ? 0 : seconds < 9e18 ? Int64(seconds) : Int64.max)
    }
}
