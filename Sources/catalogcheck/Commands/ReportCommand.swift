import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports
import Foundation

/// `catalogcheck report`: the release manager's document for one config and every store.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write the release report: verdict per store, findings, products and price matrices.",
        discussion: """
            HTML (default: one self-contained, printable file with no scripts and no network references) or \
            Markdown, to --output or standard output. Exits like check: 0 consistent, 1 inconsistent (the report is written in both cases), \
            2 unreadable input or an output that could not be written.
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

    @OptionGroup var destination: OutputOption
    @OptionGroup var date: AsOfOption

    func run() throws {
        let console = Console()
        let day = try date.day()
        let run = try CheckRun(inputs: inputs, policy: policy, outputs: destination.output.map { [$0] } ?? [],
                               asOf: day).run(console: console)
        let context = ReportContext(asOf: day, workingDirectory: FileManager.default.currentDirectoryPath,
                                    overview: run.overview())
        try console.emit(format.reportFormat.reporter.report(run.result, context: context), to: destination.output)
        if !run.result.isConsistent { throw Exit.inconsistent }
    }
}
