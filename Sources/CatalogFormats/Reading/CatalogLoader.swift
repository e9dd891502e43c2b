import CatalogCore
import Foundation

/// Reads inputs with the reader of their format: the one entry point the CLI uses, and the one place that knows
/// every reader. The format folders know nothing of it; `Input/` (resolution, detection, the reader contract) is
/// below them all (DESIGN.md §9: no folder cycles).
public struct CatalogLoader: Sendable {
    /// Options every reader gets.
    public var options: ReadOptions

    /// Creates a loader.
    public init(options: ReadOptions) {
        self.options = options
    }

    /// The reader of a format. Exhaustive: a new format without a reader does not compile.
    public static func reader(for format: CatalogFormat) -> any CatalogReader {
        switch format {
        case .appstoreXML: AppStoreMetadataReader()
        case .storekit: StoreKitConfigReader()
        case .ascJSON: AppStoreConnectReader()
        case .playCSV: PlayCSVReader()
        case .playJSON: PlayJSONReader()
        case .plist: PlistReader()
        case .catalog: ProductConfigReader()
        }
    }

    /// The loader for the stores checked against `config`: without `--play-currency`, Play CSV home-currency
    /// prices are taken to be in the currency of the config's base territory (DESIGN.md §5a.8).
    public func readingStores(against config: Catalog) -> CatalogLoader {
        guard options.playCurrency == nil, let implied = config.baseTerritory.playCurrency else { return self }
        var loader = self
        loader.options.playCurrency = implied
        return loader
    }

    /// Reads a resolved input with the reader of its format; an input whose format could not be told, or
    /// that its role refuses, throws why here.
    public func load(_ input: ResolvedInput) throws(CatalogReadError) -> Catalog {
        // The input as resolution left it: no reader stats or lists it again.
        try CatalogLoader.reader(for: try input.readableFormat()).read(input, options: options)
    }

    /// Reads `path` (relative to the working directory, or absolute) as `format`, detecting it when nil.
    public func load(_ path: String, format: CatalogFormat? = nil) throws(CatalogReadError) -> Catalog {
        try load(InputSource(origin: .path(path), format: format).resolve(as: .catalog))
    }
}
