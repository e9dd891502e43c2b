import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// The mapping file (`--config map:FILE`, DESIGN.md §4b): a JSONPath subset over the team's own JSON or YAML,
/// constants and value maps, every error at the mapping file's line and the data's.
@Suite struct MappingReaderTests {
    static func options() throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 6, day: 15)))
    }

    func read(_ fixture: String) throws -> Catalog {
        try MappingReader().read(contentsOf: Fixtures.url(fixture), displayPath: fixture, options: try Self.options())
    }

    func failure(_ fixture: String) throws -> CatalogReadError? {
        do {
            _ = try read(fixture)
            return nil
        } catch let error as CatalogReadError {
            return error
        }
    }

    /// Writes a mapping (and its source) into a scratch folder and reads it; nil when it reads.
    func failure(mapping: String, source: String = #"{"plans": [{"sku": "a"}]}"#) throws -> CatalogReadError? {
        let folder = try Fixtures.temporaryFolder(suffix: "-map")
        defer { try? FileManager.default.removeItem(at: folder) }
        try source.write(to: folder.appendingPathComponent("source.json"), atomically: true, encoding: .utf8)
        let url = folder.appendingPathComponent("test.map.yml")
        try mapping.write(to: url, atomically: true, encoding: .utf8)
        let options = try Self.options()
        do {
            _ = try MappingReader().read(contentsOf: url, displayPath: "test.map.yml", options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func aServerConfigWithProductsInANestedArrayReadsEveryField() throws {
        let catalog = try read("mapping/server-config.map.yml")

        #expect(catalog.format == .map)
        #expect(catalog.path == "mapping/server-config.map.yml")
        #expect(catalog.products.map(\.id.rawValue)
                == ["com.example.pro.monthly", "com.example.pro.yearly", "com.example.lifetime"])
        let monthly = try #require(catalog.products.first)
        #expect(monthly.kind == .autoRenewable)
        #expect(monthly.period == SubscriptionPeriod(iso: "P1M"))
        #expect(monthly.referenceName == "Pro Monthly")
        #expect(monthly.groupKey == "Pro")
        #expect(monthly.storeIDs == [.play: ProductID("pro:monthly")])
        #expect(monthly.prices[.unitedStates]?.money.description == "9.99 USD")
        // Findings point at the product in the data, and a mapped value at its own place there.
        #expect(monthly.location == SourceLocation(path: "mapping/server-config.json", line: 7, column: 11))
        #expect(monthly.location(of: .period) == SourceLocation(path: "mapping/server-config.json", line: 10, column: 25))
        let yearly = catalog.products[1]
        #expect(yearly.prices[.unitedStates]?.money.description == "79.99 USD")
        let lifetime = catalog.products[2]
        #expect(lifetime.kind == .nonConsumable)
        #expect(lifetime.period == nil)
        #expect(lifetime.storeIDs.isEmpty)
        #expect(catalog.groups.map(\.key) == ["Pro"])
    }

    @Test func aRemoteConfigKeyedByPlatformIsReadForOneOrEveryPlatform() throws {
        let ios = try read("mapping/remote-config-ios.map.yml")
        let all = try read("mapping/remote-config-all.map.yml")

        #expect(ios.products.map(\.id.rawValue) == ["com.example.pro.monthly", "com.example.pro.yearly"])
        #expect(ios.products.map(\.period) == [SubscriptionPeriod(iso: "P1M"), SubscriptionPeriod(iso: "P1Y")])
        #expect(all.products.map(\.id.rawValue) == ["com.example.pro.monthly", "com.example.pro.yearly", "pro:monthly"])
    }

    /// A selector matching nothing in a product states nothing: the field is not compared (nil), never empty.
    @Test func aSelectorMatchingNothingLeavesTheFieldNotStated() throws {
        let catalog = try read("mapping/server-config.map.yml")

        let yearly = catalog.products[1]
        #expect(yearly.referenceName == nil)
        #expect(yearly.fieldLocations[.name] == nil)
        #expect(catalog.products[2].groupKey == nil)
    }

    @Test func aValueTheValueMapLacksStopsAtTheDataAndNamesTheMap() throws {
        let error = try #require(try failure("mapping/value-map-miss.map.yml"))

        // At the value `"fortnightly"` in the data (column 56), naming the map at its `{` (column 33).
        #expect(error.location == SourceLocation(path: "mapping/value-map-miss.json", line: 4, column: 56))
        #expect(error.message == "period: \"fortnightly\" is not in the value map at mapping/value-map-miss.map.yml:6:33 "
                + "(\"monthly\", \"yearly\"); add it to the map")
    }

    @Test("selectors outside the subset stop at the mapping file's line", arguments: [
        ("$..sku", "recursive descent (..) is not supported; the subset is $, .key, ['key'], [n] and [*] (character 2)"),
        ("\"$.plans[?(@.sku)]\"", "filters and expressions ([?(…)], [(…)]) are not supported; the subset is $, .key, "
            + "['key'], [n] and [*] (character 9)"),
        ("\"$.plans[0:2]\"", "slices ([start:end]) are not supported; the subset is $, .key, ['key'], [n] and [*] "
            + "(character 10)"),
        ("\"$.plans[0,1]\"", "unions ([a,b]) are not supported; the subset is $, .key, ['key'], [n] and [*] "
            + "(character 10)"),
        ("\"$.plans[-1]\"", "negative indexes are not supported; the subset is $, .key, ['key'], [n] and [*] "
            + "(character 9)"),
        ("plans[*]", "is not a selector (a JSONPath such as $.productId); write a constant as {value: plans[*]}"),
    ])
    func selectorsOutsideTheSubset(selector: String, reason: String) throws {
        let error = try #require(try failure(mapping: "version: 1\nsource: source.json\nproducts: \(selector)\nid: $.sku\n"))

        #expect(error.location == SourceLocation(path: "test.map.yml", line: 3, column: 11))
        let text = selector.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        #expect(error.message.hasPrefix("products: \"\(text)\""), "\(error.message)")
        #expect(error.message.hasSuffix(reason), "\(error.message)")
    }

    @Test func everyMappingProblemIsReportedAtItsLine() throws {
        let error = try #require(try failure(mapping: """
            version: 1
            source: source.json
            products: $.plans[*]
            idd: $.sku
            period: { path: $.x, currency: USD }
            """))

        // `idd` is taken for a misspelt `id` (not reported missing as well); a constant's `currency` is not a key.
        #expect(error.problems.map(\.message) == [
            "idd: unknown key; did you mean \"id\"?",
            "period.currency: unknown key (allowed: value, path, map)",
        ])
        #expect(error.problems.map(\.location.line) == [4, 5])
    }

    @Test func productsMatchingNothingAndAProductWithoutIDStop() throws {
        let nothing = try #require(try failure(mapping: "version: 1\nsource: source.json\nproducts: $.items[*]\nid: $.sku\n"))
        let noID = try #require(try failure(mapping: "version: 1\nsource: source.json\nproducts: $.plans[*]\nid: $.id\n"))

        #expect(nothing.message == "products: \"$.items[*]\" selects nothing in source.json; check the selector "
                + "against the source's structure")
        #expect(nothing.location == SourceLocation(path: "test.map.yml", line: 3, column: 11))
        #expect(noID.message == "id: \"$.id\" selects nothing in this product (rule at test.map.yml:4:5); every "
                + "product needs an ID")
        #expect(noID.location == SourceLocation(path: "source.json", line: 1, column: 12))
    }

    @Test func aMappedValueTheConfigRefusesNamesTheMappingToo() throws {
        let error = try #require(try failure(
            mapping: "version: 1\nsource: source.json\nproducts: $.plans[*]\nid: $.sku\ntype: $.kind\n",
            source: #"{"plans": [{"sku": "a", "kind": "subscription"}]}"#))

        // At the value `"subscription"`, not its key.
        #expect(error.location == SourceLocation(path: "source.json", line: 1, column: 33))
        #expect(error.message.hasPrefix("products.a.type: \"subscription\" is not a product type"), "\(error.message)")
        #expect(error.message.hasSuffix("(type from test.map.yml at test.map.yml:5:7)"), "\(error.message)")
    }

    @Test func theSubsetSelectsAsJSONPathDoes() throws {
        let data = Data(#"{"a": {"b": [{"c": 1}, {"c": 2}], "d e": {"x": 3, "y": 4}}}"#.utf8)
        let root = try #require(try ConfigNode.parse(data, path: "t.json", emptyFile: "empty"))
        func texts(_ selector: String) throws -> [String] {
            try MappingSelector(selector).select(from: root).compactMap { $0.scalar?.text }
        }

        #expect(try texts("$.a.b[*].c") == ["1", "2"])
        #expect(try texts("$.a.b[1].c") == ["2"])
        #expect(try texts("$.a['d e'][*]") == ["3", "4"])
        #expect(try texts("$.a[\"d e\"].*") == ["3", "4"])
        #expect(try texts("$.a.b[5].c") == [])
        #expect(try texts("$.a.b.c") == [])
        #expect(try MappingSelector("$").select(from: root).count == 1)
    }
}
