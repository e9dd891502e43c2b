import CatalogCore
import Testing

@Suite("ProductMatching")
struct ProductMatchingTests {
    private func product(_ id: String, line: Int = 1, path: String = "products.yml",
                         configure: (inout Product) -> Void = { _ in }) -> Product {
        var product = Product(id: ProductID(id), kind: .consumable,
                              location: SourceLocation(path: path, line: line, column: 3))
        configure(&product)
        return product
    }

    private func config(_ products: [Product]) -> Catalog {
        Catalog(path: "products.yml", format: .catalog, products: products)
    }

    private func play(_ products: [Product], path: String = "play.csv") -> Catalog {
        Catalog(path: path, format: .playCSV, products: products)
    }

    private func ids(_ products: [Product]) -> [String] { products.map(\.id.rawValue) }

    @Test("storeIds, stores:, duplicates on both sides (first by key order, first record) and each side's leftovers")
    func everyCase() {
        // Arrange: gems.b comes first in the file, gems.a first by key; coins_play is listed twice.
        let catalog = config([
            product("gems.b", line: 1) { $0.storeIDs = [.play: ProductID("gems")] },
            product("gems.a", line: 2) { $0.storeIDs = [.play: ProductID("gems")] },
            product("coins", line: 3) { $0.storeIDs = [.play: ProductID("coins_play")] },
            product("ios.only", line: 4) { $0.stores = [.appStore] },
            product("gone", line: 5),
        ])
        let store = play([
            product("coins_play", line: 2, path: "play.csv"),
            product("coins", line: 3, path: "play.csv"),
            product("gems", line: 4, path: "play.csv"),
            product("coins_play", line: 5, path: "play.csv"),
        ])

        // Act
        let matching = ProductMatching(config: catalog, store: store)

        // Assert
        #expect(ids(matching.relevant) == ["gems.b", "gems.a", "coins", "gone"])
        #expect(ids(matching.notSold) == ["ios.only"])
        #expect(matching.matches.map { "\($0.mine.id) = \($0.theirs.id)@\($0.theirs.location.line ?? 0)" }
            == ["coins = coins_play@2", "gems.a = gems@4"])
        #expect(ids(matching.missingInStore) == ["gone"])
        #expect(ids(matching.missingInConfig) == ["coins"])
        #expect(matching.configDuplicates.map { "\($0.product.id) -> \($0.storeID) like \($0.first.id)" }
            == ["gems.b -> gems like gems.a"])
        #expect(matching.storeDuplicates.map { "\($0.first.id)@\($0.first.location.line ?? 0) + \($0.repeats.count)" }
            == ["coins_play@2 + 1"])
        #expect(matching.configKey(forStoreID: ProductID("coins_play")) == ProductID("coins"))
        #expect(matching.configKey(forStoreID: ProductID("coins")) == nil)
        #expect(matching.storeProductCount == 3)
    }

    @Test("check names a repeated store record of a matched ID by its config key, an unmatched one by the store ID")
    func storeDuplicateNames() {
        // Arrange
        let catalog = config([product("coins") { $0.storeIDs = [.play: ProductID("coins_play")] }])
        let store = play([
            product("coins_play", line: 2), product("coins_play", line: 3),
            product("extra", line: 4), product("extra", line: 5),
        ])

        // Act
        let findings = Checker().check(config: catalog, stores: [store]).findings

        // Assert
        #expect(findings.map { "\($0.rule.rawValue) \($0.productID ?? "-"): \($0.message)" } == [
            "duplicate-product-id coins: store ID 'coins_play' is listed 2 times in the store (lines 2, 3)",
            "duplicate-product-id extra: is listed 2 times in the store (lines 4, 5)",
            "product-missing-in-config extra: is in the store but not in the config (products.yml)",
        ])
    }

    @Test("findings and summaries are joined on the store input, never on its path text")
    func storeIdentityByInput() {
        // Arrange: two store inputs that print alike, one with a finding of its own.
        let catalog = config([product("coins")])
        let first = play([product("coins")], path: "store")
        let second = play([product("coins"), product("extra")], path: "store")

        // Act
        let result = Checker().check(config: catalog, stores: [first, second])

        // Assert
        #expect(result.comparisons.map(\.input) == [StoreInputID(position: 0), StoreInputID(position: 1)])
        #expect(result.activeFindings(forStore: result.comparisons[0].input).isEmpty)
        #expect(result.activeFindings(forStore: result.comparisons[1].input).map(\.productID) == ["extra"])
        #expect(result.findings.map(\.storeInput) == [StoreInputID(position: 1)])
    }
}
