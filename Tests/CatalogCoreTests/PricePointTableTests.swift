import CatalogCore
import Foundation
import Testing

@Suite("price-point table")
struct PricePointTableTests {
    func amount(_ text: String) throws -> Decimal { try #require(Decimal(string: text)) }

    @Test("a point has no neighbours; another amount the nearest below and above")
    func neighbours() throws {
        // Arrange
        let usd = try #require(CurrencyCode("USD"))
        let points = PricePointTable.Points(currency: usd, amounts: try ["9.99", "0.29", "9.95", "9.99", "10.49"]
            .map(amount))

        let (low, p995, p999, high) = (try amount("0.29"), try amount("9.95"), try amount("9.99"), try amount("10.49"))

        // Act
        let between = points.neighbours(of: try amount("9.97"))
        let below = points.neighbours(of: try amount("0.19"))
        let above = points.neighbours(of: try amount("20000"))

        // Assert
        #expect(points.amounts == [low, p995, p999, high])
        #expect(points.neighbours(of: p995) == nil)
        #expect(between?.lower == p995 && between?.higher == p999)
        #expect(below?.lower == nil && below?.higher == low)
        #expect(above?.lower == high && above?.higher == nil)
    }

    @Test("the table's date reads in messages, unknown when the input does not say")
    func dated() {
        let table = PricePointTable(points: [:], fetchedOn: CalendarDate(year: 2026, month: 11, day: 20),
                                    location: SourceLocation(path: "asc"))
        #expect(table.dated == "of 2026-11-20")
        #expect(PricePointTable(points: [:], fetchedOn: nil, location: SourceLocation(path: "asc")).dated
            == "of unknown date")
    }
}
