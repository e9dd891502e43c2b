import CLibXML2
import CatalogCore
import Foundation

/// A streaming, namespace-aware XML parser on libxml2's SAX2 callbacks: no tree, no `xmlTextReader`, never
/// Foundation's `XMLParser` (which rejects documents over 10 MB on Linux). libxml2's pull parser reads the
/// document block by block (`Feed`) and reports start tags, ends and text to an `XMLEventHandler`; positions are byte
/// offsets, turned into line:column (`XMLSourceBlocks`) only for what a reader keeps or reports, a start tag's line
/// from libxml2's own count where its buffer allows.
///
/// Hardened for untrusted input: no network (`XML_PARSE_NONET`), no DTD loading, no entity substitution, no
/// default attributes from a DTD, and an entity resolver that refuses everything. Every entity declared in
/// the internal subset is rewritten to an empty internal entity before libxml2 reads it
/// (`XMLEntityDeclarationBlanker`; UTF-16 and UTF-32 are transcoded first, `XMLDocumentBytes`), and
/// references are not reported, so they expand to nothing at any nesting depth — in text and in attribute
/// values — entity text is never parsed or kept, and external entities are never loaded. libxml2's
/// diagnostics come through a structured error handler of this parser (nothing global) and become a
/// `CatalogReadError` at the line and column libxml2 reports. The limits of libxml2's tree builder stay (no
/// `XML_PARSE_HUGE`), enforced here since no tree is built: 256 levels of nesting, 10,000,000 bytes in one text.
final class XMLSAXParser {
    /// The path locations name.
    let displayPath: String
    /// The bytes libxml2 may still point into, for locations.
    private let source: XMLSourceBlocks
    private let handler: XMLEventHandler
    /// Whether a start tag's line is counted here even where libxml2's count could be used (for tests, which
    /// compare the two).
    private let countsLinesItself: Bool
    // The state below changes on every event of one parse on one thread; dynamic exclusivity checks on it
    // cost more than the work (`@exclusivity(unchecked)`).
    @exclusivity(unchecked) private var context: xmlParserCtxtPtr?
    /// The first error: the handler's, or libxml2's.
    @exclusivity(unchecked) private var failure: CatalogReadError?
    @exclusivity(unchecked) private var libxml2Failure: XMLParseFailure?
    /// Whether either failure is set: checked on every event, where comparing the optionals costs more.
    @exclusivity(unchecked) private var failed = false
    /// Names of the open elements (interned by libxml2), to explain a truncated document.
    @exclusivity(unchecked) private var openElements: [UnsafePointer<xmlChar>] = []
    @exclusivity(unchecked) private var sawRoot = false
    /// Bytes of character data since the last tag: libxml2's own limit on a text node.
    @exclusivity(unchecked) private var textLength = 0
    private static let maximumTextLength = 10_000_000
    /// libxml2's nesting limit (`xmlParserMaxDepth`), which only its tree builder enforces.
    private static let maximumDepth = 256
    private static let chunkSize = 1 << 16

    /// libxml2 must be initialized once before parsers run on several threads; a lazy `let` runs it once.
    private static let libraryInitialized: Bool = {
        xmlInitParser()
        return true
    }()

    init(displayPath: String, handler: XMLEventHandler, countsLinesItself: Bool = false) {
        self.source = XMLSourceBlocks(path: displayPath)
        self.displayPath = displayPath
        self.handler = handler
        self.countsLinesItself = countsLinesItself
    }

    /// Parses a document held in memory, reporting its events to `handler`.
    static func parse(data: Data, displayPath: String, handler: XMLEventHandler,
                      countsLinesItself: Bool = false) throws(CatalogReadError) {
        _ = libraryInitialized
        let document = try XMLDocumentBytes(data, path: displayPath)
        var pending: Data? = document.bytes
        try XMLSAXParser(displayPath: displayPath, handler: handler, countsLinesItself: countsLinesItself)
            .run(ignoringDeclaredEncoding: document.isTranscoded) { () throws(CatalogReadError) -> Data? in
                defer { pending = nil }
                return pending
            }
    }

