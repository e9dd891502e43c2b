import Foundation

/// RevenueCat's per-minute rate limit (revenuecat.com/docs/api-v2, "Rate Limit"): "Rate limits are configured per
/// domain" — the project configuration endpoints `fetch revenuecat` calls have "a default rate limit of 60 requests
/// per minute" — and every successful answer carries `RevenueCat-Rate-Limit-Current-Usage` ("the number of
/// executed requests for the current rate limiting period, including the current request. The rate limiting period
/// is one minute") and `RevenueCat-Rate-Limit-Current-Limit` ("the limit in requests per minute for this
/// endpoint"). The pacer keeps a fetch under that limit instead of running into 429s: it counts the attempts of
/// this run in the last minute, and the usage the last answer reported (other clients of the key count too) plus
/// the attempts since; when either reaches the limit, the next attempt waits until the minute has room again —
/// never more than a minute. Before the first answer the limit is unknown and attempts go.
final class RequestPacer: @unchecked Sendable {
    /// The rate limiting period.
    static let window: TimeInterval = 60

    private let lock = NSLock()
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async -> Void
    private var limit: Int?
    /// This run's attempts in the last `window`, oldest first.
    private var sent: [Date] = []
    /// The last usage an answer reported, and when.
    private var reported: (usage: Int, at: Date)?
    /// Attempts sent since that answer.
    private var sinceReport = 0

    /// Creates a pacer; tests pass their own clock and sleep.
    init(now: @escaping @Sendable () -> Date = { Date() },
         sleep: @escaping @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }) {
        self.now = now
        self.sleep = sleep
    }

    /// Waits until an attempt fits the limit, then counts it.
    func acquire() async {
        while let wait = reserve() {
            await sleep(wait)
        }
    }

    /// Counts an attempt and returns nil when it fits; else how long to wait (at most the window).
    func reserve() -> Duration? {
        let time = now()
        return lock.withLock { () -> Duration? in
            sent.removeAll { time.timeIntervalSince($0) >= Self.window }
            if let report = reported, time.timeIntervalSince(report.at) >= Self.window { reported = nil }
            guard let limit else {
                record(time)
                return nil
            }
            var until: Date?
            if sent.count >= limit, let oldest = sent.first { until = oldest.addingTimeInterval(Self.window) }
            if let report = reported, report.usage + sinceReport >= limit {
                let freed = report.at.addingTimeInterval(Self.window)
                until = max(until ?? freed, freed)
            }
            guard let until else {
                record(time)
                return nil
            }
            let seconds = min(max(until.timeIntervalSince(time), 0.001), Self.window)
            return .milliseconds(Int64((seconds * 1000).rounded(.up)))
        }
    }

    /// Reads an answer's rate-limit headers (any status): the limit, and the usage as of now.
    func observe(_ headers: [String: String]) {
        let usage = headers["revenuecat-rate-limit-current-usage"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let limit = headers["revenuecat-rate-limit-current-limit"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let time = now()
        lock.withLock {
            if let limit, limit > 0 { self.limit = limit }
            if let usage, usage >= 0 {
                reported = (usage, time)
                sinceReport = 0
            }
        }
    }

    /// Called with the lock held.
    private func record(_ time: Date) {
        sent.append(time)
        sinceReport += 1
    }
}

/// A transport that waits for room under RevenueCat's rate limit before every attempt and reads the limit off
/// every answer.
struct PacedTransport: HTTPTransport {
    let inner: any HTTPTransport
    let pacer: RequestPacer

    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse {
        await pacer.acquire()
        if Task.isCancelled { throw TransportFailure("interrupted") }
        let response = try await inner.send(request, timeout: timeout)
        pacer.observe(response.headers)
        return response
    }
}
