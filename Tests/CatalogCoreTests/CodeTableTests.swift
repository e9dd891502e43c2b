import Testing
@testable import CatalogCore

@Suite("Territory and CurrencyCode as positions in their tables")
struct CodeTableTests {
    @Test("every territory of the table round-trips from alpha-2 and from alpha-3, in both directions")
    func everyTerritoryRoundTrips() throws {
        #expect(TerritoryTable.alpha2Codes.count == 250)
        for (position, alpha2) in TerritoryTable.alpha2Codes.enumerated() {
            let alpha3 = try #require(TerritoryTable.alpha3ByAlpha2[alpha2])
            let fromTwo = try #require(Territory(code: alpha2), "\(alpha2)")
            let fromThree = try #require(Territory(code: Substring(alpha3)), "\(alpha3)")
            #expect(fromTwo == fromThree, "\(alpha2)")
            #expect(fromTwo.alpha2 == alpha2 && fromTwo.alpha3 == alpha3 && fromTwo.description == alpha2)
            #expect(TerritoryTable.alpha3Codes[position] == alpha3)
            #expect(fromTwo.appStoreCurrency?.code == TerritoryTable.appStoreCurrencyByAlpha2[alpha2], "\(alpha2)")
            #expect(fromTwo.playCurrency?.code == TerritoryTable.playCurrencyByAlpha2[alpha2], "\(alpha2)")
        }
    }

    @Test("territories order by alpha-2 code, alpha-3 input included, and hash as equal when equal")
    func territoryOrder() throws {
        let sortedCodes = TerritoryTable.alpha2Codes
        #expect(sortedCodes == sortedCodes.sorted() && Set(sortedCodes).count == sortedCodes.count)
        let territories = try sortedCodes.reversed().map { try #require(Territory(code: $0)) }
        #expect(territories.sorted().map(\.alpha2) == sortedCodes)
        // Alphabetical by alpha-2, not by alpha-3: CH (CHE) < CN (CHN) < CY (CYP) < DE (DEU), but GS is SGS.
        let mixed = try ["SGS", "DEU", "CYP", "CN", "CHE", "GT"].map { try #require(Territory(code: $0)) }
        #expect(mixed.sorted().map(\.alpha2) == ["CH", "CN", "CY", "DE", "GS", "GT"])
        let again = mixed.compactMap { Territory(code: $0.alpha3) }
        #expect(again == mixed && Set(mixed + again).count == 6)
        #expect(Territory.unitedStates.alpha2 == "US" && Territory.unitedStates == Territory(code: "USA"))
    }

    @Test("every ISO 4217 code round-trips, and currencies order by code")
    func everyCurrencyRoundTrips() throws {
        #expect(CurrencyTable.codes.count == 183)
        #expect(CurrencyTable.codes == CurrencyTable.codes.sorted() && Set(CurrencyTable.codes).count == 183)
        let currencies = try CurrencyTable.codes.map { code in
            let currency = try #require(CurrencyCode(code), "\(code)")
            #expect(currency.code == code && currency.description == code)
            #expect(CurrencyCode(Substring(code)) == currency)
            return currency
        }
        #expect(currencies.reversed().sorted() == currencies)
        let euro = try #require(CurrencyCode("EUR"))
        let dollar = try #require(CurrencyCode("USD"))
        #expect(euro < dollar && !(dollar < euro))
    }

    @Test("codes of the wrong shape are neither territories nor currencies", arguments: [
        "", "U", "usd", "Usd", "USDD", "US ", " US", "ÜSD", "U$D", "AAA", "ZZZ", "[[[", "@@",
    ])
    func rejected(code: String) {
        #expect(CurrencyCode(code) == nil)
        #expect(Territory(code: code) == nil)
    }

    @Test("letter keys are base 26, first letter most significant", arguments: [
        ("AA", 2, 0), ("ZZ", 2, 675), ("BA", 2, 26), ("ZZZ", 3, 17_575), ("ZZZ", 2, nil), ("Z", 2, nil),
        ("Az", 2, nil), ("A[", 2, nil),
    ] as [(String, Int, Int?)])
    func letterKeys(code: String, length: Int, key: Int?) {
        let expected = key.map { UInt16($0) }
        #expect(LetterCode.position(in: code) { LetterCode.key($0, length: length).map { UInt16($0) } } == expected)
        #expect(LetterCode.position(in: code.dropFirst(0)) { LetterCode.key($0, length: length).map { UInt16($0) } }
            == expected)
        #expect(LetterCode.slots(length: length) == (length == 2 ? 676 : 17_576))
    }
}
