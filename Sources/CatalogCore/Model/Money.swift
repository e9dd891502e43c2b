import Foundation

/// An ISO 4217 currency code such as `USD`.
///
/// Stored as two bytes, the position of the code in `CurrencyTable.codes` (which is sorted): hashed and ordered
/// as a small integer, in the same order as the codes.
public struct CurrencyCode: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position in `CurrencyTable.codes`.
    fileprivate let position: UInt16

    /// Accepts an active ISO 4217 code (upper case); nil for anything else.
    public init?(_ code: some StringProtocol) {
        guard let position = CurrencyCode.position(of: code) else { return nil }
        self.position = position
    }

    /// The same for a `String`, specialized here (as `Territory.init(code:)`: a generic call from another module
    /// is not).
    public init?(_ code: String) {
        guard let position = CurrencyCode.position(of: code) else { return nil }
        self.position = position
    }

    private static func position(of code: some StringProtocol) -> UInt16? {
        LetterCode.position(in: code) { LetterCode.position(of: $0, length: 3, in: CurrencyTable.positionByKey) }
    }

    /// The three upper-case letters.
    public var code: String { CurrencyTable.codes[Int(position)] }

    public var description: String { code }

    public static func < (lhs: CurrencyCode, rhs: CurrencyCode) -> Bool { lhs.position < rhs.position }
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

    /// Canonical text: `9.99 USD`. A catalog repeats a few hundred amounts across 350,000 prices, so each text is
    /// made once (`MoneyTextCache`).
    public var description: String {
        MoneyTextCache.shared.text(of: self) { Money.format(amount, unit: currency.code) }
    }

    /// The amount as plain decimal text (`9.99`, `120`), POSIX style, rounded to 12 decimal places.
    public static func format(_ amount: Decimal) -> String {
        format(amount, unit: nil)
    }

    /// `format(amount)`, followed by a space and `unit` when there is one.
    private static func format(_ amount: Decimal, unit: String?) -> String {
        var value = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &value, 12, .plain)
        if let text = plainText(of: rounded, unit: unit) { return text }
        return unit.map { "\(rounded.description) \($0)" } ?? rounded.description
    }

    /// Below this, a significand's `Double` value proves that it fits in 64 bits (2⁶⁴ ≈ 1.8447 × 10¹⁹, and the
    /// `Double` of a 128-bit significand is off by far less than the margin).
    private static let wordSignificandBound = 1.8e19

    /// The text of a decimal whose significand is below `wordSignificandBound`, from its significand's digits
    /// and its exponent (the same text as `description`), then ` unit`; nil for any other value, which
    /// `description` writes. `Decimal.description` divides the 128-bit mantissa by ten digit by digit, about
    /// 2 µs an amount: the main cost of writing 350,000 prices. The bound is checked on a `Double` because a
    /// `Decimal` comparison costs as much as the rest together, and the text is written in one buffer.
    private static func plainText(of value: Decimal, unit: String?) -> String? {
        guard !value.isNaN else { return nil }
        let exponent = value.isZero ? 0 : value.exponent
        guard (-38...38).contains(exponent) else { return nil }
        let number = NSDecimalNumber(decimal: value.significand)
        guard number.doubleValue < wordSignificandBound else { return nil }
        var significand = value.isZero ? 0 : number.uint64Value
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // up to 20 digits, one per byte, last digit first
        var digitCount = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[digitCount] = UInt8(ascii: "0") + UInt8(significand % 10)
                significand /= 10
                digitCount += 1
            } while significand > 0
        }
        let fractionDigits = max(-exponent, 0)
        let leadingZeros = max(fractionDigits - digitCount + 1, 0)  // `0.00` before 5 in 0.005
        let unitBytes = unit?.utf8.count ?? 0
        let capacity = 1 + leadingZeros + digitCount + 1 + max(exponent, 0) + 1 + unitBytes
        return String(unsafeUninitializedCapacity: capacity) { text in
            var count = 0
            func append(_ byte: UInt8) {
                text[count] = byte
                count += 1
            }
            if value.sign == .minus && !value.isZero { append(UInt8(ascii: "-")) }
            for position in 0..<leadingZeros {
                append(UInt8(ascii: "0"))
                if position == 0 { append(UInt8(ascii: ".")) }
            }
            withUnsafeBytes(of: digits) { buffer in
                for position in stride(from: digitCount - 1, through: 0, by: -1) {
                    if position == fractionDigits - 1 && leadingZeros == 0 { append(UInt8(ascii: ".")) }
                    append(buffer[position])
                }
            }
            for _ in 0..<max(exponent, 0) { append(UInt8(ascii: "0")) }
            if let unit {
                append(UInt8(ascii: " "))
                for byte in unit.utf8 { append(byte) }
            }
            return count
        }
    }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        (lhs.currency, lhs.amount) < (rhs.currency, rhs.amount)
    }

    /// Whether `amount` ≥ `base` × `multiple` (`multiple` ≥ 1), exactly: on the significands when both fit in 64
    /// bits (`WordDecimal`), else in `Decimal`.
    static func amount(_ amount: Decimal, isAtLeast base: Decimal, times multiple: Int) -> Bool {
        if multiple >= 1, let value = WordDecimal(amount), let limit = WordDecimal(base),
           let result = value.isAtLeast(limit, times: UInt64(multiple)) {
            return result
        }
        return amount >= base * Decimal(multiple)
    }

    /// Parses a plain decimal amount: `^[0-9]+(\.[0-9]+)?$` in full, at most 18 integer and 12 fraction
    /// digits. Foundation's `Decimal(string:)` accepts `9.99abc` and `0,99`, so the text is checked first.
    public static func parseAmount(_ text: some StringProtocol) -> Decimal? { amount(of: text) }

    /// The same for a `String`, specialized here (as `Territory.init(code:)`).
    public static func parseAmount(_ text: String) -> Decimal? { amount(of: text) }

    private static func amount(of text: some StringProtocol) -> Decimal? {
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
        // Up to 19 digits in all, the amount is one 64-bit significand (one Decimal, no addition: 20× faster).
        if integerDigits + fractionDigits <= 19 {
            var significand = integer
            for _ in 0..<fractionDigits { significand *= 10 }
            return Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(significand + fraction))
        }
        // Both parts fit in 64 bits (18 and 12 digits); their sum is exact in Decimal's 38 digits.
        return Decimal(integer) + Decimal(sign: .plus, exponent: -fractionDigits, significand: Decimal(fraction))
    }

    /// Converts an integer count of millionths (`990000` → 0.99), as Play writes prices.
    public static func fromMicros(_ micros: Int64) -> Decimal {
        Decimal(sign: micros < 0 ? .minus : .plus, exponent: -6, significand: Decimal(micros.magnitude))
    }

    /// Converts Google's `Money` (`units` + `nanos` billionths): `4` + `990000000` → 4.99.
    public static func fromUnitsAndNanos(units: Int64, nanos: Int32) -> Decimal {
        // Google gives nanos the sign of units. Then, up to 18 billion units, the amount is one 64-bit count of
        // billionths: one Decimal, no Decimal addition (which cost about 5,000 instructions a price).
        if units == 0 || nanos == 0 || (units < 0) == (nanos < 0) {
            let (scaled, scaleOverflow) = units.magnitude.multipliedReportingOverflow(by: 1_000_000_000)
            let (billionths, sumOverflow) = scaled.addingReportingOverflow(UInt64(nanos.magnitude))
            if !scaleOverflow, !sumOverflow {
                return Decimal(sign: units < 0 || nanos < 0 ? .minus : .plus, exponent: -9,
                               significand: Decimal(billionths))
            }
        }
        let whole = Decimal(units)
        let fraction = Decimal(sign: nanos < 0 ? .minus : .plus, exponent: -9, significand: Decimal(nanos.magnitude))
        return whole + fraction
    }
}

