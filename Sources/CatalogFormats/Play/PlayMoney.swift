import CatalogCore
import Foundation

/// The two money encodings of Google Play, read exactly (never through `Double`):
/// - micros, an integer count of millionths (`"990000"` = 0.99), used by the legacy `Price`
///   (`{"priceMicros": "990000", "currency": "USD"}`) and by the Play Console CSV;
/// - Google's `Money` (`{"currencyCode": "USD", "units": "4", "nanos": 990000000}` = 4.99), used by the
///   monetization API.
enum PlayMoney {
    /// Why a micros or units text is not acceptable.
    enum IntegerProblem: Error {
        /// Not a plain, unsigned run of digits.
        case notAnInteger
        /// More than an `Int64` can hold.
        case tooLarge
    }

    /// Reads an unsigned integer that must fit in `Int64`: digits only, no sign, no spaces, no exponent.
    static func unsignedInt64(_ text: some StringProtocol) -> Result<Int64, IntegerProblem> {
        guard !text.isEmpty else { return .failure(.notAnInteger) }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return .failure(.notAnInteger) }
            let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (next, overflow2) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            if overflow1 || overflow2 { return .failure(.tooLarge) }
            value = next
        }
        return .success(value)
    }

    /// Converts micros text (`"25000000000"`) to an exact amount (25000), or explains why it cannot.
    static func amount(micros text: some StringProtocol) -> Result<Decimal, IntegerProblem> {
        unsignedInt64(text).map { Money.fromMicros($0) }
    }

    /// A message for a micros text that could not be read, naming the value.
    static func describe(_ problem: IntegerProblem, micros text: String) -> String {
        switch problem {
        case .notAnInteger: "\"\(text)\" is not an amount in micros (a whole number of millionths)"
        case .tooLarge: "\"\(text)\" is too large for an amount in micros"
        }
    }
}

extension JSONAccess {
    /// Reads a Google `Money` object: `currencyCode` (required, ISO 4217), `units` (int64 as a string or a
    /// number, absent = 0) and `nanos` (int32, absent = 0). Negative amounts are not prices and are rejected.
    func money(_ node: JSONNode) throws(CatalogReadError) -> Money {
        try requireObject(node)
        let currencyNode = try requireString("currencyCode", in: node)
        guard let currency = CurrencyCode(currencyNode.text) else {
            throw error("\"\(currencyNode.text)\" is not an ISO 4217 currency code", at: currencyNode.node)
        }
        var units: Int64 = 0
        if let unitsNode = member("units", in: node) {
            let text: String
            if let string = unitsNode.value.string {
                text = string
            } else if let number = unitsNode.value.numberText {
                text = number
            } else {
                throw error("expected a whole number (a string or a number), found \(describe(unitsNode.value))",
                            at: unitsNode)
            }
            switch PlayMoney.unsignedInt64(text) {
            case .success(let value): units = value
            case .failure(.notAnInteger):
                throw error("\"\(text)\" is not a whole, non-negative number of units", at: unitsNode)
            case .failure(.tooLarge):
                throw error("\"\(text)\" is too large for units (int64)", at: unitsNode)
            }
        }
        var nanos: Int32 = 0
        if let nanosNode = member("nanos", in: node) {
            let text: String
            if let number = nanosNode.value.numberText {
                text = number
            } else if let string = nanosNode.value.string {
                text = string
            } else {
                throw error("expected a whole number, found \(describe(nanosNode.value))", at: nanosNode)
            }
            guard case .success(let value) = PlayMoney.unsignedInt64(text), value <= 999_999_999 else {
                throw error("\"\(text)\" is not a number of nanos between 0 and 999999999", at: nanosNode)
            }
            nanos = Int32(value)
        }
        return Money(amount: Money.fromUnitsAndNanos(units: units, nanos: nanos), currency: currency)
    }

    /// Reads a legacy in-app product `Price`: `{"priceMicros": "990000", "currency": "USD"}`.
    func legacyPrice(_ node: JSONNode) throws(CatalogReadError) -> Money {
        try requireObject(node)
        let currencyNode = try requireString("currency", in: node)
        guard let currency = CurrencyCode(currencyNode.text) else {
            throw error("\"\(currencyNode.text)\" is not an ISO 4217 currency code", at: currencyNode.node)
        }
        guard let microsNode = member("priceMicros", in: node) else {
            throw error("missing \"priceMicros\"", at: node)
        }
        let text: String
        if let string = microsNode.value.string {
            text = string
        } else if let number = microsNode.value.numberText {
            text = number
        } else {
            throw error("expected a whole number of micros, found \(describe(microsNode.value))", at: microsNode)
        }
        switch PlayMoney.amount(micros: text) {
        case .success(let amount): return Money(amount: amount, currency: currency)
        case .failure(let problem): throw error(PlayMoney.describe(problem, micros: text), at: microsNode)
        }
    }
}
