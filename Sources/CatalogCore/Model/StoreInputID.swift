/// Which store input of a run something concerns: the input's position among the run's store inputs (the
/// `stores` given to `Checker.check`), 0-based. Findings, comparisons and the release report are joined on it,
/// never on the path text: the text is only what gets printed, and two inputs can print alike.
public struct StoreInputID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position of the input among the run's store inputs.
    public let position: Int

    /// Names the store input at `position`.
    public init(position: Int) {
        self.position = position
    }

    public var description: String { "store input #\(position + 1)" }

    public static func < (lhs: StoreInputID, rhs: StoreInputID) -> Bool { lhs.position < rhs.position }
}
