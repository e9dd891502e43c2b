/// A shell-style glob: `*` matches any run of characters (also none), `?` exactly one; everything else itself.
public struct Glob: Hashable, Sendable {
    private let pattern: [Character]

    /// Creates a glob.
    public init(_ pattern: String) {
        self.pattern = Array(pattern)
    }

    /// Whether the whole of `text` matches.
    public func matches(_ text: String) -> Bool {
        let text = Array(text)
        // Greedy matching with one backtrack point for the last `*`: linear in practice, never exponential.
        var p = 0, t = 0
        var star: Int?, starText = 0
        while t < text.count {
            if p < pattern.count, pattern[p] == "?" || (pattern[p] != "*" && pattern[p] == text[t]) {
                p += 1
                t += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                starText = t
                p += 1
            } else if let star {
                p = star + 1
                starText += 1
                t = starText
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
