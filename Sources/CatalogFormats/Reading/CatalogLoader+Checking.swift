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
            return try Self.paired(configCatalog, try readingStores(against: configCatalog).load(stores))
        }
        let loader = self
        let (storeCatalogs, configCatalog) = TwoCores.run({
            Result { () throws(CatalogReadError) in try load(stores) }
        }, alongside: {
            Result { () throws(CatalogReadError) in try loader.load(config) }
        })
        return try Self.paired(try configCatalog.get(), try storeCatalogs.get())
    }

    /// A declared project (RevenueCat) and its stores, when every store pairs with one of its apps
    /// (`DeclaredPairing`); a store that pairs with none, or with one of several it cannot tell apart, stops the
    /// run at the config: compared with the wrong app, every product would be drift, or none.
    private static func paired(_ config: Catalog,
                               _ stores: [Catalog]) throws(CatalogReadError) -> (config: Catalog, stores: [Catalog]) {
        guard let project = config.project else { return (config, stores) }
        for store in stores {
            if case .failure(let problem) = DeclaredPairing.app(in: project, for: store) {
                throw CatalogReadError(problem.message, at: SourceLocation(path: config.path))
            }
        }
        return (config, stores)
    }

    private func load(_ stores: [ResolvedInput]) throws(CatalogReadError) -> [Catalog] {
        var catalogs: [Catalog] = []
        for store in stores { catalogs.append(try load(store)) }
        return catalogs
    }
}
