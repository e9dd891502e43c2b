import Foundation
import Testing
@testable import CatalogCore

/// The currency rules on the config alone (DESIGN.md §4 "Currencies change"): each product's prices in the
/// territories that have a changeover (BG from BGN to EUR on 2026-01-01, HR from HRK to EUR on 2023-01-01).
@Suite("currency rules: the territories with a changeover, in territory order")
struct CurrencyRulesTests {
    static func config() throws -> Catalog {
        func product(_ id: String, _ prices: [(String, String, String)]) throws -> Product {
            var product = Product(id: ProductID(id), kind: .consumable, location: SourceLocation(path: "products.yml"))
            for (code, amount, currency) in prices {
                let territory = try #require(Territory(code: code))
                let money = Money(amount: try #require(Money.parseAmount(amount)),
                                  currency: try #require(CurrencyCode(currency)))
                product.prices[territory] = Price(territory: territory, money: money)
            }
            return product
        }
        // `b` is priced in each territory's currency of 2026; `a` in the old ones, HR listed before BG.
        return Catalog(path: "products.yml", format: .catalog, products: [
            try product("a", [("US", "0.99", "USD"), ("HR", "7.49", "HRK"), ("BG", "1.99", "BGN")]),
            try product("b", [("US", "0.99", "USD"), ("BG", "1.02", "EUR"), ("HR", "0.99", "EUR")]),
        ])
    }

    static func triples(asOf: String, territories: [String]? = nil) throws -> [String] {
        let day = try #require(CalendarDate(iso: asOf))
        let only = try territories.map { codes in Set(try codes.map { try #require(Territory(code: $0)) }) }
        return CurrencyRules.check(try config(), asOf: day, territories: only).map {
            "\($0.rule.rawValue) \($0.productID ?? "-") \($0.territory?.alpha2 ?? "-") \($0.expected ?? "-")"
        }
    }

    @Test("after both changeovers, each old currency is wrong, the product's territories in order")
    func afterBoth() throws {
        #expect(try Self.triples(asOf: "2026-11-28") == [
            "currency-not-valid-at-date a BG EUR", "currency-not-valid-at-date a HR EUR",
        ])
    }

    @Test("before Bulgaria's, its new currency is wrong and its old one is a note ahead; Croatia's is past")
    func beforeBulgaria() throws {
        #expect(try Self.triples(asOf: "2025-11-28") == [
            "currency-not-valid-at-date a HR EUR", "currency-not-valid-at-date b BG BGN",
            "currency-changeover-ahead - BG EUR",
        ])
    }

    @Test("only the territories asked for are checked")
    func territoriesAskedFor() throws {
        #expect(try Self.triples(asOf: "2026-11-28", territories: ["HR", "US"]) == [
            "currency-not-valid-at-date a HR EUR",
        ])
        #expect(try Self.triples(asOf: "2026-11-28", territories: ["US"]).isEmpty)
    }
}
