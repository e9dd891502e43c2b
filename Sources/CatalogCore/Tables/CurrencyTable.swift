// PLACEHOLDER — to be replaced by the full ISO 4217 list with its origin documented.
enum CurrencyTable {
    static let iso4217: Set<String> = [
        "USD", "EUR", "GBP", "JPY", "CAD", "AUD", "KRW", "BRL", "MXN", "INR", "CHF",
    ]
}
