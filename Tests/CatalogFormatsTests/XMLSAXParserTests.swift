import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// Records what `XMLSAXParser` reports: every element with its position and `a` / `name` attributes, and
/// the events in order.
final class XMLEventRecorder: XMLEventHandler {
    struct Element: Equatable {
        var localName: String
        var namespaceURI: String?
        var line: Int?
        var column: Int?
        var a: String?
        var name: String?
    }

    var elements: [Element] = []
    /// `<name`, `>` for an end, or the text of a piece of character data.
    var events: [String] = []
    var text: String { events.filter { !$0.hasPrefix("<") && $0 != ">" }.joined() }

    func startElement(_ element: XMLStartTag, in parser: XMLSAXParser) {
        let location = parser.location(of: element)
        elements.append(Element(localName: element.localName.string, namespaceURI: element.namespaceURI?.string,
                                line: location.line, column: location.column, a: element.attribute("a"),
                                name: element.attribute("name")))
        events.append("<" + element.localName.string)
    }

    func endElement(in parser: XMLSAXParser) {
        events.append(">")
    }

    func characters(_ text: XMLText, in parser: XMLSAXParser) {
        let piece = String(decoding: text.bytes, as: UTF8.self)
        if let last = events.last, !last.hasPrefix("<"), last != ">" {
            events[events.count - 1] = last + piece
        } else {
            events.append(piece)
        }
    }
}

/// The libxml2 SAX2 layer: events, namespaces, positions, entity handling, encodings, malformed and oversized
/// input.
@Suite struct XMLSAXParserTests {
    func record(_ data: Data) throws(CatalogReadError) -> XMLEventRecorder {
        let recorder = XMLEventRecorder()
        try XMLSAXParser.parse(data: data, displayPath: "doc.xml", handler: recorder)
        return recorder
    }

    func record(_ text: String) throws(CatalogReadError) -> XMLEventRecorder {
        try record(Data(text.utf8))
    }

    func readFailure(_ text: String) -> CatalogReadError? {
        readFailure(Data(text.utf8))
    }

    func readFailure(_ data: Data) -> CatalogReadError? {
        do {
            _ = try record(data)
            return nil
        } catch {
            return error
        }
    }

