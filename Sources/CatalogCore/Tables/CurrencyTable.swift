/// ISO 4217 currency codes, the set `CurrencyCode` accepts, in ascending order: a `CurrencyCode` is a position
/// in this list.
///
/// Origin: ISO 4217 "List One" (current currency and fund codes), as transcribed by the Debian `iso-codes`
/// project 4.15.0 (`/usr/share/iso-codes/json/iso_4217.json`), plus the two codes ISO added after that
/// release: `ZWG` (Zimbabwe Gold, 2024) and `XCG` (Caribbean guilder, 2025). Fund codes (`BOV`, `CHE`, `USN`…)
/// and the `X..` codes (metals, `XDR`, `XTS`, `XXX`) are part of List One and are kept.
///
/// A few codes that ISO has since withdrawn are kept on purpose because exports written before the change
/// still carry them: `HRK` (Croatia, euro since 2023-01-01; App Store Connect priced Croatia in HRK
/// before), `BGN` (Bulgaria, euro since 2026-01-01), `SLL` (replaced by `SLE`), `ZWL` (replaced by `ZWG`)
/// and `ANG` (replaced by `XCG`). Accepting them lets an old file be read; it does not make them current
/// store currencies (see `TerritoryTable`).
enum CurrencyTable {
    /// Upper-case three-letter codes, ascending and unique (`CurrencyTableTests` checks it), so positions
    /// order currencies as their codes do.
    static let codes: [String] = [
        "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN", "BAM", "BBD",
        "BDT", "BGN", "BHD", "BIF", "BMD", "BND", "BOB", "BOV", "BRL", "BSD", "BTN", "BWP",
        "BYN", "BZD", "CAD", "CDF", "CHE", "CHF", "CHW", "CLF", "CLP", "CNY", "COP", "COU",
        "CRC", "CUC", "CUP", "CVE", "CZK", "DJF", "DKK", "DOP", "DZD", "EGP", "ERN", "ETB",
        "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD", "GNF", "GTQ", "GYD", "HKD",
        "HNL", "HRK", "HTG", "HUF", "IDR", "ILS", "INR", "IQD", "IRR", "ISK", "JMD", "JOD",
        "JPY", "KES", "KGS", "KHR", "KMF", "KPW", "KRW", "KWD", "KYD", "KZT", "LAK", "LBP",
        "LKR", "LRD", "LSL", "LYD", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU",
        "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO", "NOK", "NPR",
        "NZD", "OMR", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "PYG", "QAR", "RON", "RSD",
        "RUB", "RWF", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP", "SLE", "SLL", "SOS",
        "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS", "TMT", "TND", "TOP", "TRY",
        "TTD", "TWD", "TZS", "UAH", "UGX", "USD", "USN", "UYI", "UYU", "UYW", "UZS", "VED",
        "VES", "VND", "VUV", "WST", "XAF", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XCD",
        "XCG", "XDR", "XOF", "XPD", "XPF", "XPT", "XSU", "XTS", "XUA", "XXX", "YER", "ZAR",
        "ZMW", "ZWG", "ZWL",
    ]

    /// Position + 1 by `LetterCode` key (0: not a code), so a lookup hashes no `String`.
    static let positionByKey = LetterCode.positionTable(of: codes, length: 3)
}
