import CatalogCore
import Foundation

/// Reads an app's bundled product list, an XML property list (`Products.plist`), streamed through
/// `XMLStreamReader` (no DTD loading, no network).
///
/// Accepted shapes:
/// - a root `<array>` of `<string>` product IDs;
/// - a root `<dict>` keyed by product ID, each value `<true/>`, a `<string>` (presence only; the text is not
///   interpreted) or a `<dict>` with optional `type`, `price` and `referenceName`;
/// - a root `<dict>` whose key `Products` / `ProductIdentifiers` / `ProductIDs` / `product_ids`
///   (any case) holds one of the two forms above; its other keys are ignored.
///
/// `type` takes the canonical names (`consumable`, `non-consumable`, `auto-renewable`, `non-renewing`) and
/// the StoreKit / App Store Connect spellings (`Consumable`, `NonConsumable`, `RecurringSubscription`,
/// `NonRenewingSubscription`, `AUTO_RENEWABLE`, …), compared case-insensitively without `-`, `_` and spaces.
///
/// Prices: a product list names no territory, so a `price` is never compared (DESIGN.md §5a 8) — it is kept
/// as an uncompared `default` price: `"0.99 USD"` (or `"USD 0.99"`) with its currency, a bare amount
/// (`<real>0.99</real>`, `<string>0.99</string>`) as raw text. The catalog therefore prices no territory.
/// A `<false/>` value is an error: whether it means "not for sale" or "not listed" is not knowable.
/// Binary property lists (`bplist00`) are rejected with a hint to convert them.
public struct PlistReader: CatalogReader {
    /// Creates the reader.
    public init() {}

    /// `.plist`.
    public var format: CatalogFormat { .plist }

    /// Reads a property list file.
    public func read(contentsOf url: URL, displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        if PlistReader.isBinaryPropertyList(url) {
            throw CatalogReadError(
                "binary property lists are not supported; convert with `plutil -convert xml1 \(displayPath)`",
                at: SourceLocation(path: displayPath, line: 1, column: 1))
        }
        let xml = try XMLStreamReader(contentsOf: url, displayPath: displayPath)
        var parser = PlistParser(xml: xml)
        let root = try parser.parseDocument()
        var interpreter = PlistProductInterpreter()
        try interpreter.readProducts(root: root)
        return Catalog(path: displayPath, format: .plist, products: interpreter.products,
                       capabilities: CatalogCapabilities(expressesGroups: false, priceableTerritories: []))
    }

    private static func isBinaryPropertyList(_ url: URL) -> Bool {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return false }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 8)) ?? Data()
        return head.starts(with: Array("bplist".utf8))
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

/// Turns the node stream of an XML property list into `PlistValue`s.
private struct PlistParser {
    let xml: XMLStreamReader
    private var lastLocation: SourceLocation?
    private static let maximumDepth = 100

    init(xml: XMLStreamReader) {
        self.xml = xml
    }

    mutating func parseDocument() throws(CatalogReadError) -> PlistValue {
        guard let root = try nextSignificant() else {
            throw CatalogReadError("the file has no XML root element", at: endLocation)
        }
        let rootLocation = xml.location(of: root)
        guard root.kind == .element, root.localName == "plist", root.namespaceURI == nil else {
            throw CatalogReadError(
                "not an XML property list: the root element is <\(root.localName)>, expected <plist>", at: rootLocation)
        }
        guard let first = try nextSignificant(), first.kind == .element else {
            throw CatalogReadError("the property list is empty", at: rootLocation)
        }
        let value = try parseValue(first, depth: 1)
        guard let end = try nextSignificant(), end.kind == .endElement else {
            throw CatalogReadError("<plist> must hold exactly one value", at: lastLocation ?? rootLocation)
        }
        return value
    }

    private var endLocation: SourceLocation {
        lastLocation ?? SourceLocation(path: xml.displayPath, line: 1)
    }

    /// The next node that is not whitespace, a comment or a processing instruction; text there is an error.
    private mutating func nextSignificant() throws(CatalogReadError) -> XMLNode? {
        while let node = try xml.next() {
            switch node.kind {
            case .whitespace, .comment, .processingInstruction:
                continue
            case .text:
                // libxml2 gives a text node the line where it ends; point at its first non-blank line instead.
                let content = node.text.drop(while: { $0.isWhitespace })
                let location = SourceLocation(
                    path: xml.displayPath,
                    line: node.line.map { $0 - content.filter(\.isNewline).count })
                throw CatalogReadError("unexpected text \"\(node.text.trimmedXMLWhitespace().prefix(40))\"",
                                       at: location)
            case .element:
                lastLocation = xml.location(of: node)
                return node
            case .endElement:
                return node
            }
        }
        return nil
    }

