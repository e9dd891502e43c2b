import CatalogCore
@testable import CatalogFormats
import Foundation
import TestSupport
import Testing

/// `type: one-time` and `group` on `non-renewing` products in the config and its JSON Schema (DESIGN.md §4).
@Suite("Config: one-time and grouped non-renewing products")
struct OneTimeConfigTests {
    static let header = "version: 1\ngroups:\n  pass: {}\nproducts:\n"

    @Test("one-time reads as its own type; a non-renewing product may name a group")
    func reads() throws {
        // Arrange
        let text = Self.header + "  coins:\n    type: one-time\n    price: 0.99 USD\n"
            + "  \"pass:month\":\n    type: non-renewing\n    group: pass\n    period: P1M\n"
        // Act
        let catalog = try ConfigTesting.read(text: text)
        // Assert
        #expect(catalog.products.map(\.kind) == [.oneTime, .nonRenewing])
        #expect(catalog.products.map(\.groupKey) == [nil, "pass"])
    }

    @Test("a one-time product has no group, period or intro offer, like a consumable", arguments: [
        ("    group: pass\n", 7, 5, #"products.coins.group: only subscriptions belong to a group (type is one-time)"#),
        ("    period: P1M\n", 7, 5, #"products.coins.period: only subscriptions have a period (type is one-time)"#),
        ("    introOffer: { mode: free-trial, period: P1W }\n", 7, 5,
         #"products.coins.introOffer: only auto-renewable subscriptions have an introductory offer "#
            + "(type is one-time)"),
    ])
    func refusesSubscriptionFields(field: String, line: Int, column: Int, message: String) throws {
        // Act
        let text = Self.header + "  coins:\n    type: one-time\n" + field
        let error = try #require(ConfigTesting.error(readingText: text))
        // Assert
        #expect(error.message == message)
        #expect(error.location == SourceLocation(path: "products.yml", line: line, column: column))
    }

    @Test("the JSON Schema agrees: one-time and a grouped non-renewing product are valid, a grouped one-time is not",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func schemaAgrees() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files: [(name: String, body: String, verdict: String)] = [
            ("valid.yml",
             "  coins: { type: one-time }\n  \"pass:month\": { type: non-renewing, group: pass, period: P1M }\n", "valid"),
            ("group-on-one-time.yml", "  coins: { type: one-time, group: pass }\n", "invalid"),
            ("period-on-one-time.yml", "  coins: { type: one-time, period: P1M }\n", "invalid"),
            ("intro-offer-on-non-renewing.yml",
             "  pass: { type: non-renewing, group: pass, introOffer: { mode: free-trial, period: P1W } }\n", "invalid"),
        ]
        var expected: [(file: URL, verdict: String)] = []
        for file in files {
            let url = folder.appendingPathComponent(file.name)
            try Data((Self.header + file.body).utf8).write(to: url)
            expected.append((url, file.verdict))
        }
        // Act, Assert
        try PythonJSONSchema.expect(expected, schema: ProductConfigSchemaTests.schema)
    }
}
