import CatalogCore

/// How a report is being written.
public struct ReportContext: Sendable {
    /// Use ANSI colors (only on a terminal, never with `NO_COLOR` or `--no-color`).
    public var colors: Bool

    /// Creates a context.
    public init(colors: Bool = false) {
        self.colors = colors
    }
}

/// Turns a check result into the bytes of one output format. Pure.
public protocol Reporter: Sendable {
    /// Renders the whole report.
    func report(_ result: CheckResult, context: ReportContext) -> String
}

/// The output formats of `check`; the raw value is what users type after `--format`.
public enum ReportFormat: String, CaseIterable, Sendable {
    /// Compiler-style lines and a summary.
    case text
    /// JSON, schema version 1 (DESIGN.md §6).
    case json

    /// The reporter for this format. Exhaustive: a new case without a reporter does not compile.
    public var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        }
    }
}
