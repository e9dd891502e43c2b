import CatalogCore

/// GitHub Actions workflow commands (DESIGN.md §6): one `::error|warning|notice file=…,line=…,col=…,title=[rule]
/// product::message` line per finding that counts, then a plain summary line. GitHub shows at most 10
/// annotations of each type per step, so errors come first, then warnings, then notices (notes), each in
/// output order. Properties are escaped with `WorkflowCommandEscaper.property` and the message with `.data`,
/// so catalog text can neither end a command early nor start another.
public struct GitHubReporter: Reporter {
    /// A step summary's size limit: GitHub rejects a `$GITHUB_STEP_SUMMARY` file larger than 1 MiB.
    public static let stepSummaryByteLimit = 1_048_576

    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        let overview = ReportOverview(result)
        // `--quiet`: annotations for the failing findings only; the summary line still counts every finding.
        let annotated = context.failingOnly ? overview.findings.filter(result.fails) : overview.findings
        var lines = annotated.map(command)
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

    private func command(_ finding: Finding) -> String {
        let name = switch finding.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
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