/// The texts of amounts already written, keyed by the exact bytes of the amount (and the currency): two amounts with
/// the same bytes have the same text, whatever `Decimal`'s equality says about `9.990` and `9.99`. Direct-mapped and
/// locked: a key has one slot, picked by a multiplicative hash of its bytes, and a new text takes the slot over. A
/// `Dictionary` hashed each key with SipHash: 340 of the 860 instructions a hit cost.
final class MoneyTextCache: @unchecked Sendable {
    static let shared = MoneyTextCache()
    private struct Key: Equatable {
        let low: UInt64, high: UInt64, rest: UInt32
        let currency: CurrencyCode
    }
    private let lock = NSLock()
    private var slots: [(key: Key, text: String)?] = Array(repeating: nil, count: 1 << slotBits)
    private static let slotBits = 12
    private static let keyed = MemoryLayout<Decimal>.size == 20

    func text(of money: Money, making: () -> String) -> String {
        guard Self.keyed else { return making() }
        let key = withUnsafeBytes(of: money.amount) { bytes in
            Key(low: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                high: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                rest: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self), currency: money.currency)
        }
        // Fibonacci hashing of the words folded together: the top bits of the product pick the slot.
        let folded = key.low ^ (key.high &* 0x9E37_79B9) ^ (UInt64(key.rest) << 16 | UInt64(key.currency.position))
        let slot = Int(truncatingIfNeeded: (folded &* 0x9E37_79B9_7F4A_7C15) >> (64 - Self.slotBits))
        if let known = lock.withLock({ slots[slot].flatMap { $0.key == key ? $0.text : nil } }) { return known }
        let text = making()
        lock.withLock { slots[slot] = (key, text) }
        return text
    }
}
