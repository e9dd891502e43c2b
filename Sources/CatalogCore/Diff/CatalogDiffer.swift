import Foundation

/// Computes the `CatalogDiff` of two catalogs of any formats. Pure and deterministic.
///
/// Products pair through `ProductMatching`, the matcher `check` uses: a config compared with a store catalog
/// uses the config's `storeIds` for that store, leaves out products the config does not sell there (`stores:`)
/// and duplicates (a repeated ID keeps its first record; two config products with one store ID, the first by
/// key). Between a config and a store catalog a field changes exactly where `check`'s rules find a
/// disagreement, so `diff` compares across formats what `check` compares (no group against Play, where the
/// group is the product's identity; a price only where the store's format can state it). Within one format a
/// value that appears or disappears is a change; between two store catalogs of different formats a field is
/// compared only when both sides define it.
public struct CatalogDiffer: Sendable {
    /// What subscription price changes are judged against (DESIGN.md §2c): the day, the stores, the App Store's
    /// recorded changes.
    public var context: PriceChangeContext

    /// Creates a differ; by default price changes are judged for every store, with no day known.
    public init(context: PriceChangeContext = PriceChangeContext(asOf: nil)) {
        self.context = context
    }

    /// The diff from `old` to `new`.
    public func diff(old: Catalog, new: Catalog) -> CatalogDiff {
        // The config stands on the matching's config side; with two configs or two stores, the old catalog.
        let configIsNew = new.store == nil && old.store != nil
        let matching = configIsNew ? ProductMatching(config: new, store: old) : ProductMatching(config: old, store: new)
        // Products are named by the ID they are compared under: the store ID.
        var oldProducts: [String: Product] = [:]
        var newProducts: [String: Product] = [:]
        for product in matching.missingInStore {
            let id = matching.storeID(of: product).rawValue
            if configIsNew { newProducts[id] = product } else { oldProducts[id] = product }
        }
        for product in matching.missingInConfig {
            if configIsNew { oldProducts[product.id.rawValue] = product } else { newProducts[product.id.rawValue] = product }
        }
        let removedIDs = oldProducts.keys.sorted()
        let addedIDs = newProducts.keys.sorted()
        // Cautions are about a revision removing or changing what customers bought: between a config and a store
        // catalog a "removed" product is one `check` reports missing, not a change anyone made.
        let revision = (old.store == nil) == (new.store == nil)
        func cautions(_ before: Product, _ after: Product?, _ fields: [FieldChange]) -> [DiffCaution] {
            revision ? DiffCaution.of(before: before, after: after, fields: fields) : []
        }
        let renames = RenameMatching(removed: oldProducts, added: newProducts)

        var changes: [ProductChange] = []
        for id in removedIDs {
            guard let product = oldProducts[id] else { continue }
            changes.append(ProductChange(productID: id, change: .removed,
                                         possibleRename: renames.renamed(to: id),
                                         summary: summary(of: product, in: old),
                                         cautions: cautions(product, nil, [])))
        }
        for id in addedIDs {
            guard let product = newProducts[id] else { continue }
            changes.append(ProductChange(productID: id, change: .added,
                                         possibleRename: renames.renamed(from: id),
                                         summary: summary(of: product, in: new)))
        }
        for match in matching.matches {
            let (before, after) = configIsNew ? (match.theirs, match.mine) : (match.mine, match.theirs)
            let fields = compare(before, in: old, with: after, in: new)
            if !fields.isEmpty {
                changes.append(ProductChange(productID: match.theirs.id.rawValue, change: .changed,
                                             fields: fields.sorted(),
                                             cautions: cautions(before, after, fields)))
            }
        }
        changes.sort { ($0.productID, $0.change.rawValue) < ($1.productID, $1.change.rawValue) }
        return CatalogDiff(old: CatalogDiff.Input(path: old.path, format: old.format),
                           new: CatalogDiff.Input(path: new.path, format: new.format),
                           groups: groupChanges(old, new, matching: matching, configIsNew: configIsNew),
                           products: changes)
    }

    // MARK: - Fields

