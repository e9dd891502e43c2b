/// Compares the config with each store input and reports every disagreement as a `Finding`.
/// Pure: the same catalogs and options always give the same, sorted findings.
public struct Checker: Sendable {
    /// What to compare and how findings fail.
    public var options: CheckOptions

    /// Creates a checker.
    public init(options: CheckOptions = CheckOptions()) {
        self.options = options
    }

    /// Checks the config against every store input, each on its own.
    public func check(config: Catalog, stores: [Catalog]) -> CheckResult {
        var findings = exceedingTrials(in: config, storePath: nil, idFor: { $0.id.rawValue }).sorted()
        var comparisons: [StoreComparison] = []
        for store in stores {
            var comparison = StoreComparison(storePath: store.path, storeFormat: store.format, configProducts: 0,
                                             storeProducts: 0, matchedProducts: 0, remarks: store.remarks)
            findings += compare(config: config, store: store, summary: &comparison).sorted()
            comparisons.append(comparison)
        }
        return CheckResult(configPath: config.path, configFormat: config.format,
                           configProducts: config.products.count, comparisons: comparisons,
                           findings: findings, strict: options.strict)
    }

    // MARK: - One store

    private func compare(config: Catalog, store: Catalog, summary: inout StoreComparison) -> [Finding] {
        let storePath = store.path
        var findings: [Finding] = []

        // Config products meant for this store, with the ID they have there.
        let relevant = config.products.filter { product in
            guard let stores = product.stores, let kind = store.store else { return true }
            return stores.contains(kind)
        }
        func storeID(of product: Product) -> ProductID {
            store.store.flatMap { product.storeIDs[$0] } ?? product.id
        }

        // Store records by ID; a second record with the same ID is a duplicate.
        var storeByID: [ProductID: Product] = [:]
        var storeDuplicates: [ProductID: [Product]] = [:]
        for product in store.products {
            if storeByID[product.id] == nil {
                storeByID[product.id] = product
            } else {
                storeDuplicates[product.id, default: []].append(product)
            }
        }
        for (id, extra) in storeDuplicates {
            let all = [storeByID[id]].compactMap { $0 } + extra
            let lines = all.compactMap { $0.location.line }.map(String.init).joined(separator: ", ")
            findings.append(Finding(
                rule: .duplicateProductID, productID: id.rawValue,
                actual: String(all.count),
                message: "is listed \(all.count) times in the store" + (lines.isEmpty ? "" : " (lines \(lines))"),
                storeLocation: extra.first?.location, store: storePath))
        }

        // Config products by store ID; two config products mapping to one store ID is a duplicate.
        var configByStoreID: [ProductID: Product] = [:]
        for product in relevant.sorted(by: { $0.id < $1.id }) {
            let id = storeID(of: product)
            if let first = configByStoreID[id] {
                findings.append(Finding(
                    rule: .duplicateProductID, productID: product.id.rawValue, expected: id.rawValue,
                    message: "maps to store ID '\(id)', like '\(first.id)' (\(first.location))",
                    configLocation: product.location, store: storePath))
            } else {
                configByStoreID[id] = product
            }
        }

        let unmatchedConfig = configByStoreID.keys.filter { storeByID[$0] == nil }
        let unmatchedStore = storeByID.keys.filter { configByStoreID[$0] == nil }
        let unmatchedStoreIDs = unmatchedStore.map(\.rawValue)
        let unmatchedConfigIDs = unmatchedConfig.map(\.rawValue)

        for id in unmatchedConfig {
            guard let product = configByStoreID[id] else { continue }
            let alias = id == product.id ? "" : " (store ID '\(id)')"
            findings.append(Finding(
                rule: .productMissingInStore, productID: product.id.rawValue,
                message: "is in the config\(alias) but not in the store (\(storePath))",
                hint: NearMatch.best(for: id.rawValue, among: unmatchedStoreIDs).map { "did you mean '\($0)'?" },
                configLocation: product.location, store: storePath))
        }
        for id in unmatchedStore {
            guard let product = storeByID[id] else { continue }
            let hint = NearMatch.best(for: id.rawValue, among: unmatchedConfigIDs).map { candidate in
                "did you mean '\(configByStoreID[ProductID(candidate)]?.id.rawValue ?? candidate)'?"
            }
            findings.append(Finding(
                rule: .productMissingInConfig, productID: id.rawValue,
                message: "is in the store but not in the config (\(config.path))",
                hint: hint, storeLocation: product.location, store: storePath))
        }

        var matched = 0
        for (id, configProduct) in configByStoreID {
            guard let storeProduct = storeByID[id] else { continue }
            matched += 1
            findings += compare(configProduct, storeProduct, config: config, store: store)
        }

        // Free trials longer than their period, in the store's own records (named by config key when matched).
        let configKeyByStoreID = configByStoreID.mapValues(\.id.rawValue)
        findings += exceedingTrials(in: store, storePath: storePath) { product in
            configKeyByStoreID[product.id] ?? product.id.rawValue
        }

        findings += missingGroups(config: config, relevant: relevant, store: store)

        if let storefront = store.capabilities.singleStorefront {
            findings.append(Finding(
                rule: .storekitSingleStorefront, productID: nil, territory: storefront,
                actual: storefront.alpha2,
                message: "only the \(storefront.alpha2) storefront is priced in this StoreKit file; "
                    + "other territories were not compared",
                storeLocation: SourceLocation(path: storePath), store: storePath))
        }

        summary.configProducts = relevant.count
        summary.storeProducts = storeByID.count
        summary.matchedProducts = matched
        return findings
    }

