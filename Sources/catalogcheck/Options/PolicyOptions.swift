import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports
import Foundation

/// What fails a run: `--territory`, `--strict`, the rules file and the baseline. Shared by `check` and
/// `report`, which exit alike.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("Compare prices only in these territories (comma-separated, alpha-2 or alpha-3); "
                               + "overrides the rules file's territories.", valueName: "US,GB,..."))
    var territory: [String] = []

    @Flag(name: .long, help: "Warnings fail the run too.")
    var strict = false

    @Option(name: .long, help: ArgumentHelp(
        "The rules file (default: .catalogcheck.yml in the working directory or a parent, up to the repository root).",
        valueName: "file"))
    var rules: String?

    @Option(name: .long, help: ArgumentHelp("Suppress the findings recorded in this baseline file.",
                                            valueName: "file"))
    var baseline: String?

    @Flag(name: .long, help: "Record the current findings in the --baseline file and exit 0.")
    var updateBaseline = false

    func validate() throws {
        _ = try parseTerritories(territory)
        if updateBaseline && baseline == nil {
            throw ValidationError("--update-baseline needs --baseline FILE: the file to write")
        }
    }

    /// The rules file: `--rules`, else the nearest `.catalogcheck.yml`, else none.
    func ruleConfiguration(console: Console) throws -> RuleConfiguration {
        let path: String
        if let rules {
            path = rules
        } else {
            let directory = FileManager.default.currentDirectoryPath
            guard let found = RulesFileLocator.find(from: URL(fileURLWithPath: directory)) else {
                return RuleConfiguration()
            }
            // Shown relative to the working directory when it is below it, as the user would type it.
            let prefix = directory.hasSuffix("/") ? directory : directory + "/"
            path = found.path.hasPrefix(prefix) ? String(found.path.dropFirst(prefix.count)) : found.path
        }
        return try reportingInputErrors(console) {
            try RulesFileReader().read(contentsOf: URL(fileURLWithPath: path), displayPath: path)
        }
    }

    /// The baseline to apply: none when there is none, or when it is being rewritten.
    func loadedBaseline(console: Console) throws -> Baseline? {
        guard let baseline, !updateBaseline else { return nil }
        return try reportingInputErrors(console) {
            try BaselineReader().read(contentsOf: URL(fileURLWithPath: baseline), displayPath: baseline)
        }
    }

    /// The whole check that `check` and `report` share: the rules file and the baseline first (a broken one
    /// stops the run before any catalog is read), then the catalogs, the checker, and the policy.
    /// `--territory` wins over the rules file's `territories:`.
    func check(_ inputs: CatalogInputOptions, asOf day: CalendarDate, console: Console) throws -> CheckedRun {
        let rules = try ruleConfiguration(console: console)
        let baseline = try loadedBaseline(console: console)
        let (config, stores) = try inputs.load(asOf: day, console: console)
        let options = CheckOptions(territories: try parseTerritories(territory) ?? rules.territories, strict: strict)
        let checked = Checker(options: options).check(config: config, stores: stores)
        let result = Policy(rules: rules, baseline: baseline, asOf: day).apply(to: checked)
        return CheckedRun(result: result, config: config, stores: stores)
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

    /// Products and price matrices, for the release report (built on request: it walks every price).
    func overview() -> ReleaseOverview {
        ReleaseOverview(config: config, stores: stores, result: result)
    }
}
