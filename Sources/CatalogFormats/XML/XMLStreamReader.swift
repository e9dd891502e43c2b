import CLibXML2
import CatalogCore
import Foundation

/// One node of an XML document, in document order, as `XMLStreamReader` reports it.
struct XMLNode: Hashable, Sendable {
    /// What a node is. Entity references, the DOCTYPE and the XML declaration are never reported.
    enum Kind: Hashable, Sendable {
        /// A start tag (`<a>` or `<a/>`).
        case element
        /// An end tag; also reported right after an empty element (`<a/>`), so starts and ends always pair up.
        case endElement
        /// Character data or a CDATA section.
        case text
        /// Whitespace-only character data between elements.
        case whitespace
        /// A comment.
        case comment
        /// A processing instruction.
        case processingInstruction
    }

    /// An attribute of an element.
    struct Attribute: Hashable, Sendable {
        /// The local name (`name` of `xml:name`).
        var localName: String
        /// The namespace URI, nil when the attribute has no prefix.
        var namespaceURI: String?
        /// The value; references to declared entities contribute nothing.
        var value: String
    }

    /// The node type.
    var kind: Kind
    /// The local name of an element or end tag; empty for other nodes.
    var localName: String
    /// The namespace URI of an element or end tag, nil when it has none.
    var namespaceURI: String?
    /// Nesting depth, the root element being 0.
    var depth: Int
    /// The text of text, whitespace, comment and processing-instruction nodes; empty otherwise.
    var text: String
    /// Attributes of an element (namespace declarations excluded); empty otherwise.
    var attributes: [Attribute]
    /// 1-based line: for elements the line of the start tag's `<`; for other nodes the line libxml2 recorded
    /// (for text, where it ends); nil for end tags.
    var line: Int?
    /// 1-based column (Unicode scalars) of the start tag's `<`; nil for other nodes, or when the document's
    /// encoding is not ASCII-compatible.
    var column: Int?

    /// The value of the attribute with this local name and no namespace.
    func attribute(_ localName: String) -> String? {
        attributes.first(where: { $0.localName == localName && $0.namespaceURI == nil })?.value
    }
}

/// A streaming, namespace-aware XML reader over libxml2's `xmlTextReader`: never a DOM, never Foundation's
/// `XMLParser` (which rejects documents over 10 MB on Linux). Memory stays flat in the size of the file.
///
/// Hardened for untrusted input: no network (`XML_PARSE_NONET`), no DTD loading, no default attributes from
/// a DTD, and no entity substitution. Every entity declared in the internal subset is rewritten to an empty
/// internal entity before libxml2 reads it (`XMLEntityDeclarationBlanker`), and references are skipped, so
/// they expand to nothing at any nesting depth — in text and in attribute values — entity text is never
/// parsed or kept, and external entities are never loaded. libxml2's
/// diagnostics are collected per reader through a structured error handler (nothing global) and become a
/// `CatalogReadError` at the line and column libxml2 reports.
final class XMLStreamReader {
    private let reader: OpaquePointer
    private let input: XMLInputFeed
    /// The path locations name.
    let displayPath: String
    private var pendingEnd: XMLNode?
    private var finished = false
    /// Names of the open elements, to explain a truncated document.
    private var openElements: [String] = []
    private var sawRoot = false
    /// Element names and namespace URIs by the address of libxml2's interned copy, with its bytes to check
    /// the entry: building a Swift `String` for every tag dominates otherwise.
    private var names: [UnsafeRawPointer: (bytes: [UInt8], string: String)] = [:]

    /// libxml2 must be initialized once before parsers run on several threads; a lazy `let` runs it once.
    private static let libraryInitialized: Bool = {
        xmlInitParser()
        return true
    }()

    private static let parseOptions: Int32 = {
        let options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            | XML_PARSE_BIG_LINES.rawValue
        return Int32(bitPattern: options)
    }()

    /// Opens a file for streaming. A missing or unreadable file is an error naming `displayPath`.
    convenience init(contentsOf url: URL, displayPath: String) throws(CatalogReadError) {
        let descriptor = try FileLoading.open(url, displayPath: displayPath)
        try self.init(input: XMLInputFeed(source: .file(descriptor)), baseURL: url.absoluteString,
                      displayPath: displayPath)
    }

    /// Reads a document held in memory.
    convenience init(data: Data, displayPath: String) throws(CatalogReadError) {
        // A base URL, so that libxml2 names the document in its errors (and only entity text goes unnamed).
        try self.init(input: XMLInputFeed(source: .memory(data)), baseURL: "memory:document",
                      displayPath: displayPath)
    }