    private mutating func parseValue(_ node: XMLNode, depth: Int) throws(CatalogReadError) -> PlistValue {
        let location = xml.location(of: node)
        guard node.namespaceURI == nil else {
            throw CatalogReadError(
                "<\(node.localName)> in namespace \(node.namespaceURI ?? "") is not a property list element",
                at: location)
        }
        guard depth <= PlistParser.maximumDepth else {
            throw CatalogReadError("the property list is nested more than \(PlistParser.maximumDepth) levels deep",
                                   at: location)
        }
        switch node.localName {
        case "string": return PlistValue(content: .string(try text(of: node)), location: location)
        case "integer":
            return PlistValue(content: .integer(try text(of: node).trimmedXMLWhitespace()), location: location)
        case "real":
            return PlistValue(content: .real(try text(of: node).trimmedXMLWhitespace()), location: location)
        case "date":
            return PlistValue(content: .date(try text(of: node).trimmedXMLWhitespace()), location: location)
        case "data":
            _ = try text(of: node)
            return PlistValue(content: .data, location: location)
        case "true", "false":
            guard try text(of: node).trimmedXMLWhitespace().isEmpty else {
                throw CatalogReadError("<\(node.localName)/> must be empty", at: location)
            }
            return PlistValue(content: .bool(node.localName == "true"), location: location)
        case "array":
            var items: [PlistValue] = []
            while let child = try nextSignificant() {
                if child.kind == .endElement { return PlistValue(content: .array(items), location: location) }
                items.append(try parseValue(child, depth: depth + 1))
            }
        case "dict":
            var entries: [(key: String, keyLocation: SourceLocation, value: PlistValue)] = []
            while let child = try nextSignificant() {
                if child.kind == .endElement { return PlistValue(content: .dict(entries), location: location) }
                guard child.localName == "key", child.namespaceURI == nil else {
                    throw CatalogReadError("expected <key> in <dict>, found <\(child.localName)>",
                                           at: xml.location(of: child))
                }
                let keyLocation = xml.location(of: child)
                let key = try text(of: child)
                guard let valueNode = try nextSignificant(), valueNode.kind == .element else {
                    throw CatalogReadError("<key>\(key)</key> has no value", at: keyLocation)
                }
                entries.append((key, keyLocation, try parseValue(valueNode, depth: depth + 1)))
            }
        default:
            throw CatalogReadError("<\(node.localName)> is not a property list element", at: location)
        }
        // The stream ended inside a container; XMLStreamReader reports truncation before this point.
        throw CatalogReadError("unexpected end of the property list inside <\(node.localName)>", at: location)
    }

    /// The text of a leaf element, up to its end tag.
    private mutating func text(of element: XMLNode) throws(CatalogReadError) -> String {
        var text = ""
        while let node = try xml.next() {
            switch node.kind {
            case .text, .whitespace: text += node.text
            case .comment, .processingInstruction: continue
            case .endElement: return text
            case .element:
                throw CatalogReadError("<\(element.localName)> must hold text only, found <\(node.localName)>",
                                       at: xml.location(of: node))
            }
        }
        throw CatalogReadError("unexpected end of the property list inside <\(element.localName)>",
                               at: xml.location(of: element))
    }
}

/// Finds the products in a parsed property list.
private struct PlistProductInterpreter {
    private(set) var products: [Product] = []

    private static let listKeys: Set<String> = ["products", "productidentifiers", "productids", "product_ids"]

    mutating func readProducts(root: PlistValue) throws(CatalogReadError) {
        switch root.content {
        case .array(let items):
            try readList(items, path: "")
        case .dict(let entries):
            if let list = entries.first(where: { PlistProductInterpreter.listKeys.contains($0.key.lowercased()) }) {
                switch list.value.content {
                case .array(let items): try readList(items, path: list.key)
                case .dict(let products): try readDictionary(products, path: list.key)
                default:
                    throw CatalogReadError(
                        "\(list.key): expected an <array> of product IDs or a <dict> of products, found "
                            + list.value.elementName, at: list.value.location)
                }
            } else {
                try readDictionary(entries, path: "")
            }
        default:
            throw CatalogReadError(
                "the property list's root must be an <array> of product IDs or a <dict> of products, found "
                    + root.elementName, at: root.location)
        }
    }

