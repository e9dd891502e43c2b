/// One disagreement between two catalogs, or a problem within one. A finding is data, never an error.
public struct Finding: Hashable, Sendable {
    /// The rule that fired.
    public var rule: Rule
    /// The severity after configuration.
    public var severity: Severity
    /// The product (config key for matched products), the group key for group rules, the product pattern of
    /// a rules-file `ignore` entry for the ignore rules, nil for file-level notes.
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
    /// Where the config states it (for the ignore rules: the entry in the rules file).
    public var configLocation: SourceLocation?
    /// Where the store states it.
    public var storeLocation: SourceLocation?
    /// The path of the store input this finding concerns, as given (what outputs print); nil for findings on
    /// the config alone.
    public var store: String?
    /// The store input this finding concerns: what reports group and join findings on (never `store`, the
    /// text); nil for findings on the config alone.
    public var storeInput: StoreInputID?
    /// The store the finding concerns (`appstore` or `play`), part of its identity; nil for config-only findings.
    public var storeKind: StoreKind?
    /// Why the finding does not count, when a rules-file `ignore` entry or the baseline suppresses it.
    public var suppression: Suppression?

    /// Creates a finding.
    public init(rule: Rule, severity: Severity? = nil, productID: String?, field: ProductField? = nil,
                territory: Territory? = nil, expected: String? = nil, actual: String? = nil, message: String,
                hint: String? = nil, configLocation: SourceLocation? = nil, storeLocation: SourceLocation? = nil,
                store: String?, storeInput: StoreInputID? = nil, storeKind: StoreKind? = nil,
                suppression: Suppression? = nil) {
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
        self.storeInput = storeInput
        self.storeKind = storeKind
        self.suppression = suppression
    }

    /// Where the finding is shown: the config location when there is one, else the store's.
    public var primaryLocation: SourceLocation? { configLocation ?? storeLocation }

    /// The store side's location: where the store states it, else the store input itself, so a finding about
    /// a store always names that store (JSON `store`, SARIF related location, the reports' store column).
    public var storeSide: SourceLocation? {
        storeLocation ?? store.map { SourceLocation(path: $0) }
    }

    /// Whether the finding is about a product (rather than a group, a rules-file entry or a whole file).
    public var concernsProduct: Bool {
        productID != nil && !rule.isProductless
    }

    /// Whether a rules-file `ignore` entry or the baseline suppresses the finding.
    public var isSuppressed: Bool { suppression != nil }

    /// The identity baselines and SARIF fingerprints use (DESIGN.md §5): never a path or a line.
    public var identity: FindingIdentity {
        FindingIdentity(rule: rule, productID: productID, field: field, territory: territory, store: storeKind)
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

/// What makes two findings "the same finding" across runs: rule + product ID + field + territory + store
/// (DESIGN.md §5). Edits that move lines or rename files keep it, so a baseline survives them.
public struct FindingIdentity: Hashable, Sendable, Comparable {
    /// The rule.
    public var rule: Rule
    /// The product ID (or group key / pattern for product-less rules).
    public var productID: String?
    /// The field.
    public var field: ProductField
    /// The territory.
    public var territory: Territory?
    /// The store; nil for findings on the config alone.
    public var store: StoreKind?

    /// Creates an identity.
    public init(rule: Rule, productID: String?, field: ProductField, territory: Territory?, store: StoreKind?) {
        self.rule = rule
        self.productID = productID
        self.field = field
        self.territory = territory
        self.store = store
    }

    /// Baseline order: product-less first, then product ID, rule, territory, field, store.
    public static func < (lhs: FindingIdentity, rhs: FindingIdentity) -> Bool {
        let left = (lhs.productID == nil ? 0 : 1, lhs.productID ?? "", lhs.rule.rawValue)
        let right = (rhs.productID == nil ? 0 : 1, rhs.productID ?? "", rhs.rule.rawValue)
        if left != right { return left < right }
        return (lhs.territory?.alpha2 ?? "", lhs.field.rawValue, lhs.store?.rawValue ?? "")
            < (rhs.territory?.alpha2 ?? "", rhs.field.rawValue, rhs.store?.rawValue ?? "")
    }

    /// A stable text form: the parts joined by U+001F (a separator no ID can hold unescaped in the formats).
    public var key: String {
        [rule.rawValue, productID ?? "", field.rawValue, territory?.alpha2 ?? "", store?.rawValue ?? ""]
            .joined(separator: "\u{1F}")
    }

    /// A stable 64-bit FNV-1a hash of `key`, as 16 lowercase hex digits (SARIF `partialFingerprints`).
    public var fingerprint: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
