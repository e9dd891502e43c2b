/// Findings accepted as they are: `--baseline FILE` suppresses every finding whose identity is recorded, so a
/// team adopting catalogcheck on a drifted catalog fails only on new drift (DESIGN.md §5).
public struct Baseline: Hashable, Sendable {
    /// Where it was read (for the suppression reason).
    public var path: String
    /// The recorded identities, sorted, without repeats.
    public private(set) var entries: [FindingIdentity]

    /// Creates a baseline from identities (sorted and deduplicated here).
    public init(path: String, entries: some Sequence<FindingIdentity>) {
        self.path = path
        self.entries = Set(entries).sorted()
    }

    /// The baseline that records every finding of a result that counts today: neither turned off nor
    /// suppressed by a rules-file `ignore` entry. The ignore rules are never recorded (they judge the rules file).
    public init(path: String, recording result: CheckResult) {
        let counted = result.findings.filter { $0.rule.isSuppressible && $0.suppression?.kind != .ignore }
        self.init(path: path, entries: counted.map(\.identity))
    }
}
