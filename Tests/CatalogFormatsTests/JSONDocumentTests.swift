@testable import CatalogFormats
import CatalogCore
import Foundation
import Testing

@Suite("JSONDocument")
struct JSONDocumentTests {
    private func parse(_ text: String) throws(CatalogReadError) -> JSONDocument {
        try JSONDocument(data: Data(text.utf8), path: "t.json")
    }

    private func failure(_ text: String) -> CatalogReadError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test("values keep their source positions, in characters")
    func positions() throws {
        let document = try parse("{\n  \"a\": [1, \"é\", {\"b\": null}],\n  \"c\": \"x\"\n}")
        let a = Array(try #require(document.root["a"]?.elements))
        #expect(document.location(of: a[1]) == SourceLocation(path: "t.json", line: 2, column: 12))
        #expect(document.location(of: a[2]) == SourceLocation(path: "t.json", line: 2, column: 17))
        let c = try #require(document.root.members.flatMap { Array($0).last })
        #expect(c.key == "c")
        #expect(document.location(of: c) == SourceLocation(path: "t.json", line: 3, column: 3))
        #expect(document.location(of: c.value) == SourceLocation(path: "t.json", line: 3, column: 8))
    }

    @Test("a value's text runs to the next value on the tape, or to the end; a longer one than the limit is none")
    func textAndSeparator() throws {
        let document = try parse("{\"a\": [1, {\"b\": 2} ], \"c\": \"x\" }\n")
        func text(_ value: JSONValue, limit: Int = 100) -> String? {
            document.withTextAndSeparator(ofValueAt: value.index, limit: limit) {
                $0.map { String(decoding: $0, as: UTF8.self) }
            }
        }
        let a = Array(try #require(document.root["a"]?.elements))
        #expect(text(a[0]) == "1, ")
        #expect(text(a[1]) == "{\"b\": 2} ], ")
        #expect(text(try #require(document.root["c"])) == "\"x\" }\n")
        #expect(text(document.root) == "{\"a\": [1, {\"b\": 2} ], \"c\": \"x\" }\n")
        #expect(text(a[1], limit: 11) == nil)
        #expect(text(a[1], limit: 12) == "{\"b\": 2} ], ")
    }

    @Test("the strings after a key are found at every depth, in order, held or shared, until told to stop")
    func stringsAfterKey() throws {
        // Arrange: ids in data, a relationship and included; an escaped id and a number are not passed, a string
        // after "id" in an array is.
        let text = #"{"data": {"type": "a", "id": "1", "relationships": {"x": {"data": [{"type": "b", "id": "2"}]}}},"#
            + #" "included": [{"id": "e\u0041"}, {"id": 3}, {"i\u0064": "5"}, {"type": "c", "id": "é"}],"#
            + #" "list": ["id", "4"], "id": "last"}"#
        let held = try parse(text)
        let shared = try JSONDocument(utf8: Data(text.utf8), path: "t.json", pinnedLimit: 0)
        func strings(_ document: JSONDocument, upTo limit: Int = .max) -> [String] {
            var found: [String] = []
            document.forEachString(afterKey: "id") {
                found.append(String(decoding: $0, as: UTF8.self))
                return found.count < limit
            }
            return found
        }

        // Act / Assert
        #expect(strings(held) == ["1", "2", "é", "4", "last"])
        #expect(strings(shared) == ["1", "2", "é", "4", "last"])
        #expect(strings(held, upTo: 2) == ["1", "2"])
    }

    /// `members(_:_:of:)` finds two keys in one pass: each must be what `member(_:of:)` finds alone, whatever the
    /// order, the spelling (an escape), a nested object's like-named keys, or a value that is not an object.
    @Test("two members found in one pass are the ones found one by one", arguments: [
        (#"{"type": "a", "id": "1"}"#, "a", "1"), (#"{"id": "1", "type": "a"}"#, "a", "1"),
        (#"{"type": "a"}"#, "a", nil), (#"{"id": "1", "x": 2}"#, nil, "1"),
        (#"{"x": {"type": "b", "id": "2"}, "id": "1"}"#, nil, "1"),
        (#"{"\u0074ype": "a", "links": {}, "i\u0064": "1"}"#, "a", "1"),
        (#"{}"#, nil, nil), (#"[{"type": "a", "id": "1"}]"#, nil, nil), (#""type""#, nil, nil),
    ] as [(String, String?, String?)])
    func twoMembers(text: String, type: String?, id: String?) throws {
        // Arrange
        let document = try parse(text)
        let root = document.root.index

        // Act
        let found = document.members("type", "id", of: root)

        // Assert
        #expect(found.first == document.member("type", of: root))
        #expect(found.second == document.member("id", of: root))
        #expect(found.first.flatMap { document.value(at: $0).string } == type)
        #expect(found.second.flatMap { document.value(at: $0).string } == id)
    }

    @Test("columns on a long minified line count characters, across the 4 KiB checkpoints")
    func positionsOnALongLine() throws {
        // 3,000 two-byte characters (6,000 bytes), then values: their columns are in characters.
        let padding = String(repeating: "é", count: 3000)
        let document = try parse("[\"\(padding)\", 1, {\"k\": \"v\"}]")
        let elements = Array(try #require(document.root.elements))

        #expect(document.location(of: elements[1]) == SourceLocation(path: "t.json", line: 1, column: 3006))
        #expect(document.location(of: elements[2]) == SourceLocation(path: "t.json", line: 1, column: 3009))
        let parsed = try parse("[\"\(padding)\",\n 1]")
        #expect(parsed.location(of: try #require(parsed.root.elements.flatMap { Array($0).last }))
            == SourceLocation(path: "t.json", line: 2, column: 2))
    }

    @Test("numbers keep their source text; strings decode escapes and surrogate pairs")
    func scalars() throws {
        let document = try parse(#"{"n": 9.990, "big": 12345678901234567890123, "s": "a\"b\\c\u00e9\ud83d\ude00\n"}"#)
        #expect(document.root["n"]?.numberText == "9.990")
        #expect(document.root["big"]?.numberText == "12345678901234567890123")
        #expect(document.root["big"]?.int == nil)
        #expect(document.root["s"]?.string == "a\"b\\cé😀\n")
    }

    @Test("a byte order mark is skipped")
    func byteOrderMark() throws {
        let document = try JSONDocument(data: Data([0xEF, 0xBB, 0xBF] + Array("[true]".utf8)), path: "t.json")
        #expect(document.root.elements?.first?.bool == true)
    }

    @Test("malformed documents name the line and column", arguments: [
        ("", 1, 1, "the file is empty"),
        ("{\"a\": 1,\n \"a\": 2}", 2, 2, "duplicate key \"a\""),
        ("{\"a\": [1, 2}", 1, 12, "expected ',' or ']'"),
        ("{\"a\": \"x", 1, 7, "unterminated string"),
        ("{\"a\": tru}", 1, 7, "expected 'true'"),
        ("[01]", 1, 2, "leading zero"),
        ("[1] [2]", 1, 5, "after the end of the document"),
        ("{\"a\": \"\\ud800\"}", 1, 14, "unpaired surrogate"),
        ("\u{1}\u{2}", 1, 1, "byte 0x01"),
    ])
    func malformed(text: String, line: Int, column: Int, fragment: String) throws {
        let error = try #require(failure(text))
        #expect(error.location.line == line)
        #expect(error.location.column == column)
        #expect(error.message.contains(fragment), "\(error.message)")
    }

    @Test("invalid UTF-8 and deep nesting are errors, not crashes")
    func hostileInput() throws {
        let invalid = Data([0x22, 0xFF, 0xFE, 0x22])
        #expect(throws: CatalogReadError.self) { try JSONDocument(data: invalid, path: "t.json") }
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = try #require(failure(deep))
        #expect(error.message.contains("nesting deeper than 512 levels"))
    }

    @Test("objects with many keys still detect duplicates")
    func manyKeys() throws {
        let members = (0..<40).map { "\"k\($0)\": \($0)" } + ["\"k7\": 0"]
        let error = try #require(failure("{" + members.joined(separator: ",") + "}"))
        #expect(error.message == "invalid JSON: duplicate key \"k7\"")
    }
}
