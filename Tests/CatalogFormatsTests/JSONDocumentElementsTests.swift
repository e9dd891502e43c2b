@testable import CatalogFormats
import CatalogCore
import Foundation
import Testing

/// The error of parsing `text` whole (`t.json`), which reading it in parts must throw too.
private func wholeFileError(_ text: String) -> CatalogReadError? {
    do {
        _ = try JSONDocument(data: Data(text.utf8), path: "t.json")
        return nil
    } catch {
        return error
    }
}

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
        let expected = try #require(wholeFileError(text))

        #expect(throws: expected) { _ = try elements(text) }
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

    @Test("each element reads the file's bytes lent while it is handled; one kept past that reads a copy of its own",
          arguments: ["[{\"a\":\"b\"}]",  // 11 bytes: `Data` holds them inline, and lends a copy on the stack
                      "[{\"a\": \"b\", \"pad\": \"" + String(repeating: "x", count: 5_000) + "\"}, 1]"])
    func keptElement(text: String) throws {
        var kept: [JSONDocument] = []
        var borrowingWhileHandled: [Bool] = []

        _ = try JSONDocument.forEachElement(data: Data(text.utf8), path: "t.json") { element, _ in
            borrowingWhileHandled.append(element.isBorrowing)
            kept.append(element)
        }

        #expect(borrowingWhileHandled.first == true)
        #expect(kept.allSatisfy { !$0.isBorrowing })
        #expect(kept.first?.root["a"]?.string == "b")
        #expect(kept.first.map { $0.location(of: $0.root) } == SourceLocation(path: "t.json", line: 1, column: 2))
    }
}

/// `JSONDocument.forEachMember`: a config read member by member, its `products` one product at a time.
@Suite("JSONDocument, member by member")
struct JSONDocumentMembersTests {
    /// The events, written as text: `key=value` for a member, `[` and `]` around the split member's, each with the
    /// location of its key.
    private func events(_ text: String, splitting split: JSONTapeParser.Split = products)
        throws(CatalogReadError) -> (events: [String], topLevel: JSONDocument.TopLevelObject)
    {
        let source = SourceText(path: "t.json", bytes: Data(text.utf8))
        var events: [String] = []
        func at(_ offset: Int) -> String { source.location(ofOffset: offset).description }
        let topLevel = try JSONDocument.forEachMember(in: source, splitting: split) { event in
            switch event {
            case .member(let key, let keyOffset, let value):
                events.append("\(key)=\(value.root.kind) at \(at(keyOffset))")
            case .splitBegins(let key, let keyOffset, let valueOffset):
                events.append("\(key)[ at \(at(keyOffset)), \(at(valueOffset))")
            case .splitMember(let key, let keyOffset, let value):
                events.append("\(key)=\(value.root["price"]?.string ?? "-") at \(at(keyOffset))")
            case .splitElement(let value):
                events.append("\(value.root.kind) at \(value.location(of: value.root))")
            case .splitEnds:
                events.append("]")
            }
        }
        return (events, topLevel)
    }

    private static let products = JSONTapeParser.Split(keys: ["products"], container: .object)

    @Test("the top-level members, and each product, in document order with the file's locations")
    func membersInOrder() throws {
        let text = "{\"version\": 1,\n \"products\": {\"a\": {\"price\": \"1\"},\n  \"b\": {\"price\": \"2\"}}, \"app\": {}}"

        let read = try events(text)

        #expect(read.events == [
            "version=number at t.json:1:2",
            "products[ at t.json:2:2, t.json:2:14",
            "a=1 at t.json:2:15",
            "b=2 at t.json:3:3",
            "]",
            "app=object at t.json:3:25",
        ])
        guard case .object(let offset) = read.topLevel else {
            Issue.record("expected an object, got \(read.topLevel)")
            return
        }
        #expect(offset == 0)
    }

    @Test("a products that is not an object is a member like any other; an empty one opens and ends")
    func productsNotAnObject() throws {
        #expect(try events("{\"products\": [1]}").events == ["products=array at t.json:1:2"])
        #expect(try events("{\"products\": {}}").events == ["products[ at t.json:1:2, t.json:1:14", "]"])
    }

    @Test("an array named to be split is handed over element by element; under another key it is a member")
    func arrayElements() throws {
        let lists = JSONTapeParser.Split(keys: ["subscriptions", "inappproduct"], container: .array)
        let text = "{\"kind\": \"k\", \"subscriptions\": [{\"a\": 1},\n 2, []], \"other\": [1], \"inappproduct\": {}}"

        let read = try events(text, splitting: lists)

        #expect(read.events == [
            "kind=string at t.json:1:2",
            "subscriptions[ at t.json:1:15, t.json:1:32",
            "object at t.json:1:33",
            "number at t.json:2:2",
            "array at t.json:2:5",
            "]",
            "other=array at t.json:2:10",
            "inappproduct=object at t.json:2:24",
        ])
    }

    @Test("an error the handler throws ends the reading there")
    func handlerErrorStops() {
        var handed: [String] = []
        let text = "{\"a\": 1, \"b\": 2, \"c\": oops}"

        let error = #expect(throws: CatalogReadError.self) {
            _ = try JSONDocument.forEachMember(in: SourceText(path: "t.json", bytes: Data(text.utf8)),
                                               splitting: Self.products) { event throws(CatalogReadError) in
                guard case .member(let key, _, _) = event else { return }
                handed.append(key)
                if key == "b" { throw CatalogReadError("stop", at: CatalogCore.SourceLocation(path: "t.json")) }
            }
        }
        #expect(handed == ["a", "b"])
        #expect(error?.message == "stop")
    }

    @Test("a top level that is not an object is the whole document")
    func notAnObject() throws {
        let read = try events(" [1, 2]")

        #expect(read.events.isEmpty)
        guard case .document(let document) = read.topLevel else {
            Issue.record("expected a document, got \(read.topLevel)")
            return
        }
        #expect(document.root.elements.map { Array($0).count } == 2)
    }

    @Test("syntax errors and repeated keys are those of the whole file's parse", arguments: [
        "{\"products\": {\"a\": {}, \"a\": {}}, \"x\": 1, \"x\": 2}",
        "{\"products\": {\"a\": {\"p\": 1, \"p\": 2}}}",
        "{\"products\": {\"a\": {}, }}",
        "{\"products\": {\"a\": {}}",
        "{\"products\": {\"a\" {}}}",
        "{\"products\": {}} {}",
        "{\"products\": 1, \"products\": {\"a\": 1}}",
        "",
        "{\"products\": {\"a\": " + String(repeating: "[", count: 520) + String(repeating: "]", count: 520) + "}}",
    ])
    func errorsAsWhole(text: String) throws {
        let expected = try #require(wholeFileError(text))

        #expect(throws: expected) { _ = try events(text) }
    }

    @Test("once a key is repeated nothing more is handed over")
    func repeatedKeyStops() {
        var handed: [String] = []

        #expect(throws: CatalogReadError.self) {
            let text = "{\"products\": {\"a\": {}, \"a\": {}, \"b\": {}}, \"app\": {}}"
            _ = try JSONDocument.forEachMember(in: SourceText(path: "t.json", bytes: Data(text.utf8)),
                                               splitting: Self.products) { event in
                if case .splitMember(let key, _, _) = event { handed.append(key) }
                if case .member(let key, _, _) = event { handed.append(key) }
            }
        }
        #expect(handed == ["a"])
    }
}