    private init(input: XMLInputFeed, baseURL: String?, displayPath: String) throws(CatalogReadError) {
        _ = XMLStreamReader.libraryInitialized
        self.input = input
        self.displayPath = displayPath
        let context = Unmanaged.passUnretained(input).toOpaque()
        // The close callback does nothing: `XMLInputFeed` owns the file and closes it when it goes away.
        let created = xmlReaderForIO(
            { context, buffer, length in
                guard let context, let buffer else { return -1 }
                return Unmanaged<XMLInputFeed>.fromOpaque(context).takeUnretainedValue()
                    .read(into: buffer, length: Int(length))
            },
            { _ in 0 },
            context, baseURL, nil, XMLStreamReader.parseOptions)
        guard let created else {
            throw CatalogReadError(input.ioError ?? "the file is not XML", at: SourceLocation(path: displayPath))
        }
        reader = created
        xmlTextReaderSetStructuredErrorHandler(created, { context, error in
            guard let context, let error else { return }
            Unmanaged<XMLInputFeed>.fromOpaque(context).takeUnretainedValue().record(error.pointee)
        }, context)
    }

    deinit {
        xmlFreeTextReader(reader)
    }

    /// The location of a node in this document.
    func location(of node: XMLNode) -> SourceLocation {
        SourceLocation(path: displayPath, line: node.line, column: node.column)
    }

    /// The next node, or nil at the end of the document. Malformed XML is a `CatalogReadError`.
    func next() throws(CatalogReadError) -> XMLNode? {
        if let pendingEnd {
            self.pendingEnd = nil
            return pendingEnd
        }
        while !finished {
            let status = xmlTextReaderRead(reader)
            try throwCollectedError()
            if status == 0 {
                finished = true
                return nil
            }
            guard status == 1 else {
                throw CatalogReadError(input.ioError ?? "the file is not well-formed XML",
                                       at: SourceLocation(path: displayPath, line: parserLine, column: nil))
            }
            if let node = currentNode() { return node }
        }
        return nil
    }

    private var parserLine: Int? {
        let line = Int(xmlTextReaderGetParserLineNumber(reader))
        return line > 0 ? line : nil
    }

