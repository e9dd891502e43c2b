import Foundation
@testable import CatalogReports
import Testing

/// Invisible format characters and `@mentions` through each escaper (DESIGN.md §6): shown as `\u{…}` where text
/// is read by people, kept exact where JSON is read by programs, never a mention in Markdown.
@Suite("Escaping invisible characters and mentions")
struct EscapingTests {
    /// Zero-width space, left-to-right mark, right-to-left override, the isolates, byte order mark, soft hyphen,
    /// line separator and a tag character (beyond U+FFFF).
    static let invisible = "a\u{200B}b\u{200E}\u{202E}\u{2066}\u{2069}\u{FEFF}\u{AD}\u{2028}\u{E0041}c"
    static let visible = #"a\u{200B}b\u{200E}\u{202E}\u{2066}\u{2069}\u{FEFF}\u{AD}\u{2028}\u{E0041}c"#

    @Test("text shows every invisible format character as an uppercase \\u{…} escape")
    func terminal() {
        #expect(TerminalEscaper.escape(Self.invisible) == Self.visible)
    }

    @Test("visible letters of any script, and emoji, are left as they are")
    func visibleText() {
        let text = "Müller é 日本 Ω c\u{43E}ins 🎒 \u{1F1E9}\u{1F1EA}"

        #expect(TerminalEscaper.escape(text) == text)
        #expect(HTMLEscaper.escape(text) == text)
    }

    @Test("HTML, XML, workflow commands and SARIF messages show them too")
    func otherLanguages() {
        #expect(HTMLEscaper.escape(Self.invisible) == Self.visible)
        #expect(XMLEscaper.text(Self.invisible) == Self.visible)
        #expect(XMLEscaper.attribute(Self.invisible) == Self.visible)
        #expect(WorkflowCommandEscaper.data(Self.invisible) == Self.visible)
        #expect(WorkflowCommandEscaper.property(Self.invisible) == Self.visible)
        #expect(SARIFEscaper.message(Self.invisible) == Self.visible)
        #expect(MarkdownEscaper.escape("gems\u{200B}.100") == #"gems\u{200B}.100"#)
        #expect(MarkdownEscaper.code("gems\u{200B}.100") == #"`gems\u{200B}.100`"#)
    }

    @Test("Markdown: an @ is followed by an empty comment, so neither a team nor an address becomes a link")
    func mentions() {
        #expect(MarkdownEscaper.escape("ping @team, @org/reviewers or me@example.com")
                == "ping @<!-- -->team, @<!-- -->org/reviewers or me@<!-- -->example.com")
        // A code span mentions no one, and shows its text as is.
        #expect(MarkdownEscaper.code("ping @team") == "`ping @team`")
    }

    @Test("JSON escapes them as \\uXXXX (a surrogate pair beyond U+FFFF) and a reader gets the exact text back")
    func json() throws {
        let quoted = JSONEscaper.quoted("a\u{200B}\u{E0041}")

        #expect(quoted == #""a\u200b\udb40\udc41""#)
        let decoded = try JSONSerialization.jsonObject(with: Data("[\(quoted)]".utf8)) as? [String]
        #expect(decoded == ["a\u{200B}\u{E0041}"])
    }

    @Test("JSON from JSONEncoder: the invisible characters it leaves raw become escapes, nothing else changes")
    func encodedJSON() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded = String(decoding: try encoder.encode(["id": Self.invisible, "name": "Müller"]), as: UTF8.self)

        let escaped = JSONEscaper.escapingInvisible(encoded)

        #expect(!escaped.unicodeScalars.contains { $0.properties.generalCategory == .format || $0 == "\u{2028}" })
        #expect(escaped.contains("Müller"))
        let decoded = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(decoded == ["id": Self.invisible, "name": "Müller"])
        #expect(JSONEscaper.escapingInvisible(#"{"name":"Müller"}"#) == #"{"name":"Müller"}"#)
    }

    @Test("an exported YAML scalar shows them as escapes a YAML reader decodes back")
    func yaml() {
        #expect(YAMLEscaper.scalar("com.example.gems\u{200B}.100") == #""com.example.gems\u200B.100""#)
        #expect(YAMLEscaper.scalar("gold\u{202E}\u{AD}\u{E0041}") == #""gold\u202E\xAD\U000E0041""#)
    }
}
