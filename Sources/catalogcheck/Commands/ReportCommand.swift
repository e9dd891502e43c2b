import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports
import Foundation

/// `catalogcheck report`: the release manager's document for one config and every store.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the release report: verdict per store, products at a glance, changes, prices, findings.",
        discussion: """
            HTML (default: one self-contained, printable file with no scripts and no network references) or \
            Markdown, to --output FILE or standard output (no --output, or --output -). --since CATALOG (a path, \
            FORMAT:PATH or git:REV:PATH, typically the config of the last release) adds what this release \
            changes, as diff shows it. With --output FILE, one line on standard error says where the report went, \
            its verdict and counts. Exits like check: 0 consistent, 1 inconsistent (the report is written in \
            both cases), 2 unreadable input or an output that could not be written.
            """
    )

    /// The formats of the release report.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case html
        case markdown

        var reportFormat: ReportFormat {
            switch self {
            case .html: .html
            case .markdown: .markdown
            }
        }
    }

    @OptionGroup var inputs: CatalogInputOptions
    @OptionGroup var policy: PolicyOptions

    @Option(name: .long, help: "html (default) or markdown.")
    var format: Format = .html

    @Option(name: .long, help: ArgumentHelp(
        "Add what this release changes since this catalog: PATH, FORMAT:PATH or git:REV:PATH.", valueName: "catalog"),
        completion: .file())
    var since: String?

    @OptionGroup var destination: OutputOption
    @OptionGroup var date: AsOfOption

    func run() throws {
        let console = Console()
        let day = try date.day()
        let output = destination.target(implicit: "standard output")
        var checkRun = CheckRun(inputs: inputs, policy: policy, outputs: [output], asOf: day)
        checkRun.since = since.map(InputSource.init)
        let run = try checkRun.run(console: console)
        let overview = run.overview()
        let context = ReportContext(asOf: day, workingDirectory: FileManager.default.currentDirectoryPath,
                                    overview: overview)
        try console.emit(format.reportFormat.reporter.report(run.result, context: context), to: output.destination)
        // A document written to a file leaves the terminal empty otherwise: say where it went and what it found.
        if let path = output.destination.path { console.error(overview.writtenLine(to: path, result: run.result)) }
        if !run.result.isConsistent { throw Exit.inconsistent }
    }
}
