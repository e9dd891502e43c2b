import ArgumentParser
import CatalogCore

/// What fails a run: `--territory`, `--strict`, the rules file and the baseline. Shared by `check` and
/// `report`, which exit alike; `--update-baseline` is `check`'s alone. Parsing only: `CheckRun` applies them.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("Compare prices only in these territories (comma-separated, alpha-2 or alpha-3); "
                               + "overrides the rules file's territories.", valueName: "US,GB,..."))
    var territory: [String] = []

    @Flag(name: .long, help: "Warnings fail the run too.")
    var strict = false

    @Flag(name: .long, help: ArgumentHelp(
        "With a RevenueCat project as --config: the products of every offering, not only the current one, are "
            + "offering products (offering-product-missing-in-store)."))
    var allOfferings = false

    @Option(name: .long, help: ArgumentHelp(
        "The rules file (default: .catalogcheck.yml in the working directory or a parent, up to the repository root).",
        valueName: "file"), completion: .file(extensions: ["yml", "yaml"]))
    var rules: String?

    @Option(name: .long, help: ArgumentHelp("Suppress the findings recorded in this baseline file.",
                                            valueName: "file"), completion: .file())
    var baseline: String?

    func validate() throws {
        _ = try parseTerritories(territory)
    }

    /// `--territory`, parsed (validated already).
    var territories: Set<Territory>? { (try? parseTerritories(territory)) ?? nil }
}
