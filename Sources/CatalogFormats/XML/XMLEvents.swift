import CLibXML2
import CatalogCore
import Foundation

/// What a reader on `XMLSAXParser` receives: start tags, ends and character data, in document order.
/// Comments, processing instructions, the DOCTYPE and entity references are never reported (declared entities
/// expand to nothing, DESIGN.md §5a 14). A handler that throws stops the parse; its error is the result.
protocol XMLEventHandler: AnyObject {
    /// A start tag (`<a>` or `<a/>`). `element` is valid only during the call.
    func startElement(_ element: XMLStartTag, in parser: XMLSAXParser) throws(CatalogReadError)
    /// The end of the innermost open element; also reported right after an empty element (`<a/>`).
    func endElement(in parser: XMLSAXParser) throws(CatalogReadError)
    /// A piece of character data or of a CDATA section (one text may come in several pieces). `text` is valid
    /// only during the call.
    func characters(_ text: XMLText, in parser: XMLSAXParser) throws(CatalogReadError)
}

/// A run of UTF-8 bytes owned by libxml2 (a name, a namespace URI, text), compared as bytes: no `String` is
/// built unless a reader asks for one.
struct XMLBytes {
    /// The bytes.
    let buffer: UnsafeBufferPointer<UInt8>

    /// A NUL-terminated string of libxml2's.
    init(_ pointer: UnsafePointer<xmlChar>) {
        let length = strlen(UnsafeRawPointer(pointer).assumingMemoryBound(to: CChar.self))
        buffer = UnsafeBufferPointer(start: pointer, count: length)
    }

    /// The bytes from `start` up to `end`.
    init(start: UnsafePointer<UInt8>, end: UnsafePointer<UInt8>) {
        buffer = UnsafeBufferPointer(start: start, count: max(0, end - start))
    }

    /// The bytes as a string (for messages and values a reader keeps).
    var string: String { String(decoding: buffer, as: UTF8.self) }

    /// Whether the bytes are exactly `name`'s.
    static func == (bytes: XMLBytes, name: StaticString) -> Bool {
        guard bytes.buffer.count == name.utf8CodeUnitCount else { return false }
        guard let base = bytes.buffer.baseAddress else { return true }
        return memcmp(base, name.utf8Start, bytes.buffer.count) == 0
    }

    /// `case "name":` in a `switch` over bytes.
    static func ~= (name: StaticString, bytes: XMLBytes) -> Bool {
        bytes == name
    }
}

/// A start tag as libxml2's SAX2 parser reports it, valid only during `XMLEventHandler.startElement`.
struct XMLStartTag {
    /// The local name (`b` of `a:b`).
    let localName: XMLBytes
    /// The namespace URI, nil when the element has none.
    let namespaceURI: XMLBytes?
    /// libxml2's input buffer when the tag was reported: the bytes it held, up to where it had read (the
    /// tag's `>`), which `XMLSAXParser.location(of:)` searches back for the tag's `<` when a reader asks.
    let input: UnsafeBufferPointer<UInt8>?
    /// libxml2's attributes: five pointers each (local name, prefix, URI, value start, value end).
    let attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    /// Attributes written in the tag (those defaulted from a DTD come after them and are not read).
    let specifiedCount: Int

    /// Whether the element has no namespace or the given one.
    func isInNamespace(_ uri: StaticString) -> Bool {
        namespaceURI.map { $0 == uri } ?? true
    }

    /// The value of the attribute with this local name and no namespace. libxml2 leaves a reference to a
    /// declared entity in the value as `&name;` and an ampersand as `&#38;` when it substitutes no entities:
    /// the reference becomes nothing (DESIGN.md §5a 14), the ampersand itself.
    func attribute(_ name: StaticString) -> String? {
        guard let attributes else { return nil }
        for index in 0..<specifiedCount {
            let base = index * 5
            guard let localName = attributes[base], attributes[base + 2] == nil, XMLBytes(localName) == name,
                  let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            return XMLStartTag.withoutEntityReferences(XMLBytes(start: start, end: end).buffer)
        }
        return nil
    }

    private static func withoutEntityReferences(_ value: UnsafeBufferPointer<UInt8>) -> String {
        guard value.contains(UInt8(ascii: "&")) else { return String(decoding: value, as: UTF8.self) }
        var bytes: [UInt8] = []
        var index = 0
        while index < value.count {
            guard value[index] == UInt8(ascii: "&") else {
                bytes.append(value[index])
                index += 1
                continue
            }
            let reference = value[index...].prefix { $0 != UInt8(ascii: ";") }
            if reference.elementsEqual("&#38".utf8) { bytes.append(UInt8(ascii: "&")) }
            index = reference.endIndex + 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A piece of character data, valid only during `XMLEventHandler.characters`.
struct XMLText {
    /// The UTF-8 bytes, with entity and character references already resolved.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the piece is only XML whitespace (space, tab, CR, LF).
    var isWhitespace: Bool { bytes.allSatisfy(isXMLWhitespace) }
}

/// Space, tab, CR or LF: XML's whitespace.
func isXMLWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

extension String {
    /// The string without leading and trailing XML whitespace (space, tab, CR, LF).
    func trimmedXMLWhitespace() -> String {
        utf8.trimmedXMLWhitespace()
    }
}

extension BidirectionalCollection where Element == UInt8 {
    /// The UTF-8 bytes as a string without leading and trailing XML whitespace (space, tab, CR, LF).
    func trimmedXMLWhitespace() -> String {
        guard let first = firstIndex(where: { !isXMLWhitespace($0) }),
              let last = lastIndex(where: { !isXMLWhitespace($0) }) else { return "" }
        return String(decoding: self[first...last], as: UTF8.self)
    }
}
