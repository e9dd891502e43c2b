@testable import CatalogFormats
import CatalogCore
import Foundation
import Testing

/// `JSONDocument.forEachElement`: a file whose top level is an array, read element by element (an App Store
/// Connect export of many documents), with the values, locations and errors of the whole file's parse.
@Suite("JSONDocument, element by element")
struct JSONDocumentElementsTests {
    /// Each element's `"id"` and the location of its `"v"`, and what the top level was.
    private func elements(_ text: String) throws(CatalogReadError)
        -> (ids: [String], locations: [CatalogCore.SourceLocation], positions: [Int], topLevel: JSONDocument.TopLevel)
    {
        var ids: [String] = []
        var locations: [CatalogCore.SourceLocation] = []
        var positions: [Int] = []
        let topLevel = try JSONDocument.forEachElement(data: Data(text.utf8), path: "t.json") { element, position in
            ids.append(element.root["id"]?.string ?? "-")
            if let value = element.root["v"] { locations.append(element.location(of: value)) }
            positions.append(position)
        }
        return (ids, locations, positions, topLevel)
    }

    /// The error of reading `text` whole, and of reading it element by element.
    private func errors(_ text: String) -> (whole: CatalogReadError?, elements: CatalogReadError?) {
        var whole: CatalogReadError?
        var byElement: CatalogReadError?
        do { _ = try JSONDocument(data: Data(text.utf8), path: "t.json") } catch { whole = error }
        do { _ = try elements(text) } catch { byElement = error }
        return (whole, byElement)
    }

    @Test("each element of a top-level array is a document of its own, located in the whole file")
    func elementsInOrder() throws {
        let text = "[\n {\"id\": \"a\", \"v\": 1},\n {\"id\": \"b\", \"v\": [true]},\n\n  {\"id\": \"é\", \"v\": {}}\n]\n"

        let read = try elements(text)

        #expect(read.ids == ["a", "b", "é"])
        #expect(read.positions == [0, 1, 2])
        #expect(read.locations == [SourceLocation(path: "t.json", line: 2, column: 19),
                                   SourceLocation(path: "t.json", line: 3, column: 19),
                                   SourceLocation(path: "t.json", line: 5, column: 20)])
        guard case .array(let location, let count) = read.topLevel else {
            Issue.record("expected an array, got \(read.topLevel)")
            return
        }
        #expect(location == SourceLocation(path: "t.json", line: 1, column: 1))
        #expect(count == 3)
    }

    @Test("a top level that is not an array is the whole document, handed over once")
    func notAnArray() throws {
        let read = try elements("  {\"id\": \"x\", \"v\": [1, 2]}")

        #expect(read.ids.isEmpty)
        guard case .document(let document) = read.topLevel else {
            Issue.record("expected a document, got \(read.topLevel)")
            return
        }
        #expect(document.root["id"]?.string == "x")
        #expect(document.root["v"]?.elements.map { Array($0).count } == 2)
    }

    @Test("an empty array is an array of no elements, at its bracket")
    func emptyArray() throws {
        let read = try elements("\n  [ ]\n")

        guard case .array(let location, let count) = read.topLevel else {
            Issue.record("expected an array, got \(read.topLevel)")
            return
        }
        #expect(location == SourceLocation(path: "t.json", line: 2, column: 3))
        #expect(count == 0)
    }

    @Test("syntax errors and repeated keys are those of the whole file's parse", arguments: [
        "[{\"id\": \"a\"}, {\"id\": \"b\",}]",
        "[{\"id\": \"a\"}, {\"id\": \"b\"}] x",
        "[{\"id\": \"a\"}, {\"id\": \"b\"}",
        "[{\"id\": \"a\"} {\"id\": \"b\"}]",
        "[{\"id\": \"a\", \"id\": \"b\"}, {\"v\": 1}, {\"v\": 1, \"v\": 2}]",
        "[{\"id\": \"a\", \"id\": \"b\"}, {\"v\": 1}, {\"v\": ]",
        "",
        "[" + String(repeating: "[", count: 600) + String(repeating: "]", count: 601),
    ])
    func errorsAsWhole(text: String) throws {
        let (whole, byElement) = errors(text)

        let expected = try #require(whole)
        #expect(byElement == expected)
    }

    @Test("repeated keys stop the handing over at the element that has them")
    func repeatedKeysStopHandingOver() {
        var ids: [String] = []

        #expect(throws: CatalogReadError.self) {
            _ = try JSONDocument.forEachElement(
                data: Data("[{\"id\": \"a\"}, {\"id\": \"b\", \"id\": \"c\"}, {\"id\": \"d\"}]".utf8),
                path: "t.json") { element, _ in ids.append(element.root["id"]?.string ?? "-") }
        }
        #expect(ids == ["a"])
    }

    @Test("an element's error ends the reading there: no later element is handed over")
    func elementErrorStops() {
        var ids: [String] = []

        let error = #expect(throws: CatalogReadError.self) {
            _ = try JSONDocument.forEachElement(
                data: Data("[{\"id\": \"a\"}, {\"id\": \"b\"}, {\"id\": \"c\"}, oops]".utf8),
                path: "t.json") { element, position throws(CatalogReadError) in
                    ids.append(element.root["id"]?.string ?? "-")
                    if position == 1 { throw CatalogReadError("stop", at: SourceLocation(path: "t.json")) }
                }
        }
        #expect(ids == ["a", "b"])
        #expect(error?.message == "stop")
    }
}
