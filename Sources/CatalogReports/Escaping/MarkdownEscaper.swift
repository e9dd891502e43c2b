/// Text for GitHub-flavoured Markdown, in a paragraph or a table cell: it renders as the same characters and
/// never as markup, a web link, raw HTML, or a new cell or row.
public enum MarkdownEscaper {
    /// ASCII punctuation that can start or end Markdown syntax: escaped with a backslash.
    private static let punctuation: Set<Unicode.Scalar> = [
        "\\", "`", "*", "_", "[", "]", "(", ")", "#", "+", "!", "|", "~", "{", "}",
    ]

    /// `text` inert in Markdown: punctuation backslash-escaped, `<`, `>` and `&` as character references,
    /// line breaks as spaces, other control characters as visible `\u{…}` escapes. GitHub also turns bare
    /// URLs into links (`https://…`, `www.…`): the `:` of `://` and the `.` of `www.` are escaped too, which
    /// its autolinker does not see through. An `@` is followed by an empty HTML comment (`@<!-- -->team`), so
    /// `@team` renders as plain text and notifies no one: GitHub finds mentions after rendering, so neither
    /// `\@` nor `&#64;` stops one, while the comment splits the text it searches (github/markup#1168,
    /// github/cmark-gfm#181). That also ends the `mailto:` link GitHub made of `me@example.com`.
    public static func escape(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var index = -1
        return ControlCharacters.escape(text) { scalar in
            index += 1
            switch scalar {
            case "<": return "&lt;"
            case ">": return "&gt;"
            case "&": return "&amp;"
            case "\n", "\r": return " "
            case "@": return "@<!-- -->"
            case ":" where follows(scalars, index, "//"), "." where precedes(scalars, index, "www"):
                return "\\" + String(scalar)
            default: return punctuation.contains(scalar) ? "\\" + String(scalar) : nil
            }
        }
    }

    /// Whether `scalars` continue with `text` after `index`.
    private static func follows(_ scalars: [Unicode.Scalar], _ index: Int, _ text: String) -> Bool {
        let expected = Array(text.unicodeScalars)
        return scalars.count > index + expected.count
            && Array(scalars[(index + 1)...(index + expected.count)]) == expected
    }

    /// Whether `text`, in any case, stands right before `index`.
    private static func precedes(_ scalars: [Unicode.Scalar], _ index: Int, _ text: String) -> Bool {
        let expected = Array(text.unicodeScalars)
        guard index >= expected.count else { return false }
        return zip(scalars[(index - expected.count)..<index], expected).allSatisfy {
            $0.properties.lowercaseMapping == String($1)
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
