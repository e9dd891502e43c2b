import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// The products of a config are validated as the parser hands them over (`ConfigValidator.ProductStream`): the
/// catalog and the first error must be what reading the whole tree gave, whatever the order of the root's keys.
@Suite("Config products read while parsing")
struct ConfigProductStreamTests {
    /// A product with a base-territory `price` and one in a group, then the `app` and `groups` they depend on.
    static let productsFirst = """
        version: 1
        products:
          coins:
            type: consumable
            price: 1.99 GBP
          monthly:
            type: auto-renewable
            group: premium
            period: P1M
            prices: {GB: 4.99 GBP}
        groups:
          premium: {name: Premium}
        app:
          baseTerritory: GB
        """

    @Test("products before app and groups read as after them", arguments: ["products.yml", "products.json"])
    func productsBeforeSettings(displayPath: String) throws {
        let text = displayPath.hasSuffix(".json") ? """
            {"version": 1, "products": {"coins": {"type": "consumable", "price": "1.99 GBP"},
              "monthly": {"type": "auto-renewable", "group": "premium", "period": "P1M", "prices": {"GB": "4.99 GBP"}}},
             "groups": {"premium": {"name": "Premium"}}, "app": {"baseTerritory": "GB"}}
            """ : Self.productsFirst
        let catalog = try ConfigTesting.read(text: text, displayPath: displayPath)
        let gb = try ConfigTesting.territory("GB")
        #expect(catalog.products.map(\.id.rawValue) == ["coins", "monthly"])
        #expect(catalog.products.first?.prices[gb]?.money == (try ConfigTesting.money("1.99", "GBP")))
        #expect(catalog.products.first?.prices.keys.map(\.alpha2) == ["GB"])
        #expect(catalog.products.last?.groupKey == "premium")
        let priceAt = displayPath.hasSuffix(".json") ? (line: 1, column: 70) : (line: 5, column: 12)
        #expect(catalog.products.first?.prices[gb]?.location
            == SourceLocation(path: displayPath, line: priceAt.line, column: priceAt.column))
    }

    @Test("an unknown root key after the products comes before a product's error")
    func rootKeyBeforeProductError() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              coins:
                type: subscription
            colour: red
            """)
        #expect(error?.message == "colour: unknown key (allowed: $schema, version, app, groups, products)")
        #expect(error?.location == SourceLocation(path: "products.yml", line: 5, column: 1))
    }

    @Test("a product kept for a later setting fails before a later product that was read early")
    func keptProductFailsFirst() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              monthly:
                type: auto-renewable
                group: nope
              coins:
                type: subscription
            groups:
              premium: {}
            """)
        #expect(error?.message == #"products.monthly.group: "nope" is not a group key (groups: premium)"#)
        #expect(error?.location == SourceLocation(path: "products.yml", line: 5, column: 12))
    }

    @Test("a syntax error after the products comes before a product's error")
    func syntaxErrorBeforeProductError() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              coins:
                type: subscription
            more: [
            """)
        #expect(error?.message.hasPrefix("invalid YAML:") == true)
    }
}
