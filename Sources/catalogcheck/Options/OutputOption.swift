import ArgumentParser

/// `--output FILE`, declared once for every command that writes a document (`check`, `report`, `diff`,
/// `export`). Never an input of the same run (DESIGN.md §2 "Output files").
struct OutputOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?
}
