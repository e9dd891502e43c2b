import CatalogCore
import Foundation

extension CatalogLoader {
    /// Reads the config and the stores checked against it (`readingStores(against:)`). When no store's
    /// reading depends on the config — every store's format is known (given, or detected at resolution) and
    /// none is Play CSV, whose home-currency prices take the config's base territory — the config is read on a
    /// second core while the stores are read; else the config first. Either way an error is the one a reading
    /// in order would throw: the config's first, then the first store's that fails.
    public func load(config: ResolvedInput, stores: [ResolvedInput])
        throws(CatalogReadError) -> (config: Catalog, stores: [Catalog])
    {
        let independent = stores.allSatisfy { store in
            guard case .success(let format) = store.format else { return false }
            return format != .playCSV
        }
        guard !stores.isEmpty, independent else {
            let configCatalog = try load(config)
            return (configCatalog, try readingStores(against: configCatalog).load(stores))
        }
        let loader = self
        let configRead = ReadAhead(count: 1, lookahead: 1) { _ throws(CatalogReadError) in
            try loader.load(config)
        }
        defer { configRead.finish() }
        let storeCatalogs = Result { () throws(CatalogReadError) in try load(stores) }
        return (try configRead.next(), try storeCatalogs.get())
    }

    private func load(_ stores: [ResolvedInput]) throws(CatalogReadError) -> [Catalog] {
        var catalogs: [Catalog] = []
        for store in stores { catalogs.append(try load(store)) }
        return catalogs
    }
}
