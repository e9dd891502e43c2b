import Foundation

/// A non-negative `Decimal` whose significand fits in 64 bits, read from the `Decimal`'s own storage: compared
/// without `Decimal`'s arithmetic, which on Linux costs 800 instructions a comparison at equal exponents and
/// 2,400 at different ones (the significands go through variable-length arrays). The offer rules compare 350,000
/// offer prices with regular ones in a catalog of 2,000 products.
///
/// The layout is swift-foundation's (`Sources/FoundationEssentials/Decimal/Decimal.swift`, `Decimal.Storage`):
/// byte 0 the exponent (`Int8`), byte 1 the length in 16-bit words (its high four bits), then the sign (bit 3)
/// and the compact flag (bit 2); bytes 4–19 the significand as eight little-endian 16-bit words, the lowest
/// first. Apple's Foundation lays `NSDecimal` out with bit fields in another order, so the layout is checked
/// once on values made through `Decimal`'s public initializer (`isReadable`); where it differs, or a value is
/// negative, NaN or wider than 64 bits, there is no `WordDecimal` and the caller compares `Decimal`s.
struct WordDecimal {
    let exponent: Int
    let significand: UInt64

    init?(_ decimal: Decimal) {
        guard WordDecimal.isReadable, let read = WordDecimal.read(decimal) else { return nil }
        self = read
    }

    private init(exponent: Int, significand: UInt64) {
        self.exponent = exponent
        self.significand = significand
    }

    /// Whether `self` ≥ `other` × `multiple` (`multiple` ≥ 1); nil when `other` × `multiple` does not fit in 64
    /// bits.
    func isAtLeast(_ other: WordDecimal, times multiple: UInt64) -> Bool? {
        let (scaled, overflow) = other.significand.multipliedReportingOverflow(by: multiple)
        guard !overflow else { return nil }
        let limit = WordDecimal(exponent: other.exponent, significand: scaled)
        return WordDecimal.compare(self, limit) != .orderedAscending
    }

    /// The order of two values: the significand with the larger exponent is scaled down to the other's; one that
    /// outgrows 64 bits on the way is the larger value.
    static func compare(_ lhs: WordDecimal, _ rhs: WordDecimal) -> ComparisonResult {
        guard lhs.exponent != rhs.exponent else { return order(lhs.significand, rhs.significand) }
        let lhsScaled = lhs.exponent > rhs.exponent
        let (larger, smaller) = lhsScaled ? (lhs, rhs) : (rhs, lhs)
        var significand = larger.significand
        for _ in 0..<(larger.exponent - smaller.exponent) {
            let (product, overflow) = significand.multipliedReportingOverflow(by: 10)
            if overflow {
                return lhsScaled ? .orderedDescending : .orderedAscending
            }
            significand = product
        }
        return lhsScaled ? order(significand, smaller.significand) : order(smaller.significand, significand)
    }

    private static func order(_ lhs: UInt64, _ rhs: UInt64) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs > rhs ? .orderedDescending : .orderedSame)
    }

    private static func read(_ decimal: Decimal) -> WordDecimal? {
        guard MemoryLayout<Decimal>.size == 20 else { return nil }
        return withUnsafeBytes(of: decimal) { bytes -> WordDecimal? in
            let flags = bytes[1]
            let length = Int(flags >> 4)
            let negative = flags & 0x08 != 0
            // Length 0 is zero, or NaN when the sign is set.
            guard !negative, length <= 4 else { return nil }
            var significand: UInt64 = 0
            for word in 0..<length {
                let value = UInt64(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 + 2 * word,
                                                                            as: UInt16.self)))
                significand |= value << (16 * word)
            }
            return WordDecimal(exponent: Int(Int8(bitPattern: bytes[0])), significand: significand)
        }
    }

    /// Whether this Foundation's `Decimal` is laid out as `read` reads it: values made through the public
    /// initializer, of one to four words and with both signs, must read back as made (a negative one not at
    /// all).
    static let isReadable: Bool = {
        let samples: [(exponent: Int, significand: UInt64)] = [
            (-2, 999), (0, 0), (-7, 7), (3, 65_537), (-12, 4_294_967_311), (-5, 18_446_744_073_709_551_557),
        ]
        for (exponent, significand) in samples {
            let decimal = Decimal(sign: .plus, exponent: exponent, significand: Decimal(significand))
            // Zero keeps no exponent of its own.
            guard let read = read(decimal), read.significand == significand,
                  significand == 0 || read.exponent == exponent else { return false }
        }
        return read(Decimal(sign: .minus, exponent: -2, significand: Decimal(999))) == nil
    }()
}