    /// Parses a file, reporting its events to `handler`: read block by block, two blocks ahead of the parser on a
    /// second core (`ReadAhead`), so memory stays flat in the size of the file (a UTF-16 or UTF-32 file,
    /// transcoded first, is read whole). A missing or unreadable file is an error naming `displayPath`; a block
    /// that cannot be read is the error once the blocks before it are parsed, as a read in line would throw it.
    static func parse(contentsOf url: URL, displayPath: String, handler: XMLEventHandler,
                      countsLinesItself: Bool = false) throws(CatalogReadError) {
        _ = libraryInitialized
        let descriptor = try FileLoading.open(url, displayPath: displayPath)
        defer { close(descriptor) }
        var file = XMLFileBlocks(descriptor: descriptor, path: displayPath)
        let first = try file.next() ?? Data()
        if XMLDocumentBytes.needsTranscoding(first) {
            try parse(data: first + file.rest(), displayPath: displayPath, handler: handler,
                      countsLinesItself: countsLinesItself)
            return
        }
        var head: Data? = try XMLDocumentBytes(first, path: displayPath).bytes
        // The rest is read on the second core, two blocks ahead of libxml2: the kernel's copy of the file, the
        // page faults of each new block and the line breaks' check are then off the parsing core.
        let rest = file
        let blocks = ReadAhead<Data>(lookahead: 2) { emit throws(CatalogReadError) in
            var file = rest
            while let block = try file.next() {
                guard emit(XMLDocumentBytes.withXMLLineBreaks(block)) else { return }
            }
        }
        defer { blocks.finish() }
        try XMLSAXParser(displayPath: displayPath, handler: handler, countsLinesItself: countsLinesItself)
            .run(ignoringDeclaredEncoding: false) { () throws(CatalogReadError) -> Data? in
                if let block = head {
                    head = nil
                    return block
                }
                return try blocks.next()
            }
    }

    /// The location of a byte offset of the document.
    func location(ofOffset offset: Int) -> SourceLocation {
        source.location(ofOffset: offset)
    }

    /// The location of a start tag's `<`, asked during its `startElement` (while libxml2's input is as it was).
    /// libxml2 reports a start tag with its input at the tag's `>` (or `/>`); an attribute value cannot hold a
    /// `<`, so the tag begins at the last `<` before that: searched in libxml2's input buffer, which still holds
    /// the tag, or else in the blocks kept here.
    func location(of element: XMLStartTag) -> SourceLocation {
        let consumed = currentOffset
        if let input = element.input, let index = input.lastIndex(of: UInt8(ascii: "<")) {
            let offset = consumed - (input.count - index)
            return locationFromLibxml2sLine(input: input, tagStart: index, offset: offset)
                ?? source.location(ofOffset: offset)
        }
        return source.location(ofOffset: source.lastOffset(of: UInt8(ascii: "<"), atOrBefore: consumed))
    }

    /// The location of the `<` at `input[tagStart]` (the document's byte `offset`) from the line libxml2 has
    /// counted up to its cursor, the end of `input`, when `input` also holds the line feed before the tag and its
    /// bytes are the document's (no encoding converted): the line feeds before it are not counted again (with
    /// `memchr`, line by line: 6 % of a Transporter export's time). Nil otherwise, and when `countsLinesItself`.
    /// libxml2's count is `xmlParserInput.line` ("Current line", parser.h); newer libxml2 deprecates reading it, as
    /// it does `base` and `cur`, for `xmlCtxtGetInputPosition`, which Debian 12's 2.9.14 does not have.
    private func locationFromLibxml2sLine(input: UnsafeBufferPointer<UInt8>, tagStart: Int,
                                          offset: Int) -> SourceLocation? {
        guard !countsLinesItself, let state = context?.pointee.input, state.pointee.buf?.pointee.encoder == nil,
              let lineFeed = input[..<tagStart].lastIndex(of: 0x0A) else { return nil }
        let raw = UnsafeRawBufferPointer(input)
        let line = Int(state.pointee.line) - XMLSourceBlocks.lineFeeds(in: raw, from: tagStart, to: input.count).count
        let characters = SourceText.characterCount(in: raw, from: lineFeed + 1, to: tagStart)
        guard line >= 1, source.moveCursor(to: offset, line: line, lineStart: offset - (tagStart - lineFeed - 1),
                                           characters: characters) else { return nil }
        return SourceLocation(path: displayPath, line: line, column: characters + 1)
    }

    /// The line (no column) of the first character of `text` that is not whitespace, for an error about text
    /// where none belongs.
    func lineOfFirstNonWhitespace(in text: XMLText) -> SourceLocation {
        let index = text.bytes.firstIndex { !isXMLWhitespace($0) } ?? 0
        var offset = currentOffset
        if let context, let input = context.pointee.input, let start = text.bytes.baseAddress,
           let base = input.pointee.base, let cur = input.pointee.cur, let end = input.pointee.end,
           start >= base, start <= end {
            // The text lies in libxml2's input buffer (not a copy it made): its offset is exact.
            offset += (start - cur) + index
        }
        return SourceLocation(path: displayPath, line: source.location(ofOffset: offset).line)
    }

