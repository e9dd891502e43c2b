/// Introductory offers: `intro-offer-mismatch` and `intro-offer-exceeds-period` (DESIGN.md §5a.11).
enum IntroOfferRules {
    /// The config's offer against the store's offer for the config's base territory.
    static func check(_ pair: ProductPair) -> [Finding] {
        guard let expected = pair.mine.introOffers?.first, let storeOffers = pair.theirs.introOffers else { return [] }
        let base = pair.config.baseTerritory
        let actual = storeOffers.first(where: { $0.territory == base })
            ?? storeOffers.first(where: { $0.territory == nil })
        // An offer record for every territory is priced where the store prices (a .storekit storefront).
        let pricedForBase = actual.map { $0.territory == base
            || pair.store.capabilities.priceableTerritories?.contains(base) ?? true } ?? false
        guard !agree(expected, actual, comparingPrice: pricedForBase) else { return [] }
        let shown = actual?.summary ?? "none"
        let storeAt = (actual?.location ?? pair.theirs.location(of: .introOffer)).description
        return [pair.finding(
            .introOfferMismatch, expected: expected.summary, actual: actual?.summary,
            message: "introductory offer is \(shown) in the store (\(storeAt)), \(expected.summary) in the config",
            configLocation: expected.location, storeLocation: actual?.location)]
    }

    /// Free trials longer than their subscription period, in one catalog on its own; `idFor` names the product
    /// (the config key when a store product is matched).
    static func exceedingTrials(in catalog: Catalog, storePath: String?, idFor: (Product) -> String) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<ProductID> = []
        for product in catalog.products {
            guard let period = product.period, let offers = product.introOffers, seen.insert(product.id).inserted,
                  let trial = offers.first(where: { $0.mode == .freeTrial && $0.approximateDays > period.approximateDays })
            else { continue }
            let length = trial.periods == 1 ? "\(trial.period)" : "\(trial.period) × \(trial.periods)"
            let location = trial.location ?? product.location(of: .introOffer)
            findings.append(Finding(
                rule: .introOfferExceedsPeriod, productID: idFor(product), expected: period.description,
                actual: trial.summary,
                message: "free trial of \(length) (\(trial.approximateDays) days) is longer than the "
                    + "subscription period \(period) (\(period.approximateDays) days)",
                configLocation: storePath == nil ? location : nil,
                storeLocation: storePath == nil ? nil : location, store: storePath))
        }
        return findings
    }

    /// Mode, period and periods always; the price only when both give one for the config's base territory.
    private static func agree(_ expected: IntroOffer, _ actual: IntroOffer?, comparingPrice: Bool) -> Bool {
        guard let actual else { return false }
        guard expected.mode == actual.mode, expected.period == actual.period,
              expected.periods == actual.periods else { return false }
        if comparingPrice, let mine = expected.price, let theirs = actual.price {
            return mine.amount == theirs.amount && mine.currency == theirs.currency
        }
        return true
    }
}
