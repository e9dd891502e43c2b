/// What a rules file (`.catalogcheck.yml`, DESIGN.md §5) says: per-rule severities, the territories prices are
/// compared in, and the `ignore` entries. Read and validated in CatalogFormats; applied by `Policy`.
public struct RuleConfiguration: Hashable, Sendable {
    /// Where it was read (for messages), nil when no rules file is in use.
    public var path: String?
    /// Severity overrides; `.off` removes the rule's findings.
    public var severities: [Rule: RuleSetting]
    /// Compare prices only in these territories (`--territory` overrides); nil = all.
    public var territories: Set<Territory>?
    /// Accepted drift, in file order.
    public var ignores: [IgnoreEntry]

    /// Creates a configuration; the default changes nothing.
    public init(path: String? = nil, severities: [Rule: RuleSetting] = [:], territories: Set<Territory>? = nil,
                ignores: [IgnoreEntry] = []) {
        self.path = path
        self.severities = severities
        self.territories = territories
        self.ignores = ignores
    }
}

/// A rule's setting in the rules file: a severity, or `off`.
public enum RuleSetting: String, CaseIterable, Hashable, Sendable {
    case error
    case warning
    case note
    /// The rule does not run: its findings are dropped.
    case off

    /// The severity, or nil for `off`.
    public var severity: Severity? {
        switch self {
        case .error: .error
        case .warning: .warning
        case .note: .note
        case .off: nil
        }
    }
}

/// One `ignore:` entry: findings of `rule` whose product matches `productPattern` (and territory, store) are
/// suppressed with `reason`, until the day `until` (inclusive).
public struct IgnoreEntry: Hashable, Sendable {
    /// The rule it silences.
    public var rule: Rule
    /// A glob (`*` any run of characters, `?` one character) on the product ID; nil matches every finding.
    public var productPattern: String?
    /// Only findings in these territories; nil = any (and findings without a territory).
    public var territories: Set<Territory>?
    /// Only findings against this store; nil = any.
    public var store: StoreKind?
    /// Why the drift is accepted (required: an ignore without a reason is a time bomb).
    public var reason: String
    /// The last day the entry applies (per `--as-of`); nil = no end.
    public var until: CalendarDate?
    /// Where the entry starts in the rules file.
    public var location: SourceLocation

    /// Creates an entry.
    public init(rule: Rule, productPattern: String? = nil, territories: Set<Territory>? = nil,
                store: StoreKind? = nil, reason: String, until: CalendarDate? = nil, location: SourceLocation) {
        self.rule = rule
        self.productPattern = productPattern
        self.territories = territories
        self.store = store
        self.reason = reason
        self.until = until
        self.location = location
    }

    /// Whether the entry still applies on `day`.
    public func isActive(on day: CalendarDate) -> Bool {
        until.map { day <= $0 } ?? true
    }

    /// Whether the entry covers a finding (ignoring dates).
    public func matches(_ finding: Finding) -> Bool {
        guard finding.rule == rule else { return false }
        if let productPattern {
            guard let productID = finding.productID, Glob(productPattern).matches(productID) else { return false }
        }
        if let territories {
            guard let territory = finding.territory, territories.contains(territory) else { return false }
        }
        if let store, finding.storeKind != store { return false }
        return true
    }

    /// How the entry reads in a message: `price-mismatch on 'com.example.*' in IN, BR (play)`.
    public var summary: String {
        var text = rule.rawValue
        if let productPattern { text += " on '\(productPattern)'" }
        if let territories { text += " in " + territories.map(\.alpha2).sorted().joined(separator: ", ") }
        if let store { text += " (\(store.rawValue))" }
        return text
    }
}