    /// The offset libxml2 has read up to.
    private var currentOffset: Int {
        guard let context else { return 0 }
        return max(0, Int(xmlByteConsumed(context)))
    }

    /// The offset of the first byte libxml2 still holds.
    private var heldOffset: Int {
        guard let input = context?.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur else {
            return 0
        }
        return currentOffset - (cur - base)
    }

    /// Parses the document `blocks` hands over one by one (each but the last ending with a line feed, nil at the
    /// end); an error it throws is the parse's error.
    func run(ignoringDeclaredEncoding: Bool,
             blocks: () throws(CatalogReadError) -> Data?) throws(CatalogReadError) {
        try withoutActuallyEscaping(blocks) { (blocks) throws(CatalogReadError) in
            let feed = Feed(parser: self, blocks: blocks)
            var sax = XMLSAXParser.handlerTable()
            // libxml2's own SAX2 handlers take the user data for the parser context, so it is the context, and this
            // parser rides in the context's `_private` (which libxml2 also gives the contexts of entity text).
            guard let created = xmlCreateIOParserCtxt(&sax, nil, Feed.read, nil,
                                                      Unmanaged.passUnretained(feed).toOpaque(),
                                                      XML_CHAR_ENCODING_NONE) else {
                throw CatalogReadError("the XML parser could not be created", at: SourceLocation(path: displayPath))
            }
            created.pointee._private = Unmanaged.passUnretained(self).toOpaque()
            context = created
            defer {
                if let document = created.pointee.myDoc { xmlFreeDoc(document) }
                created.pointee.myDoc = nil
                xmlFreeParserCtxt(created)
                context = nil
            }
            var options = XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
            if ignoringDeclaredEncoding { options |= XML_PARSE_IGNORE_ENC.rawValue }
            xmlCtxtUseOptions(created, Int32(bitPattern: options))
            withExtendedLifetime(feed) { _ = xmlParseDocument(created) }
            if let error = feed.error { throw error }
            try throwFailure(created)
        }
    }

    /// The document as libxml2's pull parser reads it (its read callback): block by block, the prolog through the
    /// entity-declaration blanker in chunks; a block is forgotten once libxml2 holds none of it. libxml2's push
    /// parser, fed the same chunks, looked ahead for each tag's end before parsing it: 14 % more of its
    /// instructions on a Transporter file.
    private final class Feed {
        unowned let parser: XMLSAXParser
        let blocks: () throws(CatalogReadError) -> Data?
        var blanker = XMLEntityDeclarationBlanker()
        var block = Data()
        var position = 0
        /// The blanker's output not yet handed over.
        var rewritten: [UInt8] = []
        var rewrittenPosition = 0
        /// The error `blocks` threw: libxml2 is told the input failed, and this is the parse's error.
        var error: CatalogReadError?
        var ended = false

        init(parser: XMLSAXParser, blocks: @escaping () throws(CatalogReadError) -> Data?) {
            self.parser = parser
            self.blocks = blocks
        }

        static let read: xmlInputReadCallback = { context, buffer, length in
            guard let context, let buffer, length > 0 else { return 0 }
            return Unmanaged<Feed>.fromOpaque(context)._withUnsafeGuaranteedRef {
                $0.read(into: UnsafeMutableRawPointer(buffer), capacity: Int(length))
            }
        }

        private static func copy(_ count: Int, from bytes: UnsafeRawBufferPointer, at start: Int,
                                 to buffer: UnsafeMutableRawPointer) {
            if let base = bytes.baseAddress { buffer.copyMemory(from: base + start, byteCount: count) }
        }

