/// The part of `NearMatch` for long candidates: a trie of their lower-cased text (after the prefix all
/// candidates share), searched with an edit-distance row restricted to the band |i − j| ≤ 2.
///
/// A deletion index holds about n²/2 variants of an n-character ID, which for IDs of hundreds of characters
/// is hundreds of bytes of index per byte of input. The trie holds one node per character that is not shared
/// with an earlier candidate, and a search descends only while some prefix of the ID is within two edits of
/// the node's text, so long IDs, which part early, are pruned within a few characters.
struct NearMatchTrie: Sendable {
    private static let limit = NearMatch.maximumDistance
    private static let bandWidth = 2 * limit + 1
    private static let beyond = limit + 1

    /// Node → its character (the root's is unused).
    private var labels: [UInt32] = [0]
    /// Node → its first child, or -1.
    private var firstChild: [Int32] = [-1]
    /// Node → its next sibling, or -1.
    private var nextSibling: [Int32] = [-1]
    /// Node → the first candidate ending there (a position in `NearMatch`'s sorted candidates), or -1.
    private var firstEnding: [Int32] = [-1]
    /// Candidate position → the next candidate ending at the same node (IDs equal once lower-cased), or -1.
    private var nextEnding: [Int32: Int32] = [:]
    /// The deepest node's depth.
    private var height = 0

    /// Whether the trie holds no candidate.
    var isEmpty: Bool { firstChild[0] < 0 }

    /// A trie of `entries`: each a candidate's text after the shared prefix and its position.
    init(_ entries: [(text: [UInt32], position: Int32)] = []) {
        // In text order each text shares a path with the one before it up to their common prefix, and then
        // only adds nodes: no child is ever looked up. Equal texts (IDs equal once lower-cased) come together,
        // in the order of their positions, which is the order their node lists them in.
        let sorted = entries.sorted {
            $0.text == $1.text ? $0.position < $1.position : $0.text.lexicographicallyPrecedes($1.text)
        }
        var path = [0]  // path[d]: the node at depth d of the text before
        var previous: [UInt32] = []
        var lastPosition: Int32 = -1
        for (text, position) in sorted {
            let shared = zip(previous, text).prefix { $0.0 == $0.1 }.count
            path.removeLast(path.count - 1 - shared)
            for scalar in text[shared...] {
                let parent = path[path.count - 1]
                let child = Int32(labels.count)
                labels.append(scalar)
                firstChild.append(-1)
                nextSibling.append(firstChild[parent])
                firstEnding.append(-1)
                firstChild[parent] = child
                path.append(Int(child))
            }
            height = max(height, text.count)
            if text == previous, lastPosition >= 0 {
                nextEnding[lastPosition] = position
            } else {
                firstEnding[path[path.count - 1]] = position
            }
            previous = text
            lastPosition = position
        }
    }

    /// The nearest candidate to `query` (the whole lower-cased ID) among those whose full text is `prefix`
    /// followed by a path of the trie, with its distance; ties go to the lower position. `excluded` tells
    /// which positions must not be returned (the ID itself).
    func best(for query: [UInt32], prefix: [UInt32], excluded: (Int32) -> Bool) -> (distance: Int, position: Int32)? {
        guard !isEmpty else { return nil }
        let width = Self.bandWidth
        // rows[d * width + t]: the distance between the target's first d characters and query[..<(d + t − 2)].
        var rows = [Int](repeating: Self.beyond, count: (prefix.count + height + 1) * width)
        for t in Self.limit..<width where t - Self.limit <= query.count { rows[t] = t - Self.limit }
        for (index, scalar) in prefix.enumerated() {
            guard Self.extend(&rows, depth: index + 1, with: scalar, query: query) else { return nil }
        }
        var best: (distance: Int, position: Int32)?
        func consider(_ node: Int, depth: Int) {
            let t = query.count - depth + Self.limit
            guard (0..<width).contains(t), firstEnding[node] >= 0 else { return }
            let distance = rows[depth * width + t]
            guard distance <= Self.limit else { return }
            var position = firstEnding[node]
            while position >= 0, excluded(position) { position = nextEnding[position] ?? -1 }
            guard position >= 0 else { return }
            if let current = best, distance > current.distance
                || (distance == current.distance && current.position < position) { return }
            best = (distance, position)
        }
        consider(0, depth: prefix.count)
        var stack: [(node: Int32, depth: Int)] = []
        var child = firstChild[0]
        while child >= 0 {
            stack.append((child, prefix.count + 1))
            child = nextSibling[Int(child)]
        }
        while let (node, depth) = stack.popLast() {
            // The row for `depth` is rewritten here; every row above it still belongs to this node's parents.
            guard Self.extend(&rows, depth: depth, with: labels[Int(node)], query: query) else { continue }
            consider(Int(node), depth: depth)
            var child = firstChild[Int(node)]
            while child >= 0 {
                stack.append((child, depth + 1))
                child = nextSibling[Int(child)]
            }
        }
        return best
    }

    /// Computes the band of row `depth` from row `depth − 1` for a target character `scalar`; false when every
    /// cell is beyond the limit (no extension of this target can come within it).
    private static func extend(_ rows: inout [Int], depth: Int, with scalar: UInt32, query: [UInt32]) -> Bool {
        let width = bandWidth
        let base = depth * width, above = (depth - 1) * width
        var minimum = beyond
        for t in 0..<width {
            let column = depth + t - limit
            guard column >= 0, column <= query.count else {
                rows[base + t] = beyond
                continue
            }
            // Above: (depth − 1, column) is band cell t + 1; diagonal (depth − 1, column − 1) is t; left is t − 1.
            var value = t + 1 < width ? rows[above + t + 1] + 1 : beyond
            if column > 0 {
                value = min(value, rows[above + t] + (query[column - 1] == scalar ? 0 : 1))
                if t > 0 { value = min(value, rows[base + t - 1] + 1) }
            }
            value = min(value, beyond)
            rows[base + t] = value
            minimum = min(minimum, value)
        }
        return minimum <= limit
    }
}
