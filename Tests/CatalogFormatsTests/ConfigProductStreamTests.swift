import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// The products of a config are validated as the parser hands them over (`ConfigValidator.ProductStream`): the
/// catalog and the problems must be what reading the whole tree gives, whatever the order of the root's keys, and
/// the problems come in file order (DESIGN.md §5a.1).
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

    /// Each problem of `error` as `line:column: message`.
    private static func problems(_ error: CatalogReadError?) -> [String] {
        error?.problems.map { "\($0.location.line ?? 0):\($0.location.column ?? 0): \($0.message)" } ?? []
    }

    @Test("a product read early and an unknown root key after the products are both reported, in file order")
    func rootKeyAfterProductError() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              coins:
                type: subscription
            colour: red
            """)
        #expect(Self.problems(error) == [
            #"4:11: products.coins.type: "subscription" is not a product type (consumable, non-consumable, "#
                + "auto-renewable, non-renewing or one-time)",
            "5:1: colour: unknown key (allowed: $schema, $comment, version, app, groups, products)",
        ])
    }

    @Test("a product kept for a later setting and a later product read early are reported in file order")
    func keptProductAndStreamedProduct() {
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
        #expect(Self.problems(error) == [
            #"5:12: products.monthly.group: "nope" is not a group key (groups: premium)"#,
            #"7:11: products.coins.type: "subscription" is not a product type (consumable, non-consumable, "#
                + "auto-renewable, non-renewing or one-time)",
        ])
    }

    @Test("a syntax error after the products is reported after the products' problems found before it")
    func syntaxErrorAfterProductError() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              coins:
                type: subscription
            more: [
            """)
        #expect(error?.problems.count == 2)
        #expect(error?.message.hasPrefix(#"products.coins.type: "subscription" is not a product type"#) == true)
        #expect(error?.problems.last?.message.hasPrefix("invalid YAML:") == true)
    }
}