    private func throwCollectedError() throws(CatalogReadError) {
        guard let failure = input.firstError else { return }
        finished = true
        var message = failure.message
        // libxml2's push parser words these two cases confusingly; say what happened instead.
        let isDocumentEmpty = failure.code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue)
        if isDocumentEmpty || failure.code == Int32(XML_ERR_DOCUMENT_END.rawValue) {
            let scanner = input.scanner
            let noStartTag = scanner.isReliable ? scanner.startTagCount == 0 : !sawRoot
            if input.bytesRead == 0 {
                message = "the file is empty"
            } else if isDocumentEmpty || noStartTag {
                message = "the file is not XML: no root element found"
            } else if let open = openElements.last {
                message = "unexpected end of file inside <\(open)>: the document is truncated"
            } else if scanner.isReliable, scanner.openElementCount > 0 {
                message = "unexpected end of file: the document is truncated"
            }
        }
        var line = failure.line
        var column = failure.column
        if failure.code == Int32(XML_ERR_ENTITY_LOOP.rawValue) {
            message = "an entity reference expands too far (nested entity definitions); libxml2: \(message)"
        } else if failure.insideEntity {
            message = "in the replacement text of an entity: \(message)"
        }
        if failure.code == Int32(XML_ERR_ENTITY_LOOP.rawValue) || failure.insideEntity {
            // Raised while libxml2 checks an entity's content, with a position inside that content; the
            // parser's own position is at the reference.
            line = parserLine
            let parserColumn = Int(xmlTextReaderGetParserColumnNumber(reader))
            column = parserColumn > 0 ? parserColumn : nil
        }
        throw CatalogReadError(
            message, at: SourceLocation(path: displayPath, line: line, column: line == nil ? nil : column))
    }

    private func currentNode() -> XMLNode? {
        let type = xmlTextReaderNodeType(reader)
        let depth = Int(xmlTextReaderDepth(reader))
        switch type {
        case Int32(XML_READER_TYPE_ELEMENT.rawValue):
            sawRoot = true
            return element(depth: depth)
        case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
            openElements.removeLast(openElements.isEmpty ? 0 : 1)
            return XMLNode(kind: .endElement, localName: name(xmlTextReaderConstLocalName(reader)),
                           namespaceURI: namespaceURI(), depth: depth, text: "", attributes: [],
                           line: nil, column: nil)
        case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
            return valueNode(.text, depth: depth)
        case Int32(XML_READER_TYPE_WHITESPACE.rawValue), Int32(XML_READER_TYPE_SIGNIFICANT_WHITESPACE.rawValue):
            return valueNode(.whitespace, depth: depth)
        case Int32(XML_READER_TYPE_COMMENT.rawValue):
            return valueNode(.comment, depth: depth)
        case Int32(XML_READER_TYPE_PROCESSING_INSTRUCTION.rawValue):
            return valueNode(.processingInstruction, depth: depth)
        default:
            // Entity references (declared entities expand to nothing), the DOCTYPE, and anything else.
            return nil
        }
    }

    private func element(depth: Int) -> XMLNode {
        let localName = name(xmlTextReaderConstLocalName(reader))
        var line: Int?
        var column: Int?
        if let qualifiedName = xmlTextReaderConstName(reader) {
            let length = Int(strlen(UnsafeRawPointer(qualifiedName).assumingMemoryBound(to: CChar.self)))
            let hash = XMLStartTagScanner.hash(UnsafeBufferPointer(start: qualifiedName, count: length))
            if let mark = input.scanner.takeMark(nameHash: hash) {
                line = mark.line
                column = mark.column
            }
        }
        let node = xmlTextReaderCurrentNode(reader)
        if line == nil {
            // Fallback: the line libxml2 recorded for the element (the end of its start tag), else the parser's.
            let recorded = node.map { Int(xmlGetLineNo($0)) } ?? 0
            line = recorded > 0 && recorded < 65535 ? recorded : parserLine
        }
        let result = XMLNode(kind: .element, localName: localName, namespaceURI: namespaceURI(), depth: depth,
                             text: "", attributes: node.map(XMLStreamReader.attributes(of:)) ?? [],
                             line: line, column: column)
        if xmlTextReaderIsEmptyElement(reader) != 1 {
            openElements.append(localName)
        } else {
            pendingEnd = XMLNode(kind: .endElement, localName: localName, namespaceURI: result.namespaceURI,
                                 depth: depth, text: "", attributes: [], line: nil, column: nil)
        }
        return result
    }

    private func valueNode(_ kind: XMLNode.Kind, depth: Int) -> XMLNode {
        var line: Int?
        if let node = xmlTextReaderCurrentNode(reader) {
            let recorded = Int(xmlGetLineNo(node))
            line = recorded > 0 && recorded < 65535 ? recorded : nil
        }
        return XMLNode(kind: kind, localName: "", namespaceURI: nil, depth: depth,
                       text: constString(xmlTextReaderConstValue(reader)), attributes: [], line: line, column: nil)
    }

    private func namespaceURI() -> String? {
        guard let uri = xmlTextReaderConstNamespaceUri(reader) else { return nil }
        return name(uri)
    }

    /// A string libxml2 keeps interned (names, namespace URIs), converted once per distinct pointer.
    private func name(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        let key = UnsafeRawPointer(pointer)
        if let cached = names[key], cached.bytes.withUnsafeBufferPointer({ bytes in
            guard let base = bytes.baseAddress else { return pointer[0] == 0 }
            return memcmp(pointer, base, bytes.count) == 0 && pointer[bytes.count] == 0
        }) {
            return cached.string
        }
        let string = String(cString: pointer)
        if names.count > 4096 { names.removeAll(keepingCapacity: true) }
        names[key] = (Array(string.utf8), string)
        return string
    }

    private func constString(_ pointer: UnsafePointer<xmlChar>?) -> String {
        guard let pointer else { return "" }
        return String(cString: pointer)
    }

    /// Attribute values built from their text children only: an entity reference inside a value is skipped,
    /// never expanded (libxml2's own value getters would expand it, recursively and without limits).
    private static func attributes(of node: UnsafeMutablePointer<xmlNode>) -> [XMLNode.Attribute] {
        var result: [XMLNode.Attribute] = []
        var attribute = node.pointee.properties
        while let current = attribute {
            var value = ""
            var child = current.pointee.children
            while let part = child {
                if part.pointee.type == XML_TEXT_NODE, let content = part.pointee.content {
                    value += String(cString: content)
                }
                child = part.pointee.next
            }
            let name = current.pointee.name.map { String(cString: $0) } ?? ""
            let namespace = current.pointee.ns.flatMap { $0.pointee.href }.map { String(cString: $0) }
            result.append(XMLNode.Attribute(localName: name, namespaceURI: namespace, value: value))
            attribute = current.pointee.next
        }
        return result
    }
}

/// The bytes libxml2 reads, the start-tag scanner that watches them, and the diagnostics libxml2 reports.
/// Passed to libxml2's C callbacks as an unretained pointer; the owning `XMLStreamReader` outlives them.
final class XMLInputFeed {
    /// Where the bytes come from.
    enum Source {
        /// An open file descriptor, closed when the feed goes away.
        case file(Int32)
        /// A document in memory.
        case memory(Data)
    }

    /// The first error libxml2 reported.
    struct Failure {
        var code: Int32
        /// Raised while parsing an entity's replacement text (libxml2 gives it no file name), so its line
        /// and column are relative to that text.
        var insideEntity: Bool
        var message: String
        var line: Int?
        var column: Int?
    }

