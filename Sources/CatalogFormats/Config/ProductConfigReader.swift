import CatalogCore
import Foundation

/// Reads the team's internal product config (format `catalog`, schema version 1, DESIGN.md §4), YAML or JSON.
///
/// The syntax follows the file extension (`.yml`/`.yaml` → YAML, `.json` → JSON), otherwise the content (a
/// document starting with `{` is JSON). Both syntaxes go through one validator, so they accept exactly the same
/// configs. The reader is strict — unknown or duplicate keys, a wrong type, an unknown group, a bad period,
/// currency, territory or amount are `CatalogReadError`s naming file:line:column, the key path and the value.
///
/// Keys are their source text (YAML 1.2: `NO` is Norway, `1234` is the product "1234"); amounts are decimals
/// read from their source text, never through floating point.
public struct ProductConfigReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// Always `.catalog`.
    public var format: CatalogFormat { .catalog }

    /// Reads a config file. A folder is an error: the config is one file.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        if input.kind == .folder {
            throw CatalogReadError("is a folder; the product config is one YAML or JSON file",
                                   at: SourceLocation(path: input.displayPath))
        }
        return try read(data: input.bytes(), displayPath: input.displayPath, asOf: options.asOf)
    }

    /// Reads a config from its bytes (e.g. a revision from git). The syntax follows the extension of
    /// `displayPath`, then the content. A price schedule's entry in effect on `asOf` is the price compared
    /// (without a day: its undated entry).
    public func read(data: Data, displayPath: String, asOf: CalendarDate? = nil) throws(CatalogReadError) -> Catalog {
        let validator = ConfigValidator(path: displayPath, asOf: asOf)
        let products = ConfigValidator.ProductStream(validator: validator)
        let root = try ConfigNode.parse(
            data, path: displayPath,
            emptyFile: "the file is empty; a config needs at least \"version: 1\" and \"products:\"",
            products: products, problems: validator.problems)
        return try validator.catalog(from: root, streamed: products)
    }
}
