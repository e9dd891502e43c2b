/// Text for a terminal or a log: control characters (escape sequences, BEL, CR, LF, NUL, C1) and bidi
/// overrides become visible `\u{1B}` escapes, so a catalog can neither recolor nor rewrite the screen, and one
/// finding is always one line.
public enum TerminalEscaper {
    /// `text` safe to print.
    public static func escape(_ text: String) -> String {
        ControlCharacters.makeVisible(text)
    }
}
