import CatalogCore
import Foundation

extension CatalogLoader {
    /// Reads the config (`.catalog`) and the stores checked against it (`readingStores(against:)`). When no
    /// store's reading depends on the config — every store's format is known (given, or detected from a file or
    /// folder) and none is Play CSV, whose home-currency prices take the config's base territory — the config is
    /// read on a second core while the stores are read; else the config first. Either way an error is the one a
    /// reading in order would throw: the config's first, then the first store's that fails.
    public func load(config: String, stores: [(path: String, format: CatalogFormat?)])
        throws(CatalogReadError) -> (config: Catalog, stores: [Catalog])
    {
        let stores = stores.map { (path: $0.path, format: $0.format ?? CatalogLoader.detectedFormat(of: $0.path)) }
        guard !stores.isEmpty, stores.allSatisfy({ $0.format != nil && $0.format != .playCSV }) else {
            let configCatalog = try load(config, format: .catalog)
            return (configCatalog, try readingStores(against: configCatalog).load(stores))
        }
        let loader = self
        let configRead = ReadAhead(count: 1, lookahead: 1) { _ throws(CatalogReadError) in
            try loader.load(config, format: .catalog)
        }
        defer { configRead.finish() }
        let storeCatalogs = Result { () throws(CatalogReadError) in try load(stores) }
        return (try configRead.next(), try storeCatalogs.get())
    }

    /// The format of a file or folder, detected ahead of reading; nil for a stream (detecting would consume it)
    /// or when detection fails (reading in order then reports it, after the config's errors).
    private static func detectedFormat(of path: String) -> CatalogFormat? {
        let url = URL(fileURLWithPath: path)
        guard let kind = try? FileLoading.kind(of: url, displayPath: path), kind != .stream else { return nil }
        return try? FormatDetector.detect(url, displayPath: path)
    }

    private func load(_ stores: [(path: String, format: CatalogFormat?)]) throws(CatalogReadError) -> [Catalog] {
        var catalogs: [Catalog] = []
        for store in stores { catalogs.append(try load(store.path, format: store.format)) }
        return catalogs
    }
}
