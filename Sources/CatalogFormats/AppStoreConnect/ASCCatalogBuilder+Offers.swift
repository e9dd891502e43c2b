import CatalogCore

/// Offers other than the introductory one (DESIGN §4a, §5a.15; FORMATS.md "Offers, purchase options and billing
/// plans") and the monthly billing plan, as App Store Connect API 4.4.1 has them:
/// - `subscriptionPromotionalOffers` (ID `offerCode`), `subscriptionOfferCodes` (ID `name`; `customerEligibilities`,
///   `offerEligibility`, `active`) and `winBackOffers` (ID `offerId`; `periodCount`, not `numberOfPeriods`; the
///   `customerEligibility…InMonths` attributes) of a subscription, each with `duration`, `offerMode` and its
///   `prices` rows (`territory`, `subscriptionPricePoint`);
/// - `inAppPurchaseOfferCodes` of an in-app purchase (ID `name`; `customerEligibilities` NON_SPENDER,
///   ACTIVE_SPENDER, CHURNED_SPENDER; `active`; no mode or duration), its `prices` rows (`territory`, `pricePoint`);
/// - a subscription's `subscriptionPrices` rows with `planType: MONTHLY`: the monthly amount of the billing plan
///   with a 12-month commitment, never the subscription's own price.
/// An offer's price in a territory is its price point's `customerPrice` in the territory's currency, as for the
/// product's prices. A free trial's rows (a win-back `FREE_TRIAL` offer's carry a territory and no price point)
/// are not prices. Offers for the monthly plan (`targetSubscriptionPlanType: MONTHLY`) go with the billing plan,
/// which has no offers in the model: they are left out, and a remark says how many.
///
/// Apple's documentation: "List Win-Back Offers" (developer.apple.com/documentation/appstoreconnectapi/
/// get-v1-subscriptions-_id_-winbackoffers) answers `offerId`, `duration`, `offerMode`, `periodCount`,
/// `customerEligibilityTimeSinceLastSubscribedInMonths: {minimum, maximum}`, `startDate`, `endDate`, `priority`;
/// "Create a Win-Back Offer" asks for an `offerId` "not used for a promotional offer, offer code, or introductory
/// offer". `SubscriptionPromotionalOffer` / `SubscriptionOfferCode` (API 2.0+) and the OpenAPI 4.4.1 schemas name
/// the other attributes and each `…Price`'s `territory` and price point relationships.
extension ASCCatalogBuilder {
    /// What tells one kind of offer apart in the pool.
    struct OfferSource {
        let kind: Offer.Kind
        let type: TypeID?
        let priceType: TypeID?
        let pointType: TypeID?
        /// The attribute that identifies the offer (§5a.15).
        let idAttribute: ASCAttributeName
        /// The attribute that counts its periods: `numberOfPeriods`, win-back offers `periodCount`; nil for IAP
        /// offer codes, which have neither mode nor duration.
        let periodsAttribute: ASCAttributeName?
    }

    var subscriptionOfferSources: [OfferSource] {
        [
            OfferSource(kind: .promotional, type: types.promotionalOffers, priceType: types.promotionalOfferPrices,
                        pointType: types.subscriptionPricePoints, idAttribute: .offerCode,
                        periodsAttribute: .numberOfPeriods),
            OfferSource(kind: .offerCode, type: types.subscriptionOfferCodes,
                        priceType: types.subscriptionOfferCodePrices, pointType: types.subscriptionPricePoints,
                        idAttribute: .name, periodsAttribute: .numberOfPeriods),
            OfferSource(kind: .winBack, type: types.winBackOffers, priceType: types.winBackOfferPrices,
                        pointType: types.subscriptionPricePoints, idAttribute: .offerId, periodsAttribute: .periodCount),
        ]
    }

    var inAppPurchaseOfferSources: [OfferSource] {
        [OfferSource(kind: .offerCode, type: types.inAppPurchaseOfferCodes, priceType: types.inAppPurchaseOfferPrices,
                     pointType: types.inAppPurchasePricePoints, idAttribute: .name, periodsAttribute: nil)]
    }

    /// The offer kinds the input carries (§5a.15): a resource of the kind (or a reference to one), a relationship
    /// that lists them (`promotionalOffers: {data: []}` says "none"), or the kinds the snapshot's `.fetch.json`
    /// says fetch asked for.
    func carriedOfferKinds(fetchedKinds: Set<String>) -> Set<Offer.Kind> {
        var kinds: Set<Offer.Kind> = []
        let stated = pool.statedOfferRelationships
        if types.promotionalOffers != nil || stated.contains("promotionalOffers")
            || fetchedKinds.contains("subscriptionPromotionalOffers") { kinds.insert(.promotional) }
        if types.subscriptionOfferCodes != nil || types.inAppPurchaseOfferCodes != nil || stated.contains("offerCodes")
            || fetchedKinds.contains("subscriptionOfferCodes") || fetchedKinds.contains("inAppPurchaseOfferCodes") {
            kinds.insert(.offerCode)
        }
        if types.winBackOffers != nil || stated.contains("winBackOffers") || fetchedKinds.contains("winBackOffers") {
            kinds.insert(.winBack)
        }
        return kinds
    }

