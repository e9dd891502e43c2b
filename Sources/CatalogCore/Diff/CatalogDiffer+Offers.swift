import Foundation

/// Offers, billing plans and purchase options in a diff (DESIGN.md §2a, §4a): added and removed ones, and
/// changes to their state, terms, prices or discounts per territory, eligibility and window. What a reviewer
/// must see on a live offer (a price cut, a deeper discount, a new free phase) carries a `remark`.
///
/// Within one format a list that appears or disappears is a change; between two store catalogs of different
/// formats only kinds both inputs carry are compared, and only values both sides state (as `check` would).
/// A config against a store catalog takes `check`'s findings instead (`offerChange(from:)`).
extension CatalogDiffer {
    /// The field a finding on an offer, billing plan or purchase option changes, with its item (the finding
    /// field after `offer:`, `billingPlan:` or `purchaseOption:`); nil for any other finding.
    static func offerChange(from finding: Finding, field: DiffField, configIsNew: Bool) -> FieldChange? {
        guard [.offer, .billingPlan, .purchaseOption].contains(field),
              finding.field.rawValue.hasPrefix(field.rawValue + ":") else { return nil }
        let item = String(finding.field.rawValue.dropFirst(field.rawValue.count + 1))
        return FieldChange(field: field, territory: finding.territory,
                           old: configIsNew ? finding.actual : finding.expected,
                           new: configIsNew ? finding.expected : finding.actual, item: item)
    }

    /// Offer, billing-plan and purchase-option changes of one product between two catalogs that are both
    /// configs or both stores.
    func offerChanges(_ before: Product, in old: Catalog, _ after: Product, in new: Catalog,
                      sameFormat: Bool) -> [FieldChange] {
        offers(before, in: old, after, in: new, sameFormat: sameFormat)
            + billingPlans(before, in: old, after, in: new, sameFormat: sameFormat)
            + purchaseOptions(before, after, sameFormat: sameFormat)
    }

    // MARK: - Offers

    private func offers(_ before: Product, in old: Catalog, _ after: Product, in new: Catalog,
                        sameFormat: Bool) -> [FieldChange] {
        let kinds: Set<Offer.Kind>
        let oldOffers: [Offer]
        let newOffers: [Offer]
        if sameFormat {
            guard before.offers != nil || after.offers != nil else { return [] }
            (kinds, oldOffers, newOffers) = (Set(Offer.Kind.allCases), before.offers ?? [], after.offers ?? [])
        } else {
            guard let beforeOffers = before.offers, let afterOffers = after.offers else { return [] }
            kinds = old.capabilities.offerKinds.intersection(new.capabilities.offerKinds)
            (oldOffers, newOffers) = (beforeOffers, afterOffers)
        }
        func index(_ offers: [Offer], _ catalog: Catalog) -> [OfferKey: Offer] {
            Dictionary(offers.filter { kinds.contains($0.kind) }.map { ($0.key, $0.resolvingBasePrice(in: catalog.baseTerritory)) },
                       uniquingKeysWith: { first, _ in first })
        }
        let was = index(oldOffers, old)
        let now = index(newOffers, new)
        var changes: [FieldChange] = []
        for key in Set(was.keys).union(now.keys).sorted() {
            switch (was[key], now[key]) {
            case let (.some(offer), nil):
                changes.append(FieldChange(field: .offer, old: offer.summary(preferring: old.baseTerritory), new: nil,
                                           item: key.description))
            case let (nil, .some(offer)):
                changes.append(FieldChange(field: .offer, old: nil, new: offer.summary(preferring: new.baseTerritory),
                                           item: key.description))
            case let (.some(previous), .some(next)):
                changes += offerChanges(previous, next, sameFormat: sameFormat)
            case (nil, nil):
                break
            }
        }
        return changes
    }

