import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports
import Foundation

/// The check pipeline that `check` and `report` share (DESIGN.md §9): inputs resolved once, outputs that would
/// replace an input refused, then the rules file and the baseline (a broken one stops the run before any
/// catalog is read), the catalogs, the checker and the policy.
struct CheckRun {
    /// The config as spelled.
    var config: InputSource
    /// The stores as spelled.
    var stores: [InputSource]
    /// `--play-currency`.
    var playCurrency: CurrencyCode?
    /// `--territory`, which wins over the rules file's `territories:`.
    var territories: Set<Territory>?
    /// `--strict`.
    var strict: Bool
    /// `--all-offerings`.
    var allOfferings: Bool
    /// `--rules`; nil: the nearest `.catalogcheck.yml`.
    var rulesPath: String?
    /// `--baseline`.
    var baselinePath: String?
    /// `--update-baseline`: the baseline is written, not applied.
    var updatingBaseline: Bool
    /// The reports the run writes, in order (the baseline `--update-baseline` writes comes last): two outputs that
    /// write one file (or standard output twice) are a usage error, one that is an input is refused.
    var outputs: [OutputTarget]
    /// `--as-of`.
    var asOf: CalendarDate
    /// `--since`: an earlier config; the change rules judge its diff against this one (DESIGN.md §2c), and the
    /// release report shows it.
    var since: InputSource?

    /// The run the options describe.
    init(inputs: CatalogInputOptions, policy: PolicyOptions, updatingBaseline: Bool = false,
         outputs: [OutputTarget], asOf: CalendarDate) {
        config = inputs.configSource
        stores = inputs.storeSources
        playCurrency = inputs.playCurrency
        territories = policy.territories
        strict = policy.strict
        allOfferings = policy.allOfferings
        rulesPath = policy.rules
        baselinePath = policy.baseline
        self.updatingBaseline = updatingBaseline
        self.outputs = outputs
        self.asOf = asOf
    }

    /// The baseline `--update-baseline` writes; nil when the run only applies one.
    var writtenBaseline: OutputTarget? {
        guard updatingBaseline, let baselinePath else { return nil }
        // Always a file, also when spelled `-`: later runs read it back by its path (`CheckCommand.validate`
        // refuses `-`).
        return OutputTarget(option: "--baseline \(baselinePath) (--update-baseline)", destination: .file(baselinePath))
    }

    /// Runs the check; an unreadable input is exit 2, a store given twice or two outputs that write one file
    /// exit 64 (the outputs before anything is read).
    func run(console: Console) throws -> CheckedRun {
        let outputs = self.outputs + (writtenBaseline.map { [$0] } ?? [])
        try OutputGuard.refuseSharedTargets(outputs, console: console)
        let (config, stores) = try resolveInputs(console: console)
        let sinceInput = try since.map { since in try reportingInputErrors(console) { try since.resolve(as: .catalog) } }
        let rulesFile = locateRulesFile()
        let readBaseline = updatingBaseline ? nil : baselinePath
        var inputs = [RunInput(config)] + stores.map(RunInput.init) + (sinceInput.map { [RunInput($0)] } ?? [])
        if let rulesFile, let input = RunInput(role: "the rules file", path: rulesFile) { inputs.append(input) }
        if let readBaseline, let input = RunInput(role: "the baseline", path: readBaseline) { inputs.append(input) }
        try OutputGuard.refuseOverwriting(inputs, outputs: outputs, console: console)

        let rules = try reportingInputErrors(console) {
            guard let rulesFile else { return RuleConfiguration() }
            return try RulesFileReader().read(contentsOf: URL(fileURLWithPath: rulesFile), displayPath: rulesFile)
        }
        let baseline = try reportingInputErrors(console) { () throws -> Baseline? in
            guard let readBaseline else { return nil }
            return try BaselineReader().read(contentsOf: URL(fileURLWithPath: readBaseline), displayPath: readBaseline)
        }
        let loader = CatalogLoader(options: ReadOptions(asOf: asOf, playCurrency: playCurrency))
        let (configCatalog, storeCatalogs) = try reportingInputErrors(console) {
            try loader.load(config: config, stores: stores)
        }
        let options = CheckOptions(territories: territories ?? rules.territories, asOf: asOf,
                                   allOfferings: allOfferings)
        var checked = Checker(options: options).check(config: configCatalog, stores: storeCatalogs)
        let changes = try sinceInput.map { input in
            let context = PriceChangeContext(asOf: asOf, config: configCatalog, stores: storeCatalogs)
            let old = try reportingInputErrors(console) { try loader.load(input) }
            return CatalogDiffer(context: context).diff(old: old, new: configCatalog)
        }
        if let changes {
            // The change rules' findings count like every other: the policy applies to them and sorts them in.
            checked.findings += PriceChangeRules.findings(changes: changes, config: configCatalog,
                                                          stores: storeCatalogs, territories: options.territories)
        }
        let result = Policy(rules: rules, baseline: baseline, strict: strict, asOf: asOf).apply(to: checked)
        return CheckedRun(result: result, config: configCatalog, stores: storeCatalogs, changes: changes, asOf: asOf)
    }

    /// The config, then each store, looked at once; standard input may be named once, and one store input may
    /// be given once, whatever its spelling (a usage error, exit 64: every count would double).
    private func resolveInputs(console: Console) throws -> (config: ResolvedInput, stores: [ResolvedInput]) {
        let spellings = [config] + stores + (since.map { [$0] } ?? [])
        if spellings.filter({ $0.origin == .standardInput }).count > 1 {
            console.error("Error: standard input (-) can be read once; give it to one --config or --store")
            throw Exit.usage
        }
        let resolved = try reportingInputErrors(console) {
            let resolvedConfig = try config.resolve(as: .config)
            var resolvedStores: [ResolvedInput] = []
            for store in stores { resolvedStores.append(try store.resolve(as: .store)) }
            return (config: resolvedConfig, stores: resolvedStores)
        }
        var seen: [FileIdentity: String] = [:]
        // Named as spelled, with --store-format applied.
        for store in resolved.stores {
            if let first = seen[store.identity] {
                console.error("Error: --store \(first) and --store \(store.source.spelling) are the same store input; "
                              + "give each store once")
                throw Exit.usage
            }
            seen[store.identity] = store.source.spelling
        }
        return resolved
    }

    /// `--rules`, else the nearest `.catalogcheck.yml` (shown relative to the working directory when it is
    /// below it, as the user would type it), else none.
    private func locateRulesFile() -> String? {
        rulesPath ?? RulesFileLocator.nearest()
    }
}

/// What a check produced: the findings with the policy applied, and the catalogs they came from.
struct CheckedRun {
    /// The result.
    var result: CheckResult
    /// The config.
    var config: Catalog
    /// The store inputs.
    var stores: [Catalog]
    /// What the release changes since `report --since`'s config; nil without it.
    var changes: CatalogDiff?
    /// The day prices were evaluated at (`--as-of`), for the price-point table's age.
    var asOf: CalendarDate?

    /// Products and price matrices, for the release report (built on request: it walks every price).
    func overview() -> ReleaseOverview {
        ReleaseOverview(config: config, stores: stores, result: result, changes: changes, asOf: asOf)
    }
}
