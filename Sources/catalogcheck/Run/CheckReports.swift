import CatalogCore
import CatalogReports
import Foundation

/// Writes `check`'s reports: the report on standard output (or `--output`), each `--report`, and with `--format
/// github` the step summary. `--quiet` changes the console only (DESIGN.md §2): the text report (on standard
/// output or a text `--output`) and GitHub's annotations list the failing findings, with counts of every
/// finding; every other report, the baseline and the step summary carry every finding, so a quiet run never
/// closes code-scanning alerts or understates drift.
struct CheckReports {
    /// The report format on standard output (or `--output`).
    var format: ReportFormat
    /// The main report: `--output`, or standard output.
    var output: OutputTarget
    /// `--report`s.
    var extra: [ReportArgument]
    /// `--quiet`.
    var quiet: Bool
    /// `--no-color`.
    var noColor: Bool
    /// `--as-of`.
    var asOf: CalendarDate

    /// The reports the options ask for.
    init(_ options: ReportOutputOptions, output: OutputOption, asOf: CalendarDate) {
        format = options.format
        self.output = output.target(implicit: "--format \(options.format.rawValue) (no --output)")
        extra = options.report
        quiet = options.quiet
        noColor = options.noColor
        self.asOf = asOf
    }

    /// `$GITHUB_STEP_SUMMARY` when this run appends to it.
    var stepSummary: String? {
        guard format == .github, let path = ProcessInfo.processInfo.environment["GITHUB_STEP_SUMMARY"],
              !path.isEmpty else { return nil }
        return path
    }

    /// Every output the reports write, in the order they are written (for `OutputGuard`).
    var targets: [OutputTarget] {
        [output] + extra.map(\.target)
            + (stepSummary.map { [OutputTarget(option: "$GITHUB_STEP_SUMMARY (\($0))", destination: .file($0))] } ?? [])
    }

    /// Renders the result in every requested format and writes each; a write error is exit 2. The release
    /// overview (products, price matrices) is built only when an HTML report asks for it: `check --report
    /// x.html` is the release document (DESIGN.md §2a); Markdown stays PR-comment sized (§6).
    func write(_ run: CheckedRun, console: Console) throws {
        let result = run.result
        var overview: ReleaseOverview?
        func context(for format: ReportFormat, colors: Bool) -> ReportContext {
            var context = ReportContext(colors: colors, asOf: asOf,
                                        workingDirectory: FileManager.default.currentDirectoryPath)
            if format == .html {
                if overview == nil { overview = run.overview() }
                context.overview = overview
            }
            return context
        }
        let colors = output.destination == .standardOutput && Console.wantsColors(noColorFlag: noColor)
        var shown = context(for: format, colors: colors)
        shown.failingOnly = quiet
        try console.emit(format.reporter.report(result, context: shown), to: output.destination)
        for report in extra {
            try console.emit(report.format.reporter.report(result, context: context(for: report.format, colors: false)),
                             to: report.target.destination)
        }
        if let stepSummary {
            do {
                let summary = GitHubReporter.stepSummary(result, context: context(for: .github, colors: false))
                try OutputFile.append(summary.utf8, to: stepSummary)
            } catch {
                console.error(error.message)
                throw Exit.cannotCheck
            }
        }
    }
}