    private mutating func readList(_ items: [PlistValue], path: String) throws(CatalogReadError) {
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item.content else {
                throw CatalogReadError("\(path)[\(index)]: expected a <string> product ID, found \(item.elementName)",
                                       at: item.location)
            }
            let id = text.trimmedXMLWhitespace()
            guard !id.isEmpty else {
                throw CatalogReadError("\(path)[\(index)]: the product ID is empty", at: item.location)
            }
            products.append(Product(id: ProductID(id), location: item.location, fieldLocations: [.id: item.location]))
        }
    }

    private mutating func readDictionary(_ entries: [(key: String, keyLocation: SourceLocation, value: PlistValue)],
                                         path: String) throws(CatalogReadError) {
        let prefix = path.isEmpty ? "" : path + "."
        for (key, keyLocation, value) in entries {
            let id = key.trimmedXMLWhitespace()
            guard !id.isEmpty else {
                throw CatalogReadError("\(path.isEmpty ? "<dict>" : path): a product ID key is empty", at: keyLocation)
            }
            var product = Product(id: ProductID(id), location: keyLocation, fieldLocations: [.id: keyLocation])
            switch value.content {
            case .bool(true), .string:
                break
            case .dict(let attributes):
                try readAttributes(attributes, of: &product, path: prefix + id)
            default:
                throw CatalogReadError(
                    "\(prefix)\(id): expected <true/>, a <string> or a <dict> of attributes, found "
                        + value.elementName,
                    at: value.location)
            }
            products.append(product)
        }
    }

    private func readAttributes(_ attributes: [(key: String, keyLocation: SourceLocation, value: PlistValue)],
                                of product: inout Product,
                                path: String) throws(CatalogReadError) {
        var seen: Set<String> = []
        for (key, _, value) in attributes {
            let name = key.lowercased()
            guard ["type", "price", "referencename"].contains(name) else { continue }
            guard seen.insert(name).inserted else {
                throw CatalogReadError("\(path).\(key) appears twice", at: value.location)
            }
            switch name {
            case "type":
                guard case .string(let text) = value.content else {
                    throw CatalogReadError("\(path).\(key): expected a <string>, found \(value.elementName)",
                                           at: value.location)
                }
                product.kind = try PlistProductInterpreter.kind(text, path: "\(path).\(key)", location: value.location)
                product.fieldLocations[.type] = value.location
            case "referencename":
                guard case .string(let text) = value.content else {
                    throw CatalogReadError("\(path).\(key): expected a <string>, found \(value.elementName)",
                                           at: value.location)
                }
                product.referenceName = text
                product.fieldLocations[.name] = value.location
            default:
                product.uncomparedPrices.append(try PlistProductInterpreter.price(value, path: "\(path).\(key)"))
                product.fieldLocations[.price] = value.location
            }
        }
    }

    private static func kind(_ text: String, path: String,
                             location: SourceLocation) throws(CatalogReadError) -> ProductKind {
        let folded = String(text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch folded {
        case "consumable": return .consumable
        case "nonconsumable": return .nonConsumable
        case "autorenewable", "autorenewablesubscription", "autorenewing", "recurringsubscription",
             "automaticallyrenewablesubscription":
            return .autoRenewable
        case "nonrenewing", "nonrenewingsubscription": return .nonRenewing
        default:
            throw CatalogReadError(
                "\(path): \"\(text)\" is not a product type (expected consumable, non-consumable, auto-renewable or "
                    + "non-renewing)", at: location)
        }
    }

    private static func price(_ value: PlistValue, path: String) throws(CatalogReadError) -> UncomparedPrice {
        let text: String
        switch value.content {
        case .string(let string), .real(let string), .integer(let string): text = string.trimmedXMLWhitespace()
        default:
            throw CatalogReadError("\(path): expected a <string> such as \"0.99 USD\" or a <real>, found "
                                       + value.elementName, at: value.location)
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if parts.count == 1, Money.parseAmount(parts[0]) != nil {
            return UncomparedPrice(label: "default", rawAmount: String(parts[0]))
        }
        if parts.count == 2, case .string = value.content {
            let (amountText, currencyText) = Money.parseAmount(parts[0]) != nil
                ? (parts[0], parts[1]) : (parts[1], parts[0])
            if let amount = Money.parseAmount(amountText), let currency = CurrencyCode(currencyText) {
                return UncomparedPrice(label: "default", amount: Money(amount: amount, currency: currency))
            }
        }
        throw CatalogReadError("\(path): \"\(text)\" is not a price (expected e.g. \"0.99 USD\")", at: value.location)
    }
}
