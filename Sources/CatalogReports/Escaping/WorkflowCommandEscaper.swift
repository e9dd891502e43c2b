/// Text for GitHub Actions workflow commands (`::error file=…,line=…::message`), escaped as the runner
/// decodes it: `%`, CR and LF in the message; also `:` and `,` in property values. Other control characters
/// become visible `\u{…}` escapes, so a catalog cannot color the log or forge a second command.
public enum WorkflowCommandEscaper {
    /// A message (the data after `::`).
    public static func data(_ text: String) -> String {
        ControlCharacters.escape(text, dataReplacement)
    }

    /// A property value (`file=`, `title=`).
    public static func property(_ text: String) -> String {
        ControlCharacters.escape(text) { scalar in
            scalar == ":" ? "%3A" : scalar == "," ? "%2C" : dataReplacement(scalar)
        }
    }

    private static func dataReplacement(_ scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "%": "%25"
        case "\r": "%0D"
        case "\n": "%0A"
        default: nil
        }
    }
}
