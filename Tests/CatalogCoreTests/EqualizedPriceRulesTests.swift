import CatalogCore
import Testing

/// DESIGN.md §4 "Equalized prices": what the checker does with the territories a config leaves to the store.
@Suite("price rules: equalized territories")
struct EqualizedPriceRulesTests {
    static func price(_ code: String, _ amount: String, _ currency: String,
                      path: String = "store.json") throws -> (Territory, Price) {
        let territory = try #require(Territory(code: code))
        let money = Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
        return (territory, Price(territory: territory, money: money, location: SourceLocation(path: path, line: 1)))
    }

    static func product(_ id: String, path: String, prices: [(Territory, Price)], equalized: Bool = false,
                        available: Set<Territory>? = nil) -> Product {
        Product(id: ProductID(id), kind: .consumable, prices: Dictionary(uniqueKeysWithValues: prices),
                listsTerritoryPrices: path == "products.yml", equalizesOtherTerritories: equalized,
                availableTerritories: available, location: SourceLocation(path: path, line: 1))
    }

    static func findings(_ mine: [Product], _ theirs: [Product], format: CatalogFormat = .ascJSON) -> [String] {
        let config = Catalog(path: "products.yml", format: .catalog, products: mine)
        let store = Catalog(path: "store.json", format: format, products: theirs)
        return Checker().check(config: config, stores: [store]).findings.map {
            "\($0.rule.rawValue) \($0.productID ?? "-") \($0.territory?.alpha2 ?? "-")"
        }
    }

    @Test("prices of unknown origin in equalized territories are counted in one note per store")
    func notCompared() throws {
        // Arrange: two equalized products against Play-like prices (no origin); a third, pinned, is compared.
        let configProducts = [
            Self.product("a", path: "products.yml", prices: [try Self.price("US", "0.99", "USD")], equalized: true),
            Self.product("b", path: "products.yml", prices: [try Self.price("US", "1.99", "USD")], equalized: true),
            Self.product("c", path: "products.yml", prices: [try Self.price("US", "2.99", "USD")]),
        ]
        let store = [
            Self.product("a", path: "store.json", prices: [try Self.price("US", "0.99", "USD"),
                                                           try Self.price("DE", "0.99", "EUR"),
                                                           try Self.price("JP", "160", "JPY")]),
            Self.product("b", path: "store.json", prices: [try Self.price("US", "1.99", "USD"),
                                                           try Self.price("DE", "1.99", "EUR")]),
            Self.product("c", path: "store.json", prices: [try Self.price("US", "2.99", "USD"),
                                                           try Self.price("DE", "2.99", "EUR")]),
        ]

        // Act
        let config = Catalog(path: "products.yml", format: .catalog, products: configProducts)
        let result = Checker().check(config: config, stores: [Catalog(path: "play", format: .playJSON, products: store)])

        // Assert: c lists prices, so its DE is price-missing-in-config; a and b are counted once.
        #expect(result.findings.map { "\($0.rule.rawValue) \($0.productID ?? "-")" }
                == ["prices-not-compared -", "price-missing-in-config c"])
        #expect(result.findings.first?.message == "3 store prices in 2 territories of 2 products were not compared: "
            + "the config leaves them to equalization and this store input does not say whether they are equalized")
        #expect(result.findings.first?.severity == .note)
    }

    @Test("automatic prices are not compared, manual ones are price-not-equalized, a sold territory without a price is missing")
    func appStoreConnect() throws {
        // Arrange
        let (us, de, gb) = try (#require(Territory(code: "US")), #require(Territory(code: "DE")),
                                #require(Territory(code: "GB")))
        let config = [Self.product("a", path: "products.yml", prices: [try Self.price("US", "0.99", "USD")],
                                   equalized: true)]
        let jp = try #require(Territory(code: "JP"))
        var store = [Self.product("a", path: "store.json",
                                  prices: [try Self.price("US", "0.99", "USD"), try Self.price("DE", "1.29", "EUR"),
                                           try Self.price("JP", "150", "JPY")],
                                  available: [us, de, gb, jp])]
        store[0].priceOrigins = [us: .manual, de: .manual, jp: .automatic]

        // Act
        let result = Self.findings(config, store)

        // Assert
        #expect(result == ["price-missing-in-store a GB", "price-not-equalized a DE"])
    }
}
