import CatalogCore

/// How one region prices a phase of a subscription offer.
enum PlayOfferPricing: Hashable {
    /// `free: {}` — a free trial.
    case free
    /// `price: Money` — an absolute price per recurrence.
    case price(Money)
    /// `relativeDiscount` / `absoluteDiscount` — relative to the prorated base plan price; the resulting
    /// amount depends on Play's proration and rounding, so it is kept as the discount, never computed.
    case discount(OfferDiscount)
}

/// One phase of a subscription offer, per region; the first phase of an active offer is what intro offers need.
struct PlayOffer {
    /// `subscriptionId:basePlanId` of the base plan it extends.
    var basePlanKey: String
    /// The offer ID.
    var offerID: String
    /// The path of the document it was read from.
    var documentPath: String
    /// Where the offer was read.
    var location: SourceLocation
    /// Where the phase was read.
    var phaseLocation: SourceLocation
    /// The phase's duration (one recurrence).
    var duration: SubscriptionPeriod
    /// How many times the phase repeats.
    var recurrenceCount: Int
    /// The phase's regional configs.
    var regions: [(territory: Territory, pricing: PlayOfferPricing, location: SourceLocation)]
    /// The key of a region's pricing this version does not know (none of `free`, `price`, `relativeDiscount`,
    /// `absoluteDiscount`, but another key), if any: then the offer's intro offers cannot be read.
    var unknownPricing: String?

    /// The intro offers this offer defines for a base plan whose billing period is `basePeriod`, one per region.
    ///
    /// Mode rule (Play Console's three phase kinds): a `free` phase is a free trial of `duration` ×
    /// `recurrenceCount`. A priced or discounted phase is pay-as-you-go ("discounted recurring payment") when it
    /// repeats (`recurrenceCount` > 1) or when its single recurrence is exactly one billing period of the base
    /// plan; otherwise — one recurrence of any other length, or a base plan without a period — it is
    /// pay-up-front ("single payment" covering `duration`).
    ///
    /// Each carries the offer's key: the intro rule names the Play offer it matched, which the offer rules then do
    /// not report again (`IntroOfferRules.storeOffer`).
    func introOffers(basePeriod: SubscriptionPeriod?) -> [IntroOffer] {
        let key = OfferKey(kind: .play, id: offerID)
        return regions.map { region in
            let paidMode: IntroOffer.Mode =
                recurrenceCount > 1 || (basePeriod != nil && duration == basePeriod) ? .payAsYouGo : .payUpFront
            switch region.pricing {
            case .free:
                return IntroOffer(mode: .freeTrial, period: duration, periods: recurrenceCount, price: nil,
                                  territory: region.territory, location: region.location, offer: key)
            case .price(let money):
                return IntroOffer(mode: paidMode, period: duration, periods: recurrenceCount, price: money,
                                  territory: region.territory, location: region.location, offer: key)
            case .discount:
                return IntroOffer(mode: paidMode, period: duration, periods: recurrenceCount, price: nil,
                                  territory: region.territory, location: region.location, offer: key)
            }
        }
    }
}

extension PlayCatalogBuilder {
    private static let basePlanStates = ["STATE_UNSPECIFIED", "DRAFT", "ACTIVE", "INACTIVE"]
    /// The keys of a phase's regional config that this version knows.
    private static let phaseRegionKeys: Set<String> = ["regionCode", "free", "price", "relativeDiscount",
                                                       "absoluteDiscount"]
    private static let basePlanTypes: [(key: String, kind: ProductKind)] = [
        ("autoRenewingBasePlanType", .autoRenewable),
        ("prepaidBasePlanType", .nonRenewing),
        ("installmentsBasePlanType", .autoRenewable),
    ]

    /// Adds a `monetization.subscriptions` resource: each base plan is a product `subscriptionId:basePlanId`
    /// in the group named after the subscription.
    mutating func addSubscription(_ node: JSONNode, in context: JSONAccess) throws(CatalogReadError) {
        try context.requireObject(node)
        noteApp(try context.string("packageName", in: node))
        let productID = try context.requireString("productId", in: node)
        noteGroup(productID.text, location: context.location(of: productID.node))
        for plan in try context.objects("basePlans", in: node) ?? [] {
            let product = try basePlanProduct(plan, subscriptionID: productID, in: context)
            // The plan that pre-2022 clients (and a RevenueCat product set up before February 2023, named by the
            // subscription alone) buy: `AutoRenewingBasePlanType.legacyCompatible` (androidpublisher v3).
            if let type = try context.object("autoRenewingBasePlanType", in: plan),
               try context.bool("legacyCompatible", in: type) == true {
                backwardCompatiblePlans[ProductID(productID.text)] = product.id
            }
            if let state = try context.enumeration("state", in: plan, known: Self.basePlanStates), !state.isKnown {
                remarkUnknown("state", state.text, of: "base plan \(product.id.rawValue)", in: context,
                              consequence: "its availability is not compared")
            }
            let index = append(product)
            basePlanIndices[product.id.rawValue, default: []].append(index)
        }
    }

