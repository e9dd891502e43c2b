import Foundation
import Testing
@testable import CatalogCore
import TestSupport

@Suite("Amounts compared on their 64-bit significands")
struct WordDecimalTests {
    private func amount(_ text: String) throws -> Decimal {
        try #require(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")))
    }

    #if os(Linux)
    @Test("swift-foundation's Decimal is read from its storage: the fast comparison is the one these tests run")
    func readable() throws {
        #expect(WordDecimal.isReadable)
        let read = try #require(WordDecimal(try amount("1234.5678")))
        #expect(read.significand == 12_345_678)
        #expect(read.exponent == -4)
        let wide = try #require(WordDecimal(Decimal(sign: .plus, exponent: -3, significand: Decimal(UInt64.max))))
        #expect(wide.significand == UInt64.max)
        #expect(wide.exponent == -3)
    }
    #endif

    @Test("negative, NaN and wider than 64 bits: not read")
    func unreadable() throws {
        #expect(WordDecimal(try amount("-9.99")) == nil)
        #expect(WordDecimal(Decimal.nan) == nil)
        #expect(WordDecimal(try amount("18446744073709551616")) == nil)  // 2⁶⁴
    }

    @Test("amount ≥ base × multiple, against Decimal's own arithmetic", arguments: [
        ("9.99", "9.99", 1, true), ("9.98", "9.99", 1, false), ("10", "9.99", 1, true), ("9.990", "9.99", 1, true),
        ("9.989", "9.99", 1, false), ("5", "4.99", 1, true), ("4.99", "5", 1, false), ("0", "0", 1, true),
        ("0", "0.01", 1, false), ("11.88", "0.99", 12, true), ("11.87", "0.99", 12, false),
        ("1188e-2", "0.99", 12, true), ("99.99", "9.99", 10, true), ("99.89", "9.99", 10, false),
        // A significand that outgrows 64 bits when scaled to the other's exponent, on either side.
        ("18446744073709551615", "0.000000001", 1, true), ("0.000000001", "18446744073709551615", 1, false),
        ("1e30", "18446744073709551615", 1, true),
        // base × multiple past 64 bits, and values past 64 bits or negative: Decimal decides.
        ("18446744073709551615", "18446744073709551615", 2, false),
        ("36893488147419103230", "18446744073709551615", 2, true),
        ("-1", "-2", 1, true), ("-2", "-1", 1, false), ("0", "-1", 1, true),
    ] as [(String, String, Int, Bool)])
    func isAtLeast(amount text: String, base baseText: String, multiple: Int, expected: Bool) throws {
        let value = try amount(text)
        let base = try amount(baseText)
        let oracle = value >= base * Decimal(multiple)

        let result = Money.amount(value, isAtLeast: base, times: multiple)

        #expect(result == expected)
        #expect(result == oracle)
    }

    @Test("400 generated amounts, half of them another's value at another scale: each pair orders as in Decimal")
    func agreesWithDecimal() throws {
        var random = SeededGenerator(seed: 30)
        var amounts: [Decimal] = []
        for _ in 0..<200 {
            let exponent = Int(random.next() % 19) - 12
            let significand = random.next() % 3 == 0 ? random.next() : random.next() % 100_000
            amounts.append(Decimal(sign: .plus, exponent: exponent, significand: Decimal(significand)))
            let (tenfold, overflow) = significand.multipliedReportingOverflow(by: 10)
            amounts.append(overflow ? amounts[amounts.count - 1]
                : Decimal(sign: .plus, exponent: exponent - 1, significand: Decimal(tenfold)))
        }
        var disagreements: [String] = []
        var equalPairs = 0
        for lhs in amounts {
            for rhs in amounts {
                let expected = lhs >= rhs
                if expected && rhs >= lhs { equalPairs += 1 }
                if Money.amount(lhs, isAtLeast: rhs, times: 1) != expected { disagreements.append("\(lhs) ≥ \(rhs)") }
            }
        }
        #expect(disagreements.isEmpty)
        #expect(equalPairs >= 800)  // each amount with itself and its twin, both ways
    }
}
