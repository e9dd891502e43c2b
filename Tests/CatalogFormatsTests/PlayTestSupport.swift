import CatalogCore
import CatalogFormats
import Foundation
import Testing
import TestSupport

/// Small builders shared by the Play reader tests.
enum PlayTest {
    /// The options every test reads with (the date does not matter to Play readers).
    static func options(playCurrency: String? = nil) throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)),
                       playCurrency: try playCurrency.map { try #require(CurrencyCode($0)) })
    }

    /// An exact amount in a currency, from decimal text.
    static func money(_ amount: String, _ currency: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
    }

    /// A territory from its alpha-2 code.
    static func territory(_ code: String) throws -> Territory {
        try #require(Territory(code: code))
    }

    /// A period from ISO text.
    static func period(_ text: String) throws -> SubscriptionPeriod {
        try #require(SubscriptionPeriod(iso: text))
    }

    /// Prices reduced to `territory → "amount CUR"` text, for compact assertions.
    static func priceTexts(_ product: Product?) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (product?.prices ?? [:]).map { ($0.key.alpha2, $0.value.money.description) })
    }

    /// Writes `text` to `name` in a fresh temporary folder and returns the file URL.
    static func temporaryFile(_ name: String, _ text: String) throws -> URL {
        let url = try Fixtures.temporaryFolder().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }
}