    /// Whether the input carries billing plans: a MONTHLY price row or plan availability, or a snapshot whose
    /// `.fetch.json` says fetch asked for plan availabilities (and so for every price row, MONTHLY ones included).
    func carriesBillingPlans(fetchedKinds: Set<String>) throws(CatalogReadError) -> Bool {
        if fetchedKinds.contains("subscriptionPlanAvailabilities") { return true }
        for node in pool.definitionOrder {
            let type = pool.identities.type(of: node)
            guard type == types.subscriptionPrices || type == types.subscriptionPlanAvailabilities else { continue }
            if try string(node, .planType) == "MONTHLY" { return true }
        }
        return false
    }

    /// The offers linked to a product, of `sources`' kinds; nil when they cannot be compared (an offer known only
    /// by reference, without its identifying attribute, or with an offer mode this version does not know).
    func offers(of product: NodeID, from sources: [OfferSource], lookups: inout ASCLookups, tally: inout Tally)
        throws(CatalogReadError) -> [Offer]?
    {
        var offers: [Offer] = []
        for source in sources {
            for link in pool.linked(product, type: source.type) {
                let node = link.other
                guard pool.isDefined(node), let id = try string(node, source.idAttribute), !id.isEmpty else {
                    tally.partialOtherOffers += 1
                    return nil
                }
                if let plan = try string(node, .targetSubscriptionPlanType), plan != "UPFRONT" {
                    tally.monthlyPlanOffers += 1
                    continue
                }
                guard let offer = try offer(node, id: id, source: source, of: product, lookups: &lookups,
                                            tally: &tally) else { return nil }
                offers.append(offer)
            }
        }
        return offers.sorted { $0.key < $1.key }
    }

    /// One offer; nil when its mode is one this version does not know (a remark says so).
    private func offer(_ node: NodeID, id: String, source: OfferSource, of product: NodeID,
                       lookups: inout ASCLookups, tally: inout Tally) throws(CatalogReadError) -> Offer?
    {
        var phase = OfferPhase(location: pool.location(of: node))
        if let periodsAttribute = source.periodsAttribute {
            guard let modeText = try string(node, .offerMode), let durationText = try string(node, .duration) else {
                tally.partialOtherOffers += 1
                return nil
            }
            switch modeText {
            case "FREE_TRIAL": phase.mode = .freeTrial
            case "PAY_AS_YOU_GO": phase.mode = .payAsYouGo
            case "PAY_UP_FRONT": phase.mode = .payUpFront
            default:
                tally.unknownValues.append(
                    "\(pool.typeName(of: node)) \(quotedForMessage(id)) of \(productIDText(product)) has offerMode "
                        + "\(quotedForMessage(modeText)), not known to this version; the product's offers are not compared")
                return nil
            }
            guard let period = SubscriptionPeriod(storeText: durationText) else {
                throw error(node, .duration, "\(quotedForMessage(durationText)) is not an offer duration (THREE_DAYS … ONE_YEAR)")
            }
            phase.period = period
            let periods = try int(node, periodsAttribute) ?? 1
            guard (1...IntroOffer.maximumPeriods).contains(periods) else {
                throw error(node, periodsAttribute, "\(periods) is not a count of periods (1 … \(IntroOffer.maximumPeriods))")
            }
            phase.periods = periods
        }
        if phase.mode != .freeTrial {
            phase.prices = try offerPrices(node, source: source, lookups: &lookups, tally: &tally)
        }
        var offer = Offer(kind: source.kind, id: id, phases: [phase], location: pool.location(of: node))
        offer.eligibility = try eligibility(node, kind: source.kind)
        if let active = try bool(node, .active) {
            offer.isActive = active
            offer.stateText = active ? nil : "active: false"
        } else if source.kind != .offerCode {
            // Promotional and win-back offers have no state in the API: one that exists is offered.
            offer.isActive = true
        }
        if source.kind == .winBack {
            // Read (a value of the wrong kind is an error) but not compared (§4a): when and in which order
            // App Store shows a win-back offer is not what the app presents.
            _ = try date(node, .startDate)
            _ = try date(node, .endDate)
            _ = try string(node, .priority)
        }
        return offer
    }

