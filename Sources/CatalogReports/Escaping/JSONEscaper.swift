/// Text for a JSON string literal written by hand (where key order is part of the format): quotes and
/// backslashes escaped, control characters and bidirectional overrides as `\uXXXX`. Unlike the other escapers,
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

    /// `\u001b`: JSON's escape, four lowercase hex digits (every unsafe scalar is below U+10000).
    private static func unicodeEscape(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
