/// The members of a JSON text's top-level object, as far as the text goes: enough to tell a product config from
/// a store catalog by structure (DESIGN.md §2) from the first bytes of a file, where a search for key names
/// anywhere in them would take a config whose products hold `purchaseOptions` for a Play catalog. One pass over
/// the text, with the nesting depth and strings tracked; linear in its length.
enum JSONTopLevel {
    /// One member: its key and the first character of its value (`{`, `[`, `"`, a digit, `t`, `f`, `n`, `-`).
    struct Member: Equatable {
        let key: String
        let value: Character
    }

    /// The keys of a product config (DESIGN.md §4) at the top level.
    static let configKeys: Set<String> = ["version", "app", "groups", "products", "$schema"]

    /// Whether the members are a product config's: `products` is a mapping (a StoreKit file's is an array), or
    /// every key is a config key and `version` is a number.
    static func isProductConfig(_ members: [Member]) -> Bool {
        if members.contains(where: { $0.key == "products" && $0.value == "{" }) { return true }
        guard let version = members.first(where: { $0.key == "version" }), version.value.isNumber else { return false }
        return members.allSatisfy { configKeys.contains($0.key) }
    }

    /// The top-level members the text shows (a text cut short gives those before the cut), or nil when it is
    /// not a JSON object.
    static func members(of text: Substring) -> [Member]? {
        var index = text.startIndex
        func skipSpace() {
            while index < text.endIndex, text[index].isWhitespace || text[index] == "\u{FEFF}" {
                index = text.index(after: index)
            }
        }
        skipSpace()
        guard index < text.endIndex, text[index] == "{" else { return nil }
        index = text.index(after: index)
        var members: [Member] = []
        while true {
            skipSpace()
            guard index < text.endIndex, text[index] == "\"" else { return members }
            guard let key = readString(text, from: &index) else { return members }
            skipSpace()
            guard index < text.endIndex, text[index] == ":" else { return members }
            index = text.index(after: index)
            skipSpace()
            guard index < text.endIndex else { return members }
            members.append(Member(key: key, value: text[index]))
            guard skipValue(text, from: &index) else { return members }
            skipSpace()
            guard index < text.endIndex, text[index] == "," else { return members }
            index = text.index(after: index)
        }
    }

    /// Reads a string starting at its opening quote; `index` ends after the closing one. Nil when cut short.
    private static func readString(_ text: Substring, from index: inout Substring.Index) -> String? {
        var result = ""
        index = text.index(after: index)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            switch character {
            case "\"": return result
            case "\\":
                guard index < text.endIndex else { return nil }
                result.append(text[index])
                index = text.index(after: index)
            default: result.append(character)
            }
        }
        return nil
    }

    /// Skips one value (nested objects and arrays, strings with their escapes); `index` ends after it. False
    /// when the text ends first.
    private static func skipValue(_ text: Substring, from index: inout Substring.Index) -> Bool {
        var depth = 0
        while index < text.endIndex {
            let character = text[index]
            switch character {
            case "\"":
                guard readString(text, from: &index) != nil else { return false }
                if depth == 0 { return true }
                continue
            case "{", "[": depth += 1
            case "}", "]":
                if depth == 0 { return true }
                depth -= 1
                if depth == 0 {
                    index = text.index(after: index)
                    return true
                }
            case ",":
                if depth == 0 { return true }
            default: break
            }
            index = text.index(after: index)
        }
        return false
    }
}