        /// Copies up to `capacity` bytes into `buffer`: their count, 0 at the end, -1 when reading failed.
        func read(into buffer: UnsafeMutableRawPointer, capacity: Int) -> Int32 {
            while true {
                if rewrittenPosition < rewritten.count {
                    let count = min(capacity, rewritten.count - rewrittenPosition)
                    rewritten.withUnsafeBytes { Feed.copy(count, from: $0, at: rewrittenPosition, to: buffer) }
                    rewrittenPosition += count
                    return Int32(count)
                }
                if position < block.count {
                    if blanker.isFinished {
                        let count = min(capacity, block.count - position)
                        block.withUnsafeBytes { Feed.copy(count, from: $0, at: position, to: buffer) }
                        position += count
                        return Int32(count)
                    }
                    let end = min(position + XMLSAXParser.chunkSize, block.count)
                    rewritten.removeAll(keepingCapacity: true)
                    rewrittenPosition = 0
                    block.withUnsafeBytes { bytes in
                        blanker.rewrite(UnsafeRawBufferPointer(rebasing: bytes[position..<end]), into: &rewritten)
                    }
                    position = end
                    continue
                }
                guard !ended, !parser.failed else { return 0 }
                let next: Data?
                do {
                    next = try blocks()
                } catch {
                    self.error = error
                    return -1
                }
                guard let next else {
                    ended = true
                    return 0
                }
                parser.source.dropBlocks(before: parser.heldOffset)
                parser.source.append(next)
                block = next
                position = 0
            }
        }
    }

    private func throwFailure(_ context: xmlParserCtxtPtr) throws(CatalogReadError) {
        if let failure { throw failure }
        if let libxml2Failure { throw error(for: libxml2Failure) }
        guard context.pointee.wellFormed != 0 else {
            throw CatalogReadError("the file is not well-formed XML",
                                   at: SourceLocation(path: displayPath, line: Int(context.pointee.input?.pointee.line ?? 0)))
        }
    }

    /// libxml2's first error, with the end of the document said in the user's words.
    private func error(for failure: XMLParseFailure) -> CatalogReadError {
        var message = failure.message
        // libxml2 words these cases confusingly ("Premature end of data in tag", only at the end of the input);
        // say what happened instead.
        let isDocumentEmpty = failure.code == Int32(XML_ERR_DOCUMENT_EMPTY.rawValue)
        if isDocumentEmpty || failure.code == Int32(XML_ERR_DOCUMENT_END.rawValue)
            || failure.code == Int32(XML_ERR_TAG_NOT_FINISHED.rawValue) {
            if source.byteCount == 0 {
                message = "the file is empty"
            } else if isDocumentEmpty || !sawRoot {
                message = "the file is not XML: no root element found"
            } else if let open = openElements.last {
                message = "unexpected end of file inside <\(String(cString: open))>: the document is truncated"
            }
        }
        return CatalogReadError(message, at: SourceLocation(path: displayPath, line: failure.line,
                                                            column: failure.line == nil ? nil : failure.column))
    }

    // MARK: - Events

    /// Whether an event goes to the handler: not once the parse has failed, and then libxml2 is told to stop.
    private func acceptsEvent() -> Bool {
        guard !failed else {
            stop()
            return false
        }
        return true
    }

    /// Records the handler's error and stops libxml2.
    private func fail(_ error: CatalogReadError) {
        failure = error
        failed = true
        stop()
    }

    /// Fails the parse (unless it has failed already) at the line libxml2 has read up to.
    private func failAtCurrentLine(_ message: String) {
        guard failure == nil else { return }
        failed = true
        failure = CatalogReadError(
            message, at: SourceLocation(path: displayPath, line: source.location(ofOffset: currentOffset).line))
    }

    private func stop() {
        if let context { xmlStopParser(context) }
    }

    fileprivate func startElement(localName: UnsafePointer<xmlChar>, uri: UnsafePointer<xmlChar>?,
                                  attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int,
                                  defaulted: Int) {
        sawRoot = true
        textLength = 0
        if openElements.count > XMLSAXParser.maximumDepth {
            failAtCurrentLine("the document is nested too deeply (more than \(XMLSAXParser.maximumDepth) levels)")
        }
        openElements.append(localName)
        var input: UnsafeBufferPointer<UInt8>?
        if let state = context?.pointee.input, let base = state.pointee.base, let cursor = state.pointee.cur {
            input = UnsafeBufferPointer(start: base, count: max(0, cursor - base))
        }
        let element = XMLStartTag(localName: XMLBytes(localName), namespaceURI: uri.map(XMLBytes.init),
                                  input: input, attributes: attributes, specifiedCount: count - defaulted)
        guard acceptsEvent() else { return }
        do { try handler.startElement(element, in: self) } catch { fail(error) }
    }

    fileprivate func endElement() {
        textLength = 0
        _ = openElements.popLast()
        guard acceptsEvent() else { return }
        do { try handler.endElement(in: self) } catch { fail(error) }
    }