    private func basePlanProduct(_ plan: JSONNode, subscriptionID: (text: String, node: JSONNode),
                                 in context: JSONAccess) throws(CatalogReadError) -> Product {
        let basePlanID = try context.requireString("basePlanId", in: plan)
        var product = Product(id: ProductID("\(subscriptionID.text):\(basePlanID.text)"),
                              groupKey: subscriptionID.text, location: context.location(of: plan))
        product.fieldLocations[.id] = context.location(of: basePlanID.node)
        product.fieldLocations[.group] = context.location(of: subscriptionID.node)

        var planTypes: [(key: String, kind: ProductKind, node: JSONNode)] = []
        for type in Self.basePlanTypes {
            if let node = try context.object(type.key, in: plan) { planTypes.append((type.key, type.kind, node)) }
        }
        if planTypes.count > 1 {
            throw context.error("a base plan has one type, found both \"\(planTypes[0].key)\" and "
                                + "\"\(planTypes[1].key)\"", at: planTypes[1].node)
        }
        if let type = planTypes.first {
            product.kind = type.kind
            product.fieldLocations[.type] = context.location(of: type.node)
            if let period = try context.period("billingPeriodDuration", in: type.node) {
                product.period = period.period
                product.fieldLocations[.period] = context.location(of: period.node)
            }
        }

        if let state = try context.enumeration("state", in: plan, known: Self.basePlanStates), state.isKnown {
            product.clearedForSale = state.text == "STATE_UNSPECIFIED" ? nil : state.text == "ACTIVE"
            product.fieldLocations[.clearedForSale] = context.location(of: state.node)
        }

        if let configs = try context.objects("regionalConfigs", in: plan) {
            // A region may list no price when the plan is not offered to new subscribers there.
            try addRegionalPrices(configs, to: &product, in: context) { config throws(CatalogReadError) in
                _ = try context.bool("newSubscriberAvailability", in: config)
            }
        }
        if let other = try context.object("otherRegionsConfig", in: plan) {
            product.uncomparedPrices += try otherRegionsPrices(other, in: context)
        }
        return product
    }

    /// Prices from a list of regional configs (`{regionCode, price, …}`); `validate` checks a config's other keys.
    func addRegionalPrices(_ configs: [JSONNode], to product: inout Product, in context: JSONAccess,
                           validate: (JSONNode) throws(CatalogReadError) -> Void) throws(CatalogReadError) {
        if let first = configs.first { product.fieldLocations[.price] = context.location(of: first) }
        for config in configs {
            let region = try context.territory("regionCode", in: config)
            try validate(config)
            guard let priceNode = try context.object("price", in: config) else { continue }
            if product.prices[region.territory] != nil {
                throw context.error("region \"\(region.territory)\" is listed twice", at: region.node)
            }
            product.prices[region.territory] = Price(territory: region.territory, money: try context.money(priceNode),
                                                     location: context.location(of: config))
        }
    }

    /// `usdPrice` / `eurPrice` of an `otherRegionsConfig` or `newRegionsConfig`: prices for regions Play may
    /// launch later, not for a territory, so never compared.
    func otherRegionsPrices(_ node: JSONNode, in context: JSONAccess) throws(CatalogReadError) -> [UncomparedPrice] {
        var result: [UncomparedPrice] = []
        for key in ["usdPrice", "eurPrice"] {
            if let priceNode = try context.object(key, in: node) {
                result.append(UncomparedPrice(label: "other-regions", amount: try context.money(priceNode)))
            }
        }
        return result
    }

