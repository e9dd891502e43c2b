import CatalogCore
import Testing

/// The dated currency table (DESIGN.md §4 "Currencies change").
@Suite("currency changeover table")
struct CurrencyChangeoverTableTests {
    static func money(_ amount: String, _ currency: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
    }

    @Test("Bulgaria and Croatia change to EUR on their days at the legal rates")
    func table() throws {
        let bulgaria = try #require(Territory(code: "BG")).currencyChangeovers
        let croatia = try #require(Territory(code: "HR")).currencyChangeovers
        #expect(bulgaria.map { "\($0.date) \($0.from) \($0.to) \($0.rateText)" } == ["2026-01-01 BGN EUR 1.95583"])
        #expect(croatia.map { "\($0.date) \($0.from) \($0.to) \($0.rateText)" } == ["2023-01-01 HRK EUR 7.53450"])
        #expect(try #require(Territory(code: "DE")).currencyChangeovers.isEmpty)
    }

    @Test("the storefront currency on a day", arguments: [
        ("BG", "2025-12-31", "BGN"), ("BG", "2026-01-01", "EUR"), ("HR", "2022-12-31", "HRK"),
        ("HR", "2023-01-01", "EUR"), ("US", "2020-01-01", "USD"),
    ])
    func currencyOnADay(territory: String, date: String, currency: String) throws {
        let day = try #require(CalendarDate(iso: date))
        #expect(try #require(Territory(code: territory)).appStoreCurrency(on: day)?.code == currency)
    }

    @Test("conversion at the legal rate rounds half up to the cent", arguments: [
        ("19.99", "10.22"), ("100", "51.13"), ("1.95583", "1"), ("0.99", "0.51"),
    ])
    func convert(bgn: String, eur: String) throws {
        let changeover = try #require(Territory(code: "BG")?.currencyChangeovers.first)
        #expect(changeover.convert(try Self.money(bgn, "BGN")) == (try Self.money(eur, "EUR")))
    }

    @Test("days between dates, across months and a leap day")
    func days() throws {
        let a = try #require(CalendarDate(iso: "2025-11-28"))
        #expect(a.days(until: try #require(CalendarDate(iso: "2026-01-01"))) == 34)
        #expect(try #require(CalendarDate(iso: "2024-02-28")).days(until: try #require(CalendarDate(iso: "2024-03-01"))) == 2)
        #expect(try #require(CalendarDate(iso: "2026-01-01")).days(until: a) == -34)
    }
}