    // MARK: - One matched product

    private func compare(_ mine: Product, _ theirs: Product, config: Catalog, store: Catalog) -> [Finding] {
        var findings: [Finding] = []
        let storePath = store.path
        let key = mine.id.rawValue

        func finding(_ rule: Rule, territory: Territory? = nil, expected: String?, actual: String?,
                     message: String, configLocation: SourceLocation? = nil,
                     storeLocation: SourceLocation? = nil) -> Finding {
            Finding(rule: rule, productID: key, territory: territory, expected: expected, actual: actual,
                    message: message, configLocation: configLocation ?? mine.location(of: rule.field),
                    storeLocation: storeLocation ?? theirs.location(of: rule.field), store: storePath)
        }
        func at(_ field: ProductField) -> String { theirs.location(of: field).description }

        if let expected = mine.kind, let actual = theirs.kind, expected != actual {
            findings.append(finding(.typeMismatch, expected: expected.rawValue, actual: actual.rawValue,
                                    message: "is \(actual.rawValue) in the store (\(at(.type))), "
                                        + "\(expected.rawValue) in the config"))
        }

        findings += comparePrices(mine, theirs, store: store, finding: finding)

        if let expected = mine.period, let actual = theirs.period, expected != actual {
            findings.append(finding(.periodMismatch, expected: expected.description, actual: actual.description,
                                    message: "renews every \(actual) in the store (\(at(.period))), "
                                        + "every \(expected) in the config"))
        }

        if groupRulesApply(to: store) {
            let expectedGroup = mine.groupKey.map { config.groupName(forKey: $0) ?? $0 }
            let actualGroup = theirs.groupKey.map { store.groupName(forKey: $0) ?? $0 }
            if let expected = expectedGroup, let actual = actualGroup, expected != actual {
                findings.append(finding(.groupMismatch, expected: expected, actual: actual,
                                        message: "is in group '\(actual)' in the store (\(at(.group))), "
                                            + "'\(expected)' in the config"))
            }
            if let expected = mine.level, let actual = theirs.level, expected != actual {
                findings.append(finding(.groupLevelMismatch, expected: String(expected), actual: String(actual),
                                        message: "has level \(actual) in the store (\(at(.level))), "
                                            + "\(expected) in the config"))
            }
        }

        if let expected = mine.introOffers?.first, let storeOffers = theirs.introOffers {
            let actual = storeOffers.first(where: { $0.territory == config.baseTerritory })
                ?? storeOffers.first(where: { $0.territory == nil })
            // An offer record for every territory is priced where the store prices (a .storekit storefront).
            let pricedForBase = actual.map { $0.territory == config.baseTerritory
                || store.capabilities.priceableTerritories?.contains(config.baseTerritory) ?? true } ?? false
            if !offersAgree(expected, actual, comparingPrice: pricedForBase) {
                let shown = actual?.summary ?? "none"
                findings.append(finding(
                    .introOfferMismatch, expected: expected.summary, actual: actual?.summary,
                    message: "introductory offer is \(shown) in the store "
                        + "(\((actual?.location ?? theirs.location(of: .introOffer)).description)), "
                        + "\(expected.summary) in the config",
                    configLocation: expected.location, storeLocation: actual?.location))
            }
        }

        if let expected = mine.familyShareable, let actual = theirs.familyShareable, expected != actual {
            findings.append(finding(.familySharingMismatch, expected: String(expected), actual: String(actual),
                                    message: "family sharing is \(actual ? "on" : "off") in the store "
                                        + "(\(at(.familyShareable))), \(expected ? "on" : "off") in the config"))
        }

        if let expected = mine.clearedForSale, let actual = theirs.clearedForSale, expected != actual {
            func state(_ value: Bool) -> String { value ? "cleared for sale" : "not cleared for sale" }
            findings.append(finding(.availabilityMismatch, expected: String(expected), actual: String(actual),
                                    message: "is \(state(actual)) in the store (\(at(.clearedForSale))), "
                                        + "\(state(expected)) in the config"))
        }

        if let expected = mine.referenceName, let actual = theirs.referenceName, expected != actual {
            findings.append(finding(.nameMismatch, expected: expected, actual: actual,
                                    message: "reference name is '\(actual)' in the store (\(at(.name))), "
                                        + "'\(expected)' in the config"))
        }
        return findings
    }

