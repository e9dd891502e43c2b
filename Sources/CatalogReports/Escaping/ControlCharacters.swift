/// Characters that must never reach an output raw: they move the cursor, recolor or retitle a terminal, break
/// a line where a format expects one record per line, or reorder what a reader sees.
enum ControlCharacters {
    /// C0 controls (with tab, line feed and carriage return), DEL, C1 controls, and the bidirectional
    /// embedding, override and isolate characters (U+202A–U+202E, U+2066–U+2069).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The visible form of a scalar: `\u{1B}` (uppercase hex, no leading zeros), as DESIGN.md §6 asks.
    static func visible(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// `text` with every unsafe scalar replaced by its visible form.
    static func makeVisible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        return escape(text) { _ in nil }
    }

    /// The one loop every escaper runs: `replacement` gives a scalar's escaped form, or nil to keep it; a kept
    /// scalar that is unsafe becomes visible all the same.
    static func escape(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else if isUnsafe(scalar) {
                result += visible(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
