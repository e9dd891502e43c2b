/// How serious a finding is. Ordered: `note < warning < error`.
public enum Severity: String, CaseIterable, Hashable, Comparable, Sendable {
    /// Worth knowing; never fails a run.
    case note
    /// Fails only with `--strict`.
    case warning
    /// Fails the run.
    case error

    private var rank: Int {
        switch self {
        case .note: 0
        case .warning: 1
        case .error: 2
        }
    }

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
}
