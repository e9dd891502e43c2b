import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports

/// `catalogcheck check`: the CI gate.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare the product config with one or more store catalogs; exit 1 when they disagree.",
        discussion: """
            Each --store is compared with the config on its own. A store's format is detected from its \
            extension and content; give it explicitly as --store FORMAT:PATH (e.g. play-json:play/), or with \
            --store-format when there is one store. Run `catalogcheck formats` for the formats.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The internal product config (YAML or JSON).", valueName: "file"))
    var config: String

    @Option(name: .long, help: ArgumentHelp(
        "A store catalog: a file or folder, optionally FORMAT:PATH. Repeat for several stores.",
        valueName: "file|dir"))
    var store: [StoreArgument]

    @Option(name: .long, help: "The format of the store input (only with one --store); detected when omitted.")
    var storeFormat: CatalogFormat?

    @Option(name: .long, parsing: .singleValue,
            help: ArgumentHelp("Compare prices only in these territories (comma-separated, alpha-2 or alpha-3).",
                               valueName: "US,GB,..."))
    var territory: [String] = []

    @Flag(name: .long, help: "Warnings fail the run too.")
    var strict = false

    @Option(name: .long, help: "The report format on standard output (or --output).")
    var format: ReportFormat = .text

    @Option(name: .long, help: ArgumentHelp("Write the report to this file instead of standard output.",
                                            valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Also write a report in another format (repeatable).",
                                            valueName: "format:path"))
    var report: [ReportArgument] = []

    @Option(name: .customLong("as-of"),
            help: ArgumentHelp("The day scheduled prices are evaluated at (default: today, UTC).",
                               valueName: "YYYY-MM-DD"))
    var asOf: CalendarDate?

    @Option(name: .long, help: ArgumentHelp(
        "The Play merchant's home currency, for Play CSV auto-filled prices (default: the currency of the "
        + "config's baseTerritory).", valueName: "XXX"))
    var playCurrency: CurrencyCode?

    @Flag(name: .long, help: "Print only findings that fail the run, and the summary.")
    var quiet = false

    @Flag(name: .long, help: "No colors (also when NO_COLOR is set, or the output is not a terminal).")
    var noColor = false

    func validate() throws {
        if store.isEmpty {
            throw ValidationError("Missing expected argument '--store <file|dir>'")
        }
        if storeFormat != nil && store.count > 1 {
            throw ValidationError("--store-format applies to one --store; with several, write --store FORMAT:PATH")
        }
        _ = try parseTerritories(territory)
    }

    func run() throws {
        let console = Console()
        guard let day = asOf ?? CalendarDate.todayUTC else { throw ValidationError("cannot tell today's date; pass --as-of") }
        let options = ReadOptions(asOf: day, playCurrency: playCurrency)
        let checker = Checker(options: CheckOptions(territories: try parseTerritories(territory), strict: strict))

        var result = try reportingInputErrors(console) {
            let configCatalog = try CatalogLoader(options: options).load(config, format: .catalog)
            let storeLoader = CatalogLoader(options: homeCurrency(options, config: configCatalog))
            let stores = try store.map { try storeLoader.load($0.path, format: $0.format ?? storeFormat) }
            return checker.check(config: configCatalog, stores: stores)
        }
        if quiet {
            result.findings = result.findings.filter(result.fails)
        }

        let colors = output == nil && Console.wantsColors(noColorFlag: noColor)
        let text = format.reporter.report(result, context: ReportContext(colors: colors))
        if let output {
            try console.write(text, to: output)
        } else {
            console.output(text)
        }
        for extra in report {
            try console.write(extra.format.reporter.report(result, context: ReportContext()), to: extra.path)
        }
        if !result.isConsistent { throw Exit.inconsistent }
    }

    /// Without `--play-currency`, the Play home currency is the one the config's base territory implies.
    private func homeCurrency(_ options: ReadOptions, config: Catalog) -> ReadOptions {
        guard options.playCurrency == nil, let implied = config.baseTerritory.playCurrency else { return options }
        var options = options
        options.playCurrency = implied
        options.playCurrencyOrigin = "implied by the config's baseTerritory \(config.baseTerritory.alpha2)"
        return options
    }
}
