import CatalogCore
import Foundation
import Testing

/// One subscription price change between two configs, judged as `diff` judges it (DESIGN.md §2c).
private struct PriceChangeCase {
    var old = "9.99 USD"
    var new = "9.99 USD"
    var territory = "US"
    var period: String? = "P1M"
    var policy: PriceChangePolicy?
    var asOf = "2026-11-22"
    var stores: Set<StoreKind> = [.appStore, .play]
    var recorded: [RecordedPriceChange] = []
    var productStores: Set<StoreKind>?

    static func money(_ text: String) -> Money? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let amount = Money.parseAmount(parts[0]), let currency = CurrencyCode(parts[1])
        else { return nil }
        return Money(amount: amount, currency: currency)
    }

    func product(_ price: String) -> Product {
        var product = Product(id: ProductID("com.x.pro"), kind: .autoRenewable,
                              period: period.flatMap { SubscriptionPeriod(iso: $0) },
                              location: SourceLocation(path: "products.yml", line: 3, column: 3))
        if let territory = Territory(code: territory), let money = Self.money(price) {
            product.prices = [territory: Price(territory: territory, money: money)]
        }
        product.stores = productStores
        return product
    }

    /// The price field's impact in the diff.
    func impact() -> SubscriberImpact? {
        var newProduct = product(new)
        newProduct.priceChange = policy
        let old = Catalog(path: "old.yml", format: .catalog, products: [product(self.old)])
        let new = Catalog(path: "products.yml", format: .catalog, products: [newProduct])
        let context = PriceChangeContext(asOf: CalendarDate(iso: asOf), stores: stores,
                                         recorded: [ProductID("com.x.pro"): recorded])
        let diff = CatalogDiffer(context: context).diff(old: old, new: new)
        return diff.products.first?.fields.first(where: { $0.field == .price })?.subscriberImpact
    }

    func consent() -> Consent? { impact()?.appStore?.consent }
}

private func decision(_ existing: PriceChangeDecision.Existing? = nil, increase: PriceChangeDecision.Increase? = nil,
                      since: String? = nil) -> PriceChangeDecision {
    PriceChangeDecision(existing: existing, increase: increase, since: since.flatMap { CalendarDate(iso: $0) })
}

private func recordedIncrease(on day: String, _ from: String, _ to: String, preserved: Bool?,
                              territory: String = "US") -> RecordedPriceChange? {
    guard let date = CalendarDate(iso: day), let from = PriceChangeCase.money(from),
          let to = PriceChangeCase.money(to), let territory = Territory(code: territory) else { return nil }
    return RecordedPriceChange(territory: territory, date: date, from: from, to: to, preserved: preserved)
}

@Suite("Subscriber impact: Apple's consent rule")
struct SubscriberConsentTests {
    @Test("USD thresholds are exact: above 50 % and above USD 5 per period is required; exactly either is not",
          arguments: [
              // (old, new, period, consent)
              ("4.99 USD", "10.00 USD", "P1M", Consent.required),        // +100.4 %, +5.01
              ("4.99 USD", "9.99 USD", "P1M", .possible),                 // +100.2 %, exactly +5.00
              ("10.00 USD", "15.00 USD", "P1M", .notRequired),            // exactly +50 %, exactly +5.00
              ("12.00 USD", "18.00 USD", "P1M", .possible),               // exactly +50 %, +6.00
              ("10.00 USD", "15.01 USD", "P1M", .required),               // +50.1 %, +5.01
              ("20.00 USD", "29.99 USD", "P1M", .possible),               // +49.95 %, +9.99: amount only
              ("9.99 USD", "12.99 USD", "P1M", .notRequired),             // +30 %, +3.00
              ("99.99 USD", "149.99 USD", "P1Y", .possible),              // +50.005 %, exactly USD 50 a year
              ("99.99 USD", "150.00 USD", "P1Y", .required),              // +50.01 USD a year
              ("100.00 USD", "140.00 USD", "P1Y", .notRequired),          // +40 %, +40 a year
              ("19.99 USD", "49.99 USD", "P1Y", .possible),               // +150 %, +30 < USD 50 a year
              ("1.99 USD", "7.99 USD", "P1W", .required),                 // per period: a week's +6.00
              ("9.99 USD", "15.99 USD", "P3M", .required),                // a quarter's +6.00, +60 %
              ("9.99 USD", "14.99 USD", "P6M", .possible),                // +50.05 %, exactly +5.00 per period
              ("29.99 USD", "46.99 USD", "P2M", .required),               // +56.7 %, +17.00 per period
          ])
    func usdThresholds(old: String, new: String, period: String, consent: Consent) {
        let change = PriceChangeCase(old: old, new: new, period: period)
        #expect(change.consent() == consent)
    }

