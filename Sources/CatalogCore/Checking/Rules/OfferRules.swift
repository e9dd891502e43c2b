import Foundation

/// Offers other than the introductory one (DESIGN.md §4a, §5a.15): `offer-missing-in-store`,
/// `offer-missing-in-config` and `offer-mismatch` on a matched pair; `offer-id-reused`, `offer-free-with-price`
/// and `offer-not-a-discount` on each catalog on its own.
///
/// Offers match by `OfferKey` (kind, purchase option, store ID). A kind is compared only against a store input
/// that carries it (`CatalogCapabilities.offerKinds`) and for a product whose record carries offers
/// (`Product.offers` not nil). A config phase's `price:` is the price in the config's base territory.
enum OfferRules {
    // MARK: - A matched pair

    /// The three comparison rules on a matched pair, prices limited to `territories` when given.
    static func check(_ pair: ProductPair, territories: Set<Territory>?) -> [Finding] {
        let carried = pair.store.capabilities.offerKinds
        guard !carried.isEmpty, let storeOffers = pair.theirs.offers else { return [] }
        let base = pair.config.baseTerritory
        let mine = index((pair.mine.offers ?? []).filter { carried.contains($0.kind) }
            .map { $0.resolvingBasePrice(in: base) })
        let theirs = index(storeOffers.filter { carried.contains($0.kind) })
        var findings: [Finding] = []
        for (key, offer) in mine.sorted(by: { $0.key < $1.key }) {
            if let other = theirs[key] {
                findings += compare(offer, other, pair: pair, territories: territories)
            } else if offer.isActive != false {
                findings.append(pair.finding(
                    .offerMissingInStore, field: key.field, expected: offer.summary(preferring: base), actual: nil,
                    message: "\(offer.name) is in the config but not on the store's product (\(pair.theirs.location))",
                    configLocation: offer.location, storeLocation: pair.theirs.location))
            }
        }
        // Only a config that lists offers for the product says which the store should have (`offers: {}` too).
        guard pair.mine.offers != nil else { return findings }
        // A Play offer that the config's `introOffer` stands for was matched by the intro rule: one offer, matched
        // once (`IntroOfferRules.storeOffer` says which).
        let intro = IntroOfferRules.storeOffer(for: pair)?.offer.offer
        for (key, offer) in theirs.sorted(by: { $0.key < $1.key })
        where mine[key] == nil && key != intro && offer.isActive != false {
            let storeAt = (offer.location ?? pair.theirs.location).description
            findings.append(pair.finding(
                .offerMissingInConfig, field: key.field, expected: nil, actual: offer.summary(preferring: base),
                message: "\(offer.name) is on the store's product (\(storeAt)) but not in the config's offers",
                configLocation: pair.mine.location(of: .offerID("*")), storeLocation: offer.location))
        }
        return findings
    }

