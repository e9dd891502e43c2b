import CatalogCore

/// Every problem found in one config, rules file or baseline (DESIGN.md §5a.1: all of them are reported, in file
/// order, at most `CatalogReadError.listLimit`, then how many more), so that a file with three mistakes takes one
/// run to fix, not three.
///
/// Validators record a problem and go on with the next value; what cannot go on (a syntax error, a root that is
/// not a mapping) is thrown with `including(_:)`, so that the problems found before it still come with it. Only
/// the first problems in file order are kept (the rest are counted), so a file that is wrong everywhere costs
/// memory for a few of its problems, not for all. A class: the validators and the product stream that feeds them
/// while the parser runs share one.
final class ConfigProblems {
    /// The problems kept, each with the order it was found in (for problems at one place).
    private var kept: [(order: Int, error: CatalogReadError)] = []
    /// How many problems were found in all.
    private var count = 0
    /// Problems that an error added whole counted without listing them.
    private var uncounted = 0

    /// Whether no problem was found.
    var isEmpty: Bool { count == 0 && uncounted == 0 }

    /// Records a problem (every problem of an error that lists several).
    func add(_ error: CatalogReadError) {
        for problem in error.problems {
            kept.append((count, problem))
            count += 1
        }
        uncounted += error.unlistedProblemCount
        // Sorting now and then keeps the first in file order without holding every problem.
        if kept.count >= 8 * CatalogReadError.listLimit { keepFirst() }
    }

    /// Runs `body`; a problem it throws is recorded and the result is nil.
    func recording<Value>(_ body: () throws(CatalogReadError) -> Value) -> Value? {
        do {
            return try body()
        } catch {
            add(error)
            return nil
        }
    }

    /// The error for every problem recorded and `error` (where reading stopped), in file order.
    func including(_ error: CatalogReadError) -> CatalogReadError {
        add(error)
        return collected() ?? error
    }

    /// Throws every problem recorded, if any.
    func throwIfAny() throws(CatalogReadError) {
        if let error = collected() { throw error }
    }

    /// One error listing the first problems in file order and counting the rest, or nil without problems.
    private func collected() -> CatalogReadError? {
        keepFirst()
        return CatalogReadError(listing: kept.map(\.error), unlisted: count - kept.count + uncounted)
    }

    /// Sorts the kept problems by place (then by when they were found) and drops all but the first listed.
    private func keepFirst() {
        kept.sort { lhs, rhs in
            let left = (lhs.error.location.line ?? 0, lhs.error.location.column ?? 0)
            let right = (rhs.error.location.line ?? 0, rhs.error.location.column ?? 0)
            return left != right ? left < right : lhs.order < rhs.order
        }
        if kept.count > CatalogReadError.listLimit { kept.removeLast(kept.count - CatalogReadError.listLimit) }
    }
}
