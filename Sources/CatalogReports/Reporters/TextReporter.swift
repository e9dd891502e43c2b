import CatalogCore

/// One compiler-style line per finding (`path:line:col: error: [rule] product: message`), so editors and CI
/// logs link it, then a summary line per store input, naming the store and its format (DESIGN.md §2), one for
/// the findings on the config and rules file alone when there are any, and an `in all` line when there is more
/// than one. Suppressed findings are left out (the policy line counts them); with `ReportContext.failingOnly`
/// (`--quiet`) only the findings that fail the run are listed, a store's `== … ==` header only above something
/// listed, and the counts still cover every finding. Every piece of catalog text goes through `TerminalEscaper`,
/// so one finding is always one line.
public struct TextReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        var lines: [String] = []
        let multipleStores = result.comparisons.count > 1
        let configOnly = result.activeFindings(forStore: nil)
        func listed(_ findings: [Finding]) -> [Finding] {
            context.failingOnly ? findings.filter(result.fails) : findings
        }
        for finding in listed(configOnly) {
            lines.append(line(for: finding, context: context))
        }
        for comparison in result.comparisons {
            let storePath = TerminalEscaper.escape(comparison.storePath)
            let findings = listed(result.activeFindings(forStore: comparison.input))
            // A quiet run heads only what it lists: a store with nothing to show keeps its summary line below.
            if multipleStores && !(context.failingOnly && findings.isEmpty && comparison.remarks.isEmpty) {
                lines.append(paint("== \(storePath) (\(comparison.storeFormat.rawValue)) ==", .bold, context))
            }
            for finding in findings {
                lines.append(line(for: finding, context: context))
            }
            for remark in comparison.remarks {
                lines.append("\(storePath): remark: \(TerminalEscaper.escape(remark))")
            }
        }
        // Findings on the config and the rules file alone count in their own line, never with a store's, as in
        // every other format (JSON `summary.stores`, the Markdown and HTML summary tables).
        if !configOnly.isEmpty {
            lines.append("\(counts(configOnly)) — on the config and the rules file alone "
                         + "(config: \(TerminalEscaper.escape(fileName(result.configPath))))")
        }
        for comparison in result.comparisons {
            lines.append(summary(result.activeFindings(forStore: comparison.input), comparison: comparison,
                                 configPath: result.configPath))
        }
        if multipleStores || !configOnly.isEmpty {
            lines.append("in all: " + counts(result.activeFindings))
        }
        if let policy = policyLine(result) {
            lines.append(policy)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(for finding: Finding, context: ReportContext) -> String {
        let location = finding.primaryLocation.map { "\(TerminalEscaper.escape($0.description)): " } ?? ""
        let severity: String
        switch finding.severity {
        case .error: severity = paint("error", .red, context)
        case .warning: severity = paint("warning", .yellow, context)
        case .note: severity = paint("note", .cyan, context)
        }
        let subject = finding.productID.map { "\(TerminalEscaper.escape($0)): " } ?? ""
        let hint = finding.hint.map { "; \(TerminalEscaper.escape($0))" } ?? ""
        let message = TerminalEscaper.escape(finding.message)
        return "\(location)\(severity): [\(finding.rule.rawValue)] \(subject)\(message)\(hint)"
    }

    /// `3 findings suppressed (…); 1 baseline entry matches no finding (stale); 1 finding changed since the
    /// baseline (…)`, when there are any.
    private func policyLine(_ result: CheckResult) -> String? {
        var parts: [String] = []
        let suppressed = result.suppressedCount
        if suppressed > 0 {
            parts.append("\(suppressed) \(suppressed == 1 ? "finding" : "findings") suppressed "
                         + "(rules-file ignore entries or the baseline)")
        }
        let stale = result.staleBaselineEntries
        if stale > 0 {
            parts.append("\(stale) baseline \(stale == 1 ? "entry matches" : "entries match") no finding (stale)")
        }
        let changed = result.changedBaselineFindings
        if changed > 0 {
            parts.append("\(changed) \(changed == 1 ? "finding" : "findings") changed since the baseline "
                         + "recorded \(changed == 1 ? "it" : "them") (new drift)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    private func summary(_ findings: [Finding], comparison: StoreComparison, configPath: String) -> String {
        let products = comparison.matchedProducts == 1 ? "product" : "products"
        return "\(counts(findings)) — \(comparison.matchedProducts) \(products) compared "
            + "(store: \(TerminalEscaper.escape(fileName(comparison.storePath))) (\(comparison.storeFormat.rawValue)), "
            + "config: \(TerminalEscaper.escape(fileName(configPath))))"
    }

    private func counts(_ findings: [Finding]) -> String {
        ReportOverview.Counts(findings).phrase
    }

    private func fileName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? path
    }

    private enum Style: String {
        case red = "\u{1B}[1;31m"
        case yellow = "\u{1B}[1;33m"
        case cyan = "\u{1B}[1;36m"
        case bold = "\u{1B}[1m"
    }

    private func paint(_ text: String, _ style: Style, _ context: ReportContext) -> String {
        context.colors ? "\(style.rawValue)\(text)\u{1B}[0m" : text
    }
}