    private func compare(_ before: Product, in old: Catalog, with after: Product, in new: Catalog) -> [FieldChange] {
        if (old.store == nil) != (new.store == nil) {
            return checkedChanges(before, in: old, with: after, in: new)
        }
        let sameFormat = old.format == new.format
        var fields: [FieldChange] = []
        func add(_ field: DiffField, _ oldValue: String?, _ newValue: String?) {
            guard oldValue != newValue, sameFormat || (oldValue != nil && newValue != nil) else { return }
            fields.append(FieldChange(field: field, old: oldValue, new: newValue))
        }
        // Across formats a Play `one-time` product is the config's consumable or non-consumable, as `check`
        // says (type-mismatch); two files of one format differ in what they say.
        let kindsMatch = before.kind.flatMap { old in after.kind.map { old.matches($0) } } == true
        if sameFormat || !kindsMatch {
            add(.type, before.kind?.rawValue, after.kind?.rawValue)
        }
        add(.name, before.referenceName, after.referenceName)
        if sameFormat || (comparesGroups(old) && comparesGroups(new)) {
            add(.group, before.groupKey.map { old.groupName(forKey: $0) ?? $0 },
                after.groupKey.map { new.groupName(forKey: $0) ?? $0 })
            add(.level, before.level.map(String.init), after.level.map(String.init))
        }
        add(.period, before.period?.description, after.period?.description)
        add(.introOffer, introOffer(of: before, in: old), introOffer(of: after, in: new))
        add(.familyShareable, before.familyShareable.map(String.init), after.familyShareable.map(String.init))
        add(.availability, before.clearedForSale.map(String.init), after.clearedForSale.map(String.init))
        add(.storeIds, storeIDs(of: before), storeIDs(of: after))
        fields += prices(before, in: old, after, in: new, sameFormat: sameFormat)
        fields += offerChanges(before, in: old, after, in: new, sameFormat: sameFormat)
        return fields
    }

    /// A config against a store catalog: one change per field on which `check`'s rules disagree (DESIGN.md
    /// §2a "one matching for every command"), with each side's value.
    private func checkedChanges(_ before: Product, in old: Catalog, with after: Product,
                                in new: Catalog) -> [FieldChange] {
        let configIsNew = new.store == nil
        let pair = configIsNew ? ProductPair(mine: after, theirs: before, config: new, store: old)
            : ProductPair(mine: before, theirs: after, config: old, store: new)
        let judging = impactJudging(before, in: old, after, in: new)
        var fields: [FieldChange] = []
        var seen: Set<FieldChange> = []
        for finding in Checker.findings(on: pair, territories: nil) {
            guard let field = Self.diffField(of: finding.rule) else { continue }
            let change: FieldChange
            if let offerChange = Self.offerChange(from: finding, field: field, configIsNew: configIsNew) {
                change = offerChange
            } else if field == .price, let territory = finding.territory {
                change = priceChange(territory, before.prices[territory]?.money, after.prices[territory]?.money,
                                     judging: judging)
            } else {
                // The store's lack of an offer reads "none", as within one format.
                let storeValue = field == .introOffer ? finding.actual ?? "none" : finding.actual
                change = FieldChange(field: field, old: configIsNew ? storeValue : finding.expected,
                                     new: configIsNew ? finding.expected : storeValue)
            }
            if seen.insert(change).inserted { fields.append(change) }
        }
        return fields
    }

    /// The diff field a product rule compares; nil for rules that are not about one matched pair's field.
    private static func diffField(of rule: Rule) -> DiffField? {
        switch rule {
        case .typeMismatch: .type
        case .nameMismatch: .name
        case .groupMismatch: .group
        case .groupLevelMismatch: .level
        case .periodMismatch: .period
        case .introOfferMismatch: .introOffer
        case .familySharingMismatch: .familyShareable
        case .availabilityMismatch: .availability
        case .priceMismatch, .priceMissingInStore, .priceMissingInConfig: .price
        case .offerMissingInStore, .offerMissingInConfig, .offerMismatch: .offer
        case .billingPlanMissingInStore, .billingPlanPriceMismatch: .billingPlan
        case .purchaseOptionMismatch: .purchaseOption
        // The lint rules judge one catalog on its own: no change between two.
        case .productMissingInStore, .productMissingInConfig, .duplicateProductID, .appMismatch, .groupMissingInStore,
             .introOfferExceedsPeriod, .storekitSingleStorefront, .ignoreExpired, .ignoreUnused, .offerIDReused,
             .offerFreeWithPrice, .offerNotADiscount, .billingPlanOutOfRange, .duplicateOfferID, .pricesNotCompared,
             .currencyNotValidAtDate, .currencyChangeoverAhead, .subscriptionPriceMatrixIncomplete,
             .priceNotAPricePoint, .pricePointsMissing, .offeringProductMissingInStore,
             .offeringProductNotInProject: nil
        // A manual price where the config equalizes, and a schedule, are no change of the price in effect.
        case .priceNotEqualized, .priceScheduleMismatch: nil
        // The change rules judge a diff; they are no change between two catalogs themselves.
        case .subscriptionPriceChangeUndecided, .subscriptionPriceConsentRequired, .subscriptionPriceDecreaseApplies,
             .playCohortMigrationNeeded, .pricePreserveMismatch: nil
        }
    }

