import Foundation

/// App Store Connect's `X-Rate-Limit` header. Apple, "Identifying Rate Limits"
/// (developer.apple.com/documentation/appstoreconnectapi/identifying-rate-limits): "Every response from the API
/// includes an `X-Rate-Limit` HTTP header. Its value has the form: `user-hour-lim:3500;user-hour-rem:500;`" —
/// `user-hour-lim` "the number of requests you can make per hour with the same API key", `user-hour-rem` "the
/// number of requests remaining"; "The time frame is a 'rolling hour.' At any moment, the `user-hour-rem` value is
/// your per-hour limit, minus the total requests you've made in the previous 60 minutes"; beyond it "the API
/// rejects requests with an HTTP 429 response, with the `RATE_LIMIT_EXCEEDED` error code".
public struct RateLimit: Sendable, Equatable {
    /// `user-hour-lim`: requests per rolling hour for the key.
    public let limit: Int
    /// `user-hour-rem`: requests left in the rolling hour.
    public let remaining: Int

    /// Creates a value.
    public init(limit: Int, remaining: Int) {
        self.limit = limit
        self.remaining = remaining
    }

    /// The header's value, `name:number` pairs separated by `;` (a trailing `;` and spaces allowed, other pairs
    /// ignored); nil unless both `user-hour-lim` and `user-hour-rem` are there as whole numbers ≥ 0.
    public init?(header: String) {
        var values: [String: Int] = [:]
        for part in header.split(separator: ";") {
            let pair = part.split(separator: ":", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].trimmingCharacters(in: .whitespaces)
            guard let number = Int(pair[1].trimmingCharacters(in: .whitespaces)), number >= 0 else { continue }
            values[name] = number
        }
        guard let limit = values["user-hour-lim"], let remaining = values["user-hour-rem"] else { return nil }
        self.init(limit: limit, remaining: remaining)
    }
}

/// The hourly request budget of one App Store Connect fetch (DESIGN.md §2b). Every answer's `X-Rate-Limit` says
/// how many requests the key has left; the budget keeps an estimate that never exceeds it: an answer counts as
/// its value less the other requests still in flight (Apple may or may not have counted them yet), an answer
/// that arrives after a later one (concurrent requests) cannot raise it, and each page request takes one from it
/// before it goes. A page is requested only while the estimate has room for it; when it has none and pages are
/// still wanted, the fetch stops with `FetchError.budgetSpent` before Apple would answer 429, and `--resume`
/// continues it once the hour has rolled. Before the first answer the budget is unknown and requests go.
final class RequestBudget: @unchecked Sendable {
    private let lock = NSLock()
    private let progress: FetchProgress
    private let now: @Sendable () -> Date
    private var limit = 0
    private var estimate: Int?
    private var inFlight = 0
    private var pending = 0
    private var firstSent: Date?
    private var lastSent: Date?
    private var sent = 0
    /// The last `X-Rate-Limit` an answer carried, as Apple sent it.
    private var lastSeen: RateLimit?

    /// Creates a budget reporting low budgets to `progress`.
    init(progress: FetchProgress, now: @escaping @Sendable () -> Date = { Date() }) {
        self.progress = progress
        self.now = now
    }

    /// A phase of `listings` lists starts: each needs at least one more request.
    func startPhase(listings: Int) {
        lock.withLock { pending = listings }
    }

    /// One list of the phase is complete.
    func listingDone() {
        lock.withLock { pending = max(0, pending - 1) }
    }

    /// The stop as of now: the estimate, the lists of the phase not complete (each wants one request or more).
    func stop() -> FetchError? {
        lock.withLock { estimate.map { stopError(remaining: $0) } }
    }

    /// Takes one request from the budget, or throws `budgetSpent` when it has none. Pair with `release()`.
    func reserve() throws(FetchError) {
        let stop: FetchError? = lock.withLock {
            if let estimate {
                guard estimate >= 1 else { return stopError(remaining: max(0, estimate)) }
                self.estimate = estimate - 1
            }
            inFlight += 1
            return nil
        }
        if let stop { throw stop }
    }

    /// The reserved request has its answer (or failed).
    func release() {
        lock.withLock { inFlight = max(0, inFlight - 1) }
    }

    /// One attempt is about to go out (retries included: Apple counts each).
    func attempt() {
        let time = now()
        lock.withLock {
            sent += 1
            if firstSent == nil { firstSent = time }
            lastSent = time
        }
    }

    /// Reads an answer's `X-Rate-Limit` (any status); under a tenth of the limit left is a warning (which
    /// `FetchProgress` gives once).
    func observe(_ headers: [String: String]) {
        guard let value = headers["x-rate-limit"], let rateLimit = RateLimit(header: value) else { return }
        lock.withLock {
            lastSeen = rateLimit
            limit = rateLimit.limit
            let candidate = rateLimit.remaining - max(0, inFlight - 1)
            // Only ever lower: an answer sent early and received late carries a stale, higher count, and taking
            // it (as a "rolling hour gave requests back") let a loaded run send more than Apple allows. A run
            // that outlives the hour stops early at worst, and `--resume` reads the budget afresh.
            if estimate.map({ candidate < $0 }) ?? true {
                estimate = candidate
            }
        }
        if rateLimit.remaining * 10 < rateLimit.limit {
            progress.rateLimitLow(remaining: rateLimit.remaining, limit: rateLimit.limit)
        }
    }

    /// The last `X-Rate-Limit` an answer carried (of any status), nil before the first.
    var lastRateLimit: RateLimit? {
        lock.withLock { lastSeen }
    }

    /// Called with the lock held.
    private func stopError(remaining: Int) -> FetchError {
        .budgetSpent(limit: limit, remaining: max(0, remaining), needed: max(1, pending), sent: sent,
                     renews: renewal())
    }

    /// When the requests of this run come back: the hour rolls, so each request is returned 60 minutes after it
    /// was sent (called with the lock held).
    private func renewal() -> String {
        guard let firstSent, let lastSent else { return "within the hour" }
        let from = APISession.timestamp(firstSent.addingTimeInterval(3600))
        let until = APISession.timestamp(lastSent.addingTimeInterval(3600))
        return from == until ? "at \(from)" : "from \(from) to \(until)"
    }
}

/// A transport that counts every attempt against the budget and reads the budget off every answer.
struct MeteredTransport: HTTPTransport {
    let inner: any HTTPTransport
    let budget: RequestBudget

    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse {
        budget.attempt()
        let response = try await inner.send(request, timeout: timeout)
        budget.observe(response.headers)
        return response
    }
}
