import CatalogCore
import Foundation

/// Play offers read in full into `Product.offers` (DESIGN.md §4a, §5a.15; FORMATS.md "Offers, purchase options and
/// billing plans"), following the androidpublisher v3 discovery document (revision 20261026):
/// - a `SubscriptionOffer` is an offer of its base plan with every phase (`SubscriptionOfferPhase`: `duration`,
///   `recurrenceCount`, per region one of `free`, `price`, `relativeDiscount`, `absoluteDiscount`), its `state`
///   and its `targeting` (`acquisitionRule` or `upgradeRule`, each with a `TargetingRuleScope`);
/// - a `OneTimeProductOffer` (`…/oneTimeProducts/-/purchaseOptions/-/offers`) is an offer of its one-time product
///   under its `purchaseOptionId`, with one phase of discounts only (`absoluteDiscount`, `relativeDiscount`, or
///   `noOverride`: the purchase option's own price) and the window of its `discountedOffer` / `preOrderOffer`.
/// A phase's `free` is a free trial; `price` and the discounts are pay-as-you-go for `recurrenceCount` periods of
/// `duration`; `relativeDiscount` 0.5 is 50 % off.
extension PlayCatalogBuilder {
    /// `SubscriptionOffer.state` (Google adds values over time: an unknown one is read as not active).
    static let subscriptionOfferStates = ["STATE_UNSPECIFIED", "DRAFT", "ACTIVE", "INACTIVE"]
    /// `OneTimeProductOffer.state`.
    static let oneTimeOfferStates = ["STATE_UNSPECIFIED", "DRAFT", "ACTIVE", "CANCELLED", "INACTIVE"]
    /// `OneTimeProductOfferRegionalPricingAndAvailabilityConfig.availability`.
    private static let oneTimeOfferAvailabilities = ["AVAILABILITY_UNSPECIFIED", "AVAILABLE", "NO_LONGER_AVAILABLE"]
    /// The keys of a one-time offer's regional config that this version knows.
    private static let oneTimeOfferRegionKeys: Set<String> = ["regionCode", "availability", "absoluteDiscount",
                                                              "relativeDiscount", "noOverride"]

    /// `isActive` and `stateText` of an offer from its `state`: `ACTIVE` is active; `DRAFT`, `INACTIVE`,
    /// `CANCELLED` and any value this version does not know are not, and keep the store's word; an absent or
    /// `STATE_UNSPECIFIED` state says nothing (nil).
    static func activity(_ state: (text: String, node: JSONNode, isKnown: Bool)?) -> (isActive: Bool?, text: String?) {
        guard let state, state.text != "STATE_UNSPECIFIED" else { return (nil, nil) }
        return state.text == "ACTIVE" ? (true, nil) : (false, state.text)
    }

    /// The discounts a regional config states, each with its key: `relativeDiscount` (a fraction strictly between
    /// 0 and 1, "0.8 represents an 80% discount") as a percentage, `absoluteDiscount` (`Money`) as an amount.
    func discounts(in config: JSONNode,
                   context: JSONAccess) throws(CatalogReadError) -> [(key: String, discount: OfferDiscount)] {
        var result: [(key: String, discount: OfferDiscount)] = []
        if let amount = try context.object("absoluteDiscount", in: config) {
            result.append(("absoluteDiscount", .amount(try context.money(amount))))
        }
        if let relative = context.member("relativeDiscount", in: config) {
            guard let text = relative.value.numberText, let fraction = Double(text), fraction > 0, fraction < 1,
                  // Exact from the text (0.2 stays 0.2); Foundation's parser only for an exponent form like 5e-1.
                  let exact = Money.parseAmount(text) ?? Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
            else {
                throw context.error("expected a fraction between 0 and 1, found "
                                    + (relative.value.numberText ?? relative.value.typeName), at: relative)
            }
            result.append(("relativeDiscount", .percent(exact * 100)))
        }
        return result
    }

