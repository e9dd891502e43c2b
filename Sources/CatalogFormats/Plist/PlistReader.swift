import CatalogCore
import Foundation

/// Reads an app's bundled product list, an XML property list (`Products.plist`), streamed through
/// `XMLSAXParser` (libxml2 SAX2; no DTD loading, no network).
///
/// Layouts (FORMATS.md "plist"), each read whole or not at all; a property list with none of them is an error:
/// - a root `<array>` of `<string>` product IDs;
/// - a root `<dict>` keyed by product ID, each value a `<dict>` with optional `type`, `price` and
///   `referenceName`, or any other value (presence only; the value is not interpreted);
/// - a root `<dict>` with a `Products` section (also spelled `ProductIdentifiers`, `ProductIDs`, `product_ids`,
///   any case) holding one of the two forms above, and/or a `Subscriptions` `<array>` of `<dict>`s with a
///   `Group` name and a `Products` array of IDs: each of those IDs is an auto-renewable subscription in group
///   `Group` (then the list states groups). Beside the sections only numbers and dates (a `Version`) may stand:
///   anything else could hold product IDs that would go unread, so it is an error.
///
/// `type` takes the canonical names (`consumable`, `non-consumable`, `auto-renewable`, `non-renewing`) and
/// the StoreKit / App Store Connect spellings (`Consumable`, `NonConsumable`, `RecurringSubscription`,
/// `NonRenewingSubscription`, `AUTO_RENEWABLE`, …), compared case-insensitively without `-`, `_` and spaces.
///
/// Prices: a product list names no territory, so a `price` is never compared (DESIGN.md §5a 8) — it is kept
/// as an uncompared `default` price: `"0.99 USD"` (or `"USD 0.99"`) with its currency, a bare amount
/// (`<real>0.99</real>`, `<string>0.99</string>`) as raw text. The catalog therefore prices no territory.
/// Binary property lists (`bplist00`) are rejected with a hint to convert them.
public struct PlistReader: CatalogReader {
    /// Creates the reader.
    public init() {}

    /// `.plist`.
    public var format: CatalogFormat { .plist }

    /// Reads a property list file (its bytes as resolution mapped them).
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        try read(data: input.bytes(), displayPath: input.displayPath, options: options)
    }

    /// Reads a property list held in memory.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        if data.starts(with: Array("bplist".utf8)) {
            throw CatalogReadError(
                "binary property lists are not supported; convert with `plutil -convert xml1 \(displayPath)`",
                at: SourceLocation(path: displayPath, line: 1, column: 1))
        }
        let builder = PlistTreeBuilder()
        try XMLSAXParser.parse(data: data, displayPath: displayPath, handler: builder)
        guard let root = builder.root else {
            throw CatalogReadError("the file has no XML root element", at: SourceLocation(path: displayPath, line: 1))
        }
        var interpreter = PlistCatalogBuilder()
        try interpreter.readProducts(root: root)
        return Catalog(path: displayPath, format: .plist, groups: interpreter.groups, products: interpreter.products,
                       capabilities: CatalogCapabilities(expressesGroups: interpreter.hasSubscriptions,
                                                         priceableTerritories: []))
    }
}

/// A property-list value with where it was read.
struct PlistValue {
    /// The value itself.
    indirect enum Content {
        case string(String)
        case integer(String)
        case real(String)
        case bool(Bool)
        case date(String)
        case data
        case array([PlistValue])
        case dict([(key: String, keyLocation: SourceLocation, value: PlistValue)])
    }

    var content: Content
    var location: SourceLocation

    /// The element name, for messages: `<dict>`, `<string>`.
    var elementName: String {
        switch content {
        case .string: "<string>"
        case .integer: "<integer>"
        case .real: "<real>"
        case .bool(let value): value ? "<true/>" : "<false/>"
        case .date: "<date>"
        case .data: "<data>"
        case .array: "<array>"
        case .dict: "<dict>"
        }
    }
}

/// Builds `PlistValue`s from the SAX events of an XML property list.
private final class PlistTreeBuilder: XMLEventHandler {
    /// An element being read.
    private enum Frame {
        /// `<plist>`, and whether its one value has been read.
        case plist(location: SourceLocation, hasValue: Bool)
        case array(location: SourceLocation, depth: Int, items: [PlistValue])
        /// A `<dict>`, with the key whose value comes next.
        case dict(location: SourceLocation, depth: Int, entries: [(key: String, keyLocation: SourceLocation,
                                                                  value: PlistValue)],
                  key: (text: String, location: SourceLocation)?)
        /// A leaf: `<key>`, `<string>`, `<integer>`, `<real>`, `<date>`, `<data>`, `<true/>`, `<false/>`.
        case leaf(name: String, location: SourceLocation, text: [UInt8])
    }

    private static let maximumDepth = 100
    private static let leafNames: Set<String> = ["key", "string", "integer", "real", "date", "data", "true", "false"]

    /// The value of `<plist>`, once it is read.
    private(set) var root: PlistValue?
    private var stack: [Frame] = []
    private var sawRoot = false
    /// Text between tags of a container, an error unless it is whitespace: reported at the next tag, whole.
    private var strayText: [UInt8] = []
    private var strayTextLocation: SourceLocation?