    /// The first offer of each key (a repeated key is the reader's or the config validator's to report).
    private static func index(_ offers: [Offer]) -> [OfferKey: Offer] {
        Dictionary(offers.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// One offer against its store counterpart: state, then (unless the store's offer is inactive and the
    /// config's active, when the state says it all) terms, prices or discounts per territory, eligibility and
    /// window, each where both sides state it.
    private static func compare(_ mine: Offer, _ theirs: Offer, pair: ProductPair,
                                territories: Set<Territory>?) -> [Finding] {
        var findings: [Finding] = []
        let storeAt = (theirs.location ?? pair.theirs.location).description
        func mismatch(_ field: ProductField, territory: Territory? = nil, expected: String?, actual: String?,
                      _ message: String, configLocation: SourceLocation? = nil) {
            findings.append(pair.finding(
                .offerMismatch, field: field, territory: territory, expected: expected, actual: actual,
                message: message, configLocation: configLocation ?? mine.location ?? pair.mine.location,
                storeLocation: theirs.location ?? pair.theirs.location))
        }
        let configActive = mine.isActive ?? true
        if let storeActive = theirs.isActive, storeActive != configActive {
            mismatch(.offer(mine.key, aspect: "state"), expected: mine.stateDescription,
                     actual: theirs.stateDescription,
                     "\(mine.name) is \(theirs.stateDescription) in the store (\(storeAt)), "
                        + "\(mine.stateDescription) in the config")
            // A draft or inactive store offer is compared only with one the config marks inactive (§4a).
            if configActive { return findings }
        }

        let field = mine.key.field
        let samePhases = mine.phases.count == theirs.phases.count
        if !samePhases || zip(mine.phases, theirs.phases).contains(where: { !sameTerms($0, $1) }) {
            let expected = mine.text(in: nil)
            let actual = theirs.text(in: nil)
            mismatch(field, expected: expected, actual: actual,
                     "\(mine.name) is \(actual.isEmpty ? "without terms" : actual) in the store (\(storeAt)), "
                        + "\(expected) in the config")
        }
        if samePhases {
            for (territory, expected, actual) in territoryDifferences(mine, theirs, pair: pair, territories: territories) {
                let location = mine.phases.lazy.compactMap { $0.location }.first
                mismatch(field, territory: territory, expected: expected, actual: actual,
                         actual.map { "\(mine.name) is \($0) in \(territory) in the store (\(storeAt)), \(expected) in the config" }
                            ?? "\(mine.name) is \(expected) in \(territory) in the config but has no price there in the store (\(storeAt))",
                         configLocation: location)
            }
        }
        if let expected = mine.eligibility, let actual = theirs.eligibility,
           case let (mineText, theirText)? = eligibilityDifference(expected, actual) {
            mismatch(.offer(mine.key, aspect: "eligibility"), expected: mineText, actual: theirText,
                     "\(mine.name) is for \(theirText) in the store (\(storeAt)), \(mineText) in the config")
        }
        if let expected = mine.window, let actual = theirs.window,
           case let (mineText, theirText)? = windowDifference(expected, actual) {
            mismatch(.offer(mine.key, aspect: "window"), expected: mineText, actual: theirText,
                     "\(mine.name) runs \(theirText) in the store (\(storeAt)), \(mineText) in the config")
        }
        return findings
    }

    /// Mode, period and number of periods where the store states them (a config states 1 period unless it says
    /// more), and a discount that applies everywhere on both sides.
    private static func sameTerms(_ mine: OfferPhase, _ theirs: OfferPhase) -> Bool {
        if let expected = mine.mode, let actual = theirs.mode, expected != actual { return false }
        if let expected = mine.period, let actual = theirs.period, expected != actual { return false }
        if let actual = theirs.periods, mine.periods != nil || mine.period != nil, (mine.periods ?? 1) != actual {
            return false
        }
        if let expected = mine.discountEverywhere, let actual = theirs.discountEverywhere, expected != actual {
            return false
        }
        return true
    }

    /// The territories where a phase's price or discount differs, or where the config states one and the store,
    /// whose phase states values and can price the territory, states none (actual nil). Sorted by code.
    private static func territoryDifferences(_ mine: Offer, _ theirs: Offer, pair: ProductPair,
                                             territories: Set<Territory>?) -> [(Territory, String, String?)] {
        var candidates: Set<Territory> = []
        for (expected, actual) in zip(mine.phases, theirs.phases) where actual.statesValues {
            candidates.formUnion(expected.prices.keys)
            candidates.formUnion(expected.discounts.keys)
            // A discount everywhere meets a store that prices or discounts per territory: compare each of those.
            if expected.discount != nil, actual.discountEverywhere == nil {
                candidates.formUnion(actual.prices.keys)
                candidates.formUnion(actual.discounts.keys)
            }
        }
        var result: [(Territory, String, String?)] = []
        for territory in candidates.sorted()
        where territories?.contains(territory) ?? true {
            var differs = false
            var storeStatesAny = false
            for (expected, actual) in zip(mine.phases, theirs.phases) where actual.statesValues {
                // An everywhere discount both sides state alike was compared with the terms.
                guard let mineValue = expected.value(in: territory),
                      !(expected.prices[territory] == nil && expected.discounts[territory] == nil
                        && actual.discountEverywhere != nil) else { continue }
                if let theirValue = actual.value(in: territory) {
                    storeStatesAny = true
                    if theirValue != mineValue { differs = true }
                } else if pair.storePrices(territory) {
                    differs = true
                }
            }
            if differs {
                result.append((territory, mine.text(in: territory), storeStatesAny ? theirs.text(in: territory) : nil))
            }
        }
        return result
    }

    /// The eligibility conditions both sides state and that differ, as config and store text; nil when none.
    private static func eligibilityDifference(_ mine: OfferEligibility,
                                              _ theirs: OfferEligibility) -> (String, String)? {
        let their = Dictionary(theirs.conditions.map { ($0.name, $0.text) }, uniquingKeysWith: { first, _ in first })
        let differing = mine.conditions.filter { condition in their[condition.name].map { $0 != condition.text } ?? false }
        guard !differing.isEmpty else { return nil }
        return (differing.map { "\($0.name): \($0.text)" }.joined(separator: ", "),
                differing.map { "\($0.name): \(their[$0.name] ?? "")" }.joined(separator: ", "))
    }

    /// The window ends both sides state and that differ, as config and store text; nil when none.
    private static func windowDifference(_ mine: OfferWindow, _ theirs: OfferWindow) -> (String, String)? {
        var expected: [String] = []
        var actual: [String] = []
        if let start = mine.start, let other = theirs.start, start != other {
            expected.append("from \(start)")
            actual.append("from \(other)")
        }
        if let end = mine.end, let other = theirs.end, end != other {
            expected.append("until \(end)")
            actual.append("until \(other)")
        }
        return expected.isEmpty ? nil : (expected.joined(separator: " "), actual.joined(separator: " "))
    }

    // MARK: - Each catalog on its own

    /// `offer-id-reused`, `offer-free-with-price` and `offer-not-a-discount` in one catalog. `idFor` names a
    /// product (the config key when a store product is matched), `groupKeyFor` a group (the config's key when
    /// a store group matches a config group by name); `storePath` is nil for the config.
    static func lint(_ catalog: Catalog, storePath: String?, idFor: (Product) -> String,
                     groupKeyFor: (String) -> String = { $0 }) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<ProductID> = []
        // Promotional and win-back IDs per group (or per product outside any group): kind → first offer. Apple:
        // "Use a unique referenceName and offerId that you have not used for a promotional offer, offer code, or
        // introductory offer, when you create your win-back offer" (App Store Connect API, POST /v1/winBackOffers);
        // offer codes and intro offers carry no offer ID in either store format, so only these two can collide.
        var idsByScope: [String: [String: [Offer.Kind: (product: String, offer: Offer)]]] = [:]
        for product in catalog.products {
            guard let offers = product.offers, !offers.isEmpty, seen.insert(product.id).inserted else { continue }
            let id = idFor(product)
            let scope = product.groupKey.map(groupKeyFor) ?? id
            for offer in offers.map({ $0.resolvingBasePrice(in: catalog.baseTerritory) }) {
                if offer.kind == .promotional || offer.kind == .winBack,
                   idsByScope[scope, default: [:]][offer.id, default: [:]][offer.kind] == nil {
                    idsByScope[scope, default: [:]][offer.id, default: [:]][offer.kind] = (id, offer)
                }
                findings += freeWithPrice(offer, productID: id, product: product, storePath: storePath)
                findings += notADiscount(offer, productID: id, product: product, storePath: storePath)
            }
        }
        for (scope, ids) in idsByScope.sorted(by: { $0.key < $1.key }) {
            for (offerID, kinds) in ids.sorted(by: { $0.key < $1.key }) where kinds.count > 1 {
                let uses = kinds.sorted { $0.key < $1.key }.map(\.value)
                let described = uses.map { use in
                    "a \(use.offer.kind.noun) on \(use.product)" + (use.offer.location.map { " (\($0))" } ?? "")
                }
                let location = uses.last?.offer.location ?? SourceLocation(path: storePath ?? catalog.path)
                findings.append(lintFinding(
                    .offerIDReused, productID: scope, field: .offerID(offerID), territory: nil, expected: nil,
                    actual: uses.map(\.offer.kind.rawValue).joined(separator: ", "),
                    message: "offer ID '\(offerID)' names \(described.joined(separator: " and ")) in one "
                        + "subscription group; Apple requires offer IDs unique across the group's offers",
                    at: location, storePath: storePath))
            }
        }
        return findings
    }

    /// A free-trial phase with a price: one finding per territory priced.
    private static func freeWithPrice(_ offer: Offer, productID: String, product: Product,
                                      storePath: String?) -> [Finding] {
        var findings: [Finding] = []
        var flagged: Set<Territory> = []
        for phase in offer.phases where phase.mode == .freeTrial {
            for (territory, price) in phase.prices.sorted(by: { $0.key < $1.key })
            where flagged.insert(territory).inserted {
                let location = phase.location ?? offer.location ?? product.location
                findings.append(lintFinding(
                    .offerFreeWithPrice, productID: productID, field: offer.key.field, territory: territory,
                    expected: phase.terms, actual: "\(phase.terms) \(price)",
                    message: "\(offer.name) is a free trial (\(phase.terms)) but carries a price of \(price) in "
                        + "\(territory)",
                    at: location, storePath: storePath))
            }
        }
        return findings
    }

    /// A paid phase that costs at least the regular price for the same time in a territory: a pay-as-you-go
    /// phase one subscription period long, a pay-up-front phase n whole periods long (n × the price), an IAP
    /// offer code (the IAP's price). Discounts never fire; currencies must agree.
    private static func notADiscount(_ offer: Offer, productID: String, product: Product,
                                     storePath: String?) -> [Finding] {
        let isIAP = product.kind.map { $0 != .autoRenewable && $0 != .nonRenewing } ?? (product.period == nil)
        var findings: [Finding] = []
        var flagged: Set<Territory> = []
        for phase in offer.phases where !phase.prices.isEmpty {
            let multiple: Int
            let span: String
            if offer.kind == .offerCode && isIAP && phase.period == nil {
                (multiple, span) = (1, "the product's price")
            } else if let subscription = product.period, let period = phase.period, phase.mode == .payAsYouGo,
                      period == subscription {
                (multiple, span) = (1, "the regular price for \(subscription)")
            } else if let subscription = product.period, let period = phase.period, phase.mode == .payUpFront,
                      let count = wholeMultiple(of: subscription, in: period, times: phase.periods ?? 1) {
                (multiple, span) = (count, count == 1 ? "the regular price for \(subscription)"
                    : "\(count) × the regular price for \(subscription)")
            } else {
                continue
            }
            // Every territory is compared, and the few that fire are reported in territory order: a catalog of
            // 2,000 products has 350,000 offer prices, and `Decimal`'s arithmetic is slow (the limit is made only
            // for a price that reaches it).
            var firing: [(territory: Territory, price: Money, limit: Money)] = []
            for (territory, price) in phase.prices {
                guard let regular = product.prices[territory]?.money, regular.currency == price.currency,
                      Money.amount(price.amount, isAtLeast: regular.amount, times: multiple) else { continue }
                firing.append((territory, price, Money(amount: regular.amount * Decimal(multiple),
                                                       currency: regular.currency)))
            }
            for (territory, price, limit) in firing.sorted(by: { $0.territory < $1.territory }) {
                guard flagged.insert(territory).inserted else { continue }
                let location = phase.location ?? offer.location ?? product.location
                findings.append(lintFinding(
                    .offerNotADiscount, productID: productID, field: offer.key.field, territory: territory,
                    expected: limit.description, actual: offer.text(in: territory),
                    message: "\(offer.name) costs \(price) in \(territory) (\(phase.text(in: territory))), not less "
                        + "than \(span) (\(limit))",
                    at: location, storePath: storePath))
            }
        }
        return findings
    }

    /// A finding of a rule that judges one catalog on its own, located on the config's side (`storePath` nil)
    /// or the store's.
    static func lintFinding(_ rule: Rule, productID: String, field: ProductField, territory: Territory?,
                            expected: String?, actual: String?, message: String, at location: SourceLocation,
                            storePath: String?) -> Finding {
        Finding(rule: rule, productID: productID, field: field, territory: territory, expected: expected,
                actual: actual, message: message, configLocation: storePath == nil ? location : nil,
                storeLocation: storePath == nil ? nil : location, store: storePath)
    }

    /// How many whole subscription periods `times` offer periods make; nil when they are not a whole number
    /// of them, or the units cannot be compared exactly (days and weeks against months and years).
    static func wholeMultiple(of subscription: SubscriptionPeriod, in period: SubscriptionPeriod,
                              times: Int) -> Int? {
        func measure(_ period: SubscriptionPeriod) -> (days: Bool, count: Int) {
            switch period.unit {
            case .day: (true, period.count)
            case .week: (true, period.count * 7)
            case .month: (false, period.count)
            case .year: (false, period.count * 12)
            }
        }
        let whole = measure(subscription)
        let part = measure(period)
        let (total, overflow) = part.count.multipliedReportingOverflow(by: max(times, 1))
        guard whole.days == part.days, !overflow, whole.count > 0, total % whole.count == 0 else { return nil }
        return total / whole.count
    }
}