    /// Records a subscription offer in full, to be attached to its base plan by `attachFullOffers`.
    mutating func addSubscriptionOffer(_ node: JSONNode, id: String, basePlanKey: String,
                                       state: (text: String, node: JSONNode, isKnown: Bool)?, phases: [PlayOffer],
                                       in context: JSONAccess) throws(CatalogReadError) {
        let subject = "offer \(id) of base plan \(basePlanKey)"
        if phases.count > Offer.maximumPhases, let extra = try context.objects("phases", in: node)?.last {
            // "Must contain at least one and at most two entries" (SubscriptionOffer.phases).
            throw context.error("an offer has at most \(Offer.maximumPhases) phases, found \(phases.count)", at: extra)
        }
        var offerPhases: [OfferPhase] = []
        for (index, read) in phases.enumerated() {
            if index > 0 || !(state?.text == "ACTIVE" || state == nil), let key = read.unknownPricing {
                // The first phase of an active offer is remarked on by `addOffer` already.
                remarkUnknown("a phase priced by", key, of: subject, in: context,
                              consequence: "that region is left out of the offer's phase \(index + 1)")
            }
            let paid = read.regions.contains { if case .free = $0.pricing { false } else { true } }
            if paid, read.regions.contains(where: { $0.pricing == .free }) {
                remark("\(context.document.path): \(subject) has phase \(index + 1) free in some regions and paid "
                       + "in others; it is read as pay-as-you-go, and its free regions have no price")
            }
            var phase = OfferPhase(mode: read.regions.isEmpty ? nil : paid ? .payAsYouGo : .freeTrial,
                                   period: read.duration, periods: read.recurrenceCount, location: read.phaseLocation)
            for region in read.regions {
                switch region.pricing {
                case .free: break
                case .price(let money): phase.prices[region.territory] = money
                case .discount(let discount): phase.discounts[region.territory] = discount
                }
            }
            offerPhases.append(phase)
        }
        let activity = Self.activity(state)
        let offer = Offer(kind: .play, id: id, phases: offerPhases,
                          eligibility: try targeting(in: node, subject: subject, context: context),
                          isActive: activity.isActive, stateText: activity.text, location: context.location(of: node))
        fullOffers.append(PlayFullOffer(productKey: basePlanKey, offer: offer, documentPath: context.document.path,
                                        isOneTime: false))
    }

    /// `targeting`: the rule (`acquisitionRule` "User never had {scope} before", `upgradeRule` "User currently has
    /// {scope}") with its scope and, for upgrades, `oncePerUser`; nil when the offer states none (a
    /// developer-determined offer: the app decides who sees it).
    private mutating func targeting(in node: JSONNode, subject: String,
                                    context: JSONAccess) throws(CatalogReadError) -> OfferEligibility? {
        guard let targeting = try context.object("targeting", in: node) else { return nil }
        let acquisition = try context.object("acquisitionRule", in: targeting)
        let upgrade = try context.object("upgradeRule", in: targeting)
        if acquisition != nil, let upgrade {
            throw context.error("targeting has one rule, found both \"acquisitionRule\" and \"upgradeRule\"",
                                at: upgrade)
        }
        if let acquisition {
            return OfferEligibility(rule: .acquisition, scope: try scope(of: acquisition, subject: subject,
                                                                         context: context))
        }
        guard let upgrade else { return nil }
        _ = try context.period("billingPeriodDuration", in: upgrade)
        return OfferEligibility(rule: .upgrade, scope: try scope(of: upgrade, subject: subject, context: context),
                                oncePerUser: try context.bool("oncePerUser", in: upgrade))
    }

    /// A `TargetingRuleScope`: exactly one of `thisSubscription: {}`, `anySubscriptionInApp: {}`,
    /// `specificSubscriptionInApp: "<subscriptionId>"`; a scope Google added later is remarked and left unread.
    private mutating func scope(of rule: JSONNode, subject: String,
                                context: JSONAccess) throws(CatalogReadError) -> OfferEligibility.PlayScope? {
        guard let scope = try context.object("scope", in: rule) else {
            throw context.error("missing \"scope\"", at: rule)
        }
        var found: [(key: String, scope: OfferEligibility.PlayScope)] = []
        if try context.object("thisSubscription", in: scope) != nil { found.append(("thisSubscription", .thisSubscription)) }
        if try context.object("anySubscriptionInApp", in: scope) != nil {
            found.append(("anySubscriptionInApp", .anySubscription))
        }
        if let specific = try context.string("specificSubscriptionInApp", in: scope) {
            found.append(("specificSubscriptionInApp", .specific([specific.text])))
        }
        if found.isEmpty, let key = (scope.value.members?.map(\.key) ?? []).min() {
            remarkUnknown("a targeting scope", key, of: subject, in: context, consequence: "its scope is not compared")
            return nil
        }
        guard found.count == 1, let only = found.first else {
            let keys = found.isEmpty ? "none" : found.map { "\"\($0.key)\"" }.joined(separator: " and ")
            throw context.error("a targeting scope has exactly one of \"thisSubscription\", \"anySubscriptionInApp\", "
                                + "\"specificSubscriptionInApp\"; found \(keys)", at: scope)
        }
        return only.scope
    }

