/// Compares the config with each store input and reports every disagreement as a `Finding`: matching and
/// dispatch here, the rules themselves in `Rules/`, one file per family. Severities, ignores and the baseline
/// come after, in `Policy`. Pure: the same catalogs and options always give the same, sorted findings.
public struct Checker: Sendable {
    /// What to compare.
    public var options: CheckOptions

    /// Creates a checker.
    public init(options: CheckOptions = CheckOptions()) {
        self.options = options
    }

    /// Checks the config against every store input, each on its own.
    public func check(config: Catalog, stores: [Catalog]) -> CheckResult {
        var findings = IntroOfferRules.exceedingTrials(in: config, storePath: nil, idFor: { $0.id.rawValue }).sorted()
        var comparisons: [StoreComparison] = []
        for store in stores {
            var comparison = StoreComparison(storePath: store.path, storeFormat: store.format, configProducts: 0,
                                             storeProducts: 0, matchedProducts: 0, remarks: store.remarks)
            let storeFindings = compare(config: config, store: store, summary: &comparison).map { finding in
                var finding = finding
                finding.storeKind = store.store
                return finding
            }
            findings += storeFindings.sorted()
            comparisons.append(comparison)
        }
        return CheckResult(configPath: config.path, configFormat: config.format,
                           configProducts: config.products.count, comparisons: comparisons,
                           findings: findings)
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
        findings += IdentityRules.storeDuplicates(storeDuplicates, first: storeByID, storePath: storePath)

        // Config products by store ID; two config products mapping to one store ID is a duplicate.
        var configByStoreID: [ProductID: Product] = [:]
        for product in relevant.sorted(by: { $0.id < $1.id }) {
            let id = storeID(of: product)
            if let first = configByStoreID[id] {
                findings.append(IdentityRules.configDuplicate(product, storeID: id, first: first, storePath: storePath))
            } else {
                configByStoreID[id] = product
            }
        }

        findings += IdentityRules.missing(configByStoreID: configByStoreID, storeByID: storeByID,
                                          configPath: config.path, storePath: storePath)

        var matched = 0
        for (id, configProduct) in configByStoreID {
            guard let storeProduct = storeByID[id] else { continue }
            matched += 1
            let pair = ProductPair(mine: configProduct, theirs: storeProduct, config: config, store: store)
            findings += IdentityRules.check(pair)
            findings += PriceRules.check(pair, territories: options.territories)
            findings += PeriodRules.check(pair)
            findings += GroupRules.check(pair)
            findings += IntroOfferRules.check(pair)
            findings += AvailabilityRules.check(pair)
        }

        // Free trials longer than their period, in the store's own records (named by config key when matched).
        let configKeyByStoreID = configByStoreID.mapValues(\.id.rawValue)
        findings += IntroOfferRules.exceedingTrials(in: store, storePath: storePath) { product in
            configKeyByStoreID[product.id] ?? product.id.rawValue
        }
        findings += GroupRules.missing(config: config, relevant: relevant, store: store)
        findings += PriceRules.singleStorefront(store)

        summary.configProducts = relevant.count
        summary.storeProducts = storeByID.count
        summary.matchedProducts = matched
        summary.productIDs = Set(relevant.map(\.id.rawValue))
            .union(storeByID.keys.filter { configByStoreID[$0] == nil }.map(\.rawValue)).sorted()
        return findings
    }
}