    /// Adds a `SubscriptionOffer`: in full as an offer of its base plan (`PlayCatalogBuilder+Offers`), and, when
    /// active (state `ACTIVE` or absent), its first phase as intro offers. Every offer is checked for
    /// well-formedness.
    mutating func addOffer(_ node: JSONNode, in context: JSONAccess) throws(CatalogReadError) {
        try context.requireObject(node)
        noteApp(try context.string("packageName", in: node))
        let productID = try context.requireString("productId", in: node)
        let basePlanID = try context.requireString("basePlanId", in: node)
        let offerID = try context.requireString("offerId", in: node)
        let basePlanKey = "\(productID.text):\(basePlanID.text)"
        let state = try context.enumeration("state", in: node, known: Self.basePlanStates)
        guard let phases = try context.objects("phases", in: node), !phases.isEmpty else {
            throw context.error("an offer has at least one phase; \"phases\" is missing or empty", at: node)
        }
        var parsed: [PlayOffer] = []
        for phase in phases {
            parsed.append(try offerPhase(phase, in: context, basePlanKey: basePlanKey, offerID: offerID.text,
                                         location: context.location(of: node)))
        }
        let subject = "offer \(offerID.text) of base plan \(basePlanKey)"
        try addSubscriptionOffer(node, id: offerID.text, basePlanKey: basePlanKey, state: state, phases: parsed,
                                 in: context)
        if let state, !state.isKnown {
            remarkUnknown("state", state.text, of: subject, in: context,
                          consequence: "the intro offers of that base plan are not compared")
            unreadableOfferPlans.insert(basePlanKey)
            return
        }
        guard state == nil || state?.text == "ACTIVE", let first = parsed.first else { return }
        if let unknown = first.unknownPricing {
            remarkUnknown("a phase priced by", unknown, of: subject, in: context,
                          consequence: "the intro offers of that base plan are not compared")
            unreadableOfferPlans.insert(basePlanKey)
            return
        }
        offers.append(first)
    }

    private func offerPhase(_ phase: JSONNode, in context: JSONAccess, basePlanKey: String, offerID: String,
                            location: SourceLocation) throws(CatalogReadError) -> PlayOffer {
        guard let duration = try context.period("duration", in: phase) else {
            throw context.error("missing \"duration\"", at: phase)
        }
        let recurrences = try context.int("recurrenceCount", in: phase, range: 1...Int(Int32.max)) ?? 1
        var regions: [(territory: Territory, pricing: PlayOfferPricing, location: SourceLocation)] = []
        var unknownPricing: String?
        for config in try context.objects("regionalConfigs", in: phase) ?? [] {
            let region = try context.territory("regionCode", in: config)
            if regions.contains(where: { $0.territory == region.territory }) {
                // "exactly one entry for each region" (SubscriptionOfferPhase.regionalConfigs).
                throw context.error("region \"\(region.territory)\" is listed twice", at: region.node)
            }
            var pricings: [(key: String, pricing: PlayOfferPricing)] = []
            if try context.object("free", in: config) != nil { pricings.append(("free", .free)) }
            if let price = try context.object("price", in: config) {
                pricings.append(("price", .price(try context.money(price))))
            }
            for discount in try discounts(in: config, context: context) {
                pricings.append((discount.key, .discount(discount.discount)))
            }
            // Keys are spelled out only for a phase region priced in none of the known ways.
            if pricings.isEmpty,
               let key = (config.value.members?.map(\.key) ?? []).filter({ !Self.phaseRegionKeys.contains($0) }).min() {
                // A way of pricing a phase that Google added after this version.
                unknownPricing = unknownPricing ?? key
                continue
            }
            guard pricings.count == 1, let pricing = pricings.first else {
                let found = pricings.isEmpty ? "none" : pricings.map { "\"\($0.key)\"" }.joined(separator: " and ")
                throw context.error("a phase region has exactly one of \"free\", \"price\", \"relativeDiscount\", "
                                    + "\"absoluteDiscount\"; found \(found)", at: config)
            }
            regions.append((region.territory, pricing.pricing, context.location(of: config)))
        }
        return PlayOffer(basePlanKey: basePlanKey, offerID: offerID, documentPath: context.document.path,
                         location: location, phaseLocation: context.location(of: phase), duration: duration.period,
                         recurrenceCount: recurrences,
                         regions: regions, unknownPricing: unknownPricing)
    }

    /// When the input carries offers, gives every base plan `[]` and then the intro offers of its active offers.
    mutating func attachOffers() {
        guard carriesOffers else { return }
        for indices in basePlanIndices.values {
            for index in indices { products[index].introOffers = [] }
        }
        defer {
            for key in unreadableOfferPlans {
                for index in basePlanIndices[key] ?? [] {
                    products[index].introOffers = nil
                    products[index].fieldLocations[.introOffer] = nil
                }
            }
        }
        for offer in offers {
            guard let indices = basePlanIndices[offer.basePlanKey] else {
                remark("play-json: \(offer.documentPath): offer '\(offer.offerID)' is for base plan "
                       + "'\(offer.basePlanKey)', which is not in the input")
                continue
            }
            for index in indices {
                let intro = offer.introOffers(basePeriod: products[index].period)
                products[index].introOffers = (products[index].introOffers ?? []) + intro
                if products[index].fieldLocations[.introOffer] == nil {
                    products[index].fieldLocations[.introOffer] = offer.location
                }
            }
        }
    }
}
