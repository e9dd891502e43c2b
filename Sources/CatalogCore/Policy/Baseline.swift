/// Findings accepted as they are: `--baseline FILE` suppresses every finding recorded in FILE with the same
/// identity and the same values, so a team adopting catalogcheck on a drifted catalog fails only on new drift
/// (DESIGN.md §5) — and a recorded drift that moves again (a DE price baselined at 59.99 EUR that becomes
/// 19.99 EUR) is new drift too.
public struct Baseline: Hashable, Sendable {
    /// Where it was read (for the suppression reason).
    public var path: String
    /// The recorded entries, sorted, without repeats.
    public private(set) var entries: [BaselineEntry]

    /// Creates a baseline from entries (sorted and deduplicated here).
    public init(path: String, entries: some Sequence<BaselineEntry>) {
        self.path = path
        self.entries = Set(entries).sorted()
    }

    /// The baseline that records every finding of a result that counts today: neither turned off nor
    /// suppressed by a rules-file `ignore` entry, with its values. The ignore rules are never recorded (they
    /// judge the rules file).
    public init(path: String, recording result: CheckResult) {
        let counted = result.findings.filter { $0.rule.isSuppressible && $0.suppression?.kind != .ignore }
        self.init(path: path, entries: counted.map(BaselineEntry.init(recording:)))
    }
}

/// One recorded finding: its identity (never a path or a line, so edits that move lines keep it) and the
/// values it had when it was recorded.
public struct BaselineEntry: Hashable, Sendable, Comparable {
    /// The finding's `expected` and `actual` values (canonical text; nil where the finding has none).
    public struct Values: Hashable, Sendable {
        /// The config's value.
        public var expected: String?
        /// The store's value.
        public var actual: String?

        /// Creates recorded values.
        public init(expected: String?, actual: String?) {
            self.expected = expected
            self.actual = actual
        }
    }

    /// The identity a finding must have to match.
    public var identity: FindingIdentity
    /// The values a finding must have to match; nil for an entry of an older file (no `expected`/`actual`),
    /// which matches on identity alone.
    public var values: Values?

    /// Creates an entry.
    public init(_ identity: FindingIdentity, values: Values? = nil) {
        self.identity = identity
        self.values = values
    }

    /// The entry that records a finding as it is now.
    public init(recording finding: Finding) {
        self.init(finding.identity, values: Values(expected: finding.expected, actual: finding.actual))
    }

    /// Whether the entry covers a finding: the same identity and, when the entry records values, the same
    /// values. A finding whose values moved on is new drift, not the drift that was accepted.
    public func matches(_ finding: Finding) -> Bool {
        guard finding.identity == identity else { return false }
        guard let values else { return true }
        return values.expected == finding.expected && values.actual == finding.actual
    }

    /// Baseline order: the identity's (product-less first, then product ID, rule, territory, field, store), then
    /// entries without values, then by expected and actual (none before any text) — a total order, so the same
    /// baseline is always the same bytes.
    public static func < (lhs: BaselineEntry, rhs: BaselineEntry) -> Bool {
        if lhs.identity != rhs.identity { return lhs.identity < rhs.identity }
        func key(_ values: Values?) -> (Int, Int, String, Int, String) {
            guard let values else { return (0, 0, "", 0, "") }
            return (1, values.expected == nil ? 0 : 1, values.expected ?? "",
                    values.actual == nil ? 0 : 1, values.actual ?? "")
        }
        return key(lhs.values) < key(rhs.values)
    }
}
