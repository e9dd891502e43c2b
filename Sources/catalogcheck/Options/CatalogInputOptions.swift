import ArgumentParser
import CatalogCore
import CatalogFormats

/// The config and the store inputs, shared by `check` and `report`.
struct CatalogInputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The internal product config (YAML or JSON).", valueName: "file"))
    var config: String

    @Option(name: .long, help: ArgumentHelp(
        "A store catalog: a file or folder, optionally FORMAT:PATH. Repeat for several stores.",
        valueName: "file|dir"))
    var store: [StoreArgument] = []

    @Option(name: .long, help: "The format of the store input (only with one --store); detected when omitted.")
    var storeFormat: CatalogFormat?

    @Option(name: .long, help: ArgumentHelp(
        "The Play merchant's home currency, for Play CSV auto-filled prices (default: the currency of the "
        + "config's baseTerritory).", valueName: "XXX"))
    var playCurrency: CurrencyCode?

    func validate() throws {
        if store.isEmpty {
            throw ValidationError("Missing expected argument '--store <file|dir>'")
        }
        if storeFormat != nil && store.count > 1 {
            throw ValidationError("--store-format applies to one --store; with several, write --store FORMAT:PATH")
        }
    }

    /// Reads the config and every store, at the same time when they do not depend on each other (Play prices
    /// in the config's home currency unless told otherwise).
    func load(asOf day: CalendarDate, console: Console) throws -> (config: Catalog, stores: [Catalog]) {
        let loader = CatalogLoader(options: ReadOptions(asOf: day, playCurrency: playCurrency))
        return try reportingInputErrors(console) {
            try loader.load(config: config, stores: store.map { ($0.path, $0.format ?? storeFormat) })
        }
    }
}
