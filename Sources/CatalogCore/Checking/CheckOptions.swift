/// What a check compares. What fails a run (`--strict`, severities) is the `Policy`'s, applied after checking.
public struct CheckOptions: Hashable, Sendable {
    /// Compare prices only in these territories (`--territory`); nil = all.
    public var territories: Set<Territory>?

    /// Creates options.
    public init(territories: Set<Territory>? = nil) {
        self.territories = territories
    }
}
