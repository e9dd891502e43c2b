/// A country or region, ISO 3166-1. Stored and shown as alpha-2; alpha-3 (App Store storefronts) is accepted.
public struct Territory: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The alpha-2 code, e.g. `US`.
    public let alpha2: String

    /// Accepts an ISO 3166-1 alpha-2 or alpha-3 code in upper case; nil for anything else.
    public init?(code: some StringProtocol) {
        let text = String(code)
        switch text.utf8.count {
        case 2 where TerritoryTable.alpha3ByAlpha2[text] != nil:
            alpha2 = text
        case 3:
            guard let two = TerritoryTable.alpha2ByAlpha3[text] else { return nil }
            alpha2 = two
        default:
            return nil
        }
    }

    /// The United States, the default base territory.
    public static let unitedStates = Territory(uncheckedAlpha2: "US")

    private init(uncheckedAlpha2: String) {
        alpha2 = uncheckedAlpha2
    }

    /// The alpha-3 code, e.g. `USA`.
    public var alpha3: String { TerritoryTable.alpha3ByAlpha2[alpha2] ?? alpha2 }

    /// The currency the App Store prices this storefront in (several storefronts are priced in USD).
    public var appStoreCurrency: CurrencyCode? {
        TerritoryTable.appStoreCurrencyByAlpha2[alpha2].flatMap { CurrencyCode($0) }
    }

    /// The currency Google Play prices this region in.
    public var playCurrency: CurrencyCode? {
        TerritoryTable.playCurrencyByAlpha2[alpha2].flatMap { CurrencyCode($0) }
    }

    public var description: String { alpha2 }

    public static func < (lhs: Territory, rhs: Territory) -> Bool { lhs.alpha2 < rhs.alpha2 }
}
