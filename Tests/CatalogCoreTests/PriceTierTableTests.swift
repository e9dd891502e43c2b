import Foundation
import Testing
import CatalogCore

@Suite("Legacy App Store price tiers")
struct PriceTierTableTests {
    @Test("tier → USD price", arguments: [
        (0, "0"), (1, "0.99"), (10, "9.99"), (50, "49.99"), (51, "54.99"), (60, "99.99"), (61, "109.99"),
        (63, "124.99"), (69, "174.99"), (77, "249.99"), (78, "299.99"), (82, "499.99"), (83, "599.99"),
        (87, "999.99"),
    ])
    func usdPrice(tier: Int, expected: String) throws {
        let price = try #require(PriceTierTable.usdPrice(tier: tier))
        #expect(price == Money.parseAmount(expected))
        #expect(Money.format(price) == expected)
    }

    @Test("outside 0…87 there is no tier", arguments: [-1, 88, 100, Int.min, Int.max])
    func outOfRange(tier: Int) {
        #expect(PriceTierTable.usdPrice(tier: tier) == nil)
    }

    @Test("every tier from 0 to 87 has a price and prices rise with the tier")
    func complete() throws {
        #expect(PriceTierTable.highestTier == 87)
        var previous = Decimal(-1)
        for tier in 0...PriceTierTable.highestTier {
            let price = try #require(PriceTierTable.usdPrice(tier: tier), "tier \(tier)")
            #expect(price > previous, "tier \(tier)")
            previous = price
        }
    }
}
