/// Text for a terminal or a log: control characters (escape sequences, BEL, CR, LF, NUL, C1) and invisible
/// format characters (zero-width space, bidi controls) become visible `\u{1B}` escapes, so a catalog can neither
/// recolor nor rewrite the screen, one finding is always one line, and two IDs that differ only in an invisible
/// character print differently.
public enum TerminalEscaper {
    /// `text` safe to print.
    public static func escape(_ text: String) -> String {
        ControlCharacters.makeVisible(text)
    }
}