    private let source: Source
    private var offset = 0
    /// Start-tag positions, fed from the same bytes.
    var scanner = XMLStartTagScanner()
    /// The first error (or fatal error) libxml2 reported; warnings are ignored.
    private(set) var firstError: Failure?
    /// Why reading the file failed, when it did.
    private(set) var ioError: String?
    /// How many bytes libxml2 has been given.
    private(set) var bytesRead = 0
    /// Blanks the entity declarations of the internal subset (DESIGN.md §5a 14).
    private var blanker = XMLEntityDeclarationBlanker()
    /// Rewritten prolog bytes libxml2 has not been given yet.
    private var rewritten: [UInt8] = []

    init(source: Source) {
        self.source = source
    }

    deinit {
        if case .file(let descriptor) = source { close(descriptor) }
    }

    /// Fills libxml2's buffer; returns the byte count, 0 at the end, -1 on failure.
    func read(into buffer: UnsafeMutablePointer<CChar>, length: Int) -> Int32 {
        guard length > 0 else { return 0 }
        guard blanker.isFinished, rewritten.isEmpty else { return readRewritten(into: buffer, length: length) }
        let count = readSource(into: UnsafeMutableRawPointer(buffer), length: length)
        guard count >= 0 else { return -1 }
        bytesRead += count
        scanner.consume(UnsafeRawBufferPointer(start: buffer, count: count))
        return Int32(count)
    }

    /// The prolog, through the entity-declaration blanker: rewritten bytes may outnumber the bytes read by a
    /// few, so they wait in `rewritten` until libxml2 asks for more.
    private func readRewritten(into buffer: UnsafeMutablePointer<CChar>, length: Int) -> Int32 {
        while rewritten.isEmpty, !blanker.isFinished {
            var chunk = [UInt8](repeating: 0, count: length)
            let count = chunk.withUnsafeMutableBytes { bytes in
                bytes.baseAddress.map { readSource(into: $0, length: length) } ?? 0
            }
            guard count >= 0 else { return -1 }
            if count == 0 { break }
            chunk.withUnsafeBytes { bytes in
                blanker.rewrite(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), into: &rewritten)
            }
        }
        let count = min(length, rewritten.count)
        rewritten.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: count) }
        }
        rewritten.removeFirst(count)
        bytesRead += count
        scanner.consume(UnsafeRawBufferPointer(start: buffer, count: count))
        return Int32(count)
    }

    /// Up to `length` bytes of the source; 0 at the end, -1 on failure (with `ioError` set).
    private func readSource(into buffer: UnsafeMutableRawPointer, length: Int) -> Int {
        switch source {
        case .file(let descriptor):
            var result: Int
            repeat {
                result = systemRead(descriptor, buffer, length)
            } while result < 0 && errno == EINTR
            guard result >= 0 else {
                ioError = FileLoading.reason(forErrno: errno)
                return -1
            }
            return result
        case .memory(let data):
            let count = min(length, data.count - offset)
            guard count > 0 else { return 0 }
            data.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress {
                    buffer.copyMemory(from: base + offset, byteCount: count)
                }
            }
            offset += count
            return count
        }
    }

    /// libxml2's wording where it names its own parser options, limits or encoding detection, said for the
    /// user: the nesting limit, the size limits, a byte that is not UTF-8 in a document declaring no other
    /// encoding.
    static func inUserWords(_ message: String) -> String {
        let limits = [
            ("AttValue length too long", "an attribute value is too long"),
            ("Name too long", "an element or attribute name is too long"),
        ]
        if let (_, words) = limits.first(where: { message.contains($0.0) }) { return words }
        if let match = message.firstMatch(of: /Excessive depth in document: (\d+)/) {
            return "the document is nested too deeply (more than \(match.1) levels)"
        }
        if let match = message.firstMatch(of: /Input is not proper UTF-8.*Bytes: (0x[0-9A-Fa-f]{2})/) {
            return "the file is not UTF-8 text (byte \(match.1)); save the file as UTF-8, or name its encoding in "
                + "the XML declaration"
        }
        return message.replacing(/,?\s*(use|try) XML_PARSE_HUGE option/.ignoresCase(), with: "")
    }

    /// Keeps the first error or fatal error libxml2 reports.
    func record(_ error: xmlError) {
        guard firstError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let raw = error.message.map { String(cString: $0) } ?? "malformed XML"
        let message = XMLInputFeed.inUserWords(raw.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        firstError = Failure(code: error.code, insideEntity: error.file == nil,
                             message: message.isEmpty ? "malformed XML" : message,
                             line: error.line > 0 ? Int(error.line) : nil,
                             column: error.int2 > 0 ? Int(error.int2) : nil)
    }
}
