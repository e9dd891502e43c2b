import Foundation
import Testing
import CatalogCore
import TestSupport

@Suite("Money and CurrencyCode")
struct MoneyTests {
    private func usd(_ text: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(text)), currency: try #require(CurrencyCode("USD")))
    }

    @Test("plain decimal amounts parse exactly", arguments: [
        ("9.99", "9.99"), ("29", "29"), ("0.0", "0"), ("499.0", "499"), ("0.7", "0.7"), ("0", "0"),
        ("1234.5678", "1234.5678"), ("123456789012345678", "123456789012345678"), ("0.000000000001", "0.000000000001"),
    ])
    func accepts(text: String, canonical: String) throws {
        let amount = try #require(Money.parseAmount(text))
        #expect(Money.format(amount) == canonical)
    }

    @Test("parsing is exact, not floating point")
    func exact() throws {
        let a = try #require(Money.parseAmount("0.1"))
        let b = try #require(Money.parseAmount("0.2"))
        #expect(a + b == Money.parseAmount("0.3"))
        #expect(Money.parseAmount("9.99") == Decimal(sign: .plus, exponent: -2, significand: 999))
    }

    @Test("parsing and writing agree with Foundation's Decimal on 20,000 generated amounts, sums and quotients")
    func agreesWithFoundation() throws {
        var random = SeededGenerator(seed: 2026)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(random.next() % 10)) })
        }
        for _ in 0..<10_000 {
            // Arrange: an amount of 1–18 integer and 0–12 fraction digits, and a computed value from it.
            let integerCount = Int(random.next() % 18) + 1
            let fractionCount = Int(random.next() % 13)
            let text = digits(integerCount) + (fractionCount > 0 ? "." + digits(fractionCount) : "")
            let reference = try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
            let divisor = Decimal(Int(random.next() % 997) + 1)
            let computed = [reference / divisor, Decimal(0) - reference, reference * Decimal(sign: .plus, exponent: -7, significand: 3)]
            // Act
            let parsed = try #require(Money.parseAmount(text))
            // Assert
            #expect(parsed == reference, "\(text)")
            #expect(Money.format(parsed) == Self.referenceText(reference), "\(text)")
            for value in computed {
                #expect(Money.format(value) == Self.referenceText(value), "\(text) → \(value)")
            }
        }
    }

    @Test("writing agrees with Foundation at the edges: significands around 2⁶⁴, long runs of zeros, signs, units")
    func writesEdgeValues() throws {
        let significands: [Decimal] = [
            0, 1, 9, 10, 999, Decimal(UInt64(1) << 53) + 1, Decimal(UInt64(17_999_999_999_999_999_999)),
            Decimal(UInt64(18_000_000_000_000_000_001)), Decimal(UInt64.max) - 1,
            Decimal(UInt64.max), Decimal(UInt64.max) + 1, Decimal(UInt64.max) * 1000 + 7,
        ]
        let dollar = try #require(CurrencyCode("USD"))
        for significand in significands {
            for exponent in [-38, -13, -12, -11, -2, -1, 0, 1, 5, 38] {
                for sign in [FloatingPointSign.plus, .minus] {
                    let value = Decimal(sign: sign, exponent: exponent, significand: significand)
                    #expect(Money.format(value) == Self.referenceText(value), "\(value)")
                    #expect(Money(amount: value, currency: dollar).description == Self.referenceText(value) + " USD")
                }
            }
        }
    }

    @Test("each amount's text is made once and kept by its exact bytes: equal amounts written differently, and one amount in two currencies, keep their own texts")
    func textsAreKeptByBytes() throws {
        // Arrange: 9.99 as 999 × 10⁻² and as 9990 × 10⁻³ (equal as Decimals), in dollars and euros.
        let dollar = try #require(CurrencyCode("USD")), euro = try #require(CurrencyCode("EUR"))
        let short = Decimal(sign: .plus, exponent: -2, significand: 999)
        let long = Decimal(sign: .plus, exponent: -3, significand: 9990)
        let amounts = [(short, dollar), (long, dollar), (short, euro), (long, euro)]

        // Act: each written three times, interleaved, so the later ones come from the cache.
        let texts = (0..<3).flatMap { _ in amounts.map { Money(amount: $0.0, currency: $0.1).description } }

        // Assert: every text is what formatting that value writes, the first time and from the cache.
        let expected = amounts.map { Money.format($0.0) + " " + $0.1.code }
        #expect(texts == expected + expected + expected)
        #expect(Set(expected).count == (Money.format(short) == Money.format(long) ? 2 : 4))
    }

    /// What `Money.format` wrote before its fast path: the value rounded to 12 places, then `description`.
    private static func referenceText(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 12, .plain)
        return rounded.description
    }

    @Test("anything but a plain decimal is rejected", arguments: [
        "0,99", "9.99abc", "-1", "+1", "1e3", "1E3", ".5", "5.", "", " 9.99", "9.99 ", "9..99", "9.9.9", "$9.99",
        "1,000", "0x10", "NaN", "inf", "٣", "１", "1234567890123456789", "99999999999999999999999",
        "0.0000000000001",
    ])
    func rejects(text: String) {
        #expect(Money.parseAmount(text) == nil)
    }

    @Test("scale does not matter: 9.99 equals 9.990, also as a set or dictionary key")
    func equalityIgnoresScale() throws {
        let short = try usd("9.99")
        let long = try usd("9.990")
        #expect(short == long)
        #expect(short.hashValue == long.hashValue)
        #expect(Set([short, long]).count == 1)
        #expect(long.description == "9.99 USD")
        #expect(try usd("499.0") == usd("499"))
    }

    @Test("micros: 990000 → 0.99, and values past Int32")
    func micros() {
        #expect(Money.fromMicros(990_000) == Money.parseAmount("0.99"))
        #expect(Money.fromMicros(0) == 0)
        #expect(Money.fromMicros(25_000_000_000) == 25_000)
        #expect(Money.fromMicros(1) == Money.parseAmount("0.000001"))
        #expect(Money.format(Money.fromMicros(Int64.max)) == "9223372036854.775807")
    }

    @Test("units and nanos")
    func unitsAndNanos() {
        #expect(Money.fromUnitsAndNanos(units: 4, nanos: 990_000_000) == Money.parseAmount("4.99"))
        #expect(Money.fromUnitsAndNanos(units: 120, nanos: 0) == 120)
        #expect(Money.fromUnitsAndNanos(units: 25_000, nanos: 0) == 25_000)
        #expect(Money.fromUnitsAndNanos(units: 3_000_000_000, nanos: 500_000_000) == Money.parseAmount("3000000000.5"))
        #expect(Money.fromUnitsAndNanos(units: 0, nanos: 1) == Money.parseAmount("0.000000001"))
    }

    @Test("units and nanos agree with Decimal addition, with either sign, past 18 billion units, and as text")
    func unitsAndNanosAgreeWithAddition() {
        var random = SeededGenerator(seed: 4)
        let edges: [Int64] = [0, 1, -1, 4, -4, 120, 18_000_000_000, 18_446_744_073, 18_446_744_074, -18_446_744_074,
                              Int64.max, Int64.min]
        let units = edges + (0..<200).map { _ in Int64(bitPattern: random.next()) >> (random.next() % 63) }
        let nanos: [Int32] = [0, 1, -1, 990_000_000, -990_000_000, 999_999_999, -999_999_999, 709_551_615, 709_551_616]
        for unit in units {
            for nano in nanos {
                let sum = Decimal(unit) + Decimal(sign: nano < 0 ? .minus : .plus, exponent: -9,
                                                  significand: Decimal(nano.magnitude))
                let converted = Money.fromUnitsAndNanos(units: unit, nanos: nano)
                #expect(converted == sum, "\(unit) \(nano)")
                #expect(Money.format(converted) == Money.format(sum), "\(unit) \(nano)")
            }
        }
    }

    @Test("canonical text")
    func description() throws {
        let jpy = try #require(CurrencyCode("JPY"))
        let krw = try #require(CurrencyCode("KRW"))
        #expect(try usd("9.99").description == "9.99 USD")
        #expect(Money(amount: 120, currency: jpy).description == "120 JPY")
        #expect(Money(amount: Money.fromUnitsAndNanos(units: 25_000, nanos: 0), currency: krw).description
            == "25000 KRW")
        #expect(Money(amount: 0, currency: jpy).description == "0 JPY")
    }

    @Test("the cache of texts gives each amount its own text, with more amounts than slots and slots shared")
    func textCacheKeepsAmountsApart() throws {
        var random = SeededGenerator(seed: 12)
        let currencies = try ["USD", "EUR", "JPY"].map { try #require(CurrencyCode($0)) }
        // 3 × 6,000 amounts against 4,096 slots: slots are shared and taken over; each text is asked for twice.
        let amounts = (0..<6_000).map { _ in
            Decimal(sign: .plus, exponent: -2, significand: Decimal(random.next() % 1_000_000))
        }
        for _ in 0..<2 {
            for amount in amounts {
                for currency in currencies {
                    #expect(Money(amount: amount, currency: currency).description
                            == "\(Money.format(amount)) \(currency.code)")
                }
            }
        }
    }

    @Test("money orders by currency, then amount")
    func ordering() throws {
        let eur = try #require(CurrencyCode("EUR"))
        let values = [try usd("9.99"), Money(amount: 5, currency: eur), try usd("0.99")]
        #expect(values.sorted().map(\.description) == ["5 EUR", "0.99 USD", "9.99 USD"])
    }

    @Test("currency codes: active ISO 4217 upper case only", arguments: ["USD", "EUR", "JPY", "KRW", "CLP", "XOF"])
    func currencyAccepted(code: String) {
        #expect(CurrencyCode(code)?.code == code)
        #expect(CurrencyCode(code)?.description == code)
    }

    @Test("currency codes: anything else is rejected", arguments: ["usd", "US", "USDD", "", "ABC", "US$", " USD"])
    func currencyRejected(code: String) {
        #expect(CurrencyCode(code) == nil)
    }
}