    func characters(_ text: XMLText, in parser: XMLSAXParser) {
        guard case .leaf(let name, let location, var leafText)? = stack.last else {
            if strayTextLocation == nil, !text.isWhitespace {
                strayTextLocation = parser.lineOfFirstNonWhitespace(in: text)
            }
            strayText.append(contentsOf: text.bytes)
            return
        }
        leafText.append(contentsOf: text.bytes)
        stack[stack.count - 1] = .leaf(name: name, location: location, text: leafText)
    }

    private func throwStrayText() throws(CatalogReadError) {
        defer { strayText = [] }
        guard let location = strayTextLocation else { return }
        let text = String(decoding: strayText, as: UTF8.self).trimmedXMLWhitespace()
        throw CatalogReadError("unexpected text \"\(text.prefix(40))\"", at: location)
    }

    func startElement(_ tag: XMLStartTag, in parser: XMLSAXParser) throws(CatalogReadError) {
        try throwStrayText()
        let location = parser.location(of: tag)
        let name = tag.localName.string
        guard let top = stack.last else {
            guard !sawRoot, name == "plist", tag.namespaceURI == nil else {
                throw CatalogReadError("not an XML property list: the root element is <\(name)>, expected <plist>",
                                       at: location)
            }
            sawRoot = true
            stack.append(.plist(location: location, hasValue: false))
            return
        }
        switch top {
        case .plist(_, let hasValue):
            guard !hasValue else { throw CatalogReadError("<plist> must hold exactly one value", at: location) }
            try startValue(tag, name: name, location: location, depth: 1)
        case .array(_, let depth, _):
            try startValue(tag, name: name, location: location, depth: depth + 1)
        case .dict(_, let depth, _, let key):
            if key != nil {
                try startValue(tag, name: name, location: location, depth: depth + 1)
            } else {
                guard name == "key", tag.namespaceURI == nil else {
                    throw CatalogReadError("expected <key> in <dict>, found <\(name)>", at: location)
                }
                stack.append(.leaf(name: name, location: location, text: []))
            }
        case .leaf(let leafName, _, _):
            throw CatalogReadError("<\(leafName)> must hold text only, found <\(name)>", at: location)
        }
    }

    private func startValue(_ tag: XMLStartTag, name: String, location: SourceLocation,
                            depth: Int) throws(CatalogReadError) {
        if let uri = tag.namespaceURI {
            throw CatalogReadError("<\(name)> in namespace \(uri.string) is not a property list element",
                                   at: location)
        }
        guard depth <= PlistTreeBuilder.maximumDepth else {
            throw CatalogReadError(
                "the property list is nested more than \(PlistTreeBuilder.maximumDepth) levels deep", at: location)
        }
        switch name {
        case "array": stack.append(.array(location: location, depth: depth, items: []))
        case "dict": stack.append(.dict(location: location, depth: depth, entries: [], key: nil))
        case _ where PlistTreeBuilder.leafNames.contains(name) && name != "key":
            stack.append(.leaf(name: name, location: location, text: []))
        default:
            throw CatalogReadError("<\(name)> is not a property list element", at: location)
        }
    }

    func endElement(in parser: XMLSAXParser) throws(CatalogReadError) {
        try throwStrayText()
        guard let finished = stack.popLast() else { return }
        let value: PlistValue
        switch finished {
        case .plist(let location, let hasValue):
            guard hasValue else { throw CatalogReadError("the property list is empty", at: location) }
            return
        case .array(let location, _, let items):
            value = PlistValue(content: .array(items), location: location)
        case .dict(let location, _, let entries, let key):
            if let key { throw CatalogReadError("<key>\(key.text)</key> has no value", at: key.location) }
            value = PlistValue(content: .dict(entries), location: location)
        case .leaf(let name, let location, let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            if name == "key", case .dict(let dictLocation, let depth, let entries, _)? = stack.last {
                stack[stack.count - 1] = .dict(location: dictLocation, depth: depth, entries: entries,
                                               key: (text, location))
                return
            }
            value = try PlistTreeBuilder.leaf(name, text: text, location: location)
        }
        add(value)
    }

    private static func leaf(_ name: String, text: String,
                             location: SourceLocation) throws(CatalogReadError) -> PlistValue {
        switch name {
        case "string": return PlistValue(content: .string(text), location: location)
        case "integer": return PlistValue(content: .integer(text.trimmedXMLWhitespace()), location: location)
        case "real": return PlistValue(content: .real(text.trimmedXMLWhitespace()), location: location)
        case "date": return PlistValue(content: .date(text.trimmedXMLWhitespace()), location: location)
        case "data": return PlistValue(content: .data, location: location)
        default:
            guard text.trimmedXMLWhitespace().isEmpty else {
                throw CatalogReadError("<\(name)/> must be empty", at: location)
            }
            return PlistValue(content: .bool(name == "true"), location: location)
        }
    }

    /// Puts a finished value into the element that holds it.
    private func add(_ value: PlistValue) {
        switch stack.last {
        case .plist(let location, _):
            root = value
            stack[stack.count - 1] = .plist(location: location, hasValue: true)
        case .array(let location, let depth, var items):
            items.append(value)
            stack[stack.count - 1] = .array(location: location, depth: depth, items: items)
        case .dict(let location, let depth, var entries, let key?):
            entries.append((key.text, key.location, value))
            stack[stack.count - 1] = .dict(location: location, depth: depth, entries: entries, key: nil)
        default:
            break
        }
    }
}
