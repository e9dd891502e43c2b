/// A country or region, ISO 3166-1. Shown as alpha-2; alpha-3 (App Store storefronts) is accepted.
///
/// Stored as two bytes, the position of its alpha-2 code in `TerritoryTable.alpha2Codes` (which is sorted), so
/// a catalog's 350,000 prices are keyed, hashed and ordered by a small integer rather than by a `String`.
public struct Territory: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The position in `TerritoryTable.alpha2Codes`.
    fileprivate let position: UInt16

    /// Accepts an ISO 3166-1 alpha-2 or alpha-3 code in upper case; nil for anything else.
    public init?(code: some StringProtocol) {
        guard let position = Territory.position(of: code) else { return nil }
        self.position = position
    }

    /// The same for a `String`, the readers' usual case: a generic call from another module is not specialized
    /// (it reads the bytes through witness tables, seven times the instructions), and a config or a snapshot reads
    /// a code per price.
    public init?(code: String) {
        guard let position = Territory.position(of: code) else { return nil }
        self.position = position
    }

    private static func position(of code: some StringProtocol) -> UInt16? {
        LetterCode.position(in: code) { bytes in
            LetterCode.position(of: bytes, length: 2, in: TerritoryTable.positionByAlpha2Key)
                ?? LetterCode.position(of: bytes, length: 3, in: TerritoryTable.positionByAlpha3Key)
        }
    }

    private init(position: UInt16) {
        self.position = position
    }

    /// The United States, the default base territory. (`US` is in the table, so the fallback is never taken.)
    public static let unitedStates = Territory(code: "US") ?? Territory(position: 0)

    /// The alpha-2 code, e.g. `US`.
    public var alpha2: String { TerritoryTable.alpha2Codes[Int(position)] }

    /// The alpha-3 code, e.g. `USA`.
    public var alpha3: String { TerritoryTable.alpha3Codes[Int(position)] }

    /// The currency the App Store prices this storefront in (several storefronts are priced in USD).
    public var appStoreCurrency: CurrencyCode? { TerritoryTable.appStoreCurrencies[Int(position)] }

    /// The currency Google Play prices this region in.
    public var playCurrency: CurrencyCode? { TerritoryTable.playCurrencies[Int(position)] }

    public var description: String { alpha2 }

    public static func < (lhs: Territory, rhs: Territory) -> Bool { lhs.position < rhs.position }
}

/// A set of territories as a bit per territory: adding one and asking for one cost a shift, not a hash, for a
/// reader's check that no territory of a 175-territory price map is listed twice (a config of 2,000 products
/// makes 800,000 such checks).
public struct TerritoryBits: Sendable {
    private var words = [UInt64](repeating: 0, count: (TerritoryTable.alpha2Codes.count + 63) / 64)

    /// An empty set.
    public init() {}

    /// Adds `territory`.
    public mutating func insert(_ territory: Territory) {
        let position = Int(territory.position)
        words[position / 64] |= 1 << UInt64(position % 64)
    }

    /// Whether `territory` is in the set.
    public func contains(_ territory: Territory) -> Bool {
        let position = Int(territory.position)
        return words[position / 64] & (1 << UInt64(position % 64)) != 0
    }
}
