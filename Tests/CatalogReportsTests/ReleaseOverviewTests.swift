import CatalogCore
import CatalogReports
import Testing

@Suite("ReleaseOverview")
struct ReleaseOverviewTests {
    private func price(_ code: String, _ amount: String, _ currency: String) -> (Territory, Price)? {
        guard let territory = Territory(code: code), let value = Money.parseAmount(amount),
              let currency = CurrencyCode(currency) else { return nil }
        return (territory, Price(territory: territory, money: Money(amount: value, currency: currency)))
    }

    private func product(_ id: String, _ kind: ProductKind, prices: [(String, String, String)] = [],
                         configure: (inout Product) -> Void = { _ in }) -> Product {
        var product = Product(id: ProductID(id), kind: kind, location: SourceLocation(path: "p", line: 1, column: 1))
        product.prices = Dictionary(uniqueKeysWithValues: prices.compactMap { price($0.0, $0.1, $0.2) })
        product.listsTerritoryPrices = true
        configure(&product)
        return product
    }

    @Test("statuses per store and a price matrix with the mismatched cells marked")
    func overview() throws {
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "9.99", "EUR")]) {
                $0.period = SubscriptionPeriod(iso: "P1M")
            },
            product("ios.only", .nonConsumable) { $0.stores = [.appStore] },
            product("gone", .consumable),
        ], capabilities: CatalogCapabilities(expressesGroups: true))
        let appStore = Catalog(path: "a.json", format: .ascJSON, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "8.99", "EUR")]),
            product("ios.only", .nonConsumable),
            product("extra", .consumable),
        ])
        let play = Catalog(path: "play", format: .playJSON, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
        ])
        let result = Checker().check(config: config, stores: [appStore, play])
        let overview = ReleaseOverview(config: config, stores: [appStore, play], result: result)

        #expect(overview.stores.map(\.path) == ["a.json", "play"])
        #expect(overview.products.map(\.productID) == ["coins", "extra", "gone", "ios.only", "sub"])
        let statuses = Dictionary(uniqueKeysWithValues: overview.products.map { ($0.productID, $0.statuses) })
        #expect(statuses["coins"] == [.ok, .ok])
        #expect(statuses["extra"] == [.notInConfig, .notSold])
        #expect(statuses["gone"] == [.missingInStore, .missingInStore])
        #expect(statuses["ios.only"] == [.ok, .notSold])
        #expect(statuses["sub"] == [.mismatch, .missingInStore])

        let matrix = try #require(overview.priceMatrices.first { $0.productID == "sub" })
        #expect(matrix.rows.map(\.territory.alpha2) == ["DE", "US"])
        #expect(matrix.rows[0].config == "9.99 EUR")
        #expect(matrix.rows[0].stores == ["8.99 EUR", nil])
        #expect(matrix.rows[0].mismatched == [true, false])
        #expect(matrix.rows[1].mismatched == [false, false])
        #expect(overview.priceMatrices.map(\.productID) == ["coins", "sub"])
    }

    @Test("a config product whose Play ID another holds is a duplicate; inputs that print alike keep their columns")
    func duplicatesAndIdentity() {
        // Arrange: coins.b maps to the Play ID coins.a holds; two Play inputs share a path text.
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("coins.a", .consumable, prices: [("US", "4.99", "USD")]) {
                $0.storeIDs = [.play: ProductID("coins")]
            },
            product("coins.b", .consumable, prices: [("US", "7.99", "USD")]) {
                $0.storeIDs = [.play: ProductID("coins")]
            },
        ])
        let clean = Catalog(path: "play", format: .playCSV, products: [
            product("coins", .consumable, prices: [("US", "4.99", "USD")]),
        ])
        let drifted = Catalog(path: "play", format: .playCSV, products: [
            product("coins", .consumable, prices: [("US", "5.99", "USD")]),
        ])
        let result = Checker().check(config: config, stores: [clean, drifted])

        // Act
        let overview = ReleaseOverview(config: config, stores: [clean, drifted], result: result)

        // Assert
        #expect(overview.stores.map(\.input) == [StoreInputID(position: 0), StoreInputID(position: 1)])
        #expect(overview.products.map { "\($0.productID) \($0.statuses.map(\.rawValue)) \($0.findings)" } == [
            #"coins.a ["ok", "mismatch"] [0, 1]"#,
            #"coins.b ["duplicate ID", "duplicate ID"] [1, 1]"#,
        ])
        #expect(overview.priceMatrices.map { matrix in
            "\(matrix.productID) " + matrix.rows.map { "\($0.territory.alpha2) \($0.config ?? "-") \($0.stores) \($0.mismatched)" }
                .joined()
        } == [
            #"coins.a US 4.99 USD [Optional("4.99 USD"), Optional("5.99 USD")] [false, true]"#,
            #"coins.b US 7.99 USD [nil, nil] [false, false]"#,
        ])
    }
}
