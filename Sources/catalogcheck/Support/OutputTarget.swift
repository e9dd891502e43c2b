/// Where an output goes. `-` spells standard output for every output option (`--output -`, `--report FORMAT:-`,
/// the baseline written by `--update-baseline`), as it spells standard input for every input; the one decision
/// is `init(spelled:)`.
enum OutputDestination: Hashable, Sendable {
    /// Standard output (file descriptor 1).
    case standardOutput
    /// A file, as spelled.
    case file(String)

    /// An output option's value: not given (nil) or `-` is standard output.
    init(spelled: String?) {
        guard let spelled, spelled != "-" else {
            self = .standardOutput
            return
        }
        self = .file(spelled)
    }

    /// The file's path; nil for standard output.
    var path: String? {
        if case .file(let path) = self { return path }
        return nil
    }
}

/// One output of a run: where it goes, and how the user asked for it, so that a message can name the option.
struct OutputTarget: Sendable {
    /// The option as the user wrote it (`--output r.txt`, `--report json:r.json`), or what asks for the output
    /// when no option names it (`--format text (no --output)`).
    let option: String
    /// Where it goes.
    let destination: OutputDestination
}
