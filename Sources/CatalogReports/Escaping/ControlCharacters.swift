/// Characters that must never reach an output raw: they move the cursor, recolor or retitle a terminal, break
/// a line where a format expects one record per line, reorder what a reader sees, or hide: an ID holding a
/// zero-width space prints exactly like the ID without it (DESIGN.md §6).
enum ControlCharacters {
    /// C0 controls (with tab, line feed and carriage return), DEL, C1 controls, the line and paragraph
    /// separators (U+2028, U+2029), and every invisible format character (Unicode category Cf: zero-width
    /// space and joiners, the bidirectional marks, embeddings, overrides and isolates, the byte order mark,
    /// the soft hyphen, tag characters).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029: true
        case 0xA0...: scalar.properties.generalCategory == .format
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
