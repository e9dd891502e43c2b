import Foundation

/// Why a fetch stopped (exit 2), in the user's words. No message holds a secret: requests are named by method
/// and URL only (never a header or body), credentials by their IDs and file paths, never their contents, and
/// a store's own words only after `SecretRedactor` replaced every credential of the run in them.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A credential is missing, unreadable or not what it should be.
    case credentials(String)
    /// The store answered `request` with 401 or 403 (or its token endpoint refused the grant): `credential`
    /// names what was refused, `reason` is the store's own explanation (redacted), `advice` what to check.
    case refused(request: String, store: String, credential: String, status: Int, reason: String?, advice: String)
    /// A request failed on every attempt; `reason` is the last failure ("connection refused", "HTTP 503").
    case gaveUp(request: String, attempts: Int, reason: String)
    /// The store asked (`Retry-After`) to wait longer than a run waits for one request: `seconds`, or nil when
    /// the value is too large for an integer; `after` is when to try again, nil when too far off to name.
    case retryLater(request: String, seconds: Int?, after: String?)
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
    /// App Store Connect answered 429 `RATE_LIMIT_EXCEEDED` while the last `X-Rate-Limit` seen (`remaining` of
    /// `limit`; nil when none was) shows no request left this hour: the key's budget is spent (by this run or by
    /// another client of the same key), so no retry within the run can succeed. `detail` is Apple's text, `after`
    /// when the budget is whole again at the latest (the `Retry-After` when Apple names one).
    case rateLimited(request: String, detail: String?, remaining: Int?, limit: Int?, after: String)
    /// App Store Connect answered 429 `RATE_LIMIT_EXCEEDED` to every one of `attempts` attempts although its
    /// `X-Rate-Limit` showed requests left this hour (`remaining` of `limit`): a limit on short bursts, which a
    /// few minutes clear.
    case burstLimited(request: String, detail: String?, attempts: Int, remaining: Int, limit: Int)
    /// App Store Connect answered 403 `FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED`: an agreement of the team
    /// is not in effect, which no API key can make up for; `detail` is Apple's text.
    case agreementMissing(request: String, detail: String?)

    public var description: String {
        switch self {
        case let .credentials(message):
            return message
        case let .refused(request, store, credential, status, reason, advice):
            return "\(request): \(store) refused \(credential) (HTTP \(status)"
                + (reason.map { ": \"\($0)\"" } ?? "") + ") — \(advice)"
        case let .gaveUp(request, attempts, reason):
            return "\(request): gave up after \(attempts) attempts: \(reason)"
        case let .retryLater(request, seconds, after):
            let wait = seconds.map { "\($0) s" } ?? "more seconds than an integer holds"
            return "\(request): the store asks to wait \(wait) (Retry-After), longer than a fetch waits for one "
                + "request; " + (after.map { "try again after \($0)" } ?? "try again much later")
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
        case let .rateLimited(request, detail, remaining, limit, after):
            let left = remaining.map { "its X-Rate-Limit shows \($0) of \(limit ?? 0) requests left" }
                ?? "no X-Rate-Limit said that requests are left"
            return "\(request): App Store Connect answered HTTP 429 RATE_LIMIT_EXCEEDED"
                + (detail.map { " (\"\($0)\")" } ?? "") + " and \(left): the hourly request budget of this key is "
                + "spent, by this run or by another client using the same key, and retrying within the run cannot "
                + "help. The budget is a rolling hour: try again after \(after)"
        case let .burstLimited(request, detail, attempts, remaining, limit):
            return "\(request): App Store Connect answered HTTP 429 RATE_LIMIT_EXCEEDED"
                + (detail.map { " (\"\($0)\")" } ?? "") + " to all \(attempts) attempts although its X-Rate-Limit "
                + "shows \(remaining) of \(limit) requests left this hour: a limit on short bursts of "
                + "requests, not the hourly budget; try again in a few minutes"
        case let .agreementMissing(request, detail):
            return "\(request): App Store Connect answered HTTP 403 FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED"
                + (detail.map { " (\"\($0)\")" } ?? "") + ": an agreement of the team is not signed or has "
                + "expired, which no API key can make up for. The Account Holder must accept it in App Store "
                + "Connect, Business (in-app purchases need the Paid Applications Agreement in effect); then run "
                + "fetch again"
        }
    }
}
