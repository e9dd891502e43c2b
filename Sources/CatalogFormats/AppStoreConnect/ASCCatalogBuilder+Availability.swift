import CatalogCore

/// Where a product is sold (FORMATS.md "ASC availability"): the `availableTerritories` of an in-app purchase's
/// `inAppPurchaseAvailability`, or of a subscription's up-front `planAvailabilities` (API 4.4; its deprecated
/// `subscriptionAvailability` is read too). A price row for a territory outside them is not a price there: it is
/// kept as an `unavailable` uncompared price (exported, never compared). Without availability data nothing is
/// limited and `state` alone says whether the product is for sale.
extension ASCCatalogBuilder {
    /// The territories the input says the product is sold in; nil when it states none of its availabilities'
    /// territories in full.
    func availableTerritories(of product: NodeID) throws(CatalogReadError) -> Set<Territory>? {
        var availabilities = pool.linked(product, type: types.inAppPurchaseAvailabilities).map(\.other)
            + pool.linked(product, type: types.subscriptionAvailabilities).map(\.other)
        for link in pool.linked(product, type: types.subscriptionPlanAvailabilities) {
            // A MONTHLY plan's territories are where the billing plan is offered, not the product.
            if let plan = try string(link.other, .planType), plan != "UPFRONT" { continue }
            availabilities.append(link.other)
        }
        let stated = availabilities.filter { pool.statedAvailableTerritories.contains($0) }
        guard !stated.isEmpty else { return nil }
        var territories: Set<Territory> = []
        // Room for every ISO 3166-1 code (249; the App Store sells in 175), so the set is never rehashed.
        territories.reserveCapacity(256)
        for availability in stated {
            for link in pool.linked(availability, type: types.territories) {
                let id = pool.id(of: link.other)
                guard let territory = Territory(code: id) else {
                    throw CatalogReadError(
                        "\(pool.typeName(of: availability)) \(quotedForMessage(pool.id(of: availability))) "
                            + "availableTerritories: \(quotedForMessage(id)) is not an ISO 3166-1 territory code",
                        at: pool.isDefined(link.other) ? pool.location(of: link.other) : pool.location(of: availability))
                }
                territories.insert(territory)
            }
        }
        return territories
    }

    /// Moves the product's current prices outside `available` to `unavailable` uncompared prices.
    /// Keeps `available` as the product's available territories (`subscription-price-matrix-incomplete`,
    /// `price-missing-in-store` in equalized territories).
    func limitPrices(of product: inout Product, to available: Set<Territory>?) {
        guard let available else { return }
        product.availableTerritories = available
        let unsold = product.prices.values.filter { !available.contains($0.territory) }
            .sorted { $0.territory < $1.territory }
        guard !unsold.isEmpty else { return }
        for price in unsold {
            product.prices[price.territory] = nil
            product.priceOrigins[price.territory] = nil
            product.uncomparedPrices.append(UncomparedPrice(label: UncomparedPrice.unavailableLabel,
                                                            territory: price.territory, amount: price.money))
        }
        product.uncomparedPrices.sort()
        if let first = product.prices.values.min(by: { $0.territory < $1.territory }), let location = first.location {
            product.fieldLocations[.price] = location
        } else {
            product.fieldLocations[.price] = nil
        }
    }
}
