import CatalogCore
import CatalogSnapshot
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
        case .revenuecat: RevenueCatReader()
        case .map: MappingReader()
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
        let catalog = try CatalogLoader.reader(for: try Self.format(of: input)).read(input, options: options)
        guard let app = input.source.app else { return catalog }
        return try RevenueCatReader.selecting(app, in: catalog)
    }

    /// The format to read an input as. A folder `fetch` wrote is read as its manifest's store says, unless a
    /// format was given: what its pages hold cannot tell (a snapshot of an app with no products holds only empty
    /// lists), and a damaged manifest stops the run here, at the manifest (DESIGN.md §2b).
    static func format(of input: ResolvedInput) throws(CatalogReadError) -> CatalogFormat {
        guard input.kind == .folder, input.source.format == nil, input.role != .config,
              let store = try JSONFolder.snapshotStore(in: input.url, displayPath: input.displayPath)
        else { return try input.readableFormat() }
        switch store {
        case .appStore: return .ascJSON
        case .play: return .playJSON
        case .revenueCat:
            // A RevenueCat project is declared, never a store (DESIGN.md §4b).
            guard input.role != .store else {
                throw CatalogReadError("a declared catalog (revenuecat), not a store catalog: give it with --config",
                                       at: SourceLocation(path: input.displayPath))
            }
            return .revenuecat
        default:
            throw CatalogReadError("a snapshot of \(store.title), which this version of catalogcheck cannot read",
                                   at: SourceLocation(path: input.displayPath))
        }
    }

    /// Reads `path` (relative to the working directory, or absolute) as `format`, detecting it when nil.
    public func load(_ path: String, format: CatalogFormat? = nil) throws(CatalogReadError) -> Catalog {
        try load(InputSource(origin: .path(path), format: format).resolve(as: .catalog))
    }
}
