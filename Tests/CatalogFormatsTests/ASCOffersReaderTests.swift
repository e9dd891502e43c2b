import CatalogCore
import CatalogFormats
import Foundation
import TestSupport
import Testing

/// The App Store Connect reader's offers and billing plans (issue 19; FORMATS.md "Offers, purchase options and
/// billing plans"). The fixtures are shaped as OpenAPI 4.4.1 has the responses: `SubscriptionPromotionalOffer`,
/// `SubscriptionOfferCode`, `WinBackOffer`, `InAppPurchaseOfferCode` and their `…Prices`, `SubscriptionPrice`
/// with `planType`.
@Suite("ASC offers")
struct ASCOffersReaderTests {
    private static func options() throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
    }

    private static func read(_ path: String) throws -> Catalog {
        try AppStoreConnectReader().read(contentsOf: Fixtures.url(path), displayPath: path, options: options())
    }

    private static func readError(_ path: String) throws -> CatalogReadError? {
        let options = try options()
        do {
            _ = try AppStoreConnectReader().read(contentsOf: Fixtures.url(path), displayPath: path, options: options)
            return nil
        } catch {
            return error
        }
    }

    private static func money(_ amount: String, _ currency: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
    }

    private static func territory(_ code: String) throws -> Territory { try #require(Territory(code: code)) }

    @Test func readsEveryOfferKindWithItsPricesPerTerritory() throws {
        // Arrange
        let path = "asc/offers/every-kind.json"

        // Act
        let catalog = try Self.read(path)

        // Assert
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(catalog.capabilities.carriesBillingPlans)
        let yearly = try #require(catalog.products.first { $0.id.rawValue == "com.example.pro.yearly" })
        let us = try Self.territory("US"), de = try Self.territory("DE")
        // The expected list is a typed constant: inside `#expect`, with the `#require`s in it, it took the type
        // checker seven seconds.
        let expected: [Offer] = [
            // Offer codes: the name is the ID; the free trial has no prices; `active: false` is its state.
            Offer(kind: .offerCode, id: "Trail Friends",
                  phases: [OfferPhase(mode: .freeTrial, period: try #require(SubscriptionPeriod(iso: "P1M")), periods: 1)],
                  eligibility: OfferEligibility(customers: ["new", "expired"], stackable: true),
                  isActive: false, stateText: "active: false"),
            // Promotional: `offerCode` is the ID; the MONTHLY-plan offer `monthly_plan_promo` is not read.
            Offer(kind: .promotional, id: "spring_promo",
                  phases: [OfferPhase(mode: .payUpFront, period: try #require(SubscriptionPeriod(iso: "P3M")), periods: 1,
                                      prices: [us: try Self.money("29.99", "USD"), de: try Self.money("29.99", "EUR")])],
                  isActive: true),
            // Win-back: a free one's price rows (a territory, no price point) are no prices.
            Offer(kind: .winBack, id: "FREEWEEK",
                  phases: [OfferPhase(mode: .freeTrial, period: try #require(SubscriptionPeriod(iso: "P1W")), periods: 1)],
                  eligibility: OfferEligibility(paidMonths: 1, lapsedMonths: 2...24, waitMonths: 6), isActive: true),
            // Win-back: `periodCount`, not `numberOfPeriods`, counts the periods.
            Offer(kind: .winBack, id: "WINBACK6",
                  phases: [OfferPhase(mode: .payAsYouGo, period: try #require(SubscriptionPeriod(iso: "P1M")), periods: 3,
                                      prices: [us: try Self.money("3.99", "USD")])],
                  eligibility: OfferEligibility(paidMonths: 6, lapsedMonths: 1...12, waitMonths: 3), isActive: true),
        ]
        #expect(yearly.offers?.map(\.unlocated) == expected)
        #expect(catalog.remarks.contains(
            "1 offer(s) for the monthly billing plan (targetSubscriptionPlanType MONTHLY) are not read"))
        // The free win-back offer's rows are not counted as unresolved price rows either way: no remark about them
        // beyond the offer itself.
        let coins = try #require(catalog.products.first { $0.id.rawValue == "com.example.coins.500" })
        #expect(coins.offers?.map(\.unlocated) == [
            Offer(kind: .offerCode, id: "Coins Comeback", phases: [OfferPhase(prices: [us: try Self.money("2.99", "USD")])],
                  eligibility: OfferEligibility(customers: ["churned-spender", "non-spender"]), isActive: true),
        ])
        #expect(coins.billingPlans == nil)
    }

    @Test func monthlyPriceRowsAreTheBillingPlanNotTheSubscriptionsPrice() throws {
        // Act
        let catalog = try Self.read("asc/offers/every-kind.json")

        // Assert
        let yearly = try #require(catalog.products.first { $0.id.rawValue == "com.example.pro.yearly" })
        let us = try Self.territory("US"), de = try Self.territory("DE"), gb = try Self.territory("GB")
        #expect(yearly.prices.mapValues(\.money) == [
            us: try Self.money("59.99", "USD"), de: try Self.money("59.99", "EUR"), gb: try Self.money("54.99", "GBP"),
        ])
        #expect(yearly.billingPlans?.map(\.type) == [.monthly])
        #expect(yearly.billingPlans?.first?.prices == [de: try Self.money("5.49", "EUR"), gb: try Self.money("4.99", "GBP")])
        #expect(yearly.billingPlans?.first?.isEnabled == nil)
        let location = try #require(yearly.billingPlans?.first?.location)
        #expect(location.path == "asc/offers/every-kind.json")
        #expect(location.line != nil)
    }

    @Test func aSnapshotCarriesTheKindsFetchAskedForEvenWithoutAnyOffer() throws {
        // Arrange: fetch asked for every offer kind and for plans; the store had none.
        let folder = "asc/offers/fetched-without-offers"

        // Act
        let catalog = try Self.read(folder)

        // Assert
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(catalog.capabilities.carriesBillingPlans)
        let yearly = try #require(catalog.products.first { $0.id.rawValue == "com.example.pro.yearly" })
        #expect(yearly.offers == [])
        #expect(yearly.billingPlans == [])
        let coins = try #require(catalog.products.first { $0.id.rawValue == "com.example.coins" })
        #expect(coins.offers == [])
        #expect(coins.billingPlans == nil)
    }

    @Test func withoutOffersOrAFetchManifestNoKindIsCarried() throws {
        // Arrange: the same page read alone, without the folder's `.fetch.json`.
        let path = "asc/offers/fetched-without-offers/subscription-group-20000201-subscriptions-0001.json"

        // Act
        let catalog = try Self.read(path)

        // Assert
        #expect(catalog.capabilities.offerKinds == [])
        #expect(!catalog.capabilities.carriesBillingPlans)
        #expect(catalog.products.map(\.offers) == [nil])
        #expect(catalog.products.map(\.billingPlans) == [nil])
    }

    /// The demo plan's App Store Connect side: `catalogs/demo/asc` holds it; `catalogs/demo-drift/asc` lacks the
    /// MONTHLY rows of pro.yearly while its `.fetch.json` says fetch asked for plans.
    @Test func theDemoFoldersHoldTheDemoPlansOffersAndPlans() throws {
        // Act
        let demo = try AppStoreConnectReader().read(contentsOf: Fixtures.catalog("demo/asc"), displayPath: "demo",
                                                    options: Self.options())
        let drift = try AppStoreConnectReader().read(contentsOf: Fixtures.catalog("demo-drift/asc"),
                                                     displayPath: "drift", options: Self.options())

        // Assert
        func product(_ catalog: Catalog, _ suffix: String) throws -> Product {
            try #require(catalog.products.first { $0.id.rawValue == "com.trailmate.app." + suffix })
        }
        let summaries = { (offers: [Offer]?) in
            offers?.map { offer in
                "\(offer.key) \(offer.phases.map(\.summary).joined()) "
                    + offer.phases.flatMap { $0.prices.sorted { $0.key < $1.key }.map { "\($0.key.alpha2) \($0.value)" } }
                        .joined(separator: ", ")
            }
        }
        #expect(demo.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(summaries(try product(demo, "pro.yearly").offers) == [
            "offer-code:Trail Friends free-trial P1M ",
            "promotional:spring_promo pay-up-front P3M DE 29.99 EUR, US 29.99 USD",
            "win-back:WINBACK6 pay-as-you-go P1M×3 US 3.99 USD",
        ])
        #expect(try product(demo, "pro.yearly").offers?.first?.eligibility
                    == OfferEligibility(customers: ["new", "expired"], stackable: false))
        #expect(try product(demo, "pro.yearly").offers?.last?.eligibility
                    == OfferEligibility(paidMonths: 6, lapsedMonths: 1...12, waitMonths: 3))
        #expect(summaries(try product(demo, "plus.monthly").offers) == [
            "promotional:loyal_month pay-as-you-go P1M×2 US 3.49 USD",
        ])
        #expect(summaries(try product(demo, "coins.500").offers) == ["offer-code:Coins Comeback  US 2.99 USD"])
        #expect(try product(demo, "coins.500").offers?.first?.eligibility == OfferEligibility(customers: ["churned-spender"]))
        #expect(try product(demo, "coins.100").offers == [])
        #expect(try product(demo, "pro.yearly").billingPlans?.map(\.prices) == [
            [try Self.territory("DE"): try Self.money("5.49", "EUR"), try Self.territory("GB"): try Self.money("4.99", "GBP")],
        ])
        #expect(try product(demo, "plus.monthly").billingPlans == [])

        #expect(drift.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(drift.capabilities.carriesBillingPlans)
        // The drift folder's monthly plan is the demo's (its GB amount is the config's drift).
        #expect(try product(drift, "pro.yearly").billingPlans?.map(\.prices)
                    == (try product(demo, "pro.yearly").billingPlans?.map(\.prices)))
    }

    /// An offer known only by its linkage (the list of subscriptions included it, the page lost it) leaves the
    /// subscription's offers unknown: never "missing in store" for what the input does not show.
    @Test func anOfferKnownOnlyByReferenceLeavesTheProductsOffersUnknown() throws {
        // Arrange
        let json = """
            {"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "com.example.pro"},
                       "relationships": {"winBackOffers": {"data": [{"type": "winBackOffers", "id": "9"}]}}}]}
            """

        // Act
        let catalog = try AppStoreConnectReader().read(data: Data(json.utf8), displayPath: "inline.json",
                                                       options: Self.options())

        // Assert
        #expect(catalog.capabilities.offerKinds == [.winBack])
        #expect(catalog.products.map(\.offers) == [nil])
        #expect(catalog.remarks == [
            "1 promotional, offer-code or win-back offer(s) are only partly in the input (no attributes, no ID or no "
                + "offerMode/duration); their products' offers are not compared",
        ])
    }

    @Test func anUnknownOfferDurationExits2AtTheValue() throws {
        let error = try #require(try Self.readError("asc/offers/malformed-duration.json"))
        #expect(error.description == """
            asc/offers/malformed-duration.json:9:21: error: subscriptionPromotionalOffers "7000000009" \
            attributes.duration: "SOMETIMES" is not an offer duration (THREE_DAYS … ONE_YEAR)
            """)
    }

    @Test func customerEligibilitiesThatAreNotAnArrayExit2AtTheValue() throws {
        let error = try #require(try Self.readError("asc/offers/malformed-customer-eligibilities.json"))
        #expect(error.description == """
            asc/offers/malformed-customer-eligibilities.json:8:34: error: inAppPurchaseOfferCodes "7300000009" \
            attributes.customerEligibilities: expected an array of strings, found the string "CHURNED_SPENDER"
            """)
    }

    @Test func aLapsedMonthsRangeBackwardsExits2AtTheValue() throws {
        let error = try #require(try Self.readError("asc/offers/malformed-lapsed-months.json"))
        #expect(error.description == """
            asc/offers/malformed-lapsed-months.json:11:63: error: winBackOffers "7200000009" \
            attributes.customerEligibilityTimeSinceLastSubscribedInMonths: minimum 12 and maximum 1 are not a range \
            of months
            """)
    }

    /// An offer price row whose price point the input lacks is a damaged input for every offer kind (issue 25):
    /// exit 2 at the row, never a price dropped with a remark (which let an IAP offer code pass).
    @Test(arguments: [
        ("asc/offers/iap-offer-price-without-point.json", """
            asc/offers/iap-offer-price-without-point.json:60:7: error: inAppPurchaseOfferPrices "7300000001-USA" of \
            inAppPurchaseOfferCodes "7300000001": its price point "7300000001-USA-pp" is not in the input, so the \
            offer's price cannot be read
            """),
        ("asc/offers/promotional-offer-price-without-point.json", """
            asc/offers/promotional-offer-price-without-point.json:422:7: error: subscriptionPromotionalOfferPrices \
            "7000000001-DEU" of subscriptionPromotionalOffers "7000000001": its price point "7000000001-DEU-pp" is \
            not in the input, so the offer's price cannot be read
            """),
    ])
    func anOfferPriceRowWithoutItsPricePointExits2AtTheRow(path: String, message: String) throws {
        let error = try #require(try Self.readError(path))
        #expect(error.description == message)
    }

    /// One resource in two documents is one record (DESIGN.md §5a.5); two documents that disagree about it are a
    /// damaged input: exit 2 naming both places, never the first silently winning (issue 25).
    @Test func oneResourceInTwoDocumentsThatDisagreeExits2NamingBoth() throws {
        let folder = "asc/offers/disagreeing-documents"
        let error = try #require(try Self.readError(folder))
        #expect(error.description == """
            \(folder)/2-promotional-offers.json:10:22: error: subscriptionPromotionalOffers "7000000001" \
            attributes.offerCode is "summer_promo" here and "spring_promo" at \(folder)/1-subscriptions.json:81:22: \
            one resource in two places that disagree is a damaged input
            """)
    }
}
