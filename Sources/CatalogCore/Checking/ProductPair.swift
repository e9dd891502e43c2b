/// A config product and the store product it matched, with both catalogs: what every per-product rule family
/// looks at. Findings made through it carry the config key, both field locations and the store.
struct ProductPair {
    /// The config's product.
    let mine: Product
    /// The store's product.
    let theirs: Product
    /// The config.
    let config: Catalog
    /// The store input.
    let store: Catalog

    /// A finding on this pair, located at the rule's field on both sides unless told otherwise.
    func finding(_ rule: Rule, territory: Territory? = nil, expected: String?, actual: String?, message: String,
                 configLocation: SourceLocation? = nil, storeLocation: SourceLocation? = nil) -> Finding {
        Finding(rule: rule, productID: mine.id.rawValue, territory: territory, expected: expected, actual: actual,
                message: message, configLocation: configLocation ?? mine.location(of: rule.field),
                storeLocation: storeLocation ?? theirs.location(of: rule.field), store: store.path)
    }

    /// Where the store states a field, as text for messages.
    func storeAt(_ field: ProductField) -> String { theirs.location(of: field).description }
}
