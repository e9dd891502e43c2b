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
    /// Reads an input as resolution left it (DESIGN.md §2, "inputs are resolved once"): a file's bytes are
    /// `input.bytes()` (mapped, its size known), a folder's files those of `input.listing`; nothing is stat'ed
    /// or listed again. A format read from one file refuses a folder. Every location in the result and in errors
    /// uses `input.displayPath`, the path as the user gave it.
    func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog
}

extension CatalogReader {
    /// Reads a file or folder named by URL (tools and tests): resolved here, once, as this reader's format.
    /// `displayPath` is the path as the user gave it.
    public func read(contentsOf url: URL, displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        try read(ResolvedInput.resolve(url: url, displayPath: displayPath, readingAs: format), options: options)
    }

    /// Reads a folder as `listing` names its regular files (relative to it, sorted, hidden entries left out —
    /// `ResolvedInput.listing`), without listing it.
    public func read(folder url: URL, listing: [String], displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        try read(ResolvedInput.folder(url, listing: listing, displayPath: displayPath, readingAs: format),
                 options: options)
    }
}
