import ArgumentParser

/// `--output FILE`, declared once for every command that writes a document (`check`, `report`, `diff`,
/// `export`): `-` (or no `--output`) is standard output. Never an input of the same run (DESIGN.md §2 "Output
/// files").
struct OutputOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output. - is standard output.",
                                            valueName: "file"),
            completion: .file())
    var output: String?

    /// Where the document goes.
    var destination: OutputDestination { OutputDestination(spelled: output) }

    /// The document as an output of the run; `implicit` names it when no `--output` is given
    /// (`--format text (no --output)`).
    func target(implicit: String) -> OutputTarget {
        OutputTarget(option: output.map { "--output \($0)" } ?? implicit, destination: destination)
    }
}
