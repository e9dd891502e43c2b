/// Introductory offers: `intro-offer-mismatch` and `intro-offer-exceeds-period` (DESIGN.md §5a.11).
enum IntroOfferRules {
    /// The config's offer against the store's offer for the config's base territory (`storeOffer`).
    static func check(_ pair: ProductPair) -> [Finding] {
        guard let expected = pair.mine.introOffers?.first, pair.theirs.introOffers != nil else { return [] }
        let matched = storeOffer(for: pair)
        if let matched, agree(expected, matched.offer, comparingPrice: matched.comparesPrice) { return [] }
        let actual = matched?.offer
        let shown = actual?.summary ?? "none"
        let storeAt = (actual?.location ?? pair.theirs.location(of: .introOffer)).description
        return [pair.finding(
            .introOfferMismatch, expected: expected.summary, actual: actual?.summary,
            message: "introductory offer is \(shown) in the store (\(storeAt)), \(expected.summary) in the config",
            configLocation: expected.location, storeLocation: actual?.location)]
    }

    /// The store's intro offer that the config's `introOffer` is compared with: nil when the config has none, the
    /// store's format states none (`introOffers` nil) or the store has none for the base territory.
    ///
    /// Candidates are the store's offers for the config's base territory, else its offers for every territory
    /// (territory nil). StoreKit and App Store Connect have one there; a Play base plan has one per active
    /// subscription offer that prices or frees the territory (its first phase: `PlayCatalogBuilder`), so Play's
    /// free trial and its other offers are all candidates. Of the candidates, the first that agrees with the
    /// config's offer (mode, period, periods, price where compared) is the intro offer; else the first of the
    /// config's mode, else the first: the one `intro-offer-mismatch` reports on. The choice never depends on
    /// the order of the store's documents when one candidate agrees.
    ///
    /// The Play offer chosen (`IntroOffer.offer`), agreeing or not, *is* the config's `introOffer` in that store:
    /// one offer, matched once. So `OfferRules` does not also report it `offer-missing-in-config` when the
    /// config's `offers` leave it out (its later phases, which `introOffer` cannot state, are then not compared;
    /// a config that lists the offer under `offers` compares them all).
    static func storeOffer(for pair: ProductPair) -> (offer: IntroOffer, comparesPrice: Bool)? {
        guard let expected = pair.mine.introOffers?.first, let storeOffers = pair.theirs.introOffers else { return nil }
        let base = pair.config.baseTerritory
        var candidates = storeOffers.filter { $0.territory == base }
        if candidates.isEmpty { candidates = storeOffers.filter { $0.territory == nil } }
        // An offer record for every territory is priced where the store prices (a .storekit storefront).
        func comparesPrice(_ offer: IntroOffer) -> Bool {
            offer.territory == base || pair.store.capabilities.priceableTerritories?.contains(base) ?? true
        }
        guard let chosen = candidates.first(where: { agree(expected, $0, comparingPrice: comparesPrice($0)) })
            ?? candidates.first(where: { $0.mode == expected.mode }) ?? candidates.first else { return nil }
        return (chosen, comparesPrice(chosen))
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
    private static func agree(_ expected: IntroOffer, _ actual: IntroOffer, comparingPrice: Bool) -> Bool {
        guard expected.mode == actual.mode, expected.period == actual.period,
              expected.periods == actual.periods else { return false }
        if comparingPrice, let mine = expected.price, let theirs = actual.price {
            return mine.amount == theirs.amount && mine.currency == theirs.currency
        }
        return true
    }
}
