import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// The libxml2 wrapper: node stream, namespaces, positions, entity handling, malformed and oversized input.
@Suite struct XMLStreamReaderTests {
    /// Every node but whitespace.
    func nodes(_ text: String) throws -> [XMLNode] {
        let reader = try XMLStreamReader(data: Data(text.utf8), displayPath: "doc.xml")
        var result: [XMLNode] = []
        while let node = try reader.next() {
            if node.kind != .whitespace { result.append(node) }
        }
        return result
    }

    func readFailure(_ text: String) -> CatalogReadError? {
        readFailure(Data(text.utf8))
    }

    func readFailure(_ data: Data) -> CatalogReadError? {
        do {
            let reader = try XMLStreamReader(data: data, displayPath: "doc.xml")
            while try reader.next() != nil {}
            return nil
        } catch {
            return error
        }
    }

    @Test func nodeStream() throws {
        let document = """
            <?xml version="1.0"?>
            <p:root xmlns:p="urn:p" xmlns="urn:d" a="1" p:b="2">
              <child>text &amp; more<![CDATA[<raw>]]></child>
              <empty/><!-- note --><?target data?>
            </p:root>
            """
        let all = try nodes(document)
        #expect(all.map(\.kind) == [.element, .element, .text, .text, .endElement, .element, .endElement, .comment,
                                    .processingInstruction, .endElement])
        let root = all[0]
        #expect(root.localName == "root")
        #expect(root.namespaceURI == "urn:p")
        #expect(root.depth == 0)
        #expect((root.line, root.column) == (2, 1))
        #expect(root.attributes == [
            XMLNode.Attribute(localName: "a", namespaceURI: nil, value: "1"),
            XMLNode.Attribute(localName: "b", namespaceURI: "urn:p", value: "2"),
        ])
        #expect(root.attribute("a") == "1")
        #expect(root.attribute("b") == nil)
        let child = all[1]
        #expect((child.localName, child.namespaceURI, child.depth) == ("child", "urn:d", 1))
        #expect((child.line, child.column) == (3, 3))
        #expect(all[2].text == "text & more")
        #expect(all[3].text == "<raw>")
        #expect(all[2].depth == 2)
        #expect((all[4].kind, all[4].localName) == (.endElement, "child"))
        // An empty element is followed by its end, so starts and ends pair up.
        #expect((all[5].localName, all[6].localName, all[6].kind) == ("empty", "empty", .endElement))
        #expect((all[5].line, all[5].column) == (4, 3))
        #expect(all[7].text == " note ")
        #expect(all[8].text == "data")
        #expect((all[9].localName, all[9].depth) == ("root", 0))
    }

    @Test func positionsSkipCommentsDoctypeAndCDATAAndCountScalars() throws {
        // CRLF and a lone CR are one line break each; é and ü count as one column; a `>` in an attribute value,
        // a tag inside a comment, a CDATA section and an internal subset with a quote in a comment fool nothing.
        let document = "<?xml version=\"1.0\"?>\r\n<!-- <fake> -->\r<!DOCTYPE r [ <!ENTITY e \"<x/>\"> <!-- ' --> ]>\n"
            + "<r a='>'><é/><b\n c=\"1\"><![CDATA[<no>]]></b>   <ü:c xmlns:ü=\"u\">&e;</ü:c></r>"
        let elements = try nodes(document).filter { $0.kind == .element }
        #expect(elements.map(\.localName) == ["r", "é", "b", "c"])
        #expect(elements.map(\.line) == [4, 4, 4, 5])
        #expect(elements.map(\.column) == [1, 10, 14, 31])
    }

    @Test func positionsStayExactInLongDocuments() throws {
        // More lines than libxml2's 16-bit node line numbers, more elements than one compaction of the queue.
        var document = "<root>\n"
        for index in 0..<70_000 { document += "  <item n=\"\(index)\"/>\n" }
        document += "  <last/>\n</root>\n"
        let reader = try XMLStreamReader(data: Data(document.utf8), displayPath: "doc.xml")
        var last: XMLNode?
        var count = 0
        while let node = try reader.next() {
            if node.kind == .element {
                count += 1
                last = node
            }
        }
        #expect(count == 70_002)
        #expect(last?.localName == "last")
        #expect(last?.line == 70_002)
        #expect(last?.column == 3)
        #expect(reader.location(of: try #require(last)) == CatalogCore.SourceLocation(path: "doc.xml", line: 70_002, column: 3))
    }

    @Test func utf16FallsBackToLibxml2Lines() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<root>\n  <a>x</a>\n</root>\n"
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let reader = try XMLStreamReader(data: data, displayPath: "doc.xml")
        var elements: [XMLNode] = []
        while let node = try reader.next() {
            if node.kind == .element { elements.append(node) }
        }
        #expect(elements.map(\.localName) == ["root", "a"])
        #expect(elements.map(\.line) == [2, 3])
        #expect(elements.map(\.column) == [nil, nil])
    }

    // MARK: - Entities (DESIGN.md §5a 14)

    @Test func declaredEntitiesExpandToNothing() throws {
        let document = """
            <!DOCTYPE r [ <!ENTITY inner "INNER"> <!ENTITY tag "<x>TAG</x>"> ]>
            <r name="a&inner;b">c&inner;d&tag;e&lt;</r>
            """
        let all = try nodes(document)
        #expect(all.filter { $0.kind == .element }.map(\.localName) == ["r"])
        #expect(all[0].attribute("name") == "ab")
        #expect(all.filter { $0.kind == .text }.map(\.text).joined() == "cde<")
    }

    @Test func externalEntitiesAreNeverLoaded() throws {
        let url = Fixtures.url("malformed/xml-xxe-local-file.xml")
        let marker = try String(contentsOf: Fixtures.url("malformed/xml-xxe-marker.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let reader = try XMLStreamReader(contentsOf: url, displayPath: "xxe.xml")
        var texts: [String] = []
        while let node = try reader.next() {
            texts.append(node.text)
            texts += node.attributes.map(\.value)
        }
        let all = texts.joined()
        #expect(all.contains("com.example.xxe"))
        #expect(!all.contains(marker))
        #expect(!all.contains("root:"))
    }

    /// A document declaring `levels` nested entities (`e0` is `x`, each next one ten references to the one
    /// before), referenced at the deepest level in an attribute and in text.
    static func nestedEntities(levels: Int) -> String {
        var declarations = ["<!ENTITY e0 \"x\">"]
        for level in 1...levels {
            declarations.append("<!ENTITY e\(level) \"\(String(repeating: "&e\(level - 1);", count: 10))\">")
        }
        return "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n" + declarations.joined(separator: "\n") + "\n]>\n"
            + "<r a=\"A&e\(levels);B\">t&e\(levels);u<c/></r>\n"
    }

    @Test("nested entity declarations expand to nothing at any depth", arguments: [1, 4, 20, 200])
    func nestedEntitiesExpandToNothing(levels: Int) throws {
        let all = try nodes(Self.nestedEntities(levels: levels))
        #expect(all.filter { $0.kind == .element }.map(\.localName) == ["r", "c"])
        #expect(all[0].attribute("a") == "AB")
        #expect(all.filter { $0.kind == .text }.map(\.text).joined() == "tu")
        // Positions after the rewritten declarations are exact.
        #expect(all.filter { $0.kind == .element }.map(\.line) == [levels + 5, levels + 5])
        #expect(all.filter { $0.kind == .element }.map(\.column) == [1, 19 + 2 * String(levels).count])
    }

    @Test func billionLaughsReadsAsNothing() throws {
        let reader = try XMLStreamReader(contentsOf: Fixtures.url("malformed/xml-billion-laughs.xml"),
                                         displayPath: "laughs.xml")
        var texts: [String] = []
        var elements = 0
        while let node = try reader.next() {
            if node.kind == .element { elements += 1 }
            texts.append(node.text)
            texts += node.attributes.map(\.value)
        }
        #expect(elements == 9)
        #expect(texts.contains("Laughs"))
        #expect(!texts.joined().contains("lol"))
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
        let all = try nodes(document)
        let elements = all.filter { $0.kind == .element }
        #expect(elements.map(\.localName) == ["r", "c"])
        #expect(elements[0].attribute("a") == "[]")
        #expect(all.filter { $0.kind == .text }.map(\.text).joined() == "[<&]")
        #expect(elements.map(\.line) == [18, 18])
        #expect(elements.map(\.column) == [1, 56])
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

    @Test func errorInsideEntityTextIsNeverReachedInUTF8() throws {
        // The replacement text is never parsed, so a malformed one is not an error: the file is read.
        let all = try nodes("<!DOCTYPE r [<!ENTITY e \"<a>\">]>\n<r>\n  x &e; y\n</r>")
        #expect(all.filter { $0.kind == .text }.map(\.text).joined() == "\n  x  y\n")
    }

    @Test func errorInsideEntityTextPointsAtTheReference() throws {
        // UTF-16 is passed to libxml2 unchanged, and libxml2's own entity checks apply.
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!DOCTYPE r [<!ENTITY e \"<a>\">]>\n<r>\n  x &e; y\n</r>"
        var data = Data([0xFF, 0xFE])
        for unit in text.utf16 { data.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let failure = readFailure(data)
        #expect(failure?.location.line == 4)
        #expect(failure?.message.hasPrefix("in the replacement text of an entity: ") == true)
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

    @Test func scannerCountsOpenElements() {
        var scanner = XMLStartTagScanner()
        Array("<?xml version='1.0'?><a x='/>'><b/><c\n/><d>t</d><e>".utf8).withUnsafeBytes { scanner.consume($0) }
        #expect(scanner.startTagCount == 5)
        #expect(scanner.openElementCount == 2)
        #expect(scanner.isReliable)
    }

    @Test func scannerGivesTheSamePositionsWhateverTheChunking() throws {
        let document = "<?xml version=\"1.0\"?>\r\n<!DOCTYPE r [<!ENTITY e \"<x/>\"><!-- ' -->]>\n<r a='>\n'>"
            + "<ééé:long-name-here b=\"1\"/>\r<c><![CDATA[<d>]]></c><!-- <e> --><?p <f>?>\n  <g\n/></r>"
        let bytes = Array(document.utf8)
        var whole = XMLStartTagScanner()
        bytes.withUnsafeBytes { whole.consume($0) }
        #expect(whole.pendingMarks.map(\.line) == [3, 4, 5, 6])
        #expect(whole.pendingMarks.map(\.column) == [1, 3, 1, 3])
        for size in 1...7 {
            var chunked = XMLStartTagScanner()
            for start in stride(from: 0, to: bytes.count, by: size) {
                bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { chunked.consume($0) }
            }
            #expect(chunked.pendingMarks == whole.pendingMarks, "chunks of \(size)")
            #expect(chunked.openElementCount == 0)
        }
    }

    @Test func largeTextNodeIsRead() throws {
        let text = String(repeating: "x", count: 2_000_000)
        let all = try nodes("<a>\(text)</a>")
        #expect(all.filter { $0.kind == .text }.map(\.text.count).reduce(0, +) == 2_000_000)
    }

    @Test func textNodeOverLibxml2sLimitIsACleanError() throws {
        let error = try #require(readFailure("<a>" + String(repeating: "x", count: 10_000_001) + "</a>"))
        #expect(error.message.contains("huge text node"))
        #expect(error.location.line == 1)
    }

    @Test func missingFileAndFolder() throws {
        #expect(throws: CatalogReadError("the file does not exist", at: CatalogCore.SourceLocation(path: "nope.xml"))) {
            _ = try XMLStreamReader(contentsOf: Fixtures.url("xml/nope.xml"), displayPath: "nope.xml")
        }
        do {
            let reader = try XMLStreamReader(contentsOf: Fixtures.url("xml"), displayPath: "xml")
            while try reader.next() != nil {}
            Issue.record("a folder read as XML")
        } catch {
            #expect(error.location.path == "xml")
        }
    }
}
