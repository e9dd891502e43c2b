import ArgumentParser
import CatalogCore
import CatalogReports
import Foundation

/// Where `check` writes what: the report on standard output (or `--output`), extra reports (`--report`),
/// `--quiet`, colors.
struct ReportOutputOptions: ParsableArguments {
    @Option(name: .long, help: "The report format on standard output (or --output).")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Write the report to this file instead of standard output.",
                                            valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "Also write a report in another format (repeatable). FORMAT: may be left out when the extension says it: "
        + ".json json, .xml junit, .sarif sarif, .md markdown, .html html.", valueName: "format:path"),
            transform: ReportArgument.parse)
    var report: [ReportArgument] = []

    @Flag(name: .long, help: "Print only findings that fail the run, and the summary.")
    var quiet = false

    @Flag(name: .long, help: "No colors (also when NO_COLOR is set, or the output is not a terminal).")
    var noColor = false

    /// Renders the result in every requested format and writes each; a write error is exit 2. With `--format
    /// github` and `$GITHUB_STEP_SUMMARY` set, the Markdown summary is appended to that file. The release
    /// overview (products, price matrices) is built only when an HTML report asks for it: `check --report
    /// x.html` is the release document (DESIGN.md §2a); Markdown stays PR-comment sized (§6).
    func write(_ result: CheckResult, asOf day: CalendarDate, overview makeOverview: () -> ReleaseOverview,
               console: Console) throws {
        var overview: ReleaseOverview?
        func context(for format: ReportFormat, colors: Bool) -> ReportContext {
            var context = ReportContext(colors: colors, asOf: day,
                                        workingDirectory: FileManager.default.currentDirectoryPath)
            if format == .html {
                if overview == nil { overview = makeOverview() }
                context.overview = overview
            }
            return context
        }
        let colors = output == nil && Console.wantsColors(noColorFlag: noColor)
        try console.emit(format.reporter.report(result, context: context(for: format, colors: colors)), to: output)
        for extra in report {
            try console.emit(extra.format.reporter.report(result, context: context(for: extra.format, colors: false)),
                             to: extra.path)
        }
        let fileContext = context(for: .github, colors: false)
        if format == .github, let summary = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"],
           !summary.isEmpty {
            do {
                try OutputFile.append(GitHubReporter.stepSummary(result, context: fileContext).utf8, to: summary)
            } catch {
                console.error(error.message)
                throw Exit.cannotCheck
            }
        }
    }
}

/// A `--report [FORMAT:]PATH` value.
struct ReportArgument: Sendable {
    let format: ReportFormat
    let path: String

    /// `FORMAT:PATH`, or `PATH` whose extension names the format.
    static func parse(_ argument: String) throws -> ReportArgument {
        if let colon = argument.firstIndex(of: ":"),
           let format = ReportFormat(rawValue: String(argument[..<colon])) {
            let path = String(argument[argument.index(after: colon)...])
            guard !path.isEmpty else { throw ValidationError("--report \(argument): the path after '\(format.rawValue):' is empty") }
            return ReportArgument(format: format, path: path)
        }
        guard let format = ReportFormat(inferringFromPath: argument) else {
            let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--report \(argument): cannot tell the format from the extension; write FORMAT:PATH "
                                  + "with FORMAT one of \(formats)")
        }
        return ReportArgument(format: format, path: argument)
    }
}
