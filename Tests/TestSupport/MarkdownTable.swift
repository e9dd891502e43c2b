/// Reading GitHub-flavoured Markdown tables in tests.
public enum MarkdownTable {
    /// The `|` that separate cells in a row: those not escaped with a backslash (GitHub splits a row on every
    /// `|` not preceded by `\`, in code spans too).
    public static func separators(_ line: some StringProtocol) -> Int {
        var count = 0
        var previous: Character = " "
        for character in line {
            if character == "|" && previous != "\\" { count += 1 }
            previous = character
        }
        return count
    }
}