    @Test("other storefronts: possible only above 50 %, else not required (no table of their thresholds)",
          arguments: [
              ("59.99 EUR", "64.99 EUR", Consent.notRequired),  // +8.3 %
              ("4.99 EUR", "9.99 EUR", .possible),               // +100.2 %
              ("10.00 GBP", "15.00 GBP", .notRequired),          // exactly +50 %
              ("1000 JPY", "1600 JPY", .possible),               // +60 %
          ])
    func otherCurrencies(old: String, new: String, consent: Consent) {
        let change = PriceChangeCase(old: old, new: new, territory: old.hasSuffix("EUR") ? "DE"
            : old.hasSuffix("GBP") ? "GB" : "JP")
        #expect(change.consent() == consent)
        #expect(change.impact()?.appStore?.existing == .undecided)
    }

    @Test("a decrease reaches every existing subscriber: update, n/a, whatever the config decided",
          arguments: [nil, PriceChangePolicy(product: decision(.preserve))])
    func decrease(policy: PriceChangePolicy?) throws {
        let impact = try #require(PriceChangeCase(old: "64.99 EUR", new: "59.99 EUR", territory: "DE",
                                                  policy: policy).impact())
        #expect(impact.direction == .decrease)
        #expect(impact.appStore?.existing == .update)
        #expect(impact.appStore?.consent == .notApplicable)
        #expect(impact.appStore?.summary == "existing pay 59.99 (a decrease always applies)")
        #expect(!impact.mayNeedConsent)
    }

    @Test("a preserved increase: existing subscribers keep their price, no consent")
    func preserve() throws {
        let impact = try #require(PriceChangeCase(old: "59.99 EUR", new: "64.99 EUR", territory: "DE",
                                                  policy: PriceChangePolicy(product: decision(.preserve))).impact())
        #expect(impact.appStore == AppStoreImpact(
            existing: .preserve, consent: .notApplicable,
            reason: "created with preserveCurrentPrice: existing subscribers keep 59.99 EUR; new subscribers pay "
                + "64.99 EUR",
            summary: "existing keep 59.99 (preserve)"))
        #expect(impact.play?.summary == "new purchases only (preserve)")
        #expect(impact.play?.migration == CohortMigration.none)
        #expect(!impact.isUndecided && !impact.mayNeedConsent)
    }

    @Test("an update is judged like an undecided change, and says what subscribers pay")
    func update() throws {
        let impact = try #require(PriceChangeCase(old: "4.99 USD", new: "10.99 USD",
                                                  policy: PriceChangePolicy(product: decision(.update))).impact())
        #expect(impact.appStore?.existing == .update)
        #expect(impact.appStore?.consent == .required)
        #expect(impact.appStore?.summary == "existing pay 10.99 (update; consent required)")
        #expect(impact.appStore?.reason == "existing subscribers pay 10.99 USD: the increase is above 50 % (+120.2%) "
            + "and above USD 5 per period (+6.00 USD per P1M period): Apple asks every existing subscriber to consent, "
            + "and without consent the subscription expires")
    }

    @Test("another currency on one side: unknown")
    func otherCurrency() throws {
        let impact = try #require(PriceChangeCase(old: "9.99 USD", new: "9.99 EUR", territory: "DE").impact())
        #expect(impact.direction == .unknown)
        #expect(impact.appStore?.consent == .unknown)
        #expect(impact.appStore?.existing == .undecided)
    }

    @Test("across a currency changeover the old price counts at the legal rate: 19.99 BGN is 10.22 EUR")
    func changeover() throws {
        // Arrange: 19.99 BGN / 1.95583 = 10.22 EUR; 9.99 EUR is below it.
        let impact = try #require(PriceChangeCase(old: "19.99 BGN", new: "9.99 EUR", territory: "BG").impact())
        // Assert
        #expect(impact.direction == .decrease)
        #expect(impact.appStore?.consent == .notApplicable)
        #expect(impact.appStore?.existing == .update)
    }

    @Test("no period: above USD 50 is required, between USD 5 and 50 possible")
    func noPeriod() {
        #expect(PriceChangeCase(old: "9.99 USD", new: "69.99 USD", period: nil).consent() == .required)
        #expect(PriceChangeCase(old: "9.99 USD", new: "19.99 USD", period: nil).consent() == .possible)
        #expect(PriceChangeCase(old: "2.99 USD", new: "4.99 USD", period: nil).consent() == .possible)
        #expect(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", period: nil).consent() == .notRequired)
    }

    @Test("a second increase within 365 days that App Store Connect recorded unpreserved is required", arguments: [
        // (earlier change's day, preserved, consent) for a small +10 % change taking effect 2026-11-22
        ("2026-05-01", false, Consent.required),
        ("2025-11-23", false, .required),       // 364 days before
        ("2025-11-22", false, .notRequired),    // 365 days before: a year has passed
        ("2025-06-01", false, .notRequired),
        ("2026-05-01", true, .notRequired),     // preserved: existing subscribers did not get it
    ])
    func secondIncrease(day: String, preserved: Bool, consent: Consent) throws {
        let earlier = try #require(recordedIncrease(on: day, "8.99 USD", "9.99 USD", preserved: preserved))
        let change = PriceChangeCase(old: "9.99 USD", new: "10.99 USD", recorded: [earlier])
        #expect(change.consent() == consent)
        if consent == .required {
            #expect(change.impact()?.appStore?.earlierIncrease == earlier)
        }
    }

    @Test("the store's own record of this very change is not an earlier increase; another territory's is none")
    func sameChangeIsNotEarlier() throws {
        let itself = try #require(recordedIncrease(on: "2026-11-01", "9.99 USD", "10.99 USD", preserved: false))
        let elsewhere = try #require(recordedIncrease(on: "2026-06-01", "8.99 GBP", "9.99 GBP", preserved: false,
                                                      territory: "GB"))
        let change = PriceChangeCase(old: "9.99 USD", new: "10.99 USD", recorded: [itself, elsewhere])
        #expect(change.consent() == .notRequired)
        // With an earlier unpreserved increase before it, the record of this change does not hide that one.
        let before = try #require(recordedIncrease(on: "2026-03-01", "8.99 USD", "9.99 USD", preserved: false))
        #expect(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", recorded: [before, itself]).consent() == .required)
    }
}

