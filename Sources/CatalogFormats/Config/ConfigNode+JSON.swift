import CatalogCore
import Foundation

extension ConfigNode {
    /// Parses a JSON config into a tree with `JSONDocument` (strict RFC 8259, duplicate keys rejected, numbers
    /// kept as their source text). Every value and key is marked by its byte offset: its line and column are
    /// counted only when asked for. `data` is UTF-8 from `TextEncoding.utf8`.
    ///
    /// With a `products` sink, the members of the root's `products` object go to the sink as they are parsed, one
    /// at a time (`JSONDocument.forEachMember`): no tape of the whole file is held.
    static func parseJSON(_ data: Data, path: String,
                          products: ConfigProductSink? = nil) throws(CatalogReadError) -> ConfigNode {
        guard let products else {
            let document = try JSONDocument(utf8: data, path: path)
            return convert(document.root, source: ConfigSource(text: document.source))
        }
        let text = SourceText(path: path, bytes: data)
        let source = ConfigSource(text: text)
        var entries: [ConfigEntry] = []
        var productEntries: [ConfigEntry] = []
        var taking = false
        var productsMarks = (key: ConfigMark(offset: 0), value: ConfigMark(offset: 0))
        let split = JSONTapeParser.Split(keys: ["products"], container: .object)
        let topLevel = try JSONDocument.forEachMember(in: text, splitting: split) { event in
            switch event {
            case .member(let key, let keyOffset, let value):
                entries.append(ConfigEntry(key: key, keyMark: ConfigMark(offset: keyOffset),
                                           value: convert(value.root, source: source)))
            case .splitBegins(_, let keyOffset, let valueOffset):
                productsMarks = (ConfigMark(offset: keyOffset), ConfigMark(offset: valueOffset))
                taking = products.begin(rootEntries: entries)
            case .splitMember(let key, let keyOffset, let value):
                let entry = ConfigEntry(key: key, keyMark: ConfigMark(offset: keyOffset),
                                        value: convert(value.root, source: source))
                productEntries.append(taking && products.take(entry) ? entry.emptied : entry)
            case .splitEnds:
                entries.append(ConfigEntry(key: "products", keyMark: productsMarks.key,
                                           value: ConfigNode(value: .mapping(productEntries), source: source,
                                                             mark: productsMarks.value)))
                productEntries = []
            case .splitElement:
                break  // Only an object is split.
            }
        }
        switch topLevel {
        case .object(let offset):
            return ConfigNode(value: .mapping(entries), source: source, mark: ConfigMark(offset: offset))
        case .document(let document):
            return convert(document.root, source: source)
        }
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
