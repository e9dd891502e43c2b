import CatalogCore
@testable import CatalogReports
import Foundation
import Testing

/// The exports' JSON writer: its layout, its escaping, and the money and territory members it writes as bytes.
@Suite("PrettyJSONWriter")
struct PrettyJSONWriterTests {
    @Test("forty levels deep, each line is indented two spaces a level, past the 64 spaces kept for it")
    func deepIndentation() throws {
        // Arrange
        var writer = PrettyJSONWriter()

        // Act
        for _ in 0..<40 {
            writer.beginArray()
        }
        writer.int(7)
        for _ in 0..<40 {
            writer.endArray()
        }
        let json = String(decoding: writer.finish(), as: UTF8.self)
        let lines = json.split(separator: "\n", omittingEmptySubsequences: false)

        // Assert
        #expect(lines.count == 82)
        #expect(lines[40] == String(repeating: " ", count: 80) + "7")
        #expect(lines[41] == String(repeating: " ", count: 78) + "]")
        #expect(lines[1] == "  [")
        #expect(lines[81] == "")
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) is [Any])
    }

    @Test("plain ASCII is copied; a quote, a backslash, a control character or a non-ASCII letter is escaped")
    func strings() throws {
        // Arrange
        let texts = ["com.example.pro", "say \"hi\"", #"C:\path"#, "tab\there", "Prix à 9,99 €", ""]
        var writer = PrettyJSONWriter()

        // Act
        writer.beginArray()
        for text in texts {
            writer.string(text)
        }
        writer.endArray()
        let json = String(decoding: writer.finish(), as: UTF8.self)

        // Assert
        #expect(json.contains("\n  \"com.example.pro\",\n"))
        #expect(json.contains(#"  "say \"hi\"","#))
        #expect(json.contains(#"  "C:\\path","#))
        #expect(json.contains(#"  "tab\there","#))
        #expect(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String] == texts)
    }

    @Test("prices by territory: sorted by code, each the money's text")
    func moneyByTerritory() throws {
        // Arrange
        let usd = try #require(CurrencyCode("USD")), eur = try #require(CurrencyCode("EUR"))
        let us = try #require(Territory(code: "US")), germany = try #require(Territory(code: "DE"))
        let prices = [us: Money(amount: Decimal(sign: .plus, exponent: -2, significand: 999), currency: usd),
                      germany: Money(amount: 10, currency: eur)]
        var writer = PrettyJSONWriter()

        // Act
        writer.beginObject()
        writer.member("prices", byTerritory: prices)
        writer.member("price", Money?.none)
        writer.endObject()

        // Assert
        #expect(String(decoding: writer.finish(), as: UTF8.self) == """
            {
              "prices" : {
                "DE" : "10 EUR",
                "US" : "9.99 USD"
              }
            }

            """)
    }
}
