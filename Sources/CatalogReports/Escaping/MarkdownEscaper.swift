/// Text for GitHub-flavoured Markdown, in a paragraph or a table cell: it renders as the same characters and
/// never as markup, a link, raw HTML, or a new cell or row.
public enum MarkdownEscaper {
    /// ASCII punctuation that can start or end Markdown syntax: escaped with a backslash.
    private static let punctuation: Set<Unicode.Scalar> = [
        "\\", "`", "*", "_", "[", "]", "(", ")", "#", "+", "!", "|", "~", "{", "}",
    ]

    /// `text` inert in Markdown: punctuation backslash-escaped, `<`, `>` and `&` as character references,
    /// line breaks as spaces, other control characters as visible `\u{…}` escapes.
    public static func escape(_ text: String) -> String {
        ControlCharacters.escape(text) { scalar in
            switch scalar {
            case "<": "&lt;"
            case ">": "&gt;"
            case "&": "&amp;"
            case "\n", "\r": " "
            default: punctuation.contains(scalar) ? "\\" + String(scalar) : nil
            }
        }
    }

    /// `text` as inline code: in a code span, nothing but the backtick fence and the cell separator matter, so
    /// the text keeps its punctuation. Falls back to `escape` when the text holds a backtick or a line break.
    public static func code(_ text: String) -> String {
        if text.contains("`") || text.contains("\n") || text.contains("\r") { return escape(text) }
        // A `|` ends a table cell even inside a code span (GitHub); `\|` is decoded there, `&#124;` is not.
        return "`" + ControlCharacters.escape(text) { $0 == "|" ? "\\|" : nil } + "`"
    }
}
