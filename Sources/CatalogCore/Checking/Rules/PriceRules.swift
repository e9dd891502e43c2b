/// Prices per territory: `price-mismatch`, `price-missing-in-store`, `price-missing-in-config` (DESIGN.md §5a.7),
/// equalized territories (`price-not-equalized`, the `prices-not-compared` note; DESIGN.md §4 "Equalized
/// prices"), and the `storekit-single-storefront` note.
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
        findings += scheduleMismatches(pair, compared: compared)
        if mine.equalizesOtherTerritories {
            findings += equalized(pair, compared: compared)
        } else if mine.listsTerritoryPrices {
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

    /// The territories a config leaves to equalization, where the store states each price's origin (App Store
    /// Connect in-app purchases): a manual price there is `price-not-equalized`; a territory where the product is
    /// sold without a price is `price-missing-in-store`. Automatic prices are never amount-compared: Apple
    /// rewrites them at its tax and exchange-rate updates. Prices of unknown origin are counted by `notCompared`.
    private static func equalized(_ pair: ProductPair, compared: (Territory) -> Bool) -> [Finding] {
        let (mine, theirs) = (pair.mine, pair.theirs)
        var findings: [Finding] = []
        for (territory, storePrice) in theirs.prices
        where theirs.priceOrigins[territory] == .manual && mine.prices[territory] == nil && compared(territory) {
            let storeAt = (storePrice.location ?? theirs.location(of: .price)).description
            findings.append(pair.finding(
                .priceNotEqualized, territory: territory, expected: "equalized",
                actual: "\(storePrice.money) manual",
                message: "\(territory) is set by hand to \(storePrice.money) in the store (\(storeAt)); the config "
                    + "leaves it to equalization from the base territory",
                storeLocation: storePrice.location))
        }
        guard !theirs.priceOrigins.isEmpty,
              let available = theirs.availableTerritories else { return findings }
        for territory in available
        where mine.prices[territory] == nil && theirs.prices[territory] == nil && compared(territory) {
            findings.append(pair.finding(
                .priceMissingInStore, territory: territory, expected: "equalized", actual: nil,
                message: "\(territory) has no price in the store (\(theirs.location)) though the product is sold "
                    + "there; the config leaves it to equalization",
                storeLocation: theirs.location))
        }
        return findings
    }

    /// The store formats that state scheduled prices (App Store Connect rows with a `startDate`): against
    /// any other, a config schedule has nothing to be compared with.
    private static let schedulingFormats: Set<CatalogFormat> = [.ascJSON]

    /// `price-schedule-mismatch`: in each territory the config writes as a schedule, every price starting after
    /// `--as-of` on one side must start on the same day at the same amount on the other (DESIGN.md §4
    /// "Scheduled prices").
    private static func scheduleMismatches(_ pair: ProductPair, compared: (Territory) -> Bool) -> [Finding] {
        let (mine, theirs) = (pair.mine, pair.theirs)
        guard !mine.scheduledTerritories.isEmpty, schedulingFormats.contains(pair.store.format) else { return [] }
        let (mySchedules, theirSchedules) = (mine.scheduledPrices, theirs.scheduledPrices)
        var findings: [Finding] = []
        for territory in mine.scheduledTerritories.sorted() where compared(territory) && pair.storePrices(territory) {
            let planned = mySchedules[territory]?.byDay ?? [:]
            let stored = theirSchedules[territory]?.byDay ?? [:]
            for day in Set(planned.keys).union(stored.keys).sorted() where planned[day] != stored[day] {
                let expected = planned[day].map { "\($0) from \(day)" }
                let actual = stored[day].map { "\($0) from \(day)" }
                let configSays = planned[day].map { "schedules \($0)" } ?? "schedules no change"
                let storeSays = stored[day].map { "\($0)" } ?? "no change"
                findings.append(pair.finding(
                    .priceScheduleMismatch, territory: territory, expected: expected, actual: actual,
                    message: "\(territory) from \(day): the config \(configSays), the store has \(storeSays) "
                        + "(\(theirs.location(of: .price)))",
                    configLocation: mine.prices[territory]?.location))
            }
        }
        return findings
    }

    /// One note per store input: the equalized territories of its matched products whose store prices state no
    /// origin (App Store subscriptions, Play, StoreKit) and so were not compared.
    static func notCompared(_ pairs: [ProductPair], store: Catalog, territories: Set<Territory>?) -> [Finding] {
        var prices = 0
        var products = 0
        var seen: Set<Territory> = []
        for pair in pairs where pair.mine.equalizesOtherTerritories {
            let skipped = pair.theirs.prices.values.filter {
                pair.theirs.priceOrigins[$0.territory] == nil && pair.mine.prices[$0.territory] == nil
                    && (territories?.contains($0.territory) ?? true)
            }
            guard !skipped.isEmpty else { continue }
            prices += skipped.count
            products += 1
            seen.formUnion(skipped.map(\.territory))
        }
        guard prices > 0 else { return [] }
        func count(_ count: Int, _ one: String, _ many: String) -> String { "\(count) \(count == 1 ? one : many)" }
        return [Finding(
            rule: .pricesNotCompared, productID: nil, expected: "equalized",
            message: "\(count(prices, "store price", "store prices")) in "
                + "\(count(seen.count, "territory", "territories")) of \(count(products, "product", "products")) were not compared: the config leaves them to equalization and "
                + "this store input does not say whether they are equalized",
            storeLocation: SourceLocation(path: store.path), store: store.path)]
    }

    /// `subscription-price-matrix-incomplete`, on an App Store Connect input on its own: an auto-renewable
    /// subscription not removed from sale without a current price in a territory of its availability (App Store
    /// Connect keeps it `MISSING_METADATA` until the matrix is full; FORMATS.md "Subscription price matrix").
    static func incompleteMatrices(_ store: Catalog, territories: Set<Territory>?,
                                   idFor: (Product) -> String) -> [Finding] {
        guard schedulingFormats.contains(store.format) else { return [] }
        var findings: [Finding] = []
        for product in store.products where product.kind == .autoRenewable && product.clearedForSale != false {
            guard let available = product.availableTerritories else { continue }
            for territory in available.sorted()
            where product.prices[territory] == nil && (territories?.contains(territory) ?? true) {
                findings.append(Finding(
                    rule: .subscriptionPriceMatrixIncomplete, productID: idFor(product), territory: territory,
                    message: "\(territory) has no price though the subscription \(product.id) is available there "
                        + "(\(product.location)); App Store Connect keeps it MISSING_METADATA until every territory "
                        + "of its availability has a price",
                    storeLocation: product.location, store: store.path))
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
