import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// `XMLSAXParser` takes a start tag's line from libxml2's own count where it can (the tag's line start is in
/// libxml2's buffer, no encoding is converted). These tests compare every element's line and column with the
/// parser counting every line itself, on documents made to trip the count and on every XML file of the
/// fixtures and of the real-world folder.
@Suite struct XMLLineCountTests {
    /// The elements a parse reports with libxml2's line count, and counting every line here.
    func bothWays(_ parse: (XMLEventHandler, _ countsLinesItself: Bool) throws -> Void) throws
        -> (libxml2: [XMLEventRecorder.Element], own: [XMLEventRecorder.Element]) {
        let fast = XMLEventRecorder()
        try parse(fast, false)
        let own = XMLEventRecorder()
        try parse(own, true)
        return (fast.elements, own.elements)
    }

    /// The same for a document in memory.
    func bothWays(_ data: Data) throws -> (libxml2: [XMLEventRecorder.Element], own: [XMLEventRecorder.Element]) {
        try bothWays { handler, countsLinesItself in
            try XMLSAXParser.parse(data: data, displayPath: "doc.xml", handler: handler,
                                   countsLinesItself: countsLinesItself)
        }
    }

    /// The same for a file, read in blocks.
    func bothWays(file url: URL) throws -> (libxml2: [XMLEventRecorder.Element], own: [XMLEventRecorder.Element]) {
        try bothWays { handler, countsLinesItself in
            try XMLSAXParser.parse(contentsOf: url, displayPath: "doc.xml", handler: handler,
                                   countsLinesItself: countsLinesItself)
        }
    }

    /// The first element read differently the two ways, in words; nil when there is none (a short message where
    /// comparing the arrays would print both).
    func firstDifference(_ libxml2: [XMLEventRecorder.Element], _ own: [XMLEventRecorder.Element]) -> String? {
        guard libxml2.count == own.count else { return "\(libxml2.count) elements against \(own.count)" }
        guard let index = libxml2.indices.first(where: { libxml2[$0] != own[$0] }) else { return nil }
        return "element \(index): \(libxml2[index]) against \(own[index])"
    }

    /// Line breaks where libxml2 counts them on paths of its own: in a multi-line start tag and attribute value,
    /// comments, CDATA, processing instructions, the internal subset (whose entity declarations are blanked),
    /// character references to a line feed (no line), CR LF and lone CR, tabs, non-ASCII text, and a tag after a
    /// line longer than libxml2 keeps behind its cursor.
    static let body = "<r:root xmlns:r=\"urn:r\"\n      a=\"1\"\n      b='two\nlines'>\n"
        + "  <é>été — 🎉</é>\t<b/>\r\n"
        + "  <c><![CDATA[cdata\nwith <fake/> lines\n]]></c><d/>\r"
        + "  <?pi data\nmore?><e\n/><!-- a\ncomment --><f/>\n"
        + "  text &e; more\n<g>\n</g><h a=\"&#10;&#x0A;\">&#10;</h><i/>\n"
        + "  <long a=\"" + String(repeating: "x", count: 300) + "\"/>" + String(repeating: " ", count: 200)
        + "<after/>\n"
        + "\t\t<j\n\n k=\"\n\"\n/></r:root>\n"

    static func document(repeating count: Int) -> String {
        "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n"
            + "<!DOCTYPE r:root [\n  <!ENTITY e \"multi\nline\">\n  <!-- ' -->\n  <!ENTITY % p \"x\">\n]>\n"
            + "<!-- before\nthe root -->\n<outer>\n"
            + String(repeating: body, count: count) + "</outer>\n"
    }

    @Test func trickyDocumentInMemory() throws {
        let (libxml2, own) = try bothWays(Data(Self.document(repeating: 3).utf8))
        #expect(libxml2.count == 3 * 13 + 1)
        #expect(firstDifference(libxml2, own) == nil)
        // Concrete positions of the first repetition: the document's lines as written (CR LF and CR one break).
        let first = libxml2.prefix(15).map { "\($0.localName) \($0.line ?? 0):\($0.column ?? 0)" }
        #expect(first == ["outer 10:1", "root 11:1", "é 15:3", "b 15:18", "c 16:3", "d 18:8", "e 20:7",
                          "f 22:12", "g 24:1", "h 25:5", "i 25:33", "long 26:3", "after 26:515", "j 27:3",
                          "root 32:1"])
    }

    @Test("the same document in a file of several blocks, and converted from other encodings",
          arguments: ["UTF-8", "ISO-8859-1", "UTF-16"])
    func trickyDocumentInBlocks(encoding: String) throws {
        // About 3.4 MB: four blocks of the file reader, many of libxml2's buffers.
        var text = Self.document(repeating: 8_000)
        let data: Data
        switch encoding {
        case "ISO-8859-1":
            // libxml2 converts Latin-1 to UTF-8 in its buffer: its bytes are not the file's, and the parser
            // counts every line itself.
            text = text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"ISO-8859-1\"")
                .replacingOccurrences(of: " — 🎉", with: "").replacingOccurrences(of: "\u{FEFF}", with: "")
            data = try #require(text.data(using: .isoLatin1))
        case "UTF-16":
            data = XMLSAXParserTests.utf16(text.replacingOccurrences(of: "\u{FEFF}", with: "")
                .replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\""))
        default:
            data = Data(text.utf8)
        }
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("doc.xml")
        try data.write(to: url)
        let (libxml2, own) = try bothWays(file: url)
        #expect(libxml2.count == 8_000 * 13 + 1)
        #expect(firstDifference(libxml2, own) == nil)
        #expect(libxml2.last.map { "\($0.localName) \($0.line ?? 0):\($0.column ?? 0)" }
                    == "j \(27 + 7_999 * 21):3")
    }

    static let fixtureFiles = ["xml", "plist", "malformed"].flatMap { folder in
        Fixtures.files(in: folder).filter { $0.hasSuffix(".xml") || $0.hasSuffix(".plist") }.map { "\(folder)/\($0)" }
    }

    @Test(arguments: fixtureFiles)
    func fixture(_ path: String) throws {
        let data = try Data(contentsOf: Fixtures.url(path))
        let fast = Result { try bothWays(data) }
        switch fast {
        case .success(let (libxml2, own)):
            #expect(firstDifference(libxml2, own) == nil)
        case .failure(let error):
            // A malformed file fails alike both ways.
            let own = XMLEventRecorder()
            #expect(throws: CatalogReadError.self) {
                try XMLSAXParser.parse(data: data, displayPath: "doc.xml", handler: own, countsLinesItself: true)
            }
            #expect(error is CatalogReadError)
        }
    }

    @Test(.enabled(if: RealWorld.isAvailable, "CATALOGCHECK_REALWORLD names the real-world files"))
    func realWorldFiles() throws {
        let folder = RealWorld.url("apple")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".xml") || $0.hasSuffix(".plist") }.sorted()
        #expect(names.count >= 3)
        for name in names {
            let (libxml2, own) = try bothWays(file: folder.appendingPathComponent(name))
            #expect(!libxml2.isEmpty, "\(name)")
            #expect(firstDifference(libxml2, own) == nil, "\(name)")
        }
    }
}