    /// Whether a store catalog's groups are comparable with another format's: as for `check`'s group rules,
    /// never Play's (the subscription is part of the product's identity there).
    private func comparesGroups(_ catalog: Catalog) -> Bool {
        catalog.capabilities.expressesGroups && catalog.store != .play
    }

    /// The offer for the catalog's base territory (or for every territory), as canonical text.
    private func introOffer(of product: Product, in catalog: Catalog) -> String? {
        guard product.introOffers != nil else { return nil }
        return product.introOffer(for: catalog.baseTerritory)?.summary ?? "none"
    }

    private func storeIDs(of product: Product) -> String? {
        guard !product.storeIDs.isEmpty else { return nil }
        return product.storeIDs.sorted { $0.key < $1.key }.map { "\($0.key.rawValue): \($0.value)" }
            .joined(separator: ", ")
    }

    private func prices(_ before: Product, in old: Catalog, _ after: Product, in new: Catalog,
                        sameFormat: Bool) -> [FieldChange] {
        if !sameFormat, before.prices.isEmpty || after.prices.isEmpty { return [] }
        let judging = impactJudging(before, in: old, after, in: new)
        var changes: [FieldChange] = []
        for territory in Set(before.prices.keys).union(after.prices.keys) {
            let oldPrice = before.prices[territory]?.money
            let newPrice = after.prices[territory]?.money
            if let oldPrice, let newPrice,
               oldPrice.amount == newPrice.amount, oldPrice.currency == newPrice.currency { continue }
            if oldPrice == nil || newPrice == nil {
                // Across formats, a side without the territory must be one that would list it.
                let (lacking, catalog) = oldPrice == nil ? (before, old) : (after, new)
                guard sameFormat || claimsEveryPrice(lacking, catalog, territory) else { continue }
            }
            changes.append(priceChange(territory, oldPrice, newPrice, judging: judging))
        }
        if sameFormat { changes += scheduledChanges(before, after, current: changes, judging: judging) }
        return changes
    }

    /// Scheduled prices are changes on their date (DESIGN.md §2c, §4): in each territory, a schedule entry the
    /// new side has and the old side lacks (the same day at the same amount) is a change from the new side's
    /// price the day before to the entry's, judged for existing subscribers on the entry's `from` day; an entry
    /// only the old side has is withdrawn. Earlier steps of the new side (its change at `--as-of` among `current`,
    /// earlier entries) that existing subscribers pay count toward a second increase within 365 days.
    private func scheduledChanges(_ before: Product, _ after: Product, current: [FieldChange],
                                  judging: ImpactJudging?) -> [FieldChange] {
        let (planned, plans) = (before.scheduledPrices, after.scheduledPrices)
        var changes: [FieldChange] = []
        for territory in Set(planned.keys).union(plans.keys) {
            let (was, now) = (planned[territory]?.byDay ?? [:], plans[territory]?.byDay ?? [:])
            var previous = after.prices[territory]?.money
            var steps: [RecordedPriceChange] = []
            if let asOf = context.asOf, let old = before.prices[territory]?.money, let previous,
               current.contains(where: { $0.territory == territory && $0.subscriberImpact != nil }) {
                steps += judging?.step(territory, on: asOf, from: old, to: previous) ?? []
            }
            for day in Set(was.keys).union(now.keys).sorted() {
                guard let entry = now[day] else {
                    changes.append(FieldChange(field: .price, territory: territory, old: was[day]?.description,
                                               new: nil, remark: "scheduled change withdrawn", effective: day))
                    continue
                }
                defer { previous = entry }
                if was[day] == entry { continue }
                var change = priceChange(territory, previous, entry,
                                         judging: judging?.scheduled(on: day, after: steps))
                change.effective = day
                if let earlier = was[day] {
                    change.remark = (change.remark.map { $0 + ", " } ?? "") + "was \(earlier) from \(day)"
                }
                changes.append(change)
                if let previous { steps += judging?.step(territory, on: day, from: previous, to: entry) ?? [] }
            }
        }
        return changes
    }

