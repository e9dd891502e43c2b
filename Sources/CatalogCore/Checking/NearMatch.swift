/// Finds "did you mean" candidates: IDs equal ignoring case, or at most two edits apart (Levenshtein on
/// lower-cased IDs). The nearest wins; ties go to the first in sort order.
public enum NearMatch {
    static let maximumDistance = 2

    /// The candidate nearest to `id`, if one is close enough.
    public static func best(for id: String, among candidates: [String]) -> String? {
        let needle = Array(id.lowercased().unicodeScalars)
        var best: (distance: Int, candidate: String)?
        for candidate in candidates.sorted() where candidate != id {
            let hay = Array(candidate.lowercased().unicodeScalars)
            guard abs(hay.count - needle.count) <= maximumDistance else { continue }
            let distance = levenshtein(needle, hay, limit: maximumDistance)
            guard distance <= maximumDistance else { continue }
            if best == nil || distance < best?.distance ?? Int.max {
                best = (distance, candidate)
            }
        }
        return best?.candidate
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
