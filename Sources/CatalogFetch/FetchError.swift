import Foundation

/// Why a fetch stopped (exit 2), in the user's words. No message holds a secret: requests are named by method
/// and URL only (never a header or body), and credentials by their IDs and file paths, never their contents.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A credential is missing, unreadable or not what it should be.
    case credentials(String)
    /// The store answered 401 or 403: `credential` names what was refused, `advice` what to check.
    case refused(store: String, credential: String, status: Int, advice: String)
    /// A request failed on every attempt; `reason` is the last failure ("connection refused", "HTTP 503").
    case gaveUp(request: String, attempts: Int, reason: String)
    /// The store asked to wait longer than a run waits for one request.
    case retryLater(request: String, seconds: Int, after: String)
    /// An answer that is neither success nor retryable (404, 400, …), with the store's own explanation.
    case rejected(request: String, status: Int, detail: String?)
    /// A success whose body is not the JSON the store API sends.
    case malformed(request: String, reason: String)
    /// The output folder cannot be written.
    case output(path: String, reason: String)
    /// App Store Connect's hourly request budget has no room for the pages still wanted (`RequestBudget`):
    /// `remaining` of `limit` left, at least `needed` more wanted, `sent` sent by this run, which come back
    /// `renews` ("from 14:05:00 UTC to 14:31:00 UTC").
    case budgetSpent(limit: Int, remaining: Int, needed: Int, sent: Int, renews: String)

    public var description: String {
        switch self {
        case let .credentials(message):
            return message
        case let .refused(store, credential, status, advice):
            return "\(store) refused \(credential) (HTTP \(status)) — \(advice)"
        case let .gaveUp(request, attempts, reason):
            return "\(request): gave up after \(attempts) attempts: \(reason)"
        case let .retryLater(request, seconds, after):
            return "\(request): the store asks to wait \(seconds) s (Retry-After), longer than a fetch waits for one "
                + "request; try again after \(after)"
        case let .rejected(request, status, detail):
            return "\(request): HTTP \(status)" + (detail.map { ": \($0)" } ?? "")
        case let .malformed(request, reason):
            return "\(request): \(reason)"
        case let .output(path, reason):
            return "\(path): \(reason)"
        case let .budgetSpent(limit, remaining, needed, sent, renews):
            return "App Store Connect's hourly request budget for this key is spent: \(remaining) of \(limit) "
                + "requests left, and this fetch needs at least \(needed) more; stopped before Apple answers 429. "
                + "The budget is a rolling hour: the \(sent) requests of this run come back \(renews)"
        }
    }
}
