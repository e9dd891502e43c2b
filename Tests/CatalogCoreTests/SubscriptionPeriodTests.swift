import Testing
import CatalogCore

@Suite("SubscriptionPeriod")
struct SubscriptionPeriodTests {
    private func iso(_ text: String) throws -> SubscriptionPeriod {
        try #require(SubscriptionPeriod(iso: text), "\(text)")
    }

    @Test("equal lengths normalize: P7D = P1W, P14D = P2W, P12M = P1Y, P24M = P2Y")
    func normalization() throws {
        #expect(try iso("P7D") == iso("P1W"))
        #expect(try iso("P14D") == iso("P2W"))
        #expect(try iso("P12M") == iso("P1Y"))
        #expect(try iso("P24M") == iso("P2Y"))
        #expect(try iso("P7D").description == "P1W")
        #expect(try iso("P12M").description == "P1Y")
        #expect(Set([try iso("P7D"), try iso("P1W")]).count == 1)
    }

    @Test("four weeks is not a month, and days stay days")
    func distinct() throws {
        #expect(try iso("P4W") != iso("P1M"))
        #expect(try iso("P28D") == iso("P4W"))
        #expect(try iso("P30D") != iso("P1M"))
        #expect(try iso("P3D").description == "P3D")
        #expect(try iso("P6M").description == "P6M")
    }

    @Test("store spellings", arguments: [
        ("ONE_MONTH", "P1M"), ("THREE_DAYS", "P3D"), ("ONE_WEEK", "P1W"), ("TWO_WEEKS", "P2W"),
        ("SIX_MONTHS", "P6M"), ("ONE_YEAR", "P1Y"), ("1 Month", "P1M"), ("7 Days", "P1W"), ("1 Year", "P1Y"),
        ("6 Months", "P6M"), ("3 Days", "P3D"), ("2 Months", "P2M"), ("P1M", "P1M"), (" 1 Week ", "P1W"),
    ])
    func storeText(text: String, expected: String) throws {
        let period = try #require(SubscriptionPeriod(storeText: text))
        #expect(period.description == expected)
    }

    @Test("invalid ISO periods", arguments: [
        "P0M", "P1X", "PM", "1M", "P", "", "p1m", "P1m", "P-1M", "P1Y2M", "P1.5M", "PT1H", "P1234567D", " P1M",
    ])
    func invalidISO(text: String) {
        #expect(SubscriptionPeriod(iso: text) == nil)
    }

    @Test("invalid store spellings", arguments: ["ZERO_MONTHS", "0 Months", "ONE", "1 Fortnight", "ONE_MONTH_X", ""])
    func invalidStoreText(text: String) {
        #expect(SubscriptionPeriod(storeText: text) == nil)
    }

    @Test("count must be positive")
    func counts() {
        #expect(SubscriptionPeriod(count: 0, unit: .month) == nil)
        #expect(SubscriptionPeriod(count: -1, unit: .day) == nil)
        #expect(SubscriptionPeriod(count: 3, unit: .month)?.description == "P3M")
    }

    @Test("ordering and approximate length")
    func ordering() throws {
        let periods = try ["P1Y", "P3D", "P1M", "P1W", "P4W", "P6M"].map(iso)
        #expect(periods.sorted().map(\.description) == ["P3D", "P1W", "P4W", "P1M", "P6M", "P1Y"])
        #expect(try iso("P1M").approximateDays == 30)
        #expect(try iso("P2W").approximateDays == 14)
        #expect(try iso("P1Y").approximateDays == 365)
    }
}
