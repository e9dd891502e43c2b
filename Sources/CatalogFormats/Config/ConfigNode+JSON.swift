import CatalogCore
import Foundation

extension ConfigNode {
    /// Parses a JSON config into a tree with `JSONDocument` (strict RFC 8259, duplicate keys rejected, numbers
    /// kept as their source text). Every value and key is marked by its byte offset: its line and column are
    /// counted only when asked for. `data` is UTF-8 from `TextEncoding.utf8`; `isASCII`, when the caller knows it
    /// from that check, spares `SourceText` a pass over the bytes.
    ///
    /// With a `products` sink, the members of the root's `products` object go to the sink as they are parsed, one
    /// at a time (`JSONDocument.forEachMember`): no tape of the whole file is held.
    static func parseJSON(_ data: Data, isASCII: Bool? = nil, path: String,
                          products: ConfigProductSink? = nil) throws(CatalogReadError) -> ConfigNode {
        guard let products else {
            let document = try JSONDocument(utf8: data, path: path, isASCII: isASCII)
            return convert(document.root, source: ConfigSource(text: document.source))
        }
        let text = SourceText(path: path, bytes: data, isASCII: isASCII)
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

    /// The tree of a value. Its document's bytes are reached once for the whole value and the tape walked by
    /// index: reaching them through `Data` for each string (`JSONValue.string`) checked exclusive access each
    /// time, a tenth of a JSON config's reading.
    private static func convert(_ value: JSONValue, source: ConfigSource) -> ConfigNode {
        let document = value.document
        return document.withBytes { bytes in convert(at: value.index, in: document, bytes: bytes, source: source) }
    }

    private static func convert(at index: Int, in document: JSONDocument, bytes: UnsafeBufferPointer<UInt8>,
                                source: ConfigSource) -> ConfigNode {
        let entry = document.entry(at: index)
        let mark = ConfigMark(offset: entry.offset)
        func text(_ entry: JSONTape.Entry) -> String {
            entry.withStringBytes(in: bytes) { String(decoding: $0, as: UTF8.self) }
        }
        switch entry.kind {
        case .object:
            var entries: [ConfigEntry] = []
            var key = index + 1
            while key < entry.extent {
                let keyEntry = document.entry(at: key)
                entries.append(ConfigEntry(key: text(keyEntry), keyMark: ConfigMark(offset: keyEntry.offset),
                                           value: convert(at: key + 1, in: document, bytes: bytes, source: source)))
                key = document.next(after: key + 1)
            }
            return ConfigNode(value: .mapping(entries), source: source, mark: mark)
        case .array:
            var elements: [ConfigNode] = []
            var element = index + 1
            while element < entry.extent {
                elements.append(convert(at: element, in: document, bytes: bytes, source: source))
                element = document.next(after: element)
            }
            return ConfigNode(value: .sequence(elements), source: source, mark: mark)
        case .string, .escapedString:
            return scalar(.string, text(entry), source: source, mark: mark)
        case .number:
            let digits = UnsafeBufferPointer(rebasing: bytes[entry.offset ..< entry.offset + entry.extent])
            let number = String(decoding: digits, as: UTF8.self)
            return scalar(.number, number, source: source, mark: mark)
        case .true:
            return scalar(.bool, "true", source: source, mark: mark)
        case .false:
            return scalar(.bool, "false", source: source, mark: mark)
        case .null:
            return scalar(.null, "null", source: source, mark: mark)
        }
    }

    private static func scalar(_ kind: ConfigScalar.Kind, _ text: String, source: ConfigSource,
                               mark: ConfigMark) -> ConfigNode {
        ConfigNode(value: .scalar(ConfigScalar(text: text, kind: kind)), source: source, mark: mark)
    }
}
