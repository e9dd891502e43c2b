import Foundation

// PLACEHOLDER — a minimal subset of the legacy App Store USD price tiers, so the config reader builds and its
// tests run. The full table (tiers 0…87, with its origin documented) replaces this file on merge.
/// Legacy App Store price tiers (USD customer prices).
public enum PriceTierTable {
    /// The USD customer price of a legacy tier (0 = free), or nil for a tier outside the table.
    public static func usdPrice(tier: Int) -> Decimal? {
        switch tier {
        case 0: Decimal(0)
        case 1: Decimal(string: "0.99", locale: Locale(identifier: "en_US_POSIX"))
        case 10: Decimal(string: "9.99", locale: Locale(identifier: "en_US_POSIX"))
        case 50: Decimal(string: "49.99", locale: Locale(identifier: "en_US_POSIX"))
        case 87: Decimal(string: "999.99", locale: Locale(identifier: "en_US_POSIX"))
        default: nil
        }
    }
}
