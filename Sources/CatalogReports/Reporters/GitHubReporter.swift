import CatalogCore

/// GitHub Actions workflow commands (DESIGN.md §6): one `::error|warning|notice file=…,line=…,col=…,title=[rule]
/// product::message` line per finding that counts, then a plain summary line. GitHub shows at most 10
/// annotations of each type per step, so errors come first, then warnings, then notices (notes), each in
/// output order; when a type has more than ten, nine are annotated and a tenth says how many more there are
/// and where they are listed (the plain lines after the annotations, and the job summary), since GitHub drops
/// the rest without a word. Properties are escaped with `WorkflowCommandEscaper.property` and the message with
/// `.data`, so catalog text can neither end a command early nor start another.
public struct GitHubReporter: Reporter {
    /// A step summary's size limit: GitHub rejects a `$GITHUB_STEP_SUMMARY` file larger than 1 MiB.
    public static let stepSummaryByteLimit = 1_048_576

    /// Annotations of one type GitHub shows per step: 10 errors, 10 warnings and 10 notices (and 50 per job).
    /// GitHub's docs do not state it; its community answers do (github.com/orgs/community/discussions/26680,
    /// /68471: "10 warning / 10 error limit", the rest not shown), and tools that emit workflow commands cap at
    /// it (zizmor, reviewdog's `MaxLoggingAnnotationsPerStep = 10`).
    public static let annotationsPerType = 10

    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        let overview = ReportOverview(result)
        // `--quiet`: annotations for the failing findings only; the summary line still counts every finding.
        let annotated = context.failingOnly ? overview.findings.filter(result.fails) : overview.findings
        var lines: [String] = []
        var unannotated: [Finding] = []
        for severity in [Severity.error, .warning, .note] {
            let findings = annotated.filter { $0.severity == severity }
            guard findings.count > Self.annotationsPerType else {
                lines += findings.map(command)
                continue
            }
            let shown = Self.annotationsPerType - 1
            lines += findings.prefix(shown).map(command)
            let rest = findings.count - shown
            let noun = severity == .error ? "error" : severity == .warning ? "warning" : "note"
            let message = "\(rest) more \(rest == 1 ? noun : noun + "s") not annotated (GitHub shows "
                + "\(Self.annotationsPerType) annotations of a type per step): the full list is in this step's log, "
                + "after the annotations, and in the job summary"
            lines.append("::\(Self.command(severity)) title=\(WorkflowCommandEscaper.property("[catalogcheck] \(rest) more"))"
                         + "::\(WorkflowCommandEscaper.data(message))")
            unannotated += findings.dropFirst(shown)
        }
        // The findings past the cap as plain log lines (never `::`): compiler style, one line each.
        lines += unannotated.map(Self.plainLine)
        // A plain line (not a command): it starts with the tool's name, never with `::`.
        var summary = "\(ToolInfo.name) \(overview.verdictLine)"
        if let policy = overview.policyLine {
            summary += "; \(policy)"
        }
        lines.append(summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The Markdown report for `$GITHUB_STEP_SUMMARY`, under 1 MiB of UTF-8 (with a margin for what the step
    /// wrote there before), ending with an "N more findings" line when findings had to be left out.
    public static func stepSummary(_ result: CheckResult, context: ReportContext) -> String {
        MarkdownReporter(byteLimit: stepSummaryByteLimit - 16_384).report(result, context: context)
    }

    /// The workflow command of a severity: notes are GitHub's notices.
    private static func command(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// `path:line:col: error: [rule] product: message; hint`, escaped as for a terminal so a catalog's text can
    /// neither break the line nor start a workflow command.
    private static func plainLine(_ finding: Finding) -> String {
        let location = finding.primaryLocation.map { "\($0.description): " } ?? ""
        let subject = finding.productID.map { "\($0): " } ?? ""
        let hint = finding.hint.map { "; \($0)" } ?? ""
        let line = TerminalEscaper.escape(
            "\(location)\(finding.severity.rawValue): [\(finding.rule.rawValue)] \(subject)\(finding.message)\(hint)")
        // A relative path may start with `::`; `./` names the same file and starts no command.
        return line.hasPrefix(":") ? "./" + line : line
    }

    private func command(_ finding: Finding) -> String {
        let name = Self.command(finding.severity)
        var properties: [String] = []
        if let location = finding.primaryLocation {
            properties.append("file=" + WorkflowCommandEscaper.property(location.path))
            if let line = location.line {
                properties.append("line=\(line)")
                if let column = location.column { properties.append("col=\(column)") }
            }
        }
        let title = "[\(finding.rule.rawValue)]" + (finding.productID.map { " " + $0 } ?? "")
        properties.append("title=" + WorkflowCommandEscaper.property(title))
        let message = finding.message + (finding.hint.map { "; " + $0 } ?? "")
        return "::\(name) \(properties.joined(separator: ","))::\(WorkflowCommandEscaper.data(message))"
    }
}
