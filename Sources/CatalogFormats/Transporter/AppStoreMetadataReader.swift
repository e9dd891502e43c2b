import CatalogCore
import Foundation

/// Reads an App Store Package `metadata.xml` (iTMSTransporter, namespace `http://apple.com/itunes/importer`,
/// also accepted without a namespace): every `<in_app_purchase>`, wherever it is — under `<in_app_purchases>`,
/// an old `<family name=…>` (software5.0) or a newer `<subscription_group name=…>` (software5.9+). A folder
/// (the `.itmsp` package) is read through its `metadata.xml`.
///
/// Mapping (FORMATS.md "XML tiers", DESIGN.md §5a 7, 10, 12, 14):
/// - `product_id`, `reference_name`; `type` `consumable` / `non-consumable` / `auto-renewable` /
///   `subscription` (= non-renewing). `free-subscription` (legacy Newsstand) has no canonical kind: the product
///   is read with no type (never compared) and the catalog carries a remark.
/// - `duration` (`7 Days`, `1 Month`, …) is the period.
/// - `cleared_for_sale` under `products/product`, or directly under `in_app_purchase` (software5.9
///   subscription template), is availability.
/// - The price is a legacy tier, as its US price in USD: `products/product/wholesale_price_tier`, or among
///   `products/product/intervals/interval` the one whose `start_date` ≤ as-of < `end_date` (no start = always,
///   no end = open; several → latest start, the first such in the file on a tie; none → no price). Intervals
///   starting after as-of are exported as `scheduled` uncompared prices; past ones are dropped. A product with
///   both a direct tier and intervals, or with several `<product>` blocks, is an error.
/// - The group is the enclosing `family` / `subscription_group` `name` (key = name); the format has no group
///   level, no family sharing and no intro offers (`free_trial_duration` is not an introductory offer record).
///
/// Parsing streams through `XMLSAXParser` (libxml2 SAX2): no DTD, no entity substitution (declared entities
/// expand to nothing), no network; element names are compared as bytes, and text is kept only inside the
/// elements read here.
public struct AppStoreMetadataReader: CatalogReader {
    /// Creates the reader.
    public init() {}

    /// `.appstoreXML`.
    public var format: CatalogFormat { .appstoreXML }

    /// Reads a `metadata.xml`, or the `metadata.xml` of a package folder, streaming it.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let displayPath = input.displayPath
        if input.kind == .folder {
            return try read(folder: input.url, listing: input.listing, displayPath: displayPath, options: options)
        }
        return try read(filePath: displayPath, catalogPath: displayPath,
                        options: options) { builder throws(CatalogReadError) in
            try XMLSAXParser.parse(contentsOf: input.url, displayPath: displayPath, handler: builder)
        }
    }

    /// Reads the `metadata.xml` of a package folder; a listing that holds it spares looking for it (a symbolic
    /// link, which listings leave out, is looked for).
    public func read(folder url: URL, listing: [String], displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let listsMetadata = listing.contains("metadata.xml")
        let fileURL = url.appendingPathComponent("metadata.xml")
        let filePath = displayPath + "/metadata.xml"
        guard listsMetadata || FileManager.default.fileExists(atPath: fileURL.path) else {
            throw CatalogReadError("not a Transporter package: the folder holds no metadata.xml",
                                   at: SourceLocation(path: displayPath))
        }
        return try read(filePath: filePath, catalogPath: displayPath,
                        options: options) { builder throws(CatalogReadError) in
            try XMLSAXParser.parse(contentsOf: fileURL, displayPath: filePath, handler: builder)
        }
    }

    /// Reads a `metadata.xml` held in memory.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        try read(filePath: displayPath, catalogPath: displayPath,
                 options: options) { builder throws(CatalogReadError) in
            try XMLSAXParser.parse(data: data, displayPath: displayPath, handler: builder)
        }
    }

    private func read(filePath: String, catalogPath: String, options: ReadOptions,
                      parse: (XMLEventHandler) throws(CatalogReadError) -> Void) throws(CatalogReadError) -> Catalog {
        let builder = MetadataCatalogBuilder(asOf: options.asOf)
        try parse(builder)
        guard builder.sawRoot else {
            throw CatalogReadError("the file has no XML root element", at: SourceLocation(path: filePath, line: 1))
        }
        return Catalog(
            path: catalogPath, format: .appstoreXML, groups: builder.groups, products: builder.products,
            capabilities: CatalogCapabilities(expressesGroups: true, priceableTerritories: [.unitedStates]),
            remarks: builder.remarks)
    }
}