    /// One territory's price change: with the percentage when both sides price it in one currency, and, on
    /// auto-renewable subscriptions priced on both sides, what it does to existing subscribers.
    private func priceChange(_ territory: Territory, _ oldPrice: Money?, _ newPrice: Money?,
                             judging: ImpactJudging?) -> FieldChange {
        guard let oldPrice, let newPrice else {
            return FieldChange(field: .price, territory: territory, old: oldPrice?.description,
                               new: newPrice?.description)
        }
        if let changeover = territory.changeover(from: oldPrice.currency, to: newPrice.currency) {
            return changeoverChange(territory, oldPrice, newPrice, changeover, judging: judging)
        }
        let sameCurrency = oldPrice.currency == newPrice.currency
        return FieldChange(field: .price, territory: territory, old: oldPrice.description, new: newPrice.description,
                           percent: sameCurrency ? Self.percent(from: oldPrice.amount, to: newPrice.amount) : nil,
                           subscriberImpact: judging?.impact(territory, from: oldPrice, to: newPrice))
    }

    /// How the price changes of one product pair are judged for existing subscribers (DESIGN.md §2c).
    struct ImpactJudging {
        let policy: PriceChangePolicy?
        let period: SubscriptionPeriod?
        let stores: Set<StoreKind>
        let recorded: [RecordedPriceChange]
        /// The day the change takes effect: `--as-of`, or a scheduled entry's `from`.
        let effective: CalendarDate?

        /// The impact of one change; nil when no store is judged.
        func impact(_ territory: Territory, from old: Money, to new: Money) -> SubscriberImpact? {
            guard !stores.isEmpty else { return nil }
            return SubscriberImpactJudge.impact(from: old, to: new, territory: territory, period: period,
                                                policy: policy, effective: effective, stores: stores,
                                                recorded: recorded)
        }

        /// The judging of a scheduled entry: effective on its day, after the earlier steps of the same schedule.
        func scheduled(on day: CalendarDate, after steps: [RecordedPriceChange]) -> ImpactJudging {
            ImpactJudging(policy: policy, period: period, stores: stores, recorded: recorded + steps, effective: day)
        }

        /// One step of the config's own plan, as a later step of it sees it: preserved or not as the decision
        /// covering that day says (not known without one, which counts as preserved nowhere).
        func step(_ territory: Territory, on day: CalendarDate, from old: Money,
                  to new: Money) -> [RecordedPriceChange] {
            guard old != new else { return [] }
            let decision = policy?.decision(for: territory)
            let existing = decision.flatMap { $0.covers(changeOn: day) ? $0.existing : nil }
            return [RecordedPriceChange(territory: territory, date: day, from: old, to: new,
                                        preserved: existing.map { $0 == .preserve }, planned: true)]
        }
    }

    /// The judging of a pair's price changes; nil unless it is an auto-renewable subscription. The decision and
    /// the stores are the config side's (the new catalog's when both or neither are configs), as are the
    /// recorded changes the context keeps by config key.
    func impactJudging(_ before: Product, in old: Catalog, _ after: Product, in new: Catalog) -> ImpactJudging? {
        guard before.kind == .autoRenewable || after.kind == .autoRenewable else { return nil }
        let decided = new.store != nil && old.store == nil ? before : after
        return ImpactJudging(policy: decided.priceChange, period: after.period ?? before.period,
                             stores: context.stores(for: decided), recorded: context.recorded[decided.id] ?? [],
                             effective: context.asOf)
    }

    /// A price moved across a storefront's currency changeover (BG: BGN to EUR): compared with the old price at
    /// the legal rate, `19.99 BGN -> 10.22 EUR (changeover at 1.95583)`; a new price other than the legal
    /// conversion is a change from that conversion, in percent, judged for existing subscribers from the converted
    /// amount (the legal conversion itself changes nothing they pay).
    private func changeoverChange(_ territory: Territory, _ oldPrice: Money, _ newPrice: Money,
                                  _ changeover: CurrencyChangeover, judging: ImpactJudging?) -> FieldChange {
        let converted = changeover.convert(oldPrice)
        let remark = "changeover at \(changeover.rateText)"
        guard converted.amount != newPrice.amount else {
            return FieldChange(field: .price, territory: territory, old: oldPrice.description,
                               new: newPrice.description, remark: remark)
        }
        let impact = judging?.impact(territory, from: converted, to: newPrice)
        return FieldChange(field: .price, territory: territory, old: oldPrice.description, new: newPrice.description,
                           percent: Self.percent(from: converted.amount, to: newPrice.amount),
                           subscriberImpact: impact, remark: remark + " from \(converted)")
    }

