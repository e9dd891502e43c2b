import CatalogCore
import Foundation

/// Reads a RevenueCat project snapshot (`fetch revenuecat`, `--config revenuecat:DIR`, DESIGN.md §4b): the
/// project's App Store and Play apps, products, entitlements, offerings and packages, as a declared catalog whose
/// products each belong to one app (`Catalog.project`). Pages: `RevenueCatPages`; the catalog:
/// `RevenueCatCatalogBuilder`.
public struct RevenueCatReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// `revenuecat`.
    public var format: CatalogFormat { .revenuecat }

    /// A project is a folder of pages: a single file is refused, naming what to give.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        guard input.kind == .folder else {
            throw CatalogReadError("a RevenueCat project is the folder `fetch revenuecat` writes, not one file",
                                   at: SourceLocation(path: input.displayPath))
        }
        let pages = try RevenueCatPages(folder: input.url, listing: input.listing, displayPath: input.displayPath)
        return try RevenueCatCatalogBuilder.catalog(of: pages, path: input.displayPath)
    }

    /// The project with `app` (`revenuecat:DIR@APP_ID`) named as the app of its store, or an error listing the
    /// apps when the project has none of that ID.
    public static func selecting(_ app: String, in catalog: Catalog) throws(CatalogReadError) -> Catalog {
        guard var project = catalog.project else { return catalog }
        guard project.apps.contains(where: { $0.id == app }) else {
            let apps = project.apps.map(\.summary).joined(separator: ", ")
            throw CatalogReadError("@\(app): the project has no App Store or Play app of that ID (its apps: "
                                   + (apps.isEmpty ? "none" : apps) + ")", at: SourceLocation(path: catalog.path))
        }
        project.selectedApp = app
        var selected = catalog
        selected.project = project
        return selected
    }
}
