/// A key path into the config, for error messages: `products."com.x.monthly".prices.DE`, `products.x.stores[1]`.
/// Keys that are not plain identifiers are written in double quotes.
struct ConfigPath: Sendable, CustomStringConvertible {
    private enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    /// The root.
    init() {}

    /// The path of a mapping entry below this one.
    func appending(key: String) -> ConfigPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    /// The path of a sequence element below this one.
    func appending(index: Int) -> ConfigPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += ConfigPath.isIdentifier(key) ? key : ConfigScalar.quote(key)
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }

    /// The path, or `the config` for the root (so messages never start with a bare colon).
    var orRoot: String { components.isEmpty ? "the config" : description }

    private static func isIdentifier(_ key: String) -> Bool {
        guard let first = key.utf8.first, !(first >= 48 && first <= 57) else { return false }
        return key.utf8.allSatisfy { byte in
            (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "$")
        }
    }
}
