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

    /// Checks the config against every store input, each on its own. The inputs are told apart by their position
    /// in `stores` (`StoreInputID`), never by their paths.
    public func check(config: Catalog, stores: [Catalog]) -> CheckResult {
        // The config on its own: the rules that judge one catalog (DESIGN.md §5 "each catalog on its own"), on
        // the second core while the stores are compared on this one; its findings come first.
        let options = options
        let (storeResults, configFindings) = TwoCores.run({ compare(config: config, with: stores) }, alongside: {
            let configKey: @Sendable (Product) -> String = { $0.id.rawValue }
            return (IntroOfferRules.exceedingTrials(in: config, storePath: nil, idFor: configKey)
                + OfferRules.lint(config, storePath: nil, idFor: configKey)
                + BillingPlanRules.lint(config, storePath: nil, idFor: configKey)
                + CurrencyRules.check(config, asOf: options.asOf, territories: options.territories)
                + OfferingRules.productsNotInProject(config)).sorted()
        })
        return CheckResult(configPath: config.path, configFormat: config.format,
                           configProducts: config.products.count, comparisons: storeResults.comparisons,
                           findings: configFindings + storeResults.findings)
    }

    /// Compares the config with each store in turn: each store's findings (sorted) after the one's before, and
    /// what each comparison covered.
    private func compare(config: Catalog,
                         with stores: [Catalog]) -> (findings: [Finding], comparisons: [StoreComparison]) {
        var findings: [Finding] = []
        var comparisons: [StoreComparison] = []
        for (position, store) in stores.enumerated() {
            let input = StoreInputID(position: position)
            let matching = ProductMatching(config: config, store: store)
            let storeFindings = compare(config: config, store: store, matching: matching).map { finding in
                var finding = finding
                finding.storeInput = input
                finding.storeKind = store.store
                return finding
            }
            findings += storeFindings.sorted()
            comparisons.append(StoreComparison(
                input: input, storePath: store.path, storeFormat: store.format,
                configProducts: matching.relevant.count, storeProducts: matching.storeProductCount,
                matchedProducts: matching.matches.count,
                productIDs: Set(matching.relevant.map(\.id.rawValue))
                    .union(matching.missingInConfig.map(\.id.rawValue)).sorted(),
                remarks: store.remarks))
        }
        return (findings, comparisons)
    }

    /// The rules that compare one matched pair, every family in turn: what `check` reports on the pair, and
    /// what `diff` shows as the pair's changes across formats.
    static func findings(on pair: ProductPair, territories: Set<Territory>?) -> [Finding] {
        IdentityRules.check(pair)
            + PriceRules.check(pair, territories: territories)
            + PeriodRules.check(pair)
            + GroupRules.check(pair)
            + IntroOfferRules.check(pair)
            + AvailabilityRules.check(pair)
            + OfferRules.check(pair, territories: territories)
            + BillingPlanRules.check(pair, territories: territories)
            + PurchaseOptionRules.check(pair, territories: territories)
    }

    /// Pairs compared apart from each other are compared on two cores from this many on.
    private static let twoCoreMinimum = 64

    /// The findings on every pair, pair by pair in order; from `twoCoreMinimum` pairs on, the later half is
    /// compared on the second core (each pair is compared on its own).
    private static func findings(on pairs: [ProductPair], territories: Set<Territory>?) -> [Finding] {
        guard pairs.count >= twoCoreMinimum else { return pairs.flatMap { findings(on: $0, territories: territories) } }
        let middle = pairs.count / 2
        let (earlier, later) = TwoCores.run({
            pairs[..<middle].flatMap { findings(on: $0, territories: territories) }
        }, alongside: {
            pairs[middle...].flatMap { findings(on: $0, territories: territories) }
        })
        return earlier + later
    }

    // MARK: - One store

    private func compare(config: Catalog, store: Catalog, matching: ProductMatching) -> [Finding] {
        let storePath = store.path
        var findings = AppRules.check(config: config, store: store)
        findings += IdentityRules.storeDuplicates(matching, storePath: storePath)
        findings += matching.configDuplicates.map { IdentityRules.configDuplicate($0, storePath: storePath) }
        findings += OfferingRules.offered(
            IdentityRules.missing(configByStoreID: matching.configByStoreID, storeByID: matching.storeByID,
                                  configPath: config.path, storePath: storePath),
            config: config, store: store, allOfferings: options.allOfferings)
        let pairs = matching.matches.map {
            ProductPair(mine: $0.mine, theirs: $0.theirs, config: config, store: store)
        }
        findings += Self.findings(on: pairs, territories: options.territories)
        findings += PriceRules.notCompared(pairs, store: store, territories: options.territories)

        // The store on its own (free trials longer than their period, offer and billing-plan lint), in its own
        // records, named by config key when matched; a store group by the config group of the same name.
        let storeKey: (Product) -> String = { product in
            matching.configKey(forStoreID: product.id)?.rawValue ?? product.id.rawValue
        }
        let configGroups = Dictionary(config.groups.map { ($0.name, $0.key) }, uniquingKeysWith: { first, _ in first })
        findings += IntroOfferRules.exceedingTrials(in: store, storePath: storePath, idFor: storeKey)
        findings += OfferRules.lint(store, storePath: storePath, idFor: storeKey) { key in
            store.groupName(forKey: key).flatMap { configGroups[$0] } ?? key
        }
        findings += BillingPlanRules.lint(store, storePath: storePath, idFor: storeKey)
        findings += DuplicateOfferRules.check(store, storePath: storePath, idFor: storeKey)
        findings += GroupRules.missing(config: config, relevant: matching.relevant, store: store)
        findings += PriceRules.singleStorefront(store)
        findings += PriceRules.incompleteMatrices(store, territories: options.territories, idFor: storeKey)
        findings += PricePointRules.check(config: config, relevant: matching.relevant, store: store,
                                          territories: options.territories, idFor: storeKey)
        return findings
    }
}
