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

    /// A finding on this pair about `field` (the rule's own field unless told), located at that field on both
    /// sides unless told otherwise.
    func finding(_ rule: Rule, field: ProductField? = nil, territory: Territory? = nil, expected: String?,
                 actual: String?, message: String, configLocation: SourceLocation? = nil,
                 storeLocation: SourceLocation? = nil) -> Finding {
        let field = field ?? rule.field
        return Finding(rule: rule, productID: mine.id.rawValue, field: field, territory: territory,
                       expected: expected, actual: actual, message: message,
                       configLocation: configLocation ?? mine.location(of: field),
                       storeLocation: storeLocation ?? theirs.location(of: field), store: store.path)
    }

    /// Whether the store input can state a price in `territory` (a .storekit file: its storefront only).
    func storePrices(_ territory: Territory) -> Bool {
        store.capabilities.priceableTerritories?.contains(territory) ?? true
    }

    /// Where the store states a field, as text for messages.
    func storeAt(_ field: ProductField) -> String { theirs.location(of: field).description }
}
