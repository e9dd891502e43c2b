/// What a check compares and how findings fail a run.
public struct CheckOptions: Hashable, Sendable {
    /// Compare prices only in these territories (`--territory`); nil = all.
    public var territories: Set<Territory>?
    /// Warnings fail the run too (`--strict`).
    public var strict: Bool

    /// Creates options.
    public init(territories: Set<Territory>? = nil, strict: Bool = false) {
        self.territories = territories
        self.strict = strict
    }
}

/// The outcome of comparing one store input with the config.
public struct StoreComparison: Hashable, Sendable {
    /// The store input's path as given.
    public var storePath: String
    /// Its format.
    public var storeFormat: CatalogFormat
    /// Config products meant for this store.
    public var configProducts: Int
    /// Distinct product IDs in the store input.
    public var storeProducts: Int
    /// Products found on both sides.
    public var matchedProducts: Int
    /// Reader remarks about the store input (assumptions made).
    public var remarks: [String]

    /// Creates a comparison summary.
    public init(storePath: String, storeFormat: CatalogFormat, configProducts: Int, storeProducts: Int,
                matchedProducts: Int, remarks: [String] = []) {
        self.storePath = storePath
        self.storeFormat = storeFormat
        self.configProducts = configProducts
        self.storeProducts = storeProducts
        self.matchedProducts = matchedProducts
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
    /// The findings: config-only findings first, then per store in input order, each group sorted.
    public var findings: [Finding]
    /// Whether warnings fail the run.
    public var strict: Bool

    /// Creates a result.
    public init(configPath: String, configFormat: CatalogFormat, configProducts: Int,
                comparisons: [StoreComparison], findings: [Finding], strict: Bool) {
        self.configPath = configPath
        self.configFormat = configFormat
        self.configProducts = configProducts
        self.comparisons = comparisons
        self.findings = findings
        self.strict = strict
    }

    /// How many findings have a severity.
    public func count(_ severity: Severity) -> Int {
        findings.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
    }

    /// Whether a finding fails the run: errors always, warnings with `--strict`.
    public func fails(_ finding: Finding) -> Bool {
        finding.severity == .error || (strict && finding.severity == .warning)
    }

    /// Whether the catalogs are consistent (exit code 0) or not (exit code 1).
    public var isConsistent: Bool { !findings.contains(where: fails) }
}
