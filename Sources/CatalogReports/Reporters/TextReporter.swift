import CatalogCore

/// One compiler-style line per finding (`path:line:col: error: [rule] product: message`), so editors and CI
/// logs link it, then a summary line per store input.
public struct TextReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        var lines: [String] = []
        let multipleStores = result.comparisons.count > 1
        for finding in result.findings where finding.store == nil {
            lines.append(line(for: finding, context: context))
        }
        for comparison in result.comparisons {
            let findings = result.findings.filter { $0.store == comparison.storePath }
            if multipleStores {
                lines.append(paint("== \(comparison.storePath) (\(comparison.storeFormat.rawValue)) ==",
                                   .bold, context))
            }
            for finding in findings {
                lines.append(line(for: finding, context: context))
            }
            for remark in comparison.remarks {
                lines.append("\(comparison.storePath): remark: \(remark)")
            }
        }
        let configOnly = result.findings.filter { $0.store == nil }
        for (index, comparison) in result.comparisons.enumerated() {
            // Findings on the config alone count with the first store's summary line.
            let findings = result.findings.filter { $0.store == comparison.storePath } + (index == 0 ? configOnly : [])
            lines.append(summary(findings, comparison: comparison, configPath: result.configPath))
        }
        if multipleStores {
            lines.append("in all: " + counts(result.findings))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func line(for finding: Finding, context: ReportContext) -> String {
        let location = finding.primaryLocation.map { "\($0): " } ?? ""
        let severity: String
        switch finding.severity {
        case .error: severity = paint("error", .red, context)
        case .warning: severity = paint("warning", .yellow, context)
        case .note: severity = paint("note", .cyan, context)
        }
        let subject = finding.productID.map { "\($0): " } ?? ""
        let hint = finding.hint.map { "; \($0)" } ?? ""
        return "\(location)\(severity): [\(finding.rule.rawValue)] \(subject)\(finding.message)\(hint)"
    }

    private func summary(_ findings: [Finding], comparison: StoreComparison, configPath: String) -> String {
        let products = comparison.matchedProducts == 1 ? "product" : "products"
        return "\(counts(findings)) — \(comparison.matchedProducts) \(products) compared "
            + "(store: \(fileName(comparison.storePath)), config: \(fileName(configPath)))"
    }

    private func counts(_ findings: [Finding]) -> String {
        func count(_ severity: Severity, _ singular: String) -> String {
            let number = findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
            return "\(number) \(singular)\(number == 1 ? "" : "s")"
        }
        return [count(.error, "error"), count(.warning, "warning"), count(.note, "note")].joined(separator: ", ")
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
