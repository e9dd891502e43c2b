import Testing
@testable import CatalogCore

@Suite("Territory and its tables")
struct TerritoryTests {
    @Test("every ISO 3166-1 code round-trips between alpha-2 and alpha-3")
    func roundTrips() throws {
        for (alpha2, alpha3) in TerritoryTable.alpha3ByAlpha2 {
            let fromTwo = try #require(Territory(code: alpha2), "\(alpha2)")
            let fromThree = try #require(Territory(code: alpha3), "\(alpha3)")
            #expect(fromTwo == fromThree)
            #expect(fromTwo.alpha2 == alpha2)
            #expect(fromTwo.alpha3 == alpha3)
            #expect(fromThree.description == alpha2)
        }
    }

    @Test("249 officially assigned codes plus Kosovo, without duplicate alpha-3 codes")
    func counts() {
        #expect(TerritoryTable.alpha3ByAlpha2.count == 250)
        #expect(Set(TerritoryTable.alpha3ByAlpha2.values).count == 250)
        #expect(TerritoryTable.alpha3ByAlpha2["XK"] == "XKS")
        #expect(Territory(code: "XKS")?.alpha2 == "XK")
    }

    @Test("codes are two or three upper-case ASCII letters")
    func codeShapes() {
        for (alpha2, alpha3) in TerritoryTable.alpha3ByAlpha2 {
            #expect(alpha2.utf8.count == 2 && alpha2.utf8.allSatisfy { (65...90).contains($0) }, "\(alpha2)")
            #expect(alpha3.utf8.count == 3 && alpha3.utf8.allSatisfy { (65...90).contains($0) }, "\(alpha3)")
        }
    }

    @Test("the 175 App Store storefronts are territories priced in ISO 4217 currencies")
    func appStoreStorefronts() throws {
        #expect(TerritoryTable.appStoreCurrencyByAlpha2.count == 175)
        for (alpha2, currency) in TerritoryTable.appStoreCurrencyByAlpha2 {
            let territory = try #require(Territory(code: alpha2), "\(alpha2)")
            #expect(territory.appStoreCurrency == CurrencyCode(currency), "\(alpha2) \(currency)")
            #expect(CurrencyCode(currency) != nil, "\(alpha2) \(currency)")
        }
    }

    @Test("every Play region is a territory priced in an ISO 4217 currency")
    func playRegions() throws {
        for (alpha2, currency) in TerritoryTable.playCurrencyByAlpha2 {
            let territory = try #require(Territory(code: alpha2), "\(alpha2)")
            #expect(territory.playCurrency?.code == currency, "\(alpha2) \(currency)")
        }
    }

    @Test("alpha-3 spot values")
    func alpha3SpotValues() {
        #expect(Territory(code: "USA")?.alpha2 == "US")
        #expect(Territory(code: "GBR")?.alpha2 == "GB")
        #expect(Territory(code: "DEU")?.alpha2 == "DE")
        #expect(Territory(code: "CHE")?.alpha2 == "CH")
        #expect(Territory(code: "ZWE")?.alpha2 == "ZW")
        #expect(Territory.unitedStates.alpha3 == "USA")
    }

    @Test("App Store currency spot values", arguments: [
        ("US", "USD"), ("ZW", "USD"), ("DE", "EUR"), ("JP", "JPY"), ("GB", "GBP"), ("CN", "CNY"), ("IN", "INR"),
        ("BR", "BRL"), ("MX", "MXN"), ("CL", "CLP"), ("CO", "COP"), ("PE", "PEN"), ("ZA", "ZAR"), ("NG", "NGN"),
        ("EG", "EGP"), ("TZ", "TZS"), ("KZ", "KZT"), ("RU", "RUB"), ("TR", "TRY"), ("IL", "ILS"), ("SA", "SAR"),
        ("AE", "AED"), ("QA", "QAR"), ("PK", "PKR"), ("ID", "IDR"), ("MY", "MYR"), ("PH", "PHP"), ("TH", "THB"),
        ("VN", "VND"), ("KR", "KRW"), ("TW", "TWD"), ("HK", "HKD"), ("SG", "SGD"), ("AU", "AUD"), ("NZ", "NZD"),
        ("CA", "CAD"), ("CH", "CHF"), ("NO", "NOK"), ("SE", "SEK"), ("DK", "DKK"), ("PL", "PLN"), ("CZ", "CZK"),
        ("HU", "HUF"), ("RO", "RON"), ("BG", "EUR"), ("HR", "EUR"), ("XK", "EUR"), ("LU", "EUR"), ("AR", "USD"),
    ])
    func appStoreCurrencies(alpha2: String, currency: String) {
        #expect(Territory(code: alpha2)?.appStoreCurrency?.code == currency)
    }

    @Test("territories without a storefront have no App Store currency")
    func noStorefront() {
        #expect(Territory(code: "AQ")?.appStoreCurrency == nil)
        #expect(Territory(code: "KP")?.appStoreCurrency == nil)
    }

    @Test("Play currency spot values")
    func playCurrencies() {
        #expect(Territory(code: "US")?.playCurrency?.code == "USD")
        #expect(Territory(code: "ZW")?.playCurrency?.code == "USD")
        #expect(Territory(code: "DE")?.playCurrency?.code == "EUR")
        #expect(Territory(code: "GB")?.playCurrency?.code == "GBP")
        #expect(Territory(code: "JP")?.playCurrency?.code == "JPY")
    }

    @Test("unknown or lower-case codes are rejected", arguments: [
        "XX", "usa", "us", "Us", "", "U", "USAA", "XXX", " US", "US ", "ÜS",
    ])
    func rejected(code: String) {
        #expect(Territory(code: code) == nil)
    }

    @Test("territories order by alpha-2")
    func ordering() throws {
        let codes = ["US", "DE", "JP", "AU"].compactMap { Territory(code: $0) }
        #expect(codes.sorted().map(\.alpha2) == ["AU", "DE", "JP", "US"])
    }

    @Test("a set of territories holds each territory it was given, and only those, in every word of its bits")
    func territoryBits() throws {
        // Arrange: the first and last codes of the table, and codes on either side of the 64-bit boundaries.
        let codes = TerritoryTable.alpha2Codes
        let chosen = Set([0, 63, 64, 127, 128, 191, 192, codes.count - 1].map { codes[$0] })
        var bits = TerritoryBits()

        // Act
        for code in chosen {
            bits.insert(try #require(Territory(code: code)))
        }

        // Assert
        for code in codes {
            #expect(bits.contains(try #require(Territory(code: code))) == chosen.contains(code), "\(code)")
        }
    }
}
