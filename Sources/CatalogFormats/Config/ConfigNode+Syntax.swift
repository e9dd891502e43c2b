import CatalogCore
import Foundation

extension ConfigNode {
    /// Parses a YAML or JSON document: JSON by extension (`.json`), YAML by extension (`.yml`, `.yaml`),
    /// otherwise JSON when the first character is `{`. The product config and the rules file are told apart
    /// from their syntax this one way.
    ///
    /// The bytes may be UTF-8 or carry a UTF-16 / UTF-32 byte order mark (`TextEncoding`).
    /// A file holding nothing but whitespace (and a byte order mark) throws `emptyFile` at 1:1; nil is a YAML
    /// stream without a document (only comments).
    ///
    /// A `products` sink takes the root's `products` entries as they are read (`ConfigProductSink`). What the
    /// sink found wrong is in `problems`: an error that stops the parse is thrown with them (DESIGN.md §5a.1).
    static func parse(_ file: Data, path: String, emptyFile: String, products: ConfigProductSink? = nil,
                      problems: ConfigProblems = ConfigProblems()) throws(CatalogReadError) -> ConfigNode? {
        do throws(CatalogReadError) {
            let (data, isASCII) = try TextEncoding.utf8Text(file, path: path)
            guard !isBlank(data) else {
                throw CatalogReadError(emptyFile, at: SourceLocation(path: path, line: 1, column: 1))
            }
            if isJSON(data, path: path) {
                return try parseJSON(data, isASCII: isASCII, path: path, products: products)
            }
            return try parseYAML(data, path: path, products: products)
        } catch {
            throw problems.including(error)
        }
    }

    /// Whether to read the bytes as JSON: by extension, else when the first character is `{`. The extension is
    /// read from the text, not with `NSString.pathExtension`, which traps (SIGILL) on a path such as `a//é` (a
    /// double slash, then one two-byte character; swift-corelibs-foundation, Swift 6.3.1).
    static func isJSON(_ data: Data, path: String) -> Bool {
        let name = path.split(separator: "/").last ?? Substring(path)
        let fileExtension = name.lastIndex(of: ".").flatMap { dot in
            dot == name.startIndex ? nil : name[name.index(after: dot)...].lowercased()
        } ?? ""
        switch fileExtension {
        case "json": return true
        case "yml", "yaml": return false
        default: return firstSignificantByte(of: data) == UInt8(ascii: "{")
        }
    }

    /// Whether UTF-8 bytes (without a byte order mark, `TextEncoding.utf8`) hold nothing but whitespace.
    static func isBlank(_ data: Data) -> Bool {
        firstSignificantByte(of: data) == nil
    }

    /// The first byte that is not whitespace.
    private static func firstSignificantByte(of data: Data) -> UInt8? {
        data.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
    }
}
