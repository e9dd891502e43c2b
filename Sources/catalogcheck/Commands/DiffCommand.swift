import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports

extension DiffFormat: ExpressibleByArgument {}

/// `catalogcheck diff OLD NEW`: what changes for customers between two catalogs.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show what changes between two catalogs: products, fields, prices per territory, groups.",
        discussion: """
            OLD and NEW are catalogs of any formats: two revisions of the config, a config and a store export, \
            or two store exports. Each is a path, FORMAT:PATH, - (standard input), or git:REV:PATH — PATH as it is at revision REV \
            in the repository of the working directory (from the repository root, or ./-relative), e.g. \
            git:origin/main:products.yml. Price changes show the percentage; a price change on an \
            auto-renewable subscription says, per store, what it does to existing subscribers (the new config's \
            priceChange decision; App Store consent; Play cohort migration — docs/price-changes.md).

            Exit codes: 0 (also when they differ), 1 with --exit-code when anything differs, 2 unreadable input.
            """
    )

    @Argument(help: ArgumentHelp("The old catalog: PATH, FORMAT:PATH, git:REV:PATH or -.", valueName: "old"),
                                 completion: .file())
    var old: String

    @Argument(help: ArgumentHelp("The new catalog: PATH, FORMAT:PATH, git:REV:PATH or -.", valueName: "new"),
                                 completion: .file())
    var new: String

    @Option(name: .long, help: "text (default), json (schema version 1) or markdown (for pull-request comments).")
    var format: DiffFormat = .text

    @Flag(name: .long, help: "Exit 1 when the catalogs differ (like git diff --exit-code).")
    var exitCode = false

    @OptionGroup var destination: OutputOption

    @Flag(name: .long, help: "No colors (also when NO_COLOR is set, or the output is not a terminal).")
    var noColor = false

    @OptionGroup var date: AsOfOption

    func run() throws {
        let console = Console()
        let output = destination.target(implicit: "standard output")
        let day = try date.day()
        let loader = CatalogLoader(options: ReadOptions(asOf: day))
        let (oldInput, newInput) = try reportingInputErrors(console) {
            (try InputSource(old).resolve(as: .catalog), try InputSource(new).resolve(as: .catalog))
        }
        try OutputGuard.refuseOverwriting([RunInput(oldInput), RunInput(newInput)], outputs: [output],
                                          console: console)
        let (before, after) = try reportingInputErrors(console) {
            (try loader.load(oldInput), try loader.load(newInput))
        }
        // No store input: price changes are judged for both stores, at --as-of.
        let diff = CatalogDiffer(context: PriceChangeContext(asOf: day)).diff(old: before, new: after)
        let colors = output.destination == .standardOutput && format == .text
            && Console.wantsColors(noColorFlag: noColor)
        try console.emit(format.render(diff, colors: colors), to: output.destination)
        if exitCode && !diff.isEmpty { throw Exit.inconsistent }
    }
}
