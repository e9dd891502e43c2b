/// Text for a JSON string literal written by hand (where key order is part of the format): quotes and
/// backslashes escaped, control and invisible format characters as `\uXXXX`. Unlike the other escapers,
/// nothing is lost: a JSON reader gets back exactly the text that went in.
public enum JSONEscaper {
    /// `text` as a JSON string literal, in double quotes.
    public static func quoted(_ text: String) -> String {
        let escaped = ControlCharacters.escape(text) { scalar in
            switch scalar {
            case "\"": "\\\""
            case "\\": "\\\\"
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: ControlCharacters.isUnsafe(scalar) ? unicodeEscape(scalar) : nil
            }
        }
        return "\"" + escaped + "\""
    }

    /// JSON text from `JSONEncoder`, with the unsafe scalars it leaves raw (invisible format characters such as
    /// a zero-width space or a bidi override, U+2028, U+2029) written as `\uXXXX` escapes: a reader gets the same
    /// strings back, and a person viewing the file sees two IDs that differ only in such a character differ
    /// (DESIGN.md §6). Outside strings JSON text is ASCII, so every such scalar is inside a string.
    public static func escapingInvisible(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { $0.value >= 0x80 && ControlCharacters.isUnsafe($0) }) else {
            return json
        }
        var result = ""
        result.reserveCapacity(json.utf8.count + 64)
        for scalar in json.unicodeScalars {
            if scalar.value >= 0x80, ControlCharacters.isUnsafe(scalar) {
                result += unicodeEscape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `\u001b`: JSON's escape, four lowercase hex digits per UTF-16 code unit, so a scalar beyond U+FFFF (a
    /// tag character, U+E0041) is a surrogate pair (RFC 8259 §7).
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        String(scalar).utf16.map { unit in
            let hex = String(unit, radix: 16)
            return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }.joined()
    }
}