    /// Whether a product's lack of a price in `territory` means "not sold there" rather than "not said": a
    /// config only when it lists `prices:` per territory (DESIGN.md §5a.7), a store where its format can
    /// price the territory.
    private func claimsEveryPrice(_ product: Product, _ catalog: Catalog, _ territory: Territory) -> Bool {
        if catalog.format == .catalog { return product.listsTerritoryPrices }
        return catalog.capabilities.priceableTerritories?.contains(territory) ?? true
    }

    /// `(new - old) / old × 100`, rounded half away from zero to one decimal; nil when `old` is zero. The
    /// release report's price differences use it too, so a report and a diff never round apart.
    public static func percent(from old: Decimal, to new: Decimal) -> Decimal? {
        guard old != 0 else { return nil }
        var value = (new - old) / old * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 1, .plain)
        return rounded
    }

    // MARK: - Summaries and groups

    /// `auto-renewable P1M, 9.99 USD`: type, period, and the price in the base territory (else the first).
    private func summary(of product: Product, in catalog: Catalog) -> String? {
        var parts: [String] = []
        var head = product.kind?.rawValue ?? ""
        if let period = product.period { head += head.isEmpty ? period.description : " \(period)" }
        if !head.isEmpty { parts.append(head) }
        let price = product.prices[catalog.baseTerritory]
            ?? product.prices.min(by: { $0.key < $1.key })?.value
        if let price { parts.append(price.money.description) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private func groupChanges(_ old: Catalog, _ new: Catalog, matching: ProductMatching,
                              configIsNew: Bool) -> [GroupChange] {
        guard old.format == new.format || (comparesGroups(old) && comparesGroups(new)),
              old.capabilities.expressesGroups, new.capabilities.expressesGroups else { return [] }
        if (old.store == nil) != (new.store == nil) {
            return checkedGroupChanges(matching: matching, config: configIsNew ? new : old,
                                       store: configIsNew ? old : new, configIsNew: configIsNew)
        }
        var changes: [GroupChange] = []
        let newByKey = Dictionary(new.groups.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let oldNames = Set(old.groups.map(\.name))
        let newNames = Set(new.groups.map(\.name))
        var renamedKeys: Set<String> = []
        for group in old.groups {
            if let same = newByKey[group.key], same.name != group.name,
               !newNames.contains(group.name), !oldNames.contains(same.name) {
                renamedKeys.insert(group.key)
                changes.append(GroupChange(change: .renamed, key: group.key, oldName: group.name, newName: same.name))
            }
        }
        for group in old.groups where !renamedKeys.contains(group.key) && !newNames.contains(group.name) {
            changes.append(GroupChange(change: .removed, key: group.key, oldName: group.name, newName: nil))
        }
        for group in new.groups where !renamedKeys.contains(group.key) && !oldNames.contains(group.name) {
            changes.append(GroupChange(change: .added, key: group.key, oldName: nil, newName: group.name))
        }
        return Array(Set(changes)).sorted()
    }

    /// A config against a store catalog: the config's groups that `check` reports missing in the store
    /// (`group-missing-in-store`), and the store's groups no config group names. Keys never pair across
    /// formats (a config key is not a store's group ID), so nothing is a rename.
    private func checkedGroupChanges(matching: ProductMatching, config: Catalog, store: Catalog,
                                     configIsNew: Bool) -> [GroupChange] {
        let missing = Set(GroupRules.missing(config: config, relevant: matching.relevant, store: store)
            .compactMap(\.productID))
        let configNames = Set(config.groups.map(\.name))
        func change(_ group: SubscriptionGroup, inNew: Bool) -> GroupChange {
            GroupChange(change: inNew ? .added : .removed, key: group.key, oldName: inNew ? nil : group.name,
                        newName: inNew ? group.name : nil)
        }
        let changes = config.groups.filter { missing.contains($0.key) }.map { change($0, inNew: configIsNew) }
            + store.groups.filter { !configNames.contains($0.name) }.map { change($0, inNew: !configIsNew) }
        return Array(Set(changes)).sorted()
    }
}