    /// One offer on both sides: state, terms, each territory's prices or discounts, eligibility, window.
    private func offerChanges(_ previous: Offer, _ next: Offer, sameFormat: Bool) -> [FieldChange] {
        let item = previous.key.description
        let live = previous.isActive != false && next.isActive != false
        var changes: [FieldChange] = []
        if sameFormat || (previous.isActive != nil && next.isActive != nil),
           previous.stateDescription != next.stateDescription {
            changes.append(FieldChange(field: .offer, old: previous.stateDescription, new: next.stateDescription,
                                       item: "\(item):state"))
        }
        let (oldTerms, newTerms) = (previous.text(in: nil), next.text(in: nil))
        if oldTerms != newTerms {
            changes.append(FieldChange(field: .offer, old: oldTerms, new: newTerms, item: item,
                                       remark: live ? termsRemark(previous, next) : nil))
        }
        if previous.phases.count == next.phases.count {
            var territories: Set<Territory> = []
            for phase in previous.phases + next.phases {
                territories.formUnion(phase.prices.keys)
                territories.formUnion(phase.discounts.keys)
            }
            for territory in territories.sorted() {
                let was = previous.phases.map { $0.value(in: territory) }
                let now = next.phases.map { $0.value(in: territory) }
                guard was != now else { continue }
                let stated = (was.contains { $0 != nil }, now.contains { $0 != nil })
                // Across formats a territory one side does not state is not a change.
                guard sameFormat || (stated.0 && stated.1) else { continue }
                changes.append(valueChange(territory, item: item, was: was, now: now, stated: stated,
                                           previous: previous, next: next, live: live))
            }
        }
        let (oldEligibility, newEligibility) = eligibilityTexts(previous.eligibility, next.eligibility,
                                                                sameFormat: sameFormat)
        if oldEligibility != newEligibility {
            changes.append(FieldChange(field: .offer, old: oldEligibility, new: newEligibility,
                                       item: "\(item):eligibility"))
        }
        let oldWindow = previous.window.map(windowText)
        let newWindow = next.window.map(windowText)
        if oldWindow != newWindow, sameFormat || (oldWindow != nil && newWindow != nil) {
            changes.append(FieldChange(field: .offer, old: oldWindow, new: newWindow, item: "\(item):window"))
        }
        return changes
    }

    /// One territory's change of an offer: both texts, the percent when exactly one phase's price changed in
    /// one currency, and a remark for a cut on a live offer.
    private func valueChange(_ territory: Territory, item: String, was: [OfferPhaseValue?], now: [OfferPhaseValue?],
                             stated: (Bool, Bool), previous: Offer, next: Offer, live: Bool) -> FieldChange {
        let changed = zip(was, now).filter { $0 != $1 }
        var percent: Decimal?
        var remark: String?
        if changed.count == 1, let pair = changed.first {
            switch (pair.0, pair.1) {
            case let (.price(oldPrice)?, .price(newPrice)?) where oldPrice.currency == newPrice.currency:
                percent = Self.percent(from: oldPrice.amount, to: newPrice.amount)
                if live, newPrice.amount < oldPrice.amount { remark = "price cut on a live offer" }
            case let (.discount(.percent(oldCut))?, .discount(.percent(newCut))?):
                if live, newCut > oldCut { remark = "deeper discount on a live offer" }
            default:
                break
            }
        }
        return FieldChange(field: .offer, territory: territory, old: stated.0 ? previous.text(in: territory) : nil,
                           new: stated.1 ? next.text(in: territory) : nil, percent: percent, item: item,
                           remark: remark)
    }

    /// A free phase the offer did not have, or a deeper discount everywhere.
    private func termsRemark(_ previous: Offer, _ next: Offer) -> String? {
        func freePhases(_ offer: Offer) -> Int { offer.phases.filter { $0.mode == .freeTrial }.count }
        if freePhases(next) > freePhases(previous) { return "new free phase on a live offer" }
        let deeper = zip(previous.phases, next.phases).contains { before, after in
            if case .percent(let oldCut)? = before.discountEverywhere, case .percent(let newCut)? = after.discountEverywhere {
                return newCut > oldCut
            }
            return false
        }
        return deeper ? "deeper discount on a live offer" : nil
    }

