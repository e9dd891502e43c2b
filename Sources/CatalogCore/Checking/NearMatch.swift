/// Finds "did you mean" candidates: IDs equal ignoring case, or at most two edits apart (Levenshtein on
/// lower-cased IDs, DESIGN.md §5a.6). The nearest wins; ties go to the first in sort order.
///
/// The candidates are lowered, sorted and bucketed by length once; a lookup visits only the buckets within two
/// characters of the ID's length.
public struct NearMatch: Sendable {
    static let maximumDistance = 2

    private struct Candidate: Sendable {
        let id: String
        let lowered: [Unicode.Scalar]
    }

    /// Candidates by their lower-cased length in scalars, each bucket in sort order.
    private let buckets: [Int: [Candidate]]

    /// Prepares the candidates for lookups.
    public init(candidates: [String]) {
        var buckets: [Int: [Candidate]] = [:]
        for id in candidates.sorted() {
            let lowered = Array(id.lowercased().unicodeScalars)
            buckets[lowered.count, default: []].append(Candidate(id: id, lowered: lowered))
        }
        self.buckets = buckets
    }

    /// The candidate nearest to `id`, if one is close enough.
    public func best(for id: String) -> String? {
        let needle = Array(id.lowercased().unicodeScalars)
        var best: (distance: Int, candidate: String)?
        for length in (needle.count - Self.maximumDistance)...(needle.count + Self.maximumDistance) {
            for candidate in buckets[length] ?? [] where candidate.id != id {
                let distance = Self.levenshtein(needle, candidate.lowered, limit: Self.maximumDistance)
                guard distance <= Self.maximumDistance else { continue }
                if let current = best, distance > current.distance
                    || (distance == current.distance && current.candidate < candidate.id) { continue }
                best = (distance, candidate.id)
            }
        }
        return best?.candidate
    }

    /// The candidate nearest to `id` among `candidates` (a one-off lookup).
    public static func best(for id: String, among candidates: [String]) -> String? {
        NearMatch(candidates: candidates).best(for: id)
    }

    /// Edit distance, stopping early once every entry of a row exceeds `limit`.
    static func levenshtein(_ lhs: [Unicode.Scalar], _ rhs: [Unicode.Scalar], limit: Int) -> Int {
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = Array(0...rhs.count)
        var current = [Int](repeating: 0, count: rhs.count + 1)
        for (i, left) in lhs.enumerated() {
            current[0] = i + 1
            var rowMinimum = current[0]
            for (j, right) in rhs.enumerated() {
                let cost = left == right ? 0 : 1
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + cost)
                rowMinimum = min(rowMinimum, current[j + 1])
            }
            if rowMinimum > limit { return rowMinimum }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