    private func comparePrices(
        _ mine: Product, _ theirs: Product, store: Catalog,
        finding: (Rule, Territory?, String?, String?, String, SourceLocation?, SourceLocation?) -> Finding
    ) -> [Finding] {
        // A store product with no current price defines none: no price rule runs for it.
        guard !theirs.prices.isEmpty else { return [] }
        var findings: [Finding] = []
        func compared(_ territory: Territory) -> Bool {
            options.territories?.contains(territory) ?? true
        }
        for (territory, configPrice) in mine.prices where compared(territory) {
            if let storePrice = theirs.prices[territory] {
                let same = configPrice.money.amount == storePrice.money.amount
                    && configPrice.money.currency == storePrice.money.currency
                if !same {
                    let storeAt = (storePrice.location ?? theirs.location(of: .price)).description
                    findings.append(finding(
                        .priceMismatch, territory, configPrice.money.description, storePrice.money.description,
                        "\(territory) is \(storePrice.money) in the store (\(storeAt)), "
                            + "\(configPrice.money) in the config",
                        configPrice.location, storePrice.location))
                }
            } else if store.capabilities.priceableTerritories?.contains(territory) ?? true {
                findings.append(finding(
                    .priceMissingInStore, territory, configPrice.money.description, nil,
                    "\(territory) is \(configPrice.money) in the config but has no price in the store "
                        + "(\(theirs.location))",
                    configPrice.location, nil))
            }
        }
        if mine.listsTerritoryPrices {
            for (territory, storePrice) in theirs.prices where compared(territory) && mine.prices[territory] == nil {
                let storeAt = (storePrice.location ?? theirs.location(of: .price)).description
                findings.append(finding(
                    .priceMissingInConfig, territory, nil, storePrice.money.description,
                    "\(territory) is \(storePrice.money) in the store (\(storeAt)) but missing from the "
                        + "config's prices",
                    nil, storePrice.location))
            }
        }
        return findings
    }

    /// Mode, period and periods always; the price only when both give one for the config's base territory.
    private func offersAgree(_ expected: IntroOffer, _ actual: IntroOffer?, comparingPrice: Bool) -> Bool {
        guard let actual else { return false }
        guard expected.mode == actual.mode, expected.period == actual.period,
              expected.periods == actual.periods else { return false }
        if comparingPrice, let mine = expected.price, let theirs = actual.price {
            return mine.amount == theirs.amount && mine.currency == theirs.currency
        }
        return true
    }

    // MARK: - Groups

    /// Group rules need a store input that states groups; they never run against Play, where the subscription
    /// is part of the product's identity.
    private func groupRulesApply(to store: Catalog) -> Bool {
        store.capabilities.expressesGroups && store.store != .play
    }

    private func missingGroups(config: Catalog, relevant: [Product], store: Catalog) -> [Finding] {
        guard groupRulesApply(to: store),
              store.products.contains(where: { $0.kind == .autoRenewable }) else { return [] }
        let storeNames = Set(store.groups.map(\.name))
        let relevantIDs = Set(relevant.map(\.id))
        var findings: [Finding] = []
        for group in config.groups where !storeNames.contains(group.name) {
            let members = config.products.filter { $0.groupKey == group.key }
            // A group whose every product is meant for other stores is not expected here.
            if !members.isEmpty, !members.contains(where: { relevantIDs.contains($0.id) }) { continue }
            let known = storeNames.sorted().map { "'\($0)'" }.joined(separator: ", ")
            findings.append(Finding(
                rule: .groupMissingInStore, productID: group.key, expected: group.name,
                message: "group '\(group.name)' has no counterpart in the store"
                    + (known.isEmpty ? "" : " (store groups: \(known))"),
                configLocation: group.location, storeLocation: SourceLocation(path: store.path), store: store.path))
        }
        return findings
    }

    // MARK: - Trials

    private func exceedingTrials(in catalog: Catalog, storePath: String?,
                                 idFor: (Product) -> String) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<ProductID> = []
        for product in catalog.products {
            guard let period = product.period, let offers = product.introOffers, seen.insert(product.id).inserted,
                  let trial = offers.first(where: { $0.mode == .freeTrial && $0.approximateDays > period.approximateDays })
            else { continue }
            let length = trial.periods == 1 ? "\(trial.period)" : "\(trial.period) × \(trial.periods)"
            let location = trial.location ?? product.location(of: .introOffer)
            findings.append(Finding(
                rule: .introOfferExceedsPeriod, productID: idFor(product), expected: period.description,
                actual: trial.summary,
                message: "free trial of \(length) (\(trial.approximateDays) days) is longer than the "
                    + "subscription period \(period) (\(period.approximateDays) days)",
                configLocation: storePath == nil ? location : nil,
                storeLocation: storePath == nil ? nil : location, store: storePath))
        }
        return findings
    }
}