    /// Eligibility as text; across formats only the conditions both sides state.
    private func eligibilityTexts(_ before: OfferEligibility?, _ after: OfferEligibility?,
                                  sameFormat: Bool) -> (String?, String?) {
        if sameFormat { return (before?.text, after?.text) }
        guard let before, let after else { return (nil, nil) }
        let names = Set(before.conditions.map(\.name)).intersection(after.conditions.map(\.name))
        func text(_ eligibility: OfferEligibility) -> String {
            eligibility.conditions.filter { names.contains($0.name) }.map { "\($0.name): \($0.text)" }
                .joined(separator: ", ")
        }
        return (text(before), text(after))
    }

    private func windowText(_ window: OfferWindow) -> String {
        [window.start.map { "from \($0)" }, window.end.map { "until \($0)" }].compactMap { $0 }.joined(separator: " ")
    }

    // MARK: - Billing plans and purchase options

    private func billingPlans(_ before: Product, in old: Catalog, _ after: Product, in new: Catalog,
                              sameFormat: Bool) -> [FieldChange] {
        guard sameFormat ? (before.billingPlans != nil || after.billingPlans != nil)
                : (before.billingPlans != nil && after.billingPlans != nil) else { return [] }
        let was = Dictionary((before.billingPlans ?? []).map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary((after.billingPlans ?? []).map { ($0.type, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [FieldChange] = []
        for type in Set(was.keys).union(now.keys).sorted() {
            let item = type.rawValue
            guard let previous = was[type], let next = now[type] else {
                guard sameFormat else { continue }
                changes.append(FieldChange(field: .billingPlan, old: was[type]?.summary, new: now[type]?.summary,
                                           item: item))
                continue
            }
            // The monthly amount is what the plan's subscribers pay: a change reaches them like a price change,
            // on the App Store (the only store with billing plans), for one month at a time.
            let judging = impactJudging(before, in: old, after, in: new).map { judging in
                ImpactJudging(policy: judging.policy, period: SubscriptionPeriod(count: 1, unit: .month),
                              stores: judging.stores.intersection([.appStore]), recorded: [],
                              effective: judging.effective)
            }
            changes += amountChanges(previous.prices, next.prices, field: .billingPlan, item: item,
                                     sameFormat: sameFormat, judging: judging)
        }
        return changes
    }

    private func purchaseOptions(_ before: Product, _ after: Product, sameFormat: Bool) -> [FieldChange] {
        guard sameFormat ? (before.purchaseOptions != nil || after.purchaseOptions != nil)
                : (before.purchaseOptions != nil && after.purchaseOptions != nil) else { return [] }
        let was = Dictionary((before.purchaseOptions ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary((after.purchaseOptions ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var changes: [FieldChange] = []
        for id in Set(was.keys).union(now.keys).sorted() {
            guard let previous = was[id], let next = now[id] else {
                changes.append(FieldChange(field: .purchaseOption, old: was[id]?.summary, new: now[id]?.summary,
                                           item: id))
                continue
            }
            if previous.kind.description != next.kind.description {
                changes.append(FieldChange(field: .purchaseOption, old: previous.kind.description,
                                           new: next.kind.description, item: id))
            }
            changes += amountChanges(previous.prices, next.prices, field: .purchaseOption, item: id,
                                     sameFormat: sameFormat, judging: nil)
        }
        return changes
    }

    /// Amounts per territory that differ, with the percent in one currency (and the subscriber impact when the
    /// amount is a subscription's, `judging`); across formats only territories both sides state.
    private func amountChanges(_ before: [Territory: Money], _ after: [Territory: Money], field: DiffField,
                               item: String, sameFormat: Bool, judging: ImpactJudging?) -> [FieldChange] {
        var changes: [FieldChange] = []
        for territory in Set(before.keys).union(after.keys).sorted() {
            let (was, now) = (before[territory], after[territory])
            guard was != now, sameFormat || (was != nil && now != nil) else { continue }
            var percent: Decimal?
            var impact: SubscriberImpact?
            if let was, let now {
                if was.currency == now.currency { percent = Self.percent(from: was.amount, to: now.amount) }
                impact = judging?.impact(territory, from: was, to: now)
            }
            changes.append(FieldChange(field: field, territory: territory, old: was?.description, new: now?.description,
                                       percent: percent, subscriberImpact: impact, item: item))
        }
        return changes
    }
}
