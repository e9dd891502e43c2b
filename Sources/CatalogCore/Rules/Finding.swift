/// One disagreement between two catalogs, or a problem within one. A finding is data, never an error.
public struct Finding: Hashable, Sendable {
    /// The rule that fired.
    public var rule: Rule
    /// The severity after configuration.
    public var severity: Severity
    /// The product (config key for matched products), the group key for group rules, nil for file-level notes.
    public var productID: String?
    /// The field the finding is about.
    public var field: ProductField
    /// The territory, for price rules and the storefront note.
    public var territory: Territory?
    /// The config's value, canonical text.
    public var expected: String?
    /// The store's value, canonical text.
    public var actual: String?
    /// The human-readable message (without location or rule ID).
    public var message: String
    /// A `did you mean …?` hint.
    public var hint: String?
    /// Where the config states it.
    public var configLocation: SourceLocation?
    /// Where the store states it.
    public var storeLocation: SourceLocation?
    /// The store input this finding concerns (its path as given); nil for findings on the config alone.
    public var store: String?

    /// Creates a finding.
    public init(rule: Rule, severity: Severity? = nil, productID: String?, field: ProductField? = nil,
                territory: Territory? = nil, expected: String? = nil, actual: String? = nil, message: String,
                hint: String? = nil, configLocation: SourceLocation? = nil, storeLocation: SourceLocation? = nil,
                store: String?) {
        self.rule = rule
        self.severity = severity ?? rule.defaultSeverity
        self.productID = productID
        self.field = field ?? rule.field
        self.territory = territory
        self.expected = expected
        self.actual = actual
        self.message = message
        self.hint = hint
        self.configLocation = configLocation
        self.storeLocation = storeLocation
        self.store = store
    }

    /// Where the finding is shown: the config location when there is one, else the store's.
    public var primaryLocation: SourceLocation? { configLocation ?? storeLocation }

    /// Whether the finding is about a product (rather than a group or a whole file).
    public var concernsProduct: Bool {
        productID != nil && rule != .groupMissingInStore
    }

    /// The identity used by baselines: rule + product ID + field + territory + store, never a line number.
    public var identity: String {
        [rule.rawValue, productID ?? "", field.rawValue, territory?.alpha2 ?? "", store ?? ""].joined(separator: "\u{1F}")
    }
}

extension Finding: Comparable {
    /// The output order: findings on the config alone first, then per store in input order (the caller sorts
    /// stores); within a store, findings without a product first by rule then key, then by product ID, rule,
    /// territory.
    public static func < (lhs: Finding, rhs: Finding) -> Bool {
        if lhs.concernsProduct != rhs.concernsProduct { return !lhs.concernsProduct }
        if lhs.concernsProduct {
            return (lhs.productID ?? "", lhs.rule, lhs.territory?.alpha2 ?? "", lhs.message)
                < (rhs.productID ?? "", rhs.rule, rhs.territory?.alpha2 ?? "", rhs.message)
        }
        return (lhs.rule, lhs.productID ?? "", lhs.territory?.alpha2 ?? "", lhs.message)
            < (rhs.rule, rhs.productID ?? "", rhs.territory?.alpha2 ?? "", rhs.message)
    }
}
