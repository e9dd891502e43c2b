/// Prices per territory: `price-mismatch`, `price-missing-in-store`, `price-missing-in-config` (DESIGN.md §5a.7),
/// and the `storekit-single-storefront` note.
enum PriceRules {
    /// The price rules on a matched pair, limited to `territories` when given.
    static func check(_ pair: ProductPair, territories: Set<Territory>?) -> [Finding] {
        let (mine, theirs, store) = (pair.mine, pair.theirs, pair.store)
        // A store product with no current price defines none: no price rule runs for it. One whose current
        // prices are all in territories where it is not sold defines them (none there).
        guard !theirs.prices.isEmpty || theirs.uncomparedPrices.contains(where: \.isUnavailable) else { return [] }
        var findings: [Finding] = []
        func compared(_ territory: Territory) -> Bool {
            territories?.contains(territory) ?? true
        }
        for (territory, configPrice) in mine.prices where compared(territory) {
            if let storePrice = theirs.prices[territory] {
                let same = configPrice.money.amount == storePrice.money.amount
                    && configPrice.money.currency == storePrice.money.currency
                if !same {
                    let storeAt = (storePrice.location ?? theirs.location(of: .price)).description
                    var finding = pair.finding(
                        .priceMismatch, territory: territory, expected: configPrice.money.description,
                        actual: storePrice.money.description,
                        message: "\(territory) is \(storePrice.money) in the store (\(storeAt)), "
                            + "\(configPrice.money) in the config",
                        configLocation: configPrice.location, storeLocation: storePrice.location)
                    finding.hint = equalizationHint(theirs, territory)
                    findings.append(finding)
                }
            } else if store.capabilities.priceableTerritories?.contains(territory) ?? true {
                let unsold = theirs.uncomparedPrices.contains { $0.isUnavailable && $0.territory == territory }
                findings.append(pair.finding(
                    .priceMissingInStore, territory: territory, expected: configPrice.money.description, actual: nil,
                    message: "\(territory) is \(configPrice.money) in the config but "
                        + (unsold ? "the store does not sell the product there (not in its available territories) "
                            : "has no price in the store ") + "(\(theirs.location))",
                    configLocation: configPrice.location, storeLocation: theirs.location))
            }
        }
        if mine.listsTerritoryPrices {
            for (territory, storePrice) in theirs.prices where compared(territory) && mine.prices[territory] == nil {
                let storeAt = (storePrice.location ?? theirs.location(of: .price)).description
                findings.append(pair.finding(
                    .priceMissingInConfig, territory: territory, expected: nil, actual: storePrice.money.description,
                    message: "\(territory) is \(storePrice.money) in the store (\(storeAt)) but missing from the "
                        + "config's prices",
                    storeLocation: storePrice.location))
            }
        }
        return findings
    }

    /// Where the store equalizes a territory's price from a base territory (App Store Connect in-app purchases),
    /// a mismatch elsewhere is fixed at the base price or by a manual price in that territory: say which. Apple,
    /// "List Automatically Generated Prices for an In-App Purchase Price": prices "automatically set based on a
    /// base territory for an In-App Purchase price schedule"; manual prices override them per territory.
    private static func equalizationHint(_ product: Product, _ territory: Territory) -> String? {
        guard let base = product.priceBaseTerritory, base != territory else { return nil }
        let basePrice = product.prices[base].map { " (\($0.money))" } ?? ""
        return "the store's base territory for this price is \(base)\(basePrice); unless \(territory) has a "
            + "manual price, App Store Connect equalizes it from there"
    }

    /// One note per .storekit file: only its storefront was priced.
    static func singleStorefront(_ store: Catalog) -> [Finding] {
        guard let storefront = store.capabilities.singleStorefront else { return [] }
        return [Finding(
            rule: .storekitSingleStorefront, productID: nil, territory: storefront,
            actual: storefront.alpha2,
            message: "only the \(storefront.alpha2) storefront is priced in this StoreKit file; "
                + "other territories were not compared",
            storeLocation: SourceLocation(path: store.path), store: store.path)]
    }
}
