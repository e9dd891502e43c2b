import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// Issue #26: a product's prices in the config beyond one amount per territory (DESIGN.md §4).
@Suite("config: equalized prices")
struct EqualizedConfigTests {
    @Test("others: equalized in prices, and equalized: true beside price or tier")
    func reads() throws {
        // Arrange
        let text = """
            version: 1
            products:
              a: { type: consumable, prices: { US: 0.99 USD, GB: 0.99 GBP, others: equalized } }
              b: { type: consumable, price: 0.99 USD, equalized: true }
              c: { type: consumable, tier: 1, equalized: true }
              d: { type: consumable, price: 0.99 USD, equalized: false }
              e: { type: consumable, prices: { US: 0.99 USD } }

            """

        // Act
        let catalog = try ConfigTesting.read(text: text)
        let byID = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id.rawValue, $0) })

        // Assert
        #expect(byID.mapValues(\.equalizesOtherTerritories)
                == ["a": true, "b": true, "c": true, "d": false, "e": false])
        #expect(byID["a"]?.prices.keys.map(\.alpha2).sorted() == ["GB", "US"])
        #expect(byID["a"]?.listsTerritoryPrices == true)
    }

    @Test("a wrong equalized spelling is an error at its place", arguments: [
        ("a: { type: consumable, prices: { US: 0.99 USD, others: fixed } }", 3, 58,
         #"products.a.prices.others: "fixed" is not a way to price the other territories"#),
        ("a: { type: consumable, prices: { US: 0.99 USD }, equalized: true }", 3, 52,
         #"products.a.equalized: beside "prices", write "others: equalized" in the prices instead"#),
        ("a: { type: consumable, equalized: true }", 3, 26,
         #"products.a.equalized: equalized prices start from a price in the base territory; add "price""#),
        ("a: { type: consumable, price: 0.99 USD, equalized: yes }", 3, 54,
         #"products.a.equalized: "yes" is not true or false"#),
        ("a: { type: consumable, prices: { others: equalized } }", 3, 34,
         "products.a.prices: lists no territory"),
    ])
    func errors(product: String, line: Int, column: Int, message: String) throws {
        // Arrange
        let text = "version: 1\nproducts:\n  \(product)\n"

        // Act
        let error = try #require(ConfigTesting.error(readingText: text))

        // Assert
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.location == SourceLocation(path: "products.yml", line: line, column: column), "\(error)")
    }
}

@Suite("config: scheduled prices")
struct ScheduledConfigTests {
    static let text = """
        version: 1
        products:
          a:
            type: consumable
            prices:
              US: 0.99 USD
              BG: [{price: 19.99 BGN}, {from: 2026-01-01, price: 10.22 EUR}, {from: 2027-01-01, price: 10.99 EUR}]

        """

    @Test("the entry in effect at --as-of is the price; later entries are scheduled", arguments: [
        ("2025-11-28", "19.99 BGN", ["scheduled BG 10.22 EUR from 2026-01-01", "scheduled BG 10.99 EUR from 2027-01-01"]),
        ("2026-01-01", "10.22 EUR", ["scheduled BG 10.99 EUR from 2027-01-01"]),
        ("2027-06-01", "10.99 EUR", []),
    ])
    func inEffect(asOf: String, price: String, scheduled: [String]) throws {
        // Act
        let day = CalendarDate(iso: asOf)
        let catalog = try ProductConfigReader().read(data: Data(Self.text.utf8), displayPath: "products.yml", asOf: day)
        let product = try #require(catalog.products.first)
        let bulgaria = try #require(Territory(code: "BG"))

        // Assert
        #expect(product.prices[bulgaria]?.money.description == price)
        #expect(product.uncomparedPrices.map(\.summary) == scheduled)
        #expect(product.scheduledTerritories == [bulgaria])
        #expect(product.prices.count == 2)
    }

    @Test("a wrong schedule is an error at its place", arguments: [
        ("US: [{price: 1 USD}, {price: 2 USD}]", 3, 57, #"products.a.prices.US[1]: a second entry without "from""#),
        ("US: [{from: 2027-01-01, price: 1 USD}, {from: 2027-01-01, price: 2 USD}]", 3, 82,
         #"products.a.prices.US[1].from: 2027-01-01 is listed twice"#),
        ("US: [{from: 2027-1-1, price: 1 USD}]", 3, 48, #"products.a.prices.US[0].from: "2027-1-1" is not a date"#),
        ("US: [{from: 2027-01-01}]", 3, 41, #"products.a.prices.US[0]: missing "price""#),
        ("US: [{price: 1 USD, until: 2027-01-01}]", 3, 56, #"products.a.prices.US[0].until: unknown key (allowed: from, price)"#),
        ("US: []", 3, 40, "products.a.prices.US: lists no price"),
        ("US: 1 USD, USA: [{price: 1 USD}]", 3, 47, "products.a.prices.USA: US is priced twice"),
    ])
    func errors(prices: String, line: Int, column: Int, message: String) throws {
        // Arrange
        let text = "version: 1\nproducts:\n  a: { type: consumable, prices: { \(prices) } }\n"

        // Act
        let error = try #require(ConfigTesting.error(readingText: text))

        // Assert
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.location == SourceLocation(path: "products.yml", line: line, column: column), "\(error)")
    }

    @Test("a territory whose first spelling has a wrong price is one problem, not also priced twice at its second")
    func wrongPriceThenAnotherSpelling() throws {
        // Arrange: US's price has no currency; USA, the same territory, is priced right.
        let text = "version: 1\nproducts:\n  a: { type: consumable, prices: { US: 1.99, USA: 2.99 USD, DE: 1 EUR } }\n"

        // Act
        let error = try #require(ConfigTesting.error(readingText: text))

        // Assert: the missing currency alone, not also a territory priced twice.
        #expect(error.problems.map(\.message) == [#"products.a.prices.US: "1.99" needs a currency, e.g. "1.99 USD""#])
    }
}

/// A config's prices are read once per text and then found by their text's bytes (`ConfigValidator.MoneyTexts`,
/// hash slots that grow at 192 texts): every price must still be the one its own text says.
@Suite("config: prices read from repeated texts")
struct RepeatedPriceTextTests {
    @Test("a price text splits at its spaces as split(separator:) splits it", arguments: [
        "9.99 USD", "9.99  USD", " 9.99 USD", "9.99 USD ", "9.99", "", " ", "9.99 USD EUR", "9.99\tUSD",
        "9.99 \u{301}USD", "9,99 €", "9.99 € x", "a b", "ab c", "\r\n 1",
    ])
    func splitsAsSplit(text: String) {
        #expect(ConfigValidator.amountAndCurrency(text) == text.split(separator: " ", omittingEmptySubsequences: true))
    }

    @Test("400 texts, each written twice, each read as its own amount and currency, in YAML and JSON")
    func manyTexts() throws {
        // Arrange: product n costs "n.99 USD" in the US and "(n % 200).49 GBP" in GB, so every GB text repeats a
        // US text's neighbour in length and bytes, and half of the GB texts repeat.
        let count = 400
        let yaml = "version: 1\nproducts:\n" + (0..<count).map {
            "  p\($0): { type: consumable, prices: { US: \"\($0).99 USD\", GB: \"\($0 % 200).49 GBP\" } }\n"
        }.joined()
        let json = "{\"version\": 1, \"products\": {" + (0..<count).map {
            #""p\#($0)": {"type": "consumable", "prices": {"US": "\#($0).99 USD", "GB": "\#($0 % 200).49 GBP"}}"#
        }.joined(separator: ", ") + "}}"
        let britain = try #require(Territory(code: "GB"))

        for (text, path) in [(yaml, "products.yml"), (json, "products.json")] {
            // Act
            let catalog = try ConfigTesting.read(text: text, displayPath: path)

            // Assert
            let byID = Dictionary(uniqueKeysWithValues: catalog.products.map { ($0.id.rawValue, $0) })
            #expect(byID.count == count)
            for number in 0..<count {
                let prices = byID["p\(number)"]?.prices
                #expect(prices?[.unitedStates]?.money.description == "\(number).99 USD", "\(path) p\(number)")
                #expect(prices?[britain]?.money.description == "\(number % 200).49 GBP", "\(path) p\(number)")
            }
        }
    }
}

@Suite("config: JSON locations")
struct JSONConfigLocationTests {
    @Test("a config on one line: a column after non-ASCII text counts characters, not bytes")
    func columnAfterNonASCIIText() throws {
        // Four letters of 2 bytes ("é" twice, "è", "û") and "☕" of 3 come before the "1,09": it is character 173
        // of the line and byte 179.
        let text = #"{"version":1,"app":{"bundleId":"com.example.app","baseTerritory":"US"},"products":"#
            + #"{"coins.café":{"type":"consumable","name":"Crème brûlée ☕","prices":"#
            + #"{"US":"0.99 USD","FR":"1,09 EUR"}}}}"#

        let error = try #require(ConfigTesting.error(readingText: text, displayPath: "products.json"))

        #expect(error.message.contains(#"prices.FR: "1,09" is not a decimal amount"#), "\(error.message)")
        #expect(error.location == SourceLocation(path: "products.json", line: 1, column: 173), "\(error)")
    }
}
