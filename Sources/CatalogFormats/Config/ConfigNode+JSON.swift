import CatalogCore
import Foundation

extension ConfigNode {
    /// Parses a JSON config into a tree with `JSONDocument` (strict RFC 8259, duplicate keys rejected, numbers
    /// kept as their source text). Every value and key is marked by its byte offset: its line and column are
    /// counted only when asked for. `data` is UTF-8 from `TextEncoding.utf8`.
    ///
    /// With a `products` sink, the members of the root's `products` object go to the sink as they are converted.
    static func parseJSON(_ data: Data, path: String,
                          products: ConfigProductSink? = nil) throws(CatalogReadError) -> ConfigNode {
        let document = try JSONDocument(utf8: data, path: path)
        let source = ConfigSource(text: document.source)
        let root = document.root
        guard let products, let members = root.members else { return convert(root, source: source) }
        var entries: [ConfigEntry] = []
        for member in members {
            let value = member.value
            let node: ConfigNode
            if member.key == "products", let productMembers = value.members, products.begin(rootEntries: entries) {
                let productEntries = productMembers.map { product in
                    let entry = ConfigEntry(key: product.key, keyMark: ConfigMark(offset: product.keyOffset),
                                            value: convert(product.value, source: source))
                    return products.take(entry) ? entry.emptied : entry
                }
                node = ConfigNode(value: .mapping(productEntries), source: source,
                                  mark: ConfigMark(offset: value.offset))
            } else {
                node = convert(value, source: source)
            }
            entries.append(ConfigEntry(key: member.key, keyMark: ConfigMark(offset: member.keyOffset), value: node))
        }
        return ConfigNode(value: .mapping(entries), source: source, mark: ConfigMark(offset: root.offset))
    }

    private static func convert(_ value: JSONValue, source: ConfigSource) -> ConfigNode {
        let mark = ConfigMark(offset: value.offset)
        switch value.kind {
        case .object:
            let entries = value.members?.map { member in
                ConfigEntry(key: member.key, keyMark: ConfigMark(offset: member.keyOffset),
                            value: convert(member.value, source: source))
            } ?? []
            return ConfigNode(value: .mapping(entries), source: source, mark: mark)
        case .array:
            let elements = value.elements?.map { convert($0, source: source) } ?? []
            return ConfigNode(value: .sequence(elements), source: source, mark: mark)
        case .string:
            return scalar(.string, value.string ?? "", source: source, mark: mark)
        case .number:
            return scalar(.number, value.numberText ?? "", source: source, mark: mark)
        case .bool:
            return scalar(.bool, value.bool == true ? "true" : "false", source: source, mark: mark)
        case .null:
            return scalar(.null, "null", source: source, mark: mark)
        }
    }

    private static func scalar(_ kind: ConfigScalar.Kind, _ text: String, source: ConfigSource,
                               mark: ConfigMark) -> ConfigNode {
        ConfigNode(value: .scalar(ConfigScalar(text: text, kind: kind)), source: source, mark: mark)
    }
}
