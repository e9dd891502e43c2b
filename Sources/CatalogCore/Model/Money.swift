import Foundation

/// An ISO 4217 currency code such as `USD`.
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The three upper-case letters.
    public let code: String

    /// Accepts an active ISO 4217 code (upper case); nil for anything else.
    public init?(_ code: some StringProtocol) {
        let text = String(code)
        guard CurrencyTable.iso4217.contains(text) else { return nil }
        self.code = text
    }

    public var description: String { code }

    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.code < rhs.code }
}

/// An exact amount of money in one currency. Amounts are `Decimal`, never floating point.
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The amount, scale-normalized (`9.990` equals `9.99`).
    public var amount: Decimal
    /// The currency the amount is in.
    public var currency: CurrencyCode

    /// Creates a money value.
    public init(amount: Decimal, currency: CurrencyCode) {
        self.amount = amount
        self.currency = currency
    }

    /// Canonical text: `9.99 USD`.
    public var description: String { "\(Money.format(amount)) \(currency.code)" }

    /// The amount as plain decimal text (`9.99`, `120`), POSIX style.
    public static func format(_ amount: Decimal) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 12, .plain)
        return rounded.description
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        (lhs.currency, lhs.amount) < (rhs.currency, rhs.amount)
    }

    /// Parses a plain decimal amount: `^[0-9]+(\.[0-9]+)?$` in full, at most 18 integer and 12 fraction
    /// digits. Foundation's `Decimal(string:)` accepts `9.99abc` and `0,99`, so the text is checked first.
    public static func parseAmount(_ text: some StringProtocol) -> Decimal? {
        var integerDigits = 0
        var fractionDigits = 0
        var seenPoint = false
        var integer: UInt64 = 0
        var fraction: UInt64 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = UInt64(byte - UInt8(ascii: "0"))
                if seenPoint {
                    fractionDigits += 1
                    guard fractionDigits <= 12 else { return nil }
                    fraction = fraction * 10 + digit
                } else {
                    integerDigits += 1
                    guard integerDigits <= 18 else { return nil }
                    integer = integer * 10 + digit
                }
            case UInt8(ascii: ".") where !seenPoint && integerDigits > 0:
                seenPoint = true
            default:
                return nil
            }
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { return nil }
        // Both parts fit in 64 bits (18 and 12 digits); their sum is exact in Decimal's 38 digits.
        return Decimal(integer) + Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(fraction))
    }

    /// Converts an integer count of millionths (`990000` → 0.99), as Play writes prices.
    public static func fromMicros(_ micros: Int64) -> Decimal {
        Decimal(sign: micros < 0 ? .minus : .plus, exponent: -6, significand: Decimal(micros.magnitude))
    }

    /// Converts Google's `Money` (`units` + `nanos` billionths): `4` + `990000000` → 4.99.
    public static func fromUnitsAndNanos(units: Int64, nanos: Int32) -> Decimal {
        let whole = Decimal(units)
        let fraction = Decimal(sign: nanos < 0 ? .minus : .plus, exponent: -9, significand: Decimal(nanos.magnitude))
        return whole + fraction
    }
}