    /// An offer's prices by territory: each row's price point `customerPrice` in its territory's currency (a free
    /// offer's rows, a territory and no price point, are never read here). A row the input holds whose price point
    /// or territory it lacks is a damaged input, for every offer kind: exit 2 at the row, never a dropped price.
    private func offerPrices(_ offer: NodeID, source: OfferSource, lookups: inout ASCLookups, tally: inout Tally)
        throws(CatalogReadError) -> [Territory: Money]
    {
        var prices: [Territory: Money] = [:]
        for link in pool.linked(offer, type: source.priceType) {
            let row = link.other
            let point = pool.firstLinked(row, type: source.pointType)
            let territoryNode = pool.firstLinked(row, type: types.territories)
                ?? point.flatMap { pool.firstLinked($0, type: types.territories) }
            guard let point, let territoryNode, let amountText = try string(point, .customerPrice) else {
                guard pool.isDefined(row) else {
                    // Known only by reference: the input does not hold the row at all (a partial input).
                    tally.unresolvedRows += 1
                    continue
                }
                throw unresolvedOfferPrice(row, of: offer, point: point, territory: territoryNode)
            }
            guard let amount = lookups.amount(amountText) else {
                throw error(point, .customerPrice, "\(quotedForMessage(amountText)) is not a decimal amount")
            }
            let (territory, currency) = try lookups.territory(territoryNode, builder: self, near: row)
            let money = Money(amount: amount, currency: currency)
            if let earlier = prices[territory], earlier != money {
                throw CatalogReadError(
                    "\(pool.typeName(of: offer)) \(quotedForMessage(pool.id(of: offer))) has two prices for "
                        + "\(territory.alpha2): \(earlier) and \(money)", at: pool.location(of: row))
            }
            prices[territory] = money
        }
        return prices
    }

    /// An offer's price row that the input holds but cannot price: what it lacks, located at the row.
    private func unresolvedOfferPrice(_ row: NodeID, of offer: NodeID, point: NodeID?, territory: NodeID?)
        -> CatalogReadError
    {
        let lacking: String
        if let point {
            lacking = pool.isDefined(point)
                ? "its price point \(quotedForMessage(pool.id(of: point))) has no customerPrice"
                : "its price point \(quotedForMessage(pool.id(of: point))) is not in the input"
        } else {
            lacking = "it points to no price point"
        }
        let what = territory == nil && point != nil ? "it names no territory" : lacking
        return CatalogReadError(
            "\(pool.typeName(of: row)) \(quotedForMessage(pool.id(of: row))) of \(pool.typeName(of: offer)) "
                + "\(quotedForMessage(pool.id(of: offer))): \(what), so the offer's price cannot be read",
            at: pool.location(of: row))
    }

    /// Who may redeem the offer, in the config's words (`NON_SPENDER` → `non-spender`).
    private func eligibility(_ node: NodeID, kind: Offer.Kind) throws(CatalogReadError) -> OfferEligibility? {
        var eligibility = OfferEligibility()
        switch kind {
        case .offerCode:
            if let customers = try strings(node, .customerEligibilities) {
                eligibility.customers = Set(customers.map {
                    $0.lowercased().replacingOccurrences(of: "_", with: "-")
                })
            }
            switch try string(node, .offerEligibility) {
            case "STACK_WITH_INTRO_OFFERS": eligibility.stackable = true
            case "REPLACE_INTRO_OFFERS": eligibility.stackable = false
            default: break
            }
        case .winBack:
            eligibility.paidMonths = try months(node, .customerEligibilityPaidSubscriptionDurationInMonths)
            eligibility.waitMonths = try months(node, .customerEligibilityWaitBetweenOffersInMonths)
            let name = ASCAttributeName.customerEligibilityTimeSinceLastSubscribedInMonths
            if let range = try range(node, name), let minimum = range.minimum, let maximum = range.maximum {
                guard minimum >= 0, minimum <= maximum else {
                    throw error(node, name, "minimum \(minimum) and maximum \(maximum) are not a range of months")
                }
                eligibility.lapsedMonths = minimum...maximum
            }
        case .promotional, .play:
            return nil
        }
        return eligibility == OfferEligibility() ? nil : eligibility
    }

    private func months(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> Int? {
        guard let months = try int(node, name) else { return nil }
        guard months >= 0 else { throw error(node, name, "\(months) is not a number of months") }
        return months
    }

    /// The subscription's monthly billing plan from its MONTHLY price rows (current ones, as for prices), limited
    /// to the territories of its MONTHLY plan availability when the input states them; none without such rows.
    func billingPlans(of subscription: NodeID, monthlyRows rows: [ASCPriceRow]) throws(CatalogReadError)
        -> [BillingPlan]
    {
        var (prices, _, _) = try select(rows)
        var isEnabled: Bool?
        if let available = try monthlyTerritories(of: subscription) {
            prices = prices.filter { available.contains($0.key) }
            isEnabled = !available.isEmpty
        }
        guard let first = prices.values.min(by: { $0.territory < $1.territory }) else { return [] }
        return [BillingPlan(type: .monthly, prices: prices.mapValues(\.money), isEnabled: isEnabled,
                            location: first.location)]
    }

    /// The territories of the subscription's MONTHLY plan availability, when the input states them in full.
    private func monthlyTerritories(of subscription: NodeID) throws(CatalogReadError) -> Set<Territory>? {
        var territories: Set<Territory>?
        for link in pool.linked(subscription, type: types.subscriptionPlanAvailabilities) {
            let plan = link.other
            guard try string(plan, .planType) == "MONTHLY", pool.statedAvailableTerritories.contains(plan) else {
                continue
            }
            for territory in pool.linked(plan, type: types.territories) {
                guard let code = Territory(code: pool.id(of: territory.other)) else { continue }
                territories = (territories ?? []).union([code])
            }
            territories = territories ?? []
        }
        return territories
    }
}
