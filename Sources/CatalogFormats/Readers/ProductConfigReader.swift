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
    public func read(contentsOf url: URL, displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        if FileLoading.isDirectory(url) {
            throw CatalogReadError("is a folder; the product config is one YAML or JSON file",
                                   at: SourceLocation(path: displayPath))
        }
        let data = try FileLoading.data(at: url, displayPath: displayPath)
        return try read(data: data, displayPath: displayPath)
    }

    /// Reads a config from its bytes (e.g. a revision from git). The syntax follows the extension of
    /// `displayPath`, then the content.
    public func read(data: Data, displayPath: String) throws(CatalogReadError) -> Catalog {
        let validator = ConfigValidator(path: displayPath)
        guard ProductConfigReader.hasContent(data) else {
            throw CatalogReadError("the file is empty; a config needs at least \"version: 1\" and \"products:\"",
                                   at: SourceLocation(path: displayPath, line: 1, column: 1))
        }
        if ProductConfigReader.isJSON(data, path: displayPath) {
            return try validator.catalog(from: ConfigNode.parseJSON(data, path: displayPath))
        }
        return try validator.catalog(from: ConfigNode.parseYAML(data, path: displayPath))
    }

    /// Whether to read the bytes as JSON: by extension, else when the first character is `{`.
    static func isJSON(_ data: Data, path: String) -> Bool {
        let fileExtension = (path as NSString).pathExtension.lowercased()
        switch fileExtension {
        case "json": return true
        case "yml", "yaml": return false
        default: return firstSignificantByte(of: data) == UInt8(ascii: "{")
        }
    }

    private static func hasContent(_ data: Data) -> Bool {
        firstSignificantByte(of: data) != nil
    }

    /// The first byte after a UTF-8 byte order mark and whitespace.
    private static func firstSignificantByte(of data: Data) -> UInt8? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
    }
}
