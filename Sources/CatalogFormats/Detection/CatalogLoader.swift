import CatalogCore
import Foundation

/// Finds, detects and reads inputs: the one entry point the CLI uses.
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

    /// Reads `path` (relative to the working directory, or absolute) as `format`, detecting it when nil.
    public func load(_ path: String, format: CatalogFormat? = nil) throws(CatalogReadError) -> Catalog {
        let url = URL(fileURLWithPath: path)
        let resolved: CatalogFormat
        if let format {
            resolved = format
        } else {
            resolved = try FormatDetector.detect(url, displayPath: path)
        }
        return try CatalogLoader.reader(for: resolved).read(contentsOf: url, displayPath: path, options: options)
    }
}
