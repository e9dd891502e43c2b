import CatalogCore
import Foundation

extension ConfigNode {
    /// Parses a JSON config into a tree with `JSONDocument` (strict RFC 8259, duplicate keys rejected, numbers
    /// kept as their source text). Every value and key is marked by its byte offset: its line and column are
    /// counted only when asked for. `data` is UTF-8 from `TextEncoding.utf8`.
    static func parseJSON(_ data: Data, path: String) throws(CatalogReadError) -> ConfigNode {
        let document = try JSONDocument(utf8: data, path: path)
        return convert(document.root, source: ConfigSource(text: document.source))
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