@Suite("Subscriber impact: decisions")
struct SubscriberDecisionTests {
    @Test("a territory's entry overrides the product's decision; other territories keep the product's")
    func territoryOverrides() throws {
        let territories = try [#require(Territory(code: "DE")): decision(.preserve)]
        let policy = PriceChangePolicy(product: decision(.update), territories: territories)
        #expect(PriceChangeCase(old: "59.99 EUR", new: "64.99 EUR", territory: "DE", policy: policy)
            .impact()?.appStore?.existing == .preserve)
        #expect(PriceChangeCase(old: "59.99 EUR", new: "64.99 EUR", territory: "FR", policy: policy)
            .impact()?.appStore?.existing == .update)
    }

    @Test("an undecided territory under a product-level decision", arguments: [
        // Only DE is decided.
        PriceChangePolicy(territories: [Territory(code: "DE")!: decision(.preserve)]),
        // The product's decision is for a later change.
        PriceChangePolicy(product: decision(.update, since: "2027-01-01")),
        // The product says how to increase on Play, not what existing subscribers get.
        PriceChangePolicy(product: decision(increase: .optOut)),
        // The territory's own `since` retires the product's decision there.
        PriceChangePolicy(product: decision(.update), territories: [Territory(code: "FR")!: decision(since: "2026-12-01")]),
    ])
    func undecidedTerritory(policy: PriceChangePolicy) throws {
        let impact = try #require(PriceChangeCase(old: "59.99 EUR", new: "64.99 EUR", territory: "FR",
                                                  policy: policy).impact())
        #expect(impact.appStore?.existing == .undecided)
        #expect(impact.play?.existing == .undecided)
        #expect(impact.play?.migration == .undecided)
        #expect(impact.isUndecided)
    }

    @Test("a since on or before the change's day covers it; after it, it does not", arguments: [
        ("2026-01-01", ExistingSubscribers.update), ("2026-11-22", .update), ("2026-11-23", .undecided),
    ])
    func since(day: String, existing: ExistingSubscribers) {
        let policy = PriceChangePolicy(product: decision(.update, since: day))
        #expect(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", policy: policy).impact()?.appStore?.existing
            == existing)
    }

    @Test("with no day known, a dated decision covers nothing")
    func noDay() {
        let dated = PriceChangePolicy(product: decision(.update, since: "2020-01-01"))
        #expect(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", policy: dated, asOf: "").impact()?
            .appStore?.existing == .undecided)
        let undated = PriceChangePolicy(product: decision(.update))
        #expect(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", policy: undated, asOf: "").impact()?
            .appStore?.existing == .update)
    }

    @Test("Play: preserve keeps the cohort, update migrates it opt-in unless opt-out, a decrease needs no acceptance",
          arguments: [
              (PriceChangeDecision.Existing.update, PriceChangeDecision.Increase?.none, "64.99 EUR", CohortMigration.optIn,
               "existing after opt-in migration (update)"),
              (.update, .optOut, "64.99 EUR", .optOut, "existing after opt-out migration (update)"),
              (.update, .optIn, "49.99 EUR", .optOut, "existing after migration (update; a decrease needs no acceptance)"),
              (.preserve, .optOut, "64.99 EUR", CohortMigration.none, "new purchases only (preserve)"),
          ])
    func play(existing: PriceChangeDecision.Existing, increase: PriceChangeDecision.Increase?, new: String,
              migration: CohortMigration, summary: String) throws {
        let policy = PriceChangePolicy(product: decision(existing, increase: increase))
        let play = try #require(PriceChangeCase(old: "59.99 EUR", new: new, territory: "DE", policy: policy)
            .impact()?.play)
        #expect(play.migration == migration)
        #expect(play.summary == summary)
        #expect(play.existing == (existing == .preserve ? .preserve : .update))
    }

    @Test("only the stores the run knows, limited to the product's stores")
    func stores() throws {
        let appStoreOnly = try #require(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", stores: [.appStore]).impact())
        #expect(appStoreOnly.appStore != nil && appStoreOnly.play == nil)
        let playProduct = try #require(PriceChangeCase(old: "9.99 USD", new: "10.99 USD",
                                                       productStores: [.play]).impact())
        #expect(playProduct.appStore == nil && playProduct.play != nil)
        #expect(PriceChangeCase(old: "9.99 USD", new: "10.99 USD", stores: [.appStore], productStores: [.play])
            .impact() == nil)
    }
}
