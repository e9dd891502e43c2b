import CatalogCore

/// What a report needs besides the result: how it is shown, and facts about the run that some formats print.
public struct ReportContext: Sendable {
    /// Use ANSI colors (only on a terminal, never with `NO_COLOR` or `--no-color`).
    public var colors: Bool
    /// The day scheduled prices and `ignore … until` dates were evaluated at (shown by the HTML report).
    public var asOf: CalendarDate?
    /// The absolute path of the directory the run's relative paths are relative to (SARIF writes paths under
    /// it relative to `%SRCROOT%`); nil when unknown, and absolute paths are then written as `file://` URIs.
    public var workingDirectory: String?
    /// The products and price matrices of the release report (`report`, `--report html:`); nil where only
    /// the findings are known.
    public var overview: ReleaseOverview?
    /// `--quiet` on the console: the text report and the GitHub annotations list only the findings that fail
    /// the run, while their counts stay those of every finding (a quiet run never understates drift). The
    /// other formats are files a tool reads, and ignore it.
    public var failingOnly: Bool

    /// Creates a context.
    public init(colors: Bool = false, asOf: CalendarDate? = nil, workingDirectory: String? = nil,
                overview: ReleaseOverview? = nil, failingOnly: Bool = false) {
        self.colors = colors
        self.asOf = asOf
        self.workingDirectory = workingDirectory
        self.overview = overview
        self.failingOnly = failingOnly
    }
}

/// Turns a check result into the bytes of one output format. Pure: the same result gives the same bytes.
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
    /// JUnit XML: a test suite per store input, a test case per compared product, for CI test reports.
    case junit
    /// SARIF 2.1.0, one run, for code scanning (GitHub) and other static-analysis viewers.
    case sarif
    /// GitHub Actions workflow commands: an annotation per finding, errors first, then a summary line.
    case github
    /// GitHub-flavoured Markdown for PR comments and release notes: verdict, summary and findings tables,
    /// capped under GitHub's comment limit.
    case markdown
    /// The release manager's report: one self-contained HTML file, readable on a phone and in print.
    case html

    /// The reporter for this format. Exhaustive: a new case without a reporter does not compile.
    public var reporter: any Reporter {
        switch self {
        case .text: TextReporter()
        case .json: JSONReporter()
        case .junit: JUnitReporter()
        case .sarif: SARIFReporter()
        case .github: GitHubReporter()
        case .markdown: MarkdownReporter()
        case .html: HTMLReporter()
        }
    }

    /// The format a report file's extension implies (`--report PATH` without `FORMAT:`): `.json` json, `.xml`
    /// junit, `.sarif` sarif, `.md` markdown, `.html` html (DESIGN.md §2).
    public init?(inferringFromPath path: String) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "json": self = .json
        case "xml": self = .junit
        case "sarif": self = .sarif
        case "txt", "log": self = .text
        case "md", "markdown": self = .markdown
        case "html", "htm": self = .html
        default: return nil
        }
    }
}
