import CatalogCore

/// Introductory offers: one record per territory, in effect on `asOf`, known only when the input states them.
extension ASCCatalogBuilder {
    /// The subscription's intro offers: nil unless the input states them (relationship data, a
    /// `…/introductoryOffers` document, or offers linked to it) and holds every one of them in full.
    func introOffers(of subscription: NodeID, lookups: inout ASCLookups, tally: inout Tally)
        throws(CatalogReadError) -> [IntroOffer]?
    {
        let links = pool.linked(subscription, type: types.subscriptionIntroductoryOffers)
        guard pool.statedIntroductoryOffers.contains(subscription) || !links.isEmpty else { return nil }
        var offers: [IntroOffer] = []
        for link in links {
            let offer = link.other
            guard pool.isDefined(offer), let modeText = try string(offer, .offerMode),
                  let durationText = try string(offer, .duration) else {
                tally.partialOffers += 1
                return nil
            }
            // Offers for the monthly-billing plan go with MONTHLY price rows, which are not prices either.
            if let plan = try string(offer, .targetSubscriptionPlanType), plan != "UPFRONT" { continue }
            if let start = try date(offer, .startDate), start > asOf { continue }
            if let end = try date(offer, .endDate), end <= asOf { continue }
            let mode: IntroOffer.Mode
            switch modeText {
            case "FREE_TRIAL": mode = .freeTrial
            case "PAY_AS_YOU_GO": mode = .payAsYouGo
            case "PAY_UP_FRONT": mode = .payUpFront
            default:
                // A mode Apple added after this version: the subscription's offers cannot be compared.
                tally.unknownValues.append(
                    "\(pool.typeName(of: offer)) \(quotedForMessage(pool.id(of: offer))) of subscription "
                    + "\(productIDText(subscription)) has offerMode \(quotedForMessage(modeText)), not known to this "
                    + "version; the subscription's introductory offers are not compared")
                return nil
            }
            guard let period = SubscriptionPeriod(storeText: durationText) else {
                throw error(offer, .duration, "\(quotedForMessage(durationText)) is not an offer duration (THREE_DAYS … ONE_YEAR)")
            }
            let periods = try int(offer, .numberOfPeriods) ?? 1
            guard (1...IntroOffer.maximumPeriods).contains(periods) else {
                throw error(offer, .numberOfPeriods,
                            "\(periods) is not a count of periods (1 … \(IntroOffer.maximumPeriods))")
            }
            let point = pool.firstLinked(offer, type: types.subscriptionPricePoints)
            let territoryNode = pool.firstLinked(offer, type: types.territories)
                ?? point.flatMap { pool.firstLinked($0, type: types.territories) }
            var territory: Territory?
            var price: Money?
            if let territoryNode {
                let (resolved, currency) = try lookups.territory(territoryNode, builder: self, near: offer)
                territory = resolved
                if mode != .freeTrial, let point, let amountText = try string(point, .customerPrice) {
                    guard let amount = lookups.amount(amountText) else {
                        throw error(point, .customerPrice, "\(quotedForMessage(amountText)) is not a decimal amount")
                    }
                    price = Money(amount: amount, currency: currency)
                }
            }
            offers.append(IntroOffer(mode: mode, period: period, periods: periods, price: price, territory: territory,
                                     location: pool.location(of: offer)))
        }
        return offers
    }
}
