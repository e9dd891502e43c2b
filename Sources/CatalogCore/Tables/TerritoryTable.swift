// PLACEHOLDER — to be replaced by the full tables (ISO 3166-1, App Store storefront currencies, Play region
// currencies) with their origin documented.
enum TerritoryTable {
    static let alpha3ByAlpha2: [String: String] = [
        "US": "USA", "GB": "GBR", "DE": "DEU", "FR": "FRA", "JP": "JPN", "CA": "CAN", "AU": "AUS", "ES": "ESP",
        "IT": "ITA", "KR": "KOR", "BR": "BRA", "MX": "MEX", "IN": "IND", "CH": "CHE", "ZW": "ZWE", "LU": "LUX",
    ]
    static let alpha2ByAlpha3: [String: String] = Dictionary(
        uniqueKeysWithValues: alpha3ByAlpha2.map { ($0.value, $0.key) })
    static let appStoreCurrencyByAlpha2: [String: String] = [
        "US": "USD", "GB": "GBP", "DE": "EUR", "FR": "EUR", "JP": "JPY", "CA": "CAD", "AU": "AUD", "ES": "EUR",
        "IT": "EUR", "KR": "KRW", "BR": "BRL", "MX": "MXN", "IN": "INR", "CH": "CHF", "ZW": "USD", "LU": "EUR",
    ]
    static let playCurrencyByAlpha2: [String: String] = appStoreCurrencyByAlpha2
}
