import Foundation

/// Computes the `CatalogDiff` of two catalogs of any formats. Pure and deterministic.
///
/// Products match by ID; a config compared with a store catalog uses the config's `storeIds` for that store
/// and leaves out products the config does not sell there (`stores:`). Within one format a value that appears
/// or disappears is a change; across formats a field is compared only when both sides define it, so what one
/// format cannot express (a .storekit file's other territories, a plist's prices) is never a change.
public struct CatalogDiffer: Sendable {
    /// Creates a differ.
    public init() {}

    /// The diff from `old` to `new`.
    public func diff(old: Catalog, new: Catalog) -> CatalogDiff {
        let sameFormat = old.format == new.format
        let oldProducts = keyed(old, against: new)
        let newProducts = keyed(new, against: old)
        let removedIDs = oldProducts.keys.filter { newProducts[$0] == nil }.sorted()
        let addedIDs = newProducts.keys.filter { oldProducts[$0] == nil }.sorted()
        let addedHints = NearMatch(candidates: addedIDs)
        let removedHints = NearMatch(candidates: removedIDs)

        var changes: [ProductChange] = []
        for id in removedIDs {
            guard let product = oldProducts[id] else { continue }
            changes.append(ProductChange(productID: id, change: .removed, possibleRename: addedHints.best(for: id),
                                         summary: summary(of: product, in: old)))
        }
        for id in addedIDs {
            guard let product = newProducts[id] else { continue }
            changes.append(ProductChange(productID: id, change: .added, possibleRename: removedHints.best(for: id),
                                         summary: summary(of: product, in: new)))
        }
        for (id, before) in oldProducts {
            guard let after = newProducts[id] else { continue }
            let fields = compare(before, in: old, with: after, in: new, sameFormat: sameFormat)
            if !fields.isEmpty {
                changes.append(ProductChange(productID: id, change: .changed, fields: fields.sorted()))
            }
        }
        changes.sort { ($0.productID, $0.change.rawValue) < ($1.productID, $1.change.rawValue) }
        return CatalogDiff(old: CatalogDiff.Input(path: old.path, format: old.format),
                           new: CatalogDiff.Input(path: new.path, format: new.format),
                           groups: groupChanges(old, new), products: changes)
    }

    // MARK: - Matching

    /// The catalog's products by the ID they are compared under (first record of a repeated ID wins).
    private func keyed(_ catalog: Catalog, against other: Catalog) -> [String: Product] {
        var products: [String: Product] = [:]
        let otherStore = catalog.store == nil ? other.store : nil
        for product in catalog.products {
            if let otherStore, let stores = product.stores, !stores.contains(otherStore) { continue }
            let id = otherStore.flatMap { product.storeIDs[$0] } ?? product.id
            if products[id.rawValue] == nil {
                products[id.rawValue] = product
            }
        }
        return products
    }

    // MARK: - Fields

    private func compare(_ before: Product, in old: Catalog, with after: Product, in new: Catalog,
                         sameFormat: Bool) -> [FieldChange] {
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
        add(.group, before.groupKey.map { old.groupName(forKey: $0) ?? $0 },
            after.groupKey.map { new.groupName(forKey: $0) ?? $0 })
        add(.level, before.level.map(String.init), after.level.map(String.init))
        add(.period, before.period?.description, after.period?.description)
        add(.introOffer, introOffer(of: before, in: old), introOffer(of: after, in: new))
        add(.familyShareable, before.familyShareable.map(String.init), after.familyShareable.map(String.init))
        add(.availability, before.clearedForSale.map(String.init), after.clearedForSale.map(String.init))
        add(.storeIds, storeIDs(of: before), storeIDs(of: after))
        fields += prices(before, in: old, after, in: new, sameFormat: sameFormat)
        return fields
    }

    /// The offer for the catalog's base territory (or for every territory), as canonical text.
    private func introOffer(of product: Product, in catalog: Catalog) -> String? {
        guard let offers = product.introOffers else { return nil }
        let offer = offers.first(where: { $0.territory == catalog.baseTerritory })
            ?? offers.first(where: { $0.territory == nil })
        return offer?.summary ?? "none"
    }

    private func storeIDs(of product: Product) -> String? {
        guard !product.storeIDs.isEmpty else { return nil }
        return product.storeIDs.sorted { $0.key < $1.key }.map { "\($0.key.rawValue): \($0.value)" }
            .joined(separator: ", ")
    }

    private func prices(_ before: Product, in old: Catalog, _ after: Product, in new: Catalog,
                        sameFormat: Bool) -> [FieldChange] {
        if !sameFormat, before.prices.isEmpty || after.prices.isEmpty { return [] }
        let subscription = before.kind == .autoRenewable || after.kind == .autoRenewable
        var changes: [FieldChange] = []
        for territory in Set(before.prices.keys).union(after.prices.keys) {
            let oldPrice = before.prices[territory]?.money
            let newPrice = after.prices[territory]?.money
            guard oldPrice != newPrice else { continue }
            if let oldPrice, let newPrice {
                guard oldPrice.amount != newPrice.amount || oldPrice.currency != newPrice.currency else { continue }
                let sameCurrency = oldPrice.currency == newPrice.currency
                let impact: SubscriberImpact? = subscription && sameCurrency
                    ? (newPrice.amount > oldPrice.amount ? .increase : .decrease) : nil
                changes.append(FieldChange(
                    field: .price, territory: territory, old: oldPrice.description, new: newPrice.description,
                    percent: sameCurrency ? Self.percent(from: oldPrice.amount, to: newPrice.amount) : nil,
                    subscriberImpact: impact))
            } else {
                // Across formats, a side without the territory must be one that would list it.
                let (lacking, catalog) = oldPrice == nil ? (before, old) : (after, new)
                guard sameFormat || claimsEveryPrice(lacking, catalog, territory) else { continue }
                changes.append(FieldChange(field: .price, territory: territory, old: oldPrice?.description,
                                           new: newPrice?.description))
            }
        }
        return changes
    }

    /// Whether a product's lack of a price in `territory` means "not sold there" rather than "not said": a
    /// config only when it lists `prices:` per territory (DESIGN.md §5a.7), a store where its format can
    /// price the territory.
    private func claimsEveryPrice(_ product: Product, _ catalog: Catalog, _ territory: Territory) -> Bool {
        if catalog.format == .catalog { return product.listsTerritoryPrices }
        return catalog.capabilities.priceableTerritories?.contains(territory) ?? true
    }

    /// `(new - old) / old × 100`, rounded half away from zero to one decimal; nil when `old` is zero.
    static func percent(from old: Decimal, to new: Decimal) -> Decimal? {
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
            ?? product.prices.min(by: { $0.key.alpha2 < $1.key.alpha2 })?.value
        if let price { parts.append(price.money.description) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    private func groupChanges(_ old: Catalog, _ new: Catalog) -> [GroupChange] {
        guard old.capabilities.expressesGroups, new.capabilities.expressesGroups else { return [] }
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
}
