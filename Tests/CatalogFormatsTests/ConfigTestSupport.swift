import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// Helpers shared by the product config and export tests.
enum ConfigTesting {
    static var options: ReadOptions {
        get throws { ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22))) }
    }

    /// Reads `Tests/Fixtures/<relativePath>` with `displayPath` = the relative path.
    static func read(_ relativePath: String) throws -> Catalog {
        try ProductConfigReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                       options: options)
    }

    /// Reads config text (YAML unless `displayPath` ends in .json or the text starts with `{`).
    static func read(text: String, displayPath: String = "products.yml") throws(CatalogReadError) -> Catalog {
        try ProductConfigReader().read(data: Data(text.utf8), displayPath: displayPath)
    }

    /// The error reading `relativePath` throws, or nil when it reads.
    static func error(reading relativePath: String) -> CatalogReadError? {
        error {
            _ = try ProductConfigReader().read(data: Data(contentsOf: Fixtures.url(relativePath)),
                                               displayPath: relativePath)
        }
    }

    /// The `CatalogReadError` that `read` throws, or nil when it throws nothing; another error is an issue.
    static func error(_ read: () throws -> Void) -> CatalogReadError? {
        do {
            try read()
            return nil
        } catch let error as CatalogReadError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    /// The error reading `text` throws, or nil when it reads.
    static func error(readingText text: String, displayPath: String = "products.yml") -> CatalogReadError? {
        do {
            _ = try read(text: text, displayPath: displayPath)
            return nil
        } catch {
            return error
        }
    }

    static func money(_ amount: String, _ currency: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
    }

    static func territory(_ code: String) throws -> Territory {
        try #require(Territory(code: code))
    }

    static func period(_ text: String) throws -> SubscriptionPeriod {
        try #require(SubscriptionPeriod(iso: text))
    }

    /// A price without a location.
    static func price(_ territory: String, _ amount: String, _ currency: String) throws -> (Territory, Price) {
        let place = try self.territory(territory)
        return (place, Price(territory: place, money: try money(amount, currency)))
    }
}

extension Catalog {
    /// The catalog without where things were read (path and every location), to compare content only.
    func comparableContent() -> Catalog {
        var copy = self
        copy.path = ""
        copy.appIDLocation = nil
        copy.groups = groups.map { SubscriptionGroup(key: $0.key, name: $0.name) }
        copy.products = products.map { $0.comparableContent() }
        return copy
    }
}

extension Product {
    /// The product without locations.
    func comparableContent() -> Product {
        var copy = self
        copy.location = SourceLocation(path: "")
        copy.fieldLocations = [:]
        copy.prices = prices.mapValues { Price(territory: $0.territory, money: $0.money) }
        copy.introOffers = introOffers?.map { offer in
            var offer = offer
            offer.location = nil
            return offer
        }
        copy.offers = offers?.map { offer in
            var offer = offer
            offer.location = nil
            offer.phases = offer.phases.map { phase in
                var phase = phase
                phase.location = nil
                return phase
            }
            return offer
        }
        copy.billingPlans = billingPlans?.map { plan in
            var plan = plan
            plan.location = nil
            return plan
        }
        copy.purchaseOptions = purchaseOptions?.map { option in
            var option = option
            option.location = nil
            return option
        }
        return copy
    }
}
