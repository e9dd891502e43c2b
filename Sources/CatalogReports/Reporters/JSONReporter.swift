import CatalogCore
import Foundation

/// JSON output, schema version 1. The keys are a public contract (DESIGN.md §6); they are pinned here in a
/// private output type, never derived from the domain types.
public struct JSONReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        let document = Output(result)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return JSONEscaper.escapingInvisible(String(decoding: data, as: UTF8.self)) + "\n"
    }
}

private struct Output: Encodable {
    struct Input: Encodable {
        let role: String
        let path: String
        let format: String
    }

    struct Counts: Encodable {
        let config: Int
        let store: Int
        let matched: Int
    }

    struct StoreSummary: Encodable {
        let path: String
        let format: String
        let products: Counts
        let errors: Int
        let warnings: Int
        let notes: Int
    }

    /// The findings on the config and the rules file alone, which count in no store's line.
    struct ConfigSummary: Encodable {
        let path: String
        let errors: Int
        let warnings: Int
        let notes: Int
    }

    struct Summary: Encodable {
        let products: Counts
        let config: ConfigSummary
        let errors: Int
        let warnings: Int
        let notes: Int
        let suppressed: Int
        let stale: Int
        let changed: Int
        let exitCode: Int
        let stores: [StoreSummary]
    }

    struct Location: Encodable {
        let path: String
        let line: Int?
        let column: Int?

        init(_ location: SourceLocation) {
            path = location.path
            line = location.line
            column = location.column
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(line, forKey: .line)
            try container.encode(column, forKey: .column)
        }

        enum CodingKeys: String, CodingKey { case path, line, column }
    }

    struct FindingOutput: Encodable {
        let finding: Finding

        enum CodingKeys: String, CodingKey {
            case rule, severity, productId, field, territory, expected, actual, message, hint, config, store
            case suppression
        }

        struct SuppressionOutput: Encodable {
            let kind: String
            let reason: String
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(finding.rule.rawValue, forKey: .rule)
            try container.encode(finding.severity.rawValue, forKey: .severity)
            try container.encode(finding.productID, forKey: .productId)
            try container.encode(finding.field.rawValue, forKey: .field)
            try container.encode(finding.territory?.alpha2, forKey: .territory)
            try container.encode(finding.expected, forKey: .expected)
            try container.encode(finding.actual, forKey: .actual)
            try container.encode(finding.message, forKey: .message)
            try container.encode(finding.hint, forKey: .hint)
            try container.encode(finding.configLocation.map(Location.init), forKey: .config)
            try container.encode(finding.storeSide.map(Location.init), forKey: .store)
            try container.encode(finding.suppression.map { SuppressionOutput(kind: $0.kind.rawValue, reason: $0.reason) },
                                 forKey: .suppression)
        }
    }

    let version = 1
    let inputs: [Input]
    let summary: Summary
    let findings: [FindingOutput]

    init(_ result: CheckResult) {
        inputs = [Input(role: "config", path: result.configPath, format: result.configFormat.rawValue)]
            + result.comparisons.map { Input(role: "store", path: $0.storePath, format: $0.storeFormat.rawValue) }
        func count(_ severity: Severity, in findings: [Finding]) -> Int {
            findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
        }
        let configOnly = result.activeFindings(forStore: nil)
        let stores = result.comparisons.map { comparison in
            let mine = result.activeFindings(forStore: comparison.input)
            return StoreSummary(
                path: comparison.storePath, format: comparison.storeFormat.rawValue,
                products: Counts(config: comparison.configProducts, store: comparison.storeProducts,
                                 matched: comparison.matchedProducts),
                errors: count(.error, in: mine), warnings: count(.warning, in: mine), notes: count(.note, in: mine))
        }
        // In all, each count is the sum of the per-store counts (products compared per store), so the three
        // agree with one another and with `stores` — with one store they are that store's. The config's own
        // total (`result.configProducts`) counted beside sums over stores said 9 config products and 18 matched.
        summary = Summary(
            products: Counts(config: stores.reduce(0) { $0 + $1.products.config },
                             store: stores.reduce(0) { $0 + $1.products.store },
                             matched: stores.reduce(0) { $0 + $1.products.matched }),
            config: ConfigSummary(path: result.configPath, errors: count(.error, in: configOnly),
                                  warnings: count(.warning, in: configOnly), notes: count(.note, in: configOnly)),
            errors: result.count(.error), warnings: result.count(.warning), notes: result.count(.note),
            suppressed: result.suppressedCount, stale: result.staleBaselineEntries,
            changed: result.changedBaselineFindings,
            exitCode: result.exitCode, stores: stores)
        findings = result.findings.map(FindingOutput.init)
    }

    enum CodingKeys: String, CodingKey { case version, inputs, summary, findings }
}
