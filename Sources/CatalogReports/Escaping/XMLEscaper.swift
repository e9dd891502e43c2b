/// Text for XML 1.0 written through libxml2's `xmlTextWriter`, which escapes markup (`<`, `&`, quotes) itself
/// but passes characters XML 1.0 forbids: those (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF) and
/// the other unsafe controls become visible `\u{…}` escapes, so the document stays well-formed and inert.
public enum XMLEscaper {
    /// `text` made of characters XML 1.0 allows, for element text (tabs and line feeds kept).
    public static func text(_ text: String) -> String {
        ControlCharacters.escape(text) { scalar in
            switch scalar.value {
            case 0x09, 0x0A: String(scalar)
            case 0xFFFE, 0xFFFF: ControlCharacters.visible(scalar)
            default: nil
            }
        }
    }

    /// `text` for an attribute value: line breaks are made visible too (an attribute is one line to readers).
    public static func attribute(_ text: String) -> String {
        ControlCharacters.escape(text) { scalar in
            scalar.value == 0xFFFE || scalar.value == 0xFFFF ? ControlCharacters.visible(scalar) : nil
        }
    }
}
