import Testing
import CatalogCore

@Suite("SourceLocation")
struct SourceLocationTests {
    typealias Location = CatalogCore.SourceLocation

    @Test("description leaves out what is unknown", arguments: [
        (Location(path: "a.yml", line: 3, column: 7), "a.yml:3:7"),
        (Location(path: "a.yml", line: 3), "a.yml:3"),
        (Location(path: "a.yml", column: 7), "a.yml"),
        (Location(path: "a.yml"), "a.yml"),
        (Location(path: "a.yml", line: 0, column: 0), "a.yml:0:0"),
        (Location(path: "dir/b c.json", line: 2_000_000_000, column: 1), "dir/b c.json:2000000000:1"),
    ])
    func description(location: Location, text: String) {
        #expect(location.description == text)
    }

    @Test("line and column read back as given; unknown stays nil and 0 stays 0")
    func readBack() {
        var location = Location(path: "x", line: 12, column: nil)
        #expect(location.line == 12 && location.column == nil)
        location.column = 0
        location.line = nil
        #expect(location.line == nil && location.column == 0)
        location.path = "y"
        #expect(location == Location(path: "y", column: 0))
    }

    @Test("equality tells unknown from 0 and from any line")
    func equality() {
        #expect(Location(path: "x") != Location(path: "x", line: 0))
        #expect(Location(path: "x", line: 1) != Location(path: "x", line: 1, column: 1))
        #expect(Location(path: "x", line: 1, column: 1) == Location(path: "x", line: 1, column: 1))
        #expect(Location(path: "x", line: 1) != Location(path: "y", line: 1))
        #expect(Set([Location(path: "x"), Location(path: "x", line: nil, column: nil)]).count == 1)
    }

    @Test("order: path, then line, then column, unknown before 1")
    func order() {
        let sorted = [
            Location(path: "a", line: 2, column: 1),
            Location(path: "a"),
            Location(path: "b", line: 1),
            Location(path: "a", line: 10, column: 3),
            Location(path: "a", line: 2),
        ].sorted()
        #expect(sorted.map(\.description) == ["a", "a:2", "a:2:1", "a:10:3", "b:1"])
        #expect(!(Location(path: "a") < Location(path: "a", line: 0)))
    }

    @Test("an optional location is no larger than the location: 24 bytes")
    func size() {
        #expect(MemoryLayout<Location>.size == 24)
        #expect(MemoryLayout<Location?>.size == 24)
    }

    @Test("a price, which holds one, takes 48 bytes (350,000 of them in a big catalog's dictionaries)")
    func priceSize() {
        #expect(MemoryLayout<Price>.stride == 48)
    }
}