    fileprivate func characters(_ pointer: UnsafePointer<xmlChar>, count: Int) {
        textLength += count
        if textLength > XMLSAXParser.maximumTextLength {
            failAtCurrentLine("a text is longer than \(XMLSAXParser.maximumTextLength) bytes (huge text node)")
        }
        let text = XMLText(bytes: UnsafeBufferPointer(start: pointer, count: count))
        guard acceptsEvent() else { return }
        do { try handler.characters(text, in: self) } catch { fail(error) }
    }

    fileprivate func record(_ error: xmlError) {
        guard libxml2Failure == nil, failure == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        libxml2Failure = XMLParseFailure(error)
        failed = true
        stop()
    }

    /// The SAX2 handlers: libxml2's own for the document and the internal subset (so declared entities are
    /// known, and blanked), this parser's for elements, text and errors, and none for the rest.
    private static func handlerTable() -> xmlSAXHandler {
        var sax = xmlSAXHandler()
        xmlSAXVersion(&sax, 2)
        sax.startElementNs = { context, localName, _, uri, _, _, count, defaulted, attributes in
            guard let context, let localName else { return }
            XMLSAXParser.withParser(context) { $0.startElement(localName: localName, uri: uri, attributes: attributes,
                                         count: Int(count), defaulted: Int(defaulted)) }
        }
        sax.endElementNs = { context, _, _, _ in
            guard let context else { return }
            XMLSAXParser.withParser(context) { $0.endElement() }
        }
        let characters: charactersSAXFunc = { context, text, count in
            guard let context, let text, count > 0 else { return }
            XMLSAXParser.withParser(context) { $0.characters(text, count: Int(count)) }
        }
        sax.characters = characters
        sax.ignorableWhitespace = characters
        sax.cdataBlock = characters
        sax.serror = { context, error in
            guard let context, let error else { return }
            XMLSAXParser.withParser(context) { $0.record(error.pointee) }
        }
        // External entities and subsets are never loaded, whatever the document asks.
        sax.resolveEntity = { _, _, _ in nil }
        sax.externalSubset = nil
        sax.startElement = nil
        sax.endElement = nil
        sax.reference = nil
        sax.comment = nil
        sax.processingInstruction = nil
        sax.setDocumentLocator = nil
        sax.warning = nil
        sax.error = nil
        sax.fatalError = nil
        return sax
    }

    /// Calls `body` with the parser of a libxml2 parser context (the user data of every callback), which
    /// outlives the parse: no retain and release per event.
    private static func withParser(_ context: UnsafeMutableRawPointer, _ body: (XMLSAXParser) -> Void) {
        guard let parser = context.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
        Unmanaged<XMLSAXParser>.fromOpaque(parser)._withUnsafeGuaranteedRef(body)
    }
}

/// libxml2's first error (or fatal error), in the user's words.
struct XMLParseFailure {
    /// libxml2's error code.
    var code: Int32
    var message: String
    var line: Int?
    var column: Int?

    init(_ error: xmlError) {
        let raw = error.message.map { String(cString: $0) } ?? "malformed XML"
        let message = XMLParseFailure.inUserWords(raw.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        code = error.code
        self.message = message.isEmpty ? "malformed XML" : message
        line = error.line > 0 ? Int(error.line) : nil
        column = error.int2 > 0 ? Int(error.int2) : nil
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
        // Plain searches first: most messages match none of these, and a regular expression costs far more.
        if message.contains("Excessive depth in document: "),
           let match = message.firstMatch(of: /Excessive depth in document: (\d+)/) {
            return "the document is nested too deeply (more than \(match.1) levels)"
        }
        // The pull parser names the line of a start tag it cannot finish, which the location already gives.
        if message.hasPrefix("Couldn't find end of Start Tag "),
           let match = message.wholeMatch(of: /(Couldn't find end of Start Tag \S+) line \d+/) {
            return String(match.1)
        }
        if message.contains("Input is not proper UTF-8"),
           let match = message.firstMatch(of: /Input is not proper UTF-8.*Bytes: (0x[0-9A-Fa-f]{2})/) {
            return "the file is not UTF-8 text (byte \(match.1)); save the file as UTF-8, or name its encoding in "
                + "the XML declaration"
        }
        guard message.lowercased().contains("xml_parse_huge") else { return message }
        return message.replacing(/,?\s*(use|try) XML_PARSE_HUGE option/.ignoresCase(), with: "")
    }
}
