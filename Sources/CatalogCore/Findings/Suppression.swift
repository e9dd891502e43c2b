/// Why a finding does not count: a rules-file `ignore` entry or a baseline entry matched it. A suppressed
/// finding stays in the JSON and SARIF output (with this) and is left out everywhere else (DESIGN.md §5).
public struct Suppression: Hashable, Sendable {
    /// What suppressed it.
    public enum Kind: String, Hashable, Sendable {
        /// A rules-file `ignore` entry.
        case ignore
        /// An entry of the `--baseline` file.
        case baseline
    }

    /// What suppressed it.
    public var kind: Kind
    /// The `reason` of the ignore entry, or which baseline file recorded the finding.
    public var reason: String

    /// Creates a suppression.
    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }
}
