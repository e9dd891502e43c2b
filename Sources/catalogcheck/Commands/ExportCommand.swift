import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports

/// `catalogcheck export`: any catalog as a canonical products.yml, or JSON.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print any catalog in the internal config format (sorted, canonical) or as JSON.",
        discussion: "Bootstrap a products.yml from a store export, or turn a store export into a file that diffs cleanly."
    )

    /// The export formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        /// The internal config (products.yml); `catalog`, the format's name elsewhere, is a synonym.
        case yaml
        /// The JSON of DESIGN.md §2.
        case json

        /// Reads `yaml`, `json`, or `catalog` for `yaml`.
        init?(argument: String) {
            self.init(rawValue: argument == "catalog" ? Format.yaml.rawValue : argument)
        }
    }

    @Argument(help: ArgumentHelp(
        "The catalog to export: a file or folder, FORMAT:PATH, git:REV:PATH, or - (as diff's inputs).",
        valueName: "file"), completion: .file())
    var file: String

    @Option(name: .long, help: "The input's format; detected when omitted.")
    var storeFormat: CatalogFormat?

    @Option(name: .long, help: "yaml (the internal config, products.yml; catalog is a synonym) or json.")
    var format: Format = .yaml

    @OptionGroup var date: AsOfOption

    @OptionGroup var destination: OutputOption

    func run() throws {
        let console = Console()
        let output = destination.target(implicit: "standard output")
        var source = InputSource(file)
        if source.format == nil { source.format = storeFormat }
        let input = try reportingInputErrors(console) {
            try source.resolve(as: .catalog)
        }
        try OutputGuard.refuseOverwriting([RunInput(input)], outputs: [output], console: console)
        let catalog = try reportingInputErrors(console) {
            try CatalogLoader(options: ReadOptions(asOf: try date.day())).load(input)
        }
        let untyped = Set(catalog.products.filter { $0.kind == nil }.map(\.id)).count
        if untyped > 0 {
            // A product list (plist) names IDs only: the export is a config once the user chooses each type.
            console.error("\(catalog.path): warning: \(untyped) product\(untyped == 1 ? "" : "s") of this "
                          + "\(catalog.format.rawValue) catalog state\(untyped == 1 ? "s" : "") no type; the export "
                          + "leaves \"type\" out, so it is not a valid config until you set each one "
                          + "(\(ProductKind.configNames(for: catalog.store)))")
        }
        switch format {
        case .yaml: try console.emit(CatalogYAMLExporter().export(catalog), to: output.destination)
        case .json:
            try console.emit(to: output.destination) { sink throws(OutputError) in
                try CatalogJSONExporter().export(catalog) { chunk throws(OutputError) in try sink.write(chunk) }
            }
        }
    }
}
