import CLibXML2
import Testing

/// An HTML document as a browser would read it: parsed with libxml2's HTML parser, never the network.
public struct ParsedHTML {
    public struct Element {
        public let name: String
        public let attributes: [String: String]
        /// The text of the element and everything in it.
        public let text: String
    }

    /// Every element, in document order.
    public let elements: [Element]

    public init(_ html: String) throws {
        let options = Int32(HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue)
        let bytes = Array(html.utf8)
        let document = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    htmlReadMemory($0, Int32(buffer.count), "report.html", "UTF-8", options)
                }
            } ?? nil
        }
        let parsed = try #require(document)
        defer { xmlFreeDoc(parsed) }
        var elements: [Element] = []
        /// Reads a node and its siblings, adding elements in document order; returns their text.
        func visit(_ first: xmlNodePtr?) -> String {
            var text = ""
            var current = first
            while let node = current {
                switch node.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    text += node.pointee.content.map { String(cString: $0) } ?? ""
                case XML_ELEMENT_NODE:
                    var attributes: [String: String] = [:]
                    var attribute = node.pointee.properties
                    while let property = attribute {
                        // The parser expands references, so a value is one text node (none when empty).
                        let value = property.pointee.children?.pointee.content.map { String(cString: $0) }
                        attributes[String(cString: property.pointee.name)] = value ?? ""
                        attribute = property.pointee.next
                    }
                    let index = elements.count
                    elements.append(Element(name: String(cString: node.pointee.name), attributes: attributes,
                                            text: ""))
                    let inner = visit(node.pointee.children)
                    elements[index] = Element(name: elements[index].name, attributes: attributes, text: inner)
                    text += inner
                default:
                    break
                }
                current = node.pointee.next
            }
            return text
        }
        _ = visit(xmlDocGetRootElement(parsed))
        self.elements = elements
    }

    public func all(_ name: String) -> [Element] { elements.filter { $0.name == name } }

    /// The visible text of the page (the body).
    public var bodyText: String { all("body").first?.text ?? "" }
}

