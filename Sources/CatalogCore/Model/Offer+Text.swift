/// What an offer phase asks in one territory: a price, or a discount on the regular price.
public enum OfferPhaseValue: Hashable, Sendable, CustomStringConvertible {
    /// A price (pay-as-you-go: each period's; pay-up-front: the one payment).
    case price(Money)
    /// A discount on the regular price.
    case discount(OfferDiscount)

    /// `4.99 USD`, `-50%`.
    public var description: String {
        switch self {
        case .price(let money): money.description
        case .discount(let discount): discount.description
        }
    }
}

extension OfferPhase {
    /// Mode and length without any price: `pay-as-you-go P1M×3`, `free-trial P1W`.
    public var terms: String {
        var parts: [String] = []
        if let mode { parts.append(mode.rawValue) }
        if let period {
            var text = period.description
            if let periods, periods != 1 { text += "×\(periods)" }
            parts.append(text)
        }
        return parts.joined(separator: " ")
    }

    /// The discount that applies in every territory: the stated one, else the one every territory states
    /// alike (Play writes a discount per region; 50 % in each reads as `-50%`). Nil when the phase has prices
    /// or its discounts differ between territories.
    public var discountEverywhere: OfferDiscount? {
        if let discount { return discount }
        guard prices.isEmpty, let first = discounts.first?.value,
              discounts.values.allSatisfy({ $0 == first }) else { return nil }
        return first
    }

    /// Whether the phase states any price or discount at all. A phase that states none (a free trial, a StoreKit
    /// win-back offer, whose file carries no price) has nothing to compare per territory.
    public var statesValues: Bool { !prices.isEmpty || !discounts.isEmpty || discount != nil }

    /// What the phase asks in a territory: its price there, else its discount there, else its discount
    /// everywhere; nil when it states none for the territory.
    public func value(in territory: Territory) -> OfferPhaseValue? {
        if let price = prices[territory] { return .price(price) }
        if let discount = discounts[territory] ?? discount { return .discount(discount) }
        return nil
    }

    /// Canonical text in one territory (`pay-as-you-go P1M×3 4.99 USD`), or without a territory the terms and
    /// the discount everywhere (`pay-as-you-go P1Y -50%`).
    public func text(in territory: Territory?) -> String {
        let stated = territory.flatMap { self.value(in: $0) } ?? discountEverywhere.map(OfferPhaseValue.discount)
        return [terms, stated?.description ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

extension Offer.Kind {
    /// How messages name an offer of this kind: `promotional offer`, `offer code`, `win-back offer`,
    /// `Play offer`.
    public var noun: String {
        switch self {
        case .promotional: "promotional offer"
        case .offerCode: "offer code"
        case .winBack: "win-back offer"
        case .play: "Play offer"
        }
    }
}

extension Offer {
    /// Canonical text of the whole offer in one territory (DESIGN.md §5a.15): its phases in order, each with its
    /// price or discount there (`free-trial P7D, pay-as-you-go P1M×3 4.99 EUR`); without a territory, the terms
    /// and the discounts that apply everywhere (`pay-as-you-go P1Y -50%`).
    public func text(in territory: Territory?) -> String {
        phases.map { $0.text(in: territory) }.joined(separator: ", ")
    }

    /// Canonical text in the territory that best describes the offer: `base` when a phase states a value
    /// there, else the first such territory by code, else the text without a territory.
    public func summary(preferring base: Territory) -> String {
        let priced = Set(phases.flatMap { Array($0.prices.keys) + Array($0.discounts.keys) })
        if priced.isEmpty || priced.contains(base) { return text(in: priced.isEmpty ? nil : base) }
        return text(in: priced.min())
    }

    /// `promotional offer 'spring_promo'`; one-time offers with their purchase option (`Play offer 'buy/sale'`).
    public var name: String {
        "\(kind.noun) '\(purchaseOption.map { "\($0)/\(id)" } ?? id)'"
    }

    /// `active`, or the store's word for any other state (`DRAFT`, `INACTIVE`), `inactive` when it gives none.
    public var stateDescription: String {
        isActive == false ? stateText ?? "inactive" : "active"
    }

    /// The offer with each phase's `basePrice` (the config's `price:`) stated as the price in `base`, the
    /// config's base territory, so it compares per territory like every other price.
    public func resolvingBasePrice(in base: Territory) -> Offer {
        guard phases.contains(where: { $0.basePrice != nil }) else { return self }
        var offer = self
        offer.phases = phases.map { phase in
            var phase = phase
            if let basePrice = phase.basePrice {
                if phase.prices[base] == nil { phase.prices[base] = basePrice }
                phase.basePrice = nil
            }
            return phase
        }
        return offer
    }
}

extension OfferEligibility {
    /// Canonical text of each stated condition, in a fixed order: `customers: [expired, new]`,
    /// `stackable: false`, `paidMonths: 6`, `lapsedMonths: 1-12`, `waitMonths: 3`, `rule: acquisition`,
    /// `scope: this-subscription`, `oncePerUser: true`. Keyed by the condition's name.
    public var conditions: [(name: String, text: String)] {
        var result: [(String, String)] = []
        if let customers { result.append(("customers", "[\(customers.sorted().joined(separator: ", "))]")) }
        if let stackable { result.append(("stackable", String(stackable))) }
        if let paidMonths { result.append(("paidMonths", String(paidMonths))) }
        if let lapsedMonths { result.append(("lapsedMonths", "\(lapsedMonths.lowerBound)-\(lapsedMonths.upperBound)")) }
        if let waitMonths { result.append(("waitMonths", String(waitMonths))) }
        if let rule { result.append(("rule", rule.rawValue)) }
        if let scope { result.append(("scope", scope.description)) }
        if let oncePerUser { result.append(("oncePerUser", String(oncePerUser))) }
        return result
    }

    /// Every stated condition as one line: `customers: [expired, new], stackable: false`.
    public var text: String {
        conditions.map { "\($0.name): \($0.text)" }.joined(separator: ", ")
    }
}

extension PurchaseOption {
    /// `rent P30D, US 2.99 USD`: the kind, then the prices by territory code.
    public var summary: String {
        ([kind.description] + prices.listedByTerritory).joined(separator: ", ")
    }
}

extension BillingPlan {
    /// `monthly, DE 5.49 EUR, GB 4.99 GBP`: the type, then the monthly amounts by territory code.
    public var summary: String {
        ([type.rawValue] + prices.listedByTerritory).joined(separator: ", ")
    }
}
