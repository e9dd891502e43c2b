import ArgumentParser
import CatalogCore
import CatalogReports
import Foundation

/// What `check` writes: the report format on standard output (or `--output`), extra reports (`--report`),
/// `--quiet`, colors. Parsing only: `CheckReports` writes them.
struct ReportOutputOptions: ParsableArguments {
    @Option(name: .long, help: "The report format on standard output (or --output).")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp(
        "Also write a report in another format (repeatable). FORMAT: may be left out when the extension says it: "
        + ".json json, .xml junit, .sarif sarif, .md markdown, .html html. FORMAT:- writes it to standard output "
        + "(then give the main report an --output file).", valueName: "format:path"),
        completion: .file(),
            transform: ReportArgument.parse)
    var report: [ReportArgument] = []

    @Flag(name: .long, help: ArgumentHelp(
        "Show only findings that fail the run, and the summary, on standard output (or in a text --output); other "
        + "report files, the baseline and the step summary carry every finding."))
    var quiet = false

    @Flag(name: .long, help: "No colors (also when NO_COLOR is set, or the output is not a terminal).")
    var noColor = false
}

/// A `--report [FORMAT:]PATH` value; PATH `-` is standard output.
struct ReportArgument: Sendable {
    let format: ReportFormat
    let path: String
    /// The value as the user wrote it, for messages.
    let spelling: String

    /// The report as an output of the run.
    var target: OutputTarget {
        OutputTarget(option: "--report \(spelling)", destination: OutputDestination(spelled: path))
    }

    /// `FORMAT:PATH`, or `PATH` whose extension names the format.
    static func parse(_ argument: String) throws -> ReportArgument {
        if let colon = argument.firstIndex(of: ":"),
           let format = ReportFormat(rawValue: String(argument[..<colon])) {
            let path = String(argument[argument.index(after: colon)...])
            guard !path.isEmpty else { throw ValidationError("--report \(argument): the path after '\(format.rawValue):' is empty") }
            return ReportArgument(format: format, path: path, spelling: argument)
        }
        guard let format = ReportFormat(inferringFromPath: argument) else {
            let formats = ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")
            throw ValidationError("--report \(argument): cannot tell the format from the extension; write FORMAT:PATH "
                                  + "with FORMAT one of \(formats)")
        }
        return ReportArgument(format: format, path: argument, spelling: argument)
    }
}