    /// Adds a `OneTimeProductOffer`: an offer of its one-time product under its purchase option, one phase of
    /// discounts per region (`noOverride` regions keep the option's price: no discount).
    mutating func addOneTimeOffer(_ node: JSONNode, in context: JSONAccess) throws(CatalogReadError) {
        try context.requireObject(node)
        carriesOneTimeOffers = true
        noteApp(try context.string("packageName", in: node))
        let productID = try context.requireString("productId", in: node)
        let optionID = try context.requireString("purchaseOptionId", in: node)
        let offerID = try context.requireString("offerId", in: node)
        let subject = "one-time offer \(offerID.text) of \(productID.text) purchase option \(optionID.text)"
        let state = try context.enumeration("state", in: node, known: Self.oneTimeOfferStates)
        if let state, !state.isKnown {
            remarkUnknown("state", state.text, of: subject, in: context, consequence: "it is read as not active")
        }

        var types: [(key: String, node: JSONNode)] = []
        for key in ["discountedOffer", "preOrderOffer", "gameRewardOffer"] {
            if let type = try context.object(key, in: node) { types.append((key, type)) }
        }
        if types.count > 1 {
            throw context.error("a one-time offer has one type, found both \"\(types[0].key)\" and \"\(types[1].key)\"",
                                at: types[1].node)
        }
        var window: OfferWindow?
        if let type = types.first, type.key != "gameRewardOffer" {
            let start = try context.string("startTime", in: type.node)?.text
            let end = try context.string("endTime", in: type.node)?.text
            if start != nil || end != nil { window = OfferWindow(start: start, end: end) }
        }

        var phase = OfferPhase(location: context.location(of: node))
        var seen: Set<Territory> = []
        for config in try context.objects("regionalPricingAndAvailabilityConfigs", in: node) ?? [] {
            let region = try context.territory("regionCode", in: config)
            guard seen.insert(region.territory).inserted else {
                // "Must not have duplicate entries with the same region_code."
                throw context.error("region \"\(region.territory)\" is listed twice", at: region.node)
            }
            if let availability = try context.enumeration("availability", in: config,
                                                          known: Self.oneTimeOfferAvailabilities), !availability.isKnown {
                remarkUnknown("availability", availability.text, of: "\(subject) region \(region.territory)",
                              in: context, consequence: "it is not read")
            }
            var found = try discounts(in: config, context: context).map { (key: $0.key, discount: Optional($0.discount)) }
            if try context.object("noOverride", in: config) != nil { found.append(("noOverride", nil)) }
            if found.isEmpty,
               let key = (config.value.members?.map(\.key) ?? []).filter({ !Self.oneTimeOfferRegionKeys.contains($0) }).min() {
                remarkUnknown("a region priced by", key, of: subject, in: context,
                              consequence: "region \(region.territory) is left out of the offer")
                continue
            }
            guard found.count == 1, let only = found.first else {
                let keys = found.isEmpty ? "none" : found.map { "\"\($0.key)\"" }.joined(separator: " and ")
                throw context.error("a one-time offer region has exactly one of \"absoluteDiscount\", "
                                    + "\"relativeDiscount\", \"noOverride\"; found \(keys)", at: config)
            }
            if let discount = only.discount { phase.discounts[region.territory] = discount }
        }
        let activity = Self.activity(state)
        let offer = Offer(kind: .play, id: offerID.text, phases: [phase], isActive: activity.isActive,
                          stateText: activity.text, purchaseOption: optionID.text, window: window,
                          location: context.location(of: node))
        fullOffers.append(PlayFullOffer(productKey: productID.text, offer: offer, documentPath: context.document.path,
                                        isOneTime: true))
    }

    /// Gives every base plan (when subscription offers are carried) and every one-time product of the 2025 model
    /// (when one-time offers are carried) `offers: []`, then attaches each offer read, in reading order.
    mutating func attachFullOffers() {
        if carriesOffers {
            for indices in basePlanIndices.values {
                for index in indices { products[index].offers = [] }
            }
        }
        if carriesOneTimeOffers {
            for indices in oneTimeProductIndices.values {
                for index in indices { products[index].offers = [] }
            }
        }
        for full in fullOffers {
            guard let indices = full.isOneTime ? oneTimeProductIndices[full.productKey]
                    : basePlanIndices[full.productKey] else {
                // Subscription offers of a missing base plan are remarked on by `attachOffers` already.
                if full.isOneTime {
                    remark("play-json: \(full.documentPath): one-time offer '\(full.offer.id)' is for one-time "
                           + "product '\(full.productKey)', which is not in the input")
                }
                continue
            }
            for index in indices { products[index].offers?.append(full.offer) }
        }
    }
}

/// A Play offer read in full, waiting for its product: a base plan (`subscriptionId:basePlanId`) or a one-time
/// product (`productId`).
struct PlayFullOffer {
    /// The product it belongs to.
    var productKey: String
    /// The offer.
    var offer: Offer
    /// The document it was read from.
    var documentPath: String
    /// A one-time product's offer rather than a subscription offer.
    var isOneTime: Bool
}
