import Testing
import CatalogCore

@Suite("CalendarDate")
struct CalendarDateTests {
    @Test("parses YYYY-MM-DD")
    func parse() throws {
        let date = try #require(CalendarDate(iso: "2026-11-22"))
        #expect(date.year == 2026)
        #expect(date.month == 11)
        #expect(date.day == 22)
        #expect(date.description == "2026-11-22")
        #expect(date == CalendarDate(year: 2026, month: 11, day: 22))
    }

    @Test("an ISO timestamp is read for its day", arguments: [
        "2024-06-01T00:00:00Z", "2024-06-01T23:59:59.999+14:00", "2024-06-01 12:00:00",
    ])
    func timestampPrefix(text: String) {
        #expect(CalendarDate(iso: text)?.description == "2024-06-01")
    }

    @Test("impossible or malformed dates are rejected", arguments: [
        "2026-02-30", "2023-02-29", "2100-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
        "0000-01-01", "2026-1-5", "20260105", "2026/01/05", "2026-01-05Z", "2026-01-0", "", "abcd-ef-gh",
        " 2026-01-05", "2026-01-05x", "２０２６-01-05", "-2026-01-05",
    ])
    func rejected(text: String) {
        #expect(CalendarDate(iso: text) == nil)
    }

    @Test("leap days")
    func leapDays() {
        #expect(CalendarDate(iso: "2024-02-29") != nil)
        #expect(CalendarDate(iso: "2000-02-29") != nil)
        #expect(CalendarDate(year: 1900, month: 2, day: 29) == nil)
    }

    @Test("dates order chronologically")
    func ordering() throws {
        let texts = ["2026-01-01", "2025-12-31", "2026-01-10", "2024-06-01", "2026-02-01"]
        let dates = texts.compactMap { CalendarDate(iso: $0) }
        #expect(dates.count == texts.count)
        #expect(dates.sorted().map(\.description)
            == ["2024-06-01", "2025-12-31", "2026-01-01", "2026-01-10", "2026-02-01"])
        #expect(try #require(CalendarDate(iso: "2026-01-31")) < #require(CalendarDate(iso: "2026-02-01")))
    }

    @Test("years below 1000 are zero-padded")
    func padding() {
        #expect(CalendarDate(year: 999, month: 1, day: 5)?.description == "0999-01-05")
    }
}
