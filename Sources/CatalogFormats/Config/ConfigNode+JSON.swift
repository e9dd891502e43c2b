import CatalogCore
import Foundation

extension ConfigNode {
    /// Parses a JSON config into a tree with `JSONDocument` (strict RFC 8259, duplicate keys rejected, numbers
    /// kept as their source text, every value and key located). `data` is UTF-8 from `TextEncoding.utf8`.
    static func parseJSON(_ data: Data, path: String) throws(CatalogReadError) -> ConfigNode {
        let document = try JSONDocument(utf8: data, path: path)
        return convert(document.root, in: document)
    }

    private static func convert(_ value: JSONValue, in document: JSONDocument) -> ConfigNode {
        let location = document.location(of: value)
        switch value.kind {
        case .object:
            let entries = (value.members.map(Array.init) ?? []).map { member in
                ConfigEntry(key: member.key, keyLocation: document.location(of: member),
                            value: convert(member.value, in: document))
            }
            return ConfigNode(value: .mapping(entries), location: location)
        case .array:
            let elements = (value.elements.map(Array.init) ?? []).map { convert($0, in: document) }
            return ConfigNode(value: .sequence(elements), location: location)
        case .string:
            return ConfigNode(value: .scalar(ConfigScalar(kind: .string, text: value.string ?? "")), location: location)
        case .number:
            return ConfigNode(value: .scalar(ConfigScalar(kind: .number, text: value.numberText ?? "")),
                              location: location)
        case .bool:
            return ConfigNode(value: .scalar(ConfigScalar(kind: .bool, text: value.bool == true ? "true" : "false")),
                              location: location)
        case .null:
            return ConfigNode(value: .scalar(ConfigScalar(kind: .null, text: "null")), location: location)
        }
    }
}
