import CatalogCore
import Foundation

/// SARIF 2.1.0, one run, for GitHub code scanning and other static-analysis viewers (DESIGN.md §6). The driver
/// lists every rule, so a clean run closes old alerts; each finding is a result located at the config (or the
/// store when the config has no location), with the store in `relatedLocations`, a fingerprint of its
/// identity, and `suppressions` when an ignore entry or the baseline suppressed it. The keys are pinned in
/// private output types, never derived from the domain types.
public struct SARIFReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        let root = context.workingDirectory.flatMap(ArtifactPath.directory)
        let log = Log(runs: [Run(result, root: root)])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(log) else { return "{}\n" }
        return JSONEscaper.escapingInvisible(String(decoding: data, as: UTF8.self)) + "\n"
    }
}

/// The key of the one URI base every relative artifact location is relative to: the working directory.
private let sourceRoot = "%SRCROOT%"

private struct Log: Encodable {
    let schema = "https://json.schemastore.org/sarif-2.1.0.json"
    let version = "2.1.0"
    let runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }
}

private struct Message: Encodable {
    let text: String
}

private struct Run: Encodable {
    struct Tool: Encodable {
        let driver: Driver
    }

    struct Driver: Encodable {
        let name = ToolInfo.name
        let version = ToolInfo.version
        let informationUri = ToolInfo.informationURI
        let rules = Rule.allCases.map(ReportingDescriptor.init)
    }

    struct ReportingDescriptor: Encodable {
        struct Configuration: Encodable {
            let level: String
        }

        let id: String
        let shortDescription: Message
        let fullDescription: Message
        let defaultConfiguration: Configuration
        let help: Message

        init(_ rule: Rule) {
            id = rule.rawValue
            shortDescription = Message(text: rule.summary)
            fullDescription = Message(text: rule.explanation)
            defaultConfiguration = Configuration(level: sarifLevel(rule.defaultSeverity))
            help = Message(text: "\(rule.summary)\n\n\(rule.explanation)\n\n"
                           + "Set its severity, or turn it off, under `rules:` in `.catalogcheck.yml`.")
        }
    }

    let tool = Tool(driver: Driver())
    let results: [ResultOutput]

    // No `originalUriBaseIds`: it would hold the machine's absolute working directory, so the same inputs
    // checked from two folders (two CI checkouts) would give different bytes (DESIGN.md §6). Code scanning
    // resolves `%SRCROOT%` to the repository root on its own, and SARIF 2.1.0 §3.14.14 makes the property
    // optional.
    init(_ result: CheckResult, root: String?) {
        results = result.findings.map { ResultOutput($0, root: root) }
    }
}

private struct ResultOutput: Encodable {
    struct Location: Encodable {
        let id: Int?
        let physicalLocation: PhysicalLocation
        let message: Message?
    }

    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region?

        init(_ location: SourceLocation, root: String?) {
            artifactLocation = ArtifactLocation(path: location.path, root: root)
            region = location.line.flatMap { line in
                line >= 1 ? Region(startLine: line, startColumn: location.column.flatMap { $0 >= 1 ? $0 : nil }) : nil
            }
        }
    }

    struct Region: Encodable {
        let startLine: Int
        let startColumn: Int?
    }

    struct SuppressionOutput: Encodable {
        let kind = "external"
        let justification: String
    }

    let ruleId: String
    let ruleIndex: Int
    let level: String
    let message: Message
    let locations: [Location]?
    let relatedLocations: [Location]?
    let partialFingerprints: [String: String]
    let suppressions: [SuppressionOutput]?

    init(_ finding: Finding, root: String?) {
        ruleId = finding.rule.rawValue
        ruleIndex = Rule.allCases.firstIndex(of: finding.rule) ?? 0
        level = sarifLevel(finding.severity)
        let subject = finding.productID.map { "\($0): " } ?? ""
        let hint = finding.hint.map { "; \($0)" } ?? ""
        message = Message(text: SARIFEscaper.message(subject + finding.message + hint))
        let store = finding.storeSide
        func location(_ place: SourceLocation, id: Int? = nil, message: Message? = nil) -> Location {
            Location(id: id, physicalLocation: PhysicalLocation(place, root: root), message: message)
        }
        if let config = finding.configLocation {
            locations = [location(config)]
            relatedLocations = store.map { [location($0, id: 1, message: Message(text: "store"))] }
        } else {
            locations = store.map { [location($0)] }
            relatedLocations = nil
        }
        partialFingerprints = ["catalogcheck/v1": finding.identity.fingerprint]
        suppressions = finding.suppression.map { [SuppressionOutput(justification: $0.reason)] }
    }
}

private func sarifLevel(_ severity: Severity) -> String {
    switch severity {
    case .error: "error"
    case .warning: "warning"
    case .note: "note"
    }
}

/// `uri` relative to `%SRCROOT%` for a path in the working directory, else an absolute `file://` URI.
private struct ArtifactLocation: Encodable {
    let uri: String
    let uriBaseId: String?

    init(uri: String, uriBaseId: String? = nil) {
        self.uri = uri
        self.uriBaseId = uriBaseId
    }

    init(path: String, root: String?) {
        switch ArtifactPath.resolve(path, root: root) {
        case .relative(let relative): self.init(uri: SARIFEscaper.uriPath(relative), uriBaseId: sourceRoot)
        case .absolute(let absolute): self.init(uri: "file://" + SARIFEscaper.uriPath(absolute))
        }
    }
}

/// Paths as SARIF wants them: relative to the working directory where possible, lexically normalized
/// (`.` and `..` segments resolved, repeated and trailing `/` dropped).
private enum ArtifactPath: Equatable {
    /// Relative to the working directory (`%SRCROOT%`).
    case relative(String)
    /// Absolute, starting with `/`.
    case absolute(String)

    /// The working directory normalized, when it is an absolute path.
    static func directory(_ path: String) -> String? {
        path.hasPrefix("/") ? normalized(path) : nil
    }

    /// Relative paths stay relative unless they climb out of the working directory (then absolute when the
    /// working directory is known); absolute paths under the working directory become relative.
    static func resolve(_ path: String, root: String?) -> ArtifactPath {
        if path.hasPrefix("/") {
            let absolute = normalized(path)
            if let root {
                if absolute == root { return .relative(".") }
                let prefix = root == "/" ? "/" : root + "/"
                if absolute.hasPrefix(prefix) { return .relative(String(absolute.dropFirst(prefix.count))) }
            }
            return .absolute(absolute)
        }
        let relative = normalized(path)
        if relative == ".." || relative.hasPrefix("../"), let root {
            return resolve(root + "/" + relative, root: root)
        }
        return .relative(relative)
    }

    /// `.` segments and empty segments dropped, `..` resolved against the segment before it (kept at the start
    /// of a relative path, dropped at the root of an absolute one); `.` for an empty relative path.
    private static func normalized(_ path: String) -> String {
        let isAbsolute = path.hasPrefix("/")
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) where segment != "." {
            if segment == "..", let last = segments.last, last != ".." {
                segments.removeLast()
            } else if segment == ".." && isAbsolute && segments.isEmpty {
                continue
            } else {
                segments.append(segment)
            }
        }
        let joined = segments.joined(separator: "/")
        return isAbsolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }
}
