/// A subscription or offer duration, ISO 8601. Normalized so that `P7D` = `P1W` and `P12M` = `P1Y`;
/// `P4W` stays distinct from `P1M` (Play tells four weeks from a month).
public struct SubscriptionPeriod: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The unit of a period.
    public enum Unit: String, CaseIterable, Hashable, Comparable, Sendable {
        case day = "D"
        case week = "W"
        case month = "M"
        case year = "Y"

        /// Days a unit counts for when periods are compared by length (D 1, W 7, M 30, Y 365).
        public var approximateDays: Int {
            switch self {
            case .day: 1
            case .week: 7
            case .month: 30
            case .year: 365
            }
        }

        public static func < (lhs: Unit, rhs: Unit) -> Bool { lhs.approximateDays < rhs.approximateDays }
    }

    /// How many units (≥ 1).
    public let count: Int
    /// The unit.
    public let unit: Unit

    /// Creates a normalized period; nil when `count` is not positive.
    public init?(count: Int, unit: Unit) {
        guard count >= 1, count <= 100_000 else { return nil }
        switch unit {
        case .day where count % 7 == 0:
            self.count = count / 7
            self.unit = .week
        case .month where count % 12 == 0:
            self.count = count / 12
            self.unit = .year
        default:
            self.count = count
            self.unit = unit
        }
    }

    /// Parses ISO 8601 `P<n>D|W|M|Y` (upper case, a single component).
    public init?(iso text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 3, bytes[0] == UInt8(ascii: "P"),
              let unit = Unit(rawValue: String(decoding: bytes[(bytes.count - 1)...], as: UTF8.self)),
              let count = SubscriptionPeriod.digits(bytes[1..<(bytes.count - 1)]) else { return nil }
        self.init(count: count, unit: unit)
    }

    /// Parses the spellings the stores use besides ISO 8601: `ONE_MONTH`, `THREE_DAYS` (App Store Connect),
    /// `1 Month`, `7 Days` (Transporter XML).
    public init?(storeText text: some StringProtocol) {
        let trimmed = String(text).trimmingWhitespace()
        if let iso = SubscriptionPeriod(iso: trimmed) {
            self = iso
            return
        }
        let words = trimmed.uppercased().split(whereSeparator: { $0 == "_" || $0 == " " })
        guard words.count == 2 else { return nil }
        guard let count = SubscriptionPeriod.numberWords[String(words[0])]
                ?? SubscriptionPeriod.digits(Array(words[0].utf8)[...]),
              let unit = SubscriptionPeriod.unitWords[String(words[1])] else { return nil }
        self.init(count: count, unit: unit)
    }

    /// The counts stores spell out (`ONE_MONTH`), upper case.
    private static let numberWords = [
        "ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9, "TEN": 10,
        "ELEVEN": 11, "TWELVE": 12,
    ]
    /// The units of `7 Days`, `1 Month`, `ONE_YEAR`, upper case.
    private static let unitWords: [String: Unit] = [
        "DAY": .day, "DAYS": .day, "WEEK": .week, "WEEKS": .week, "MONTH": .month, "MONTHS": .month, "YEAR": .year,
        "YEARS": .year,
    ]

    /// Length in days for comparing durations (D 1, W 7, M 30, Y 365).
    public var approximateDays: Int { count * unit.approximateDays }

    /// Canonical ISO 8601 text: `P1M`.
    public var description: String { "P\(count)\(unit.rawValue)" }

    public static func < (lhs: SubscriptionPeriod, rhs: SubscriptionPeriod) -> Bool {
        (lhs.approximateDays, lhs.unit, lhs.count) < (rhs.approximateDays, rhs.unit, rhs.count)
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 6 else { return nil }
        var value = 0
        for byte in bytes {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars = scalars.dropFirst() }
        while let last = scalars.last, last.isWhitespace { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
