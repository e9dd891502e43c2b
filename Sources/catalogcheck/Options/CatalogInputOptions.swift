import ArgumentParser
import CatalogCore
import CatalogFormats

/// The config and the store inputs, shared by `check` and `report`. Parsing only: `CheckRun` resolves them.
struct CatalogInputOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The declared catalog: the product config (YAML or JSON), or FORMAT:PATH for any readable format "
            + "(revenuecat:DIR, map:FILE, storekit:FILE, …); a path, git:REV:PATH, or - for standard input.",
        valueName: "file"), completion: .file())
    var config: String

    @Option(name: .long, help: ArgumentHelp(
        "A store catalog: a file or folder, FORMAT:PATH, git:REV:PATH, or -. Repeat for several stores.",
        valueName: "file|dir"), completion: .file())
    var store: [InputSource]

    /// A store format: every format but the config's, which a store input never is (DESIGN.md §2), so neither
    /// the help nor the completion offers `catalog` here.
    @Option(name: .long, help: ArgumentHelp("The format of the store input (only with one --store); detected when omitted.",
                                            valueName: "format"))
    var storeFormat: StoreFormat?

    @Option(name: .long, help: ArgumentHelp(
        "The Play merchant's home currency, for Play CSV auto-filled prices (default: the currency of the "
        + "config's baseTerritory).", valueName: "XXX"))
    var playCurrency: CurrencyCode?

    func validate() throws {
        if storeFormat != nil && store.count > 1 {
            throw ValidationError("--store-format applies to one --store; with several, write --store FORMAT:PATH")
        }
    }

    /// The config as spelled.
    var configSource: InputSource { InputSource(config) }

    /// The stores as spelled, `--store-format` applied where the spelling names no format.
    var storeSources: [InputSource] {
        store.map { source in
            var source = source
            if source.format == nil { source.format = storeFormat?.format }
            return source
        }
    }
}
