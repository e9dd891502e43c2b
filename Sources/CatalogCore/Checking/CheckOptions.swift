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
