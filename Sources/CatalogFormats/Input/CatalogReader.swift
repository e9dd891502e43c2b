import Foundation
import CatalogCore

/// Settings every reader may need.
public struct ReadOptions: Sendable {
    /// The day at which scheduled prices are evaluated (`--as-of`).
    public var asOf: CalendarDate
    /// The merchant's home currency for Play CSV single prices, when known.
    public var playCurrency: CurrencyCode?

    /// Creates options.
    public init(asOf: CalendarDate, playCurrency: CurrencyCode? = nil) {
        self.asOf = asOf
        self.playCurrency = playCurrency
    }
}

/// Reads one format into a normalized `Catalog`.
public protocol CatalogReader: Sendable {
    /// The format this reader reads.
    var format: CatalogFormat { get }
    /// Reads a file (or, for formats that accept one, a folder). `displayPath` is the path as the user gave it;
    /// every location in the result and in errors uses it.
    func read(contentsOf url: URL, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog
    /// Reads a folder as resolution listed it (`listing`: its regular files, relative to it, sorted, hidden
    /// entries left out — `ResolvedInput.listing`), without listing it again: a run stats and lists each folder
    /// once (DESIGN.md §2, "inputs are resolved once"). The loader calls this for every folder input.
    func read(folder url: URL, listing: [String], displayPath: String,
              options: ReadOptions) throws(CatalogReadError) -> Catalog
}

extension CatalogReader {
    /// A format read from one file takes a folder as `read(contentsOf:)` does: it refuses it.
    public func read(folder url: URL, listing: [String], displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        try read(contentsOf: url, displayPath: displayPath, options: options)
    }
}