    /// `text` in UTF-16, little endian with a byte order mark, or big endian (with a mark or without).
    static func utf16(_ text: String, bigEndian: Bool = false, mark: Bool = true) -> Data {
        var data = Data(mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : [])
        for unit in text.utf16 {
            let bytes = [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            data.append(contentsOf: bigEndian ? bytes.reversed() : bytes)
        }
        return data
    }

    @Test func eventStream() throws {
        let document = """
            <?xml version="1.0"?>
            <p:root xmlns:p="urn:p" xmlns="urn:d" a="1" p:b="2">
              <child>text &amp; more<![CDATA[<raw>]]></child>
              <empty/><!-- note --><?target data?>
            </p:root>
            """
        let recorded = try record(document)
        #expect(recorded.events == ["<root", "\n  ", "<child", "text & more<raw>", ">", "\n  ", "<empty", ">", "\n",
                                    ">"])
        let root = recorded.elements[0]
        #expect((root.localName, root.namespaceURI, root.line, root.column) == ("root", "urn:p", 2, 1))
        // Only an attribute without a namespace is found by its local name.
        #expect(root.a == "1")
        #expect(recorded.elements[1] == XMLEventRecorder.Element(localName: "child", namespaceURI: "urn:d", line: 3,
                                                                 column: 3))
        #expect((recorded.elements[2].line, recorded.elements[2].column) == (4, 3))
    }

    @Test func positionsSkipCommentsDoctypeAndCDATAAndCountScalars() throws {
        // CRLF and a lone CR are one line break each; é and ü count as one column; a `>` in an attribute value,
        // a tag inside a comment, a CDATA section and an internal subset with a quote in a comment fool nothing.
        let document = "<?xml version=\"1.0\"?>\r\n<!-- <fake> -->\r<!DOCTYPE r [ <!ENTITY e \"<x/>\"> <!-- ' --> ]>\n"
            + "<r a='>'><é/><b\n c=\"1\"><![CDATA[<no>]]></b>   <ü:c xmlns:ü=\"u\">&e;</ü:c></r>"
        let elements = try record(document).elements
        #expect(elements.map(\.localName) == ["r", "é", "b", "c"])
        #expect(elements.map(\.line) == [4, 4, 4, 5])
        #expect(elements.map(\.column) == [1, 10, 14, 31])
    }

    @Test func positionsStayExactInLongDocuments() throws {
        // More lines than libxml2's 16-bit node line numbers, and many blocks read by the parser.
        var document = "<root>\n"
        for index in 0..<70_000 { document += "  <item n=\"\(index)\"/>\n" }
        document += "  <last/>\n</root>\n"
        let elements = try record(document).elements
        #expect(elements.count == 70_002)
        #expect(elements.last == XMLEventRecorder.Element(localName: "last", line: 70_002, column: 3))
        #expect(elements[50_000] == XMLEventRecorder.Element(localName: "item", line: 50_001, column: 3))
    }

    @Test("a file is read in blocks, with exact positions across them", arguments: ["\n", "\r\n"])
    func fileInBlocks(lineBreak: String) throws {
        // About 2.5 MB: three blocks of the file reader.
        var document = "<root>" + lineBreak
        for index in 0..<120_000 { document += "  <item n=\"\(index)\"/>" + lineBreak }
        document += "  <last/>" + lineBreak + "</root>" + lineBreak
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("doc.xml")
        try Data(document.utf8).write(to: url)
        let recorder = XMLEventRecorder()
        try XMLSAXParser.parse(contentsOf: url, displayPath: "doc.xml", handler: recorder)
        #expect(recorder.elements.count == 120_002)
        #expect(recorder.elements.last == XMLEventRecorder.Element(localName: "last", line: 120_002, column: 3))
        #expect(recorder.elements.enumerated().allSatisfy { $0.element.line == $0.offset + 1 })
        #expect(recorder.elements.dropFirst().allSatisfy { $0.column == 3 })
    }

    @Test("an error in a file of several blocks is at its place, near the start or in the last block",
          arguments: [2, 119_999])
    func errorInFileOfBlocks(badLine: Int) throws {
        // Arrange: about 2.5 MB, three blocks read ahead of the parser; one element's end tag is misspelled.
        var lines = ["<root>"] + (0..<120_000).map { "  <item n=\"\($0)\"/>" } + ["</root>"]
        lines[badLine - 1] = "  <item n=\"bad\"></itme>"
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("doc.xml")
        try Data(lines.joined(separator: "\n").utf8).write(to: url)

        // Act
        var thrown: CatalogReadError?
        do {
            try XMLSAXParser.parse(contentsOf: url, displayPath: "doc.xml", handler: XMLEventRecorder())
        } catch {
            thrown = error
        }

        // Assert
        let error = try #require(thrown)
        #expect(error.location.path == "doc.xml")
        #expect(error.location.line == badLine, "\(error)")
        #expect(error.message.contains("itme"), "\(error.message)")
    }

    @Test("UTF-16 is read as its declaration says, with exact positions", arguments: [false, true])
    func utf16(bigEndian: Bool) throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<root>\n  <a>x</a>\n</root>\n"
        for mark in [true, false] {
            let elements = try record(Self.utf16(text, bigEndian: bigEndian, mark: mark)).elements
            #expect(elements.map(\.localName) == ["root", "a"])
            #expect(elements.map(\.line) == [2, 3])
            #expect(elements.map(\.column) == [1, 3])
        }
    }

    @Test func utf32AndUTF8MarksAreRead() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-32\"?>\n<root> <é/></root>"
        var utf32 = Data([0xFF, 0xFE, 0x00, 0x00])
        for scalar in text.unicodeScalars {
            withUnsafeBytes(of: scalar.value.littleEndian) { utf32.append(contentsOf: $0) }
        }
        #expect(try record(utf32).elements.map(\.column) == [1, 8])
        let marked = try record(Data([0xEF, 0xBB, 0xBF]) + Data("<root> <é/></root>".utf8)).elements
        #expect(marked.map(\.column) == [1, 8])
    }

    // MARK: - Entities (DESIGN.md §5a 14)

    @Test func declaredEntitiesExpandToNothing() throws {
        let document = """
            <!DOCTYPE r [ <!ENTITY inner "INNER"> <!ENTITY tag "<x>TAG</x>"> ]>
            <r name="a&inner;b&amp;">c&inner;d&tag;e&lt;</r>
            """
        let recorded = try record(document)
        #expect(recorded.elements.map(\.localName) == ["r"])
        #expect(recorded.elements[0].name == "ab&")
        #expect(recorded.text == "cde<")
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let marker = try String(contentsOf: Fixtures.url("malformed/xml-xxe-marker.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let recorded = try record(Data(contentsOf: Fixtures.url("malformed/xml-xxe-local-file.xml")))
        let all = recorded.text + recorded.elements.compactMap(\.name).joined()
        #expect(all.contains("com.example.xxe"))
        #expect(!all.contains(marker))
        #expect(!all.contains("root:"))
    }

    /// A document declaring `levels` nested entities (`e0` is `x`, each next one ten references to the one
    /// before), referenced at the deepest level in an attribute and in text.
    static func nestedEntities(levels: Int, encoding: String = "") -> String {
        var declarations = ["<!ENTITY e0 \"x\">"]
        for level in 1...levels {
            declarations.append("<!ENTITY e\(level) \"\(String(repeating: "&e\(level - 1);", count: 10))\">")
        }
        return "<?xml version=\"1.0\"\(encoding)?>\n<!DOCTYPE r [\n" + declarations.joined(separator: "\n") + "\n]>\n"
            + "<r a=\"A&e\(levels);B\">t&e\(levels);u<c/></r>\n"
    }

    @Test("nested entity declarations expand to nothing at any depth", arguments: [1, 4, 20, 200])
    func nestedEntitiesExpandToNothing(levels: Int) throws {
        let recorded = try record(Self.nestedEntities(levels: levels))
        #expect(recorded.elements.map(\.localName) == ["r", "c"])
        #expect(recorded.elements[0].a == "AB")
        #expect(recorded.text == "tu")
        // Positions after the rewritten declarations are exact.
        #expect(recorded.elements.map(\.line) == [levels + 5, levels + 5])
        #expect(recorded.elements.map(\.column) == [1, 19 + 2 * String(levels).count])
    }

    @Test("nested entity declarations in UTF-16 expand to nothing as in UTF-8 (DESIGN.md §5a 14)",
          arguments: [(4, false), (4, true), (20, false), (200, true)])
    func nestedEntitiesInUTF16(levels: Int, bigEndian: Bool) throws {
        let text = Self.nestedEntities(levels: levels, encoding: " encoding=\"UTF-16\"")
        let recorded = try record(Self.utf16(text, bigEndian: bigEndian))
        #expect(recorded.elements.map(\.localName) == ["r", "c"])
        #expect(recorded.elements[0].a == "AB")
        #expect(recorded.text == "tu")
        #expect(recorded.elements.map(\.line) == [levels + 5, levels + 5])
    }

    @Test func billionLaughsReadsAsNothing() throws {
        let recorded = try record(Data(contentsOf: Fixtures.url("malformed/xml-billion-laughs.xml")))
        #expect(recorded.elements.count == 9)
        #expect(recorded.elements.compactMap(\.name).contains("Laughs"))
        #expect(!recorded.text.contains("lol"))
    }

    @Test("billion laughs in UTF-16 reads as nothing, in little time and memory", arguments: [false, true])
    func billionLaughsInUTF16(bigEndian: Bool) throws {
        let text = try String(contentsOf: Fixtures.url("malformed/xml-billion-laughs.xml"), encoding: .utf8)
        let declared = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        #expect(declared.contains("UTF-16"))
        let recorded = try record(Self.utf16(declared, bigEndian: bigEndian))
        #expect(recorded.elements.count == 9)
        #expect(!recorded.text.contains("lol"))
    }

    @Test func everyKindOfDeclarationIsBlanked() throws {
        // Parameter entities, external ones (also in an attribute, which libxml2 refuses for external
        // entities), multi-line values with `>` and quotes inside, comments and PIs that look like
        // declarations, and the predefined entities, whose redeclaration libxml2 ignores.
        let document = """
            <?xml version="1.0"?>
            <!-- <!ENTITY fake "no"> -->
            <!DOCTYPE r SYSTEM "r.dtd" [
              <!ENTITY % pe "<!ENTITY hidden 'HIDDEN'>">
              %pe;
              <!-- <!ENTITY c "x"> -->
              <?pi <!ENTITY p "x"> ?>
              <!ELEMENT r ANY>
              <!ATTLIST r a CDATA "d>'">
              <!ENTITY ext SYSTEM "file:///etc/passwd">
              <!ENTITY pub PUBLIC "-//X//Y" 'http://example.com/>'>
              <!ENTITY multi "line 1 >
              line 2 ' &amp;
              line 3">
              <!ENTITY lt "&#38;#60;">
              <!ENTITY amp "&#38;#38;">
            ]>
            <r a="[&ext;&pub;&multi;]">[&ext;&pub;&multi;&lt;&amp;]<c/></r>
            """
        let recorded = try record(document)
        #expect(recorded.elements.map(\.localName) == ["r", "c"])
        #expect(recorded.elements[0].a == "[]")
        #expect(recorded.text == "[<&]")
        #expect(recorded.elements.map(\.line) == [18, 18])
        #expect(recorded.elements.map(\.column) == [1, 56])
    }

    @Test func defaultAttributesFromTheDTDAreNotRead() throws {
        let recorded = try record("<!DOCTYPE r [<!ATTLIST r a CDATA \"default\">]><r/>")
        #expect(recorded.elements.map(\.a) == [nil])
    }

    @Test func blankerKeepsLengthAndLinesWhateverTheChunking() {
        let document = "<?xml version='1.0'?>\r\n<!DOCTYPE r [\n<!ENTITY a \"1\n2\">\n<!ENTITY b SYSTEM 'u'>"
            + "<!ENTITY c ''><!ENTITY lt '&#38;#60;'>]>\n<r>&a;</r>"
        let bytes = Array(document.utf8)
        var whole = XMLEntityDeclarationBlanker()
        var expected: [UInt8] = []
        bytes.withUnsafeBytes { whole.rewrite($0, into: &expected) }
        #expect(whole.isFinished)
        #expect(String(decoding: expected, as: UTF8.self) == "<?xml version='1.0'?>\r\n<!DOCTYPE r [\n"
            + "<!ENTITY a \"\"\n  >\n<!ENTITY b \"\"        >"
            + "<!ENTITY c \"\"><!ENTITY lt '&#38;#60;'>]>\n<r>&a;</r>")
        #expect(expected.count == bytes.count)
        for size in 1...7 {
            var chunked = XMLEntityDeclarationBlanker()
            var output: [UInt8] = []
            for start in stride(from: 0, to: bytes.count, by: size) {
                bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { chunked.rewrite($0, into: &output) }
            }
            #expect(output == expected, "chunks of \(size)")
        }
    }

    @Test("an entity's text is never parsed, so a malformed one is not an error", arguments: [false, true])
    func entityTextIsNeverParsed(utf16: Bool) throws {
        let text = "<?xml version=\"1.0\"\(utf16 ? " encoding=\"UTF-16\"" : "")?>\n<!DOCTYPE r [<!ENTITY e \"<a>\">]>\n"
            + "<r>\n  x &e; y\n</r>"
        let recorded = try record(utf16 ? Self.utf16(text) : Data(text.utf8))
        #expect(recorded.text == "\n  x  y\n")
    }

    // MARK: - Malformed and oversized input

    @Test func malformedXMLNamesLineAndColumn() throws {
        let error = try #require(readFailure("<a>\n  <b></c>\n</a>"))
        #expect(error.location == CatalogCore.SourceLocation(path: "doc.xml", line: 2, column: 10))
        #expect(error.message == "Opening and ending tag mismatch: b line 2 and c")
    }

    @Test func undefinedNamespacePrefixIsAnError() throws {
        let error = try #require(readFailure("<a>\n<x:b/>\n</a>"))
        #expect(error.location.line == 2)
        #expect(error.message == "Namespace prefix x on b is not defined")
    }

    @Test func emptyTruncatedAndBinaryInput() throws {
        #expect(readFailure("")?.message == "the file is empty")
        #expect(readFailure("<a><b>")?.message == "unexpected end of file inside <b>: the document is truncated")
        #expect(readFailure("\u{1}\u{2}garbage")?.message == "the file is not XML: no root element found")
        #expect(readFailure("<a/><b/>")?.message == "Extra content at the end of the document")
        #expect(readFailure("<a x='/'><b/><c>")?.message == "unexpected end of file inside <c>: the document is truncated")
        #expect(readFailure("<a><b>t</b></a>\n<!-- c -->")?.message == nil)
    }

    @Test("a start tag cut off at the end: libxml2's message without the line it appends, which the location gives")
    func startTagCutOff() throws {
        let error = try #require(readFailure("<a>\n<b"))

        #expect(error.message == "Couldn't find end of Start Tag b")
        #expect(error.location.line == 2)
    }

    @Test("a block that cannot be read fails the parse with the reading's error, not as a truncated document")
    func readErrorMidDocument() {
        // Arrange: the first block opens the root; reading the second fails (as a disk error would).
        var blocks = [Data("<a>\n  <b>x</b>\n".utf8)]
        let recorder = XMLEventRecorder()
        let parser = XMLSAXParser(displayPath: "doc.xml", handler: recorder)

        // Act
        let error = #expect(throws: CatalogReadError.self) {
            try parser.run(ignoringDeclaredEncoding: false) { () throws(CatalogReadError) -> Data? in
                guard blocks.isEmpty else { return blocks.removeFirst() }
                throw CatalogReadError("Input/output error", at: SourceLocation(path: "doc.xml"))
            }
        }

        // Assert
        #expect(error?.message == "Input/output error")
        #expect(recorder.events.prefix(3) == ["<a", "\n  ", "<b"])
    }

    @Test func largeTextNodeIsRead() throws {
        let text = String(repeating: "x", count: 2_000_000)
        #expect(try record("<a>\(text)</a>").text.count == 2_000_000)
    }

    @Test func textNodeOverLibxml2sLimitIsACleanError() throws {
        let error = try #require(readFailure("<a>" + String(repeating: "x", count: 10_000_001) + "</a>"))
        #expect(error.message.contains("huge text node"))
        #expect(error.location.line == 1)
    }

    @Test func ebcdicIsRefused() throws {
        let error = try #require(readFailure(Data([0x4C, 0x6F, 0xA7, 0x94, 0x40])))
        #expect(error.message == "the file is EBCDIC text; save the file as UTF-8")
        #expect(error.location == CatalogCore.SourceLocation(path: "doc.xml", line: 1, column: 1))
    }
}
