import CatalogCore

/// A selector of a mapping file (DESIGN.md §4b): the JSONPath subset `$`, `.key`, `['key']` (or `["key"]`),
/// `[n]` and `[*]` (`.*` alike) over an array's items or an object's values. Written here, with no dependency:
/// the subset is small, and a selector the subset lacks (a filter `[?(…)]`, recursion `..`, a slice `[1:3]`, a
/// union `[0,1]`, a negative index, a function) is refused at the mapping file's line, never read some other way.
/// Evaluation is linear in the nodes it visits.
struct MappingSelector: Hashable, Sendable, CustomStringConvertible {
    /// One step from a node to the nodes below it.
    enum Step: Hashable, Sendable {
        /// An object's member.
        case key(String)
        /// An array's item (0-based).
        case index(Int)
        /// Every item of an array, every value of an object.
        case all
    }

    /// The steps after `$`.
    let steps: [Step]
    /// The selector as written.
    let text: String

    /// What the subset offers, for messages.
    static let subset = "$, .key, ['key'], [n] and [*]"

    /// Parses a selector; the error names the character where it stops being the subset (1-based).
    init(_ text: String) throws(SelectorError) {
        self.text = text
        let characters = Array(text)
        var position = 0
        func fail(_ reason: String, at index: Int) -> SelectorError {
            SelectorError(reason: reason, character: index + 1)
        }
        guard characters.first == "$" else {
            throw fail("a selector starts with $ (the \(Self.subset) of JSONPath)", at: 0)
        }
        position = 1
        var steps: [Step] = []
        while position < characters.count {
            let character = characters[position]
            switch character {
            case ".":
                if position + 1 < characters.count, characters[position + 1] == "." {
                    throw fail("recursive descent (..) is not supported; the subset is \(Self.subset)", at: position)
                }
                let start = position + 1
                if start < characters.count, characters[start] == "*" {
                    steps.append(.all)
                    position = start + 1
                    continue
                }
                var end = start
                while end < characters.count, !".[]'\"*()?@ \t,:".contains(characters[end]) { end += 1 }
                guard end > start else {
                    throw fail("a key is missing after the dot", at: position)
                }
                if end < characters.count, !".[".contains(characters[end]) {
                    throw fail("\"\(characters[end])\" cannot be part of a key here; write ['…'] for such a key",
                               at: end)
                }
                steps.append(.key(String(characters[start..<end])))
                position = end
            case "[":
                let (step, next) = try Self.bracket(characters, from: position)
                steps.append(step)
                position = next
            default:
                throw fail("\"\(character)\" is not a step; the subset is \(Self.subset)", at: position)
            }
        }
        self.steps = steps
    }

    /// Reads `[…]` at `start`: a quoted key, a non-negative index or `*`; the position after `]`.
    private static func bracket(_ characters: [Character], from start: Int) throws(SelectorError) -> (Step, Int) {
        var position = start + 1
        func fail(_ reason: String, at index: Int) -> SelectorError {
            SelectorError(reason: reason, character: index + 1)
        }
        guard position < characters.count else { throw fail("the bracket is not closed", at: start) }
        let first = characters[position]
        if first == "?" || first == "(" {
            throw fail("filters and expressions ([?(…)], [(…)]) are not supported; the subset is \(subset)",
                       at: position)
        }
        if first == "'" || first == "\"" {
            var key = ""
            position += 1
            while position < characters.count, characters[position] != first {
                if characters[position] == "\\", position + 1 < characters.count {
                    position += 1
                }
                key.append(characters[position])
                position += 1
            }
            guard position < characters.count else { throw fail("the quoted key is not closed", at: start + 1) }
            position += 1
            guard position < characters.count, characters[position] == "]" else {
                if position < characters.count, characters[position] == "," {
                    throw fail("unions ([a,b]) are not supported; the subset is \(subset)", at: position)
                }
                throw fail("] expected after the quoted key", at: position)
            }
            return (.key(key), position + 1)
        }
        if first == "*" {
            guard position + 1 < characters.count, characters[position + 1] == "]" else {
                throw fail("] expected after *", at: position + 1)
            }
            return (.all, position + 2)
        }
        var end = position
        while end < characters.count, characters[end] != "]" { end += 1 }
        guard end < characters.count else { throw fail("the bracket is not closed", at: start) }
        let inside = String(characters[position..<end])
        // A slice or a union is named at its `:` or `,`, the character that makes it one.
        if let colon = characters[position..<end].firstIndex(of: ":") {
            throw fail("slices ([start:end]) are not supported; the subset is \(subset)", at: colon)
        }
        if let comma = characters[position..<end].firstIndex(of: ",") {
            throw fail("unions ([a,b]) are not supported; the subset is \(subset)", at: comma)
        }
        if inside.hasPrefix("-") {
            throw fail("negative indexes are not supported; the subset is \(subset)", at: position)
        }
        guard !inside.isEmpty, inside.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let index = Int(inside) else {
            throw fail("\"\(inside)\" is not an index, a quoted key or *; the subset is \(subset)", at: position)
        }
        return (.index(index), end + 1)
    }

    /// The nodes the selector reaches from `root` (`$`), in document order; empty when it reaches none.
    func select(from root: ConfigNode) -> [ConfigNode] {
        var nodes = [root]
        for step in steps {
            var next: [ConfigNode] = []
            for node in nodes {
                switch (step, node.value) {
                case let (.key(key), .mapping(entries)):
                    if let entry = entries.first(where: { $0.key == key }) { next.append(entry.value) }
                case let (.index(index), .sequence(elements)):
                    if elements.indices.contains(index) { next.append(elements[index]) }
                case let (.all, .sequence(elements)):
                    next += elements
                case let (.all, .mapping(entries)):
                    next += entries.map(\.value)
                default:
                    break
                }
            }
            nodes = next
            if nodes.isEmpty { break }
        }
        return nodes
    }

    var description: String { text }
}

/// Why a selector is not the subset: the reason and the 1-based character where it stops.
struct SelectorError: Error, Hashable, Sendable {
    let reason: String
    let character: Int
}
