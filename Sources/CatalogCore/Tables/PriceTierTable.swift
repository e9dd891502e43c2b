import Foundation

// PLACEHOLDER — a minimal subset so the Transporter XML reader builds and its tests run; the full table
// (tiers 0…87, with its documented origin) replaces this file on merge. Values from
// realworld/apple/DERIVED_legacy_price_tiers_USD_from_fastlane_pricing_tiers.csv (USD retail).
/// The legacy App Store price tiers as US retail prices in USD.
public enum PriceTierTable {
    /// The US retail price, in USD, of a legacy tier; nil for a tier outside the table.
    public static func usdPrice(tier: Int) -> Decimal? {
        switch tier {
        case 0: Decimal(0)
        case 1: Decimal(string: "0.99", locale: Locale(identifier: "en_US_POSIX"))
        case 2: Decimal(string: "1.99", locale: Locale(identifier: "en_US_POSIX"))
        case 3: Decimal(string: "2.99", locale: Locale(identifier: "en_US_POSIX"))
        case 5: Decimal(string: "4.99", locale: Locale(identifier: "en_US_POSIX"))
        case 9: Decimal(string: "8.99", locale: Locale(identifier: "en_US_POSIX"))
        case 10: Decimal(string: "9.99", locale: Locale(identifier: "en_US_POSIX"))
        case 49: Decimal(string: "48.99", locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }
}
