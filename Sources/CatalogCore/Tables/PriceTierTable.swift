import Foundation

/// The legacy App Store price tiers (before the 2022/2023 price-point system) as US-storefront USD prices.
///
/// A Transporter `metadata.xml` states a `wholesale_price_tier`, not an amount; catalogcheck compares a tier
/// as its USD customer price in the US storefront, never as a bare number (FORMATS.md, "XML tiers").
///
/// Origin: the App Store Connect "pricing matrix" CSV export dated 2019-10-03 (rows `Free`, `Tier 1` …
/// `Tier 87`, column "United States (USD)" / Price), which agrees with fastlane's `pricing_tiers.json`
/// fixture and Unity IAP's `ApplePriceTiers.cs` (FORMATS `formats/google-and-others.md` §4.1); extracted as
/// `apple_usd_price_tiers_legacy.csv`. Non-USD tier prices changed over time and are not kept. The
/// "Alternate Tier" rows of that matrix are not tiers a metadata file can name and are left out.
public enum PriceTierTable {
    /// USD customer prices of tiers 0 (free) … 87, as the decimal text of the export.
    private static let usdPriceTexts: [String] = [
        /*  0 */ "0.00", "0.99", "1.99", "2.99", "3.99", "4.99", "5.99", "6.99", "7.99", "8.99",
        /* 10 */ "9.99", "10.99", "11.99", "12.99", "13.99", "14.99", "15.99", "16.99", "17.99", "18.99",
        /* 20 */ "19.99", "20.99", "21.99", "22.99", "23.99", "24.99", "25.99", "26.99", "27.99", "28.99",
        /* 30 */ "29.99", "30.99", "31.99", "32.99", "33.99", "34.99", "35.99", "36.99", "37.99", "38.99",
        /* 40 */ "39.99", "40.99", "41.99", "42.99", "43.99", "44.99", "45.99", "46.99", "47.99", "48.99",
        /* 50 */ "49.99", "54.99", "59.99", "64.99", "69.99", "74.99", "79.99", "84.99", "89.99", "94.99",
        /* 60 */ "99.99", "109.99", "119.99", "124.99", "129.99", "139.99", "149.99", "159.99", "169.99", "174.99",
        /* 70 */ "179.99", "189.99", "199.99", "209.99", "219.99", "229.99", "239.99", "249.99", "299.99", "349.99",
        /* 80 */ "399.99", "449.99", "499.99", "599.99", "699.99", "799.99", "899.99", "999.99",
    ]

    /// The parsed prices, index = tier. Every literal above is a plain decimal, so none is dropped.
    private static let usdPrices: [Decimal] = usdPriceTexts.compactMap { Money.parseAmount($0) }

    /// The highest legacy tier.
    public static let highestTier = 87

    /// The US-storefront USD customer price of a legacy tier: 0 → 0 (free), 1 → 0.99, 87 → 999.99;
    /// nil for a tier outside 0…87.
    public static func usdPrice(tier: Int) -> Decimal? {
        guard tier >= 0, tier < usdPrices.count else { return nil }
        return usdPrices[tier]
    }

    /// The legacy tier whose USD price is `amount`, if any (the inverse of `usdPrice(tier:)`).
    public static func tier(forUSD amount: Decimal) -> Int? {
        usdPrices.firstIndex(of: amount)
    }
}
