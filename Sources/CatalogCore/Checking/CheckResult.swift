/// The outcome of comparing one store input with the config.
public struct StoreComparison: Hashable, Sendable {
    /// Which store input of the run this is: what its findings carry as `storeInput`.
    public var input: StoreInputID
    /// The store input's path as given (printed only; `input` identifies it).
    public var storePath: String
    /// Its format.
    public var storeFormat: CatalogFormat
    /// Config products meant for this store.
    public var configProducts: Int
    /// Distinct product IDs in the store input.
    public var storeProducts: Int
    /// Products found on both sides.
    public var matchedProducts: Int
    /// Every product compared, sorted: the config keys of the products meant for this store, and the store IDs
    /// of store products the config does not describe (what a JUnit report lists as test cases).
    public var productIDs: [String]
    /// Reader remarks about the store input (assumptions made).
    public var remarks: [String]

    /// Creates a comparison summary.
    public init(input: StoreInputID, storePath: String, storeFormat: CatalogFormat, configProducts: Int,
                storeProducts: Int, matchedProducts: Int, productIDs: [String] = [], remarks: [String] = []) {
        self.input = input
        self.storePath = storePath
        self.storeFormat = storeFormat
        self.configProducts = configProducts
        self.storeProducts = storeProducts
        self.matchedProducts = matchedProducts
        self.productIDs = productIDs
        self.remarks = remarks
    }
}

/// Everything a check produced: what was compared and the sorted findings.
public struct CheckResult: Hashable, Sendable {
    /// The config's path as given.
    public var configPath: String
    /// The config's format (always `catalog` today; kept for output).
    public var configFormat: CatalogFormat
    /// Config products in all.
    public var configProducts: Int
    /// One entry per store input, in the order given.
    public var comparisons: [StoreComparison]
    /// The findings: config-only findings first, then per store in input order, each group sorted. Suppressed
    /// findings are kept (with their `suppression`) for the formats that show them.
    public var findings: [Finding]
    /// Whether warnings fail the run (`--strict`): set by the `Policy`, false before it applies.
    public var strict: Bool
    /// Baseline entries that matched no finding (`stale` in the summary).
    public var staleBaselineEntries: Int
    /// Findings whose identity the baseline records with other `expected`/`actual` values: new drift that
    /// counts (`changed` in the summary). Set by the `Policy`.
    public var changedBaselineFindings: Int

    /// Creates a result.
    public init(configPath: String, configFormat: CatalogFormat, configProducts: Int,
                comparisons: [StoreComparison], findings: [Finding], strict: Bool = false,
                staleBaselineEntries: Int = 0, changedBaselineFindings: Int = 0) {
        self.configPath = configPath
        self.configFormat = configFormat
        self.configProducts = configProducts
        self.comparisons = comparisons
        self.findings = findings
        self.strict = strict
        self.staleBaselineEntries = staleBaselineEntries
        self.changedBaselineFindings = changedBaselineFindings
    }

    /// The findings that count: every finding but the suppressed ones. What text, JUnit, GitHub, Markdown and
    /// HTML show.
    public var activeFindings: [Finding] { findings.filter { !$0.isSuppressed } }

    /// How many findings that count have a severity.
    public func count(_ severity: Severity) -> Int {
        findings.reduce(0) { $0 + ($1.severity == severity && !$1.isSuppressed ? 1 : 0) }
    }

    /// How many findings are suppressed (by an `ignore` entry or the baseline).
    public var suppressedCount: Int {
        findings.reduce(0) { $0 + ($1.isSuppressed ? 1 : 0) }
    }

    /// The findings that count and concern one store input (`nil`: the config alone).
    public func activeFindings(forStore input: StoreInputID?) -> [Finding] {
        findings.filter { $0.storeInput == input && !$0.isSuppressed }
    }

    /// Whether a finding fails the run: errors always, warnings with `--strict`; never a suppressed one.
    public func fails(_ finding: Finding) -> Bool {
        !finding.isSuppressed && (finding.severity == .error || (strict && finding.severity == .warning))
    }

    /// The exit code the result calls for: 0 consistent, 1 inconsistent (DESIGN.md §3).
    public var exitCode: Int { isConsistent ? 0 : 1 }

    /// Findings in output order: the config's own first, then per store in the order of `comparisons`, each
    /// block sorted.
    public static func outputOrder(_ findings: [Finding], comparisons: [StoreComparison]) -> [Finding] {
        var rank: [StoreInputID: Int] = [:]
        for (index, comparison) in comparisons.enumerated() where rank[comparison.input] == nil {
            rank[comparison.input] = index
        }
        return findings.sorted { lhs, rhs in
            let left = lhs.storeInput.map { rank[$0] ?? comparisons.count } ?? -1
            let right = rhs.storeInput.map { rank[$0] ?? comparisons.count } ?? -1
            return left != right ? left < right : lhs < rhs
        }
    }

    /// Whether the catalogs are consistent (exit code 0) or not (exit code 1).
    public var isConsistent: Bool { !findings.contains(where: fails) }
}
