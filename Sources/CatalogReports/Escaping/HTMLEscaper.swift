/// Text for HTML text nodes and double- or single-quoted attribute values: `&`, `<`, `>`, `"` and `'` become
/// character references, and control characters become visible `\u{…}` escapes.
public enum HTMLEscaper {
    /// `text` safe inside an element or a quoted attribute.
    public static func escape(_ text: String) -> String {
        ControlCharacters.escape(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&#39;"
            default: nil
            }
        }
    }
}
