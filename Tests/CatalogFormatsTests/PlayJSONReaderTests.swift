import CatalogCore
import CatalogFormats
import Foundation
import Testing
import TestSupport

@Suite("PlayJSONReader")
struct PlayJSONReaderTests {
    private let reader = PlayJSONReader()

    private func read(_ relative: String) throws -> Catalog {
        try reader.read(contentsOf: Fixtures.url(relative), displayPath: relative, options: try PlayTest.options())
    }

    private func read(text: String, name: String = "doc.json") throws -> Catalog {
        let url = try PlayTest.temporaryFile(name, text)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try reader.read(contentsOf: url, displayPath: name, options: try PlayTest.options())
    }

    private func error(text: String, name: String = "doc.json") throws -> CatalogReadError {
        try #require(throws: CatalogReadError.self) { try read(text: text, name: name) }
    }

    private func product(_ catalog: Catalog, _ id: String) -> Product? {
        catalog.products.first(where: { $0.id.rawValue == id })
    }

    // MARK: - Subscriptions

    @Test func subscriptionsListGivesOneProductPerBasePlan() throws {
        let catalog = try read("play/api/subscriptions.json")
        #expect(catalog.format == .playJSON)
        #expect(catalog.path == "play/api/subscriptions.json")
        #expect(catalog.appID == "com.example.app")
        #expect(catalog.products.map(\.id.rawValue) == [
            "premium:monthly", "premium:four-weeks", "premium:prepaid-month", "premium:installments-12",
            "pro.tier:annual",
        ])
        #expect(catalog.groups.map(\.key) == ["premium", "pro.tier"])
        #expect(catalog.groups.map(\.name) == ["premium", "pro.tier"])
        #expect(catalog.groups.first?.location == SourceLocation(path: "play/api/subscriptions.json", line: 5, column: 20))
        #expect(catalog.capabilities.expressesGroups == false)
        #expect(catalog.remarks.isEmpty)
        // No offers document in the input: intro offers are unknown, not "none".
        #expect(catalog.products.allSatisfy { $0.introOffers == nil })
        #expect(catalog.products.allSatisfy { $0.referenceName == nil && $0.level == nil })
        #expect(catalog.products.map(\.groupKey) == ["premium", "premium", "premium", "premium", "pro.tier"])
        #expect(catalog.products.map(\.kind) == [.autoRenewable, .autoRenewable, .nonRenewing, .autoRenewable,
                                                 .autoRenewable])
        #expect(catalog.products.map { $0.period?.description } == ["P1M", "P4W", "P1M", "P1M", "P1Y"])
        // ACTIVE → available; DRAFT and INACTIVE → not.
        #expect(catalog.products.map(\.clearedForSale) == [true, false, true, false, true])
    }

    @Test func regionalPricesAreExactMoneyInTheStatedCurrency() throws {
        let catalog = try read("play/api/subscriptions.json")
        let monthly = try #require(product(catalog, "premium:monthly"))
        #expect(PlayTest.priceTexts(monthly) == [
            "US": "4.99 USD", "GB": "3.99 GBP", "DE": "4.99 EUR", "JP": "1200 JPY", "KR": "25000 KRW",
            "ZW": "4.66 USD", "CH": "5.5 CHF",
        ])
        #expect(monthly.prices[try PlayTest.territory("US")]?.money == (try PlayTest.money("4.99", "USD")))
        #expect(monthly.prices[try PlayTest.territory("US")]?.location
                == SourceLocation(path: "play/api/subscriptions.json", line: 27, column: 13))
        #expect(monthly.uncomparedPrices == [
            UncomparedPrice(label: "other-regions", amount: try PlayTest.money("4.99", "USD")),
            UncomparedPrice(label: "other-regions", amount: try PlayTest.money("4.49", "EUR")),
        ])
        #expect(monthly.location == SourceLocation(path: "play/api/subscriptions.json", line: 15, column: 9))
        #expect(monthly.fieldLocations[.id] == SourceLocation(path: "play/api/subscriptions.json", line: 16, column: 25))
        #expect(monthly.fieldLocations[.period]?.line == 19)
        #expect(monthly.fieldLocations[.clearedForSale]?.line == 17)

        let annual = try #require(product(catalog, "pro.tier:annual"))
        // FR lists no price (not offered to new subscribers there): no price for FR.
        #expect(PlayTest.priceTexts(annual) == [
            "US": "49.99 USD", "KR": "65000 KRW", "IN": "4100 INR", "MX": "899 MXN",
        ])
        #expect(annual.uncomparedPrices.isEmpty)
        #expect(PlayTest.priceTexts(product(catalog, "premium:installments-12")) == ["BR": "9.99 BRL"])
        #expect(PlayTest.priceTexts(product(catalog, "premium:prepaid-month")) == ["US": "5.99 USD", "JP": "900 JPY"])
    }

    @Test func legacyMigratedSubscription() throws {
        let catalog = try read("play/legacy-migrated-subscription.json")
        #expect(catalog.appID == "com.example.news")
        #expect(catalog.groups.map(\.key) == ["news.subscription.monthly"])
        #expect(catalog.products.count == 1)
        let plan = try #require(catalog.products.first)
        #expect(plan.id.rawValue == "news.subscription.monthly:p1m")
        #expect(plan.kind == .autoRenewable)
        #expect(plan.period == (try PlayTest.period("P1M")))
        #expect(plan.clearedForSale == true)
        #expect(plan.introOffers == nil)
        #expect(plan.referenceName == nil)
        #expect(plan.prices.count == 16)
        #expect(PlayTest.priceTexts(plan)["JP"] == "1100 JPY")
        #expect(PlayTest.priceTexts(plan)["ZW"] == "4.66 USD")
        #expect(PlayTest.priceTexts(plan)["LU"] == "6.49 EUR")
        #expect(PlayTest.priceTexts(plan)["IN"] == "399 INR")
        #expect(plan.uncomparedPrices.map(\.summary) == ["other-regions 3.49 USD", "other-regions 3.29 EUR"])
    }

    @Test func gradlePlayPublisherFolderSkipsMetadataSidecars() throws {
        let catalog = try read("play/gpp")
        #expect(catalog.path == "play/gpp")
        #expect(catalog.appID == "com.example.game")
        #expect(catalog.products.map(\.id.rawValue) == ["premium_unlock", "vip:weekly"])
        #expect(catalog.groups == [SubscriptionGroup(key: "vip", name: "vip", location: SourceLocation(
            path: "play/gpp/subscriptions/vip.json", line: 3, column: 17))])

        let path = "play/gpp/subscriptions/vip.json"
        let expected = Product(
            id: ProductID("vip:weekly"),
            kind: .autoRenewable,
            groupKey: "vip",
            period: try PlayTest.period("P1W"),
            prices: [try PlayTest.territory("US"): Price(territory: try PlayTest.territory("US"),
                                                         money: try PlayTest.money("1.99", "USD"),
                                                         location: SourceLocation(path: path, line: 10, column: 27))],
            clearedForSale: true,
            location: SourceLocation(path: path, line: 4, column: 19),
            fieldLocations: [
                .id: SourceLocation(path: path, line: 5, column: 20),
                .group: SourceLocation(path: path, line: 3, column: 17),
                .type: SourceLocation(path: path, line: 7, column: 34),
                .period: SourceLocation(path: path, line: 8, column: 33),
                .clearedForSale: SourceLocation(path: path, line: 6, column: 15),
                .price: SourceLocation(path: path, line: 10, column: 27),
            ])
        #expect(catalog.products.last == expected)

        let unlock = try #require(catalog.products.first)
        #expect(unlock.location.path == "play/gpp/products/premium_unlock.json")
        #expect(PlayTest.priceTexts(unlock) == ["US": "4.99 USD", "DE": "5.49 EUR"])
        #expect(unlock.uncomparedPrices == [UncomparedPrice(label: "default", amount: try PlayTest.money("4.99", "USD"))])
    }

    @Test func folderPathsJoinWithoutDoubleSlash() throws {
        let catalog = try reader.read(contentsOf: Fixtures.url("play/gpp"), displayPath: "store/",
                                      options: try PlayTest.options())
        #expect(catalog.products.first?.location.path == "store/products/premium_unlock.json")
    }

    // MARK: - Offers

    @Test func offersBecomeIntroOffersPerRegion() throws {
        let catalog = try read("play/api")
        #expect(catalog.products.map(\.id.rawValue) == [
            // inappproducts.json, offers.json, onetimeproducts.json, subscriptions.json — sorted by path.
            "coins_100", "remove_ads", "legacy_monthly", "gem_pack.large", "starter_pack",
            "premium:monthly", "premium:four-weeks", "premium:prepaid-month", "premium:installments-12",
            "pro.tier:annual",
        ])
        let offers = "play/api/offers.json"
        let monthly = try #require(product(catalog, "premium:monthly"))
        // Each names the Play offer it is the first phase of, so the offer rules do not report it again.
        #expect(monthly.introOffers?.allSatisfy { $0.offer?.kind == .play && $0.offer?.id.isEmpty == false } == true)
        #expect(monthly.introOffers?.map { offer in var offer = offer; offer.offer = nil; return offer } == [
            IntroOffer(mode: .freeTrial, period: try PlayTest.period("P1W"), periods: 1, price: nil,
                       territory: try PlayTest.territory("US"), location: SourceLocation(path: offers, line: 14, column: 13)),
            IntroOffer(mode: .freeTrial, period: try PlayTest.period("P1W"), periods: 1, price: nil,
                       territory: try PlayTest.territory("GB"), location: SourceLocation(path: offers, line: 15, column: 13)),
            // Three recurrences of a price: pay as you go.
            IntroOffer(mode: .payAsYouGo, period: try PlayTest.period("P1M"), periods: 3,
                       price: try PlayTest.money("0.99", "USD"), territory: try PlayTest.territory("US"),
                       location: SourceLocation(path: offers, line: 39, column: 13)),
            // A relative discount depends on Play's proration and rounding: no price.
            IntroOffer(mode: .payAsYouGo, period: try PlayTest.period("P1M"), periods: 3, price: nil,
                       territory: try PlayTest.territory("DE"), location: SourceLocation(path: offers, line: 40, column: 13)),
            // One recurrence of exactly one billing period: pay as you go, one period.
            IntroOffer(mode: .payAsYouGo, period: try PlayTest.period("P1M"), periods: 1, price: nil,
                       territory: try PlayTest.territory("US"), location: SourceLocation(path: offers, line: 59, column: 13)),
        ])
        #expect(monthly.fieldLocations[.introOffer] == SourceLocation(path: offers, line: 3, column: 5))

        // One recurrence of another length (P3M on a yearly plan): a single payment, pay up front. Only the
        // first phase counts.
        let annual = try #require(product(catalog, "pro.tier:annual"))
        #expect(annual.introOffers?.map(\.summary) == ["pay-up-front P3M at 9.99 USD", "pay-up-front P3M at 12000 KRW"])
        #expect(annual.introOffers?.map { $0.territory?.alpha2 } == ["US", "KR"])

        // The input carries offers, so base plans without any have none ([]), not unknown.
        #expect(product(catalog, "premium:four-weeks")?.introOffers == [])
        #expect(product(catalog, "premium:prepaid-month")?.introOffers == [])
        #expect(product(catalog, "premium:installments-12")?.introOffers == [])
        // One-time products never carry intro offers.
        #expect(product(catalog, "coins_100")?.introOffers == nil)
        #expect(product(catalog, "gem_pack.large")?.introOffers == nil)

        #expect(catalog.remarks == [
            "play-json: play/api/offers.json: offer 'orphan' is for base plan 'retired:p1m', which is not in the input",
        ])
    }

    @Test func singleOfferDocumentMarksPlansAsCarryingOffers() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("""
        {"productId": "sub", "basePlans": [
          {"basePlanId": "m", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}},
          {"basePlanId": "y", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1Y"}}]}
        """.utf8).write(to: folder.appendingPathComponent("a-subscription.json"))
        try Data("""
        {"productId": "sub", "basePlanId": "y", "offerId": "trial",
         "phases": [{"duration": "P2W", "recurrenceCount": 1, "regionalConfigs": [{"regionCode": "JP", "free": {}}]}]}
        """.utf8).write(to: folder.appendingPathComponent("b-offer.json"))
        let catalog = try reader.read(contentsOf: folder, displayPath: "in", options: try PlayTest.options())
        #expect(catalog.products.map(\.id.rawValue) == ["sub:m", "sub:y"])
        #expect(catalog.products.first?.introOffers == [])
        #expect(catalog.products.last?.introOffers?.map(\.summary) == ["free-trial P2W"])
        #expect(catalog.products.last?.introOffers?.first?.territory == (try PlayTest.territory("JP")))
        #expect(catalog.products.last?.introOffers?.first?.location?.path == "in/b-offer.json")
    }

    @Test func offersAloneGiveNoProducts() throws {
        let catalog = try read("play/api/offers.json")
        #expect(catalog.products.isEmpty)
        #expect(catalog.remarks.count == 5)  // every active offer; the draft one is left out
    }

    // MARK: - Legacy in-app products and one-time products

    @Test func legacyInAppProducts() throws {
        let catalog = try read("play/api/inappproducts.json")
        #expect(catalog.appID == "com.example.app")
        #expect(catalog.groups.isEmpty)
        #expect(catalog.products.map(\.id.rawValue) == ["coins_100", "remove_ads", "legacy_monthly"])

        let path = "play/api/inappproducts.json"
        let coins = try #require(catalog.products.first)
        #expect(coins.kind == .oneTime)  // managedUser: Play does not say consumable or not
        #expect(coins.clearedForSale == true)
        #expect(coins.period == nil)
        #expect(coins.introOffers == nil)
        #expect(coins.location == SourceLocation(path: path, line: 4, column: 5))
        #expect(PlayTest.priceTexts(coins) == [
            "US": "0.99 USD", "GB": "0.89 GBP", "JP": "160 JPY", "KR": "25000 KRW",
        ])
        #expect(coins.prices[try PlayTest.territory("KR")]?.location == SourceLocation(path: path, line: 14, column: 9))
        #expect(coins.uncomparedPrices == [UncomparedPrice(label: "default", amount: try PlayTest.money("0.99", "USD"))])

        let removeAds = try #require(product(catalog, "remove_ads"))
        #expect(removeAds.clearedForSale == false)
        #expect(removeAds.prices.isEmpty)
        #expect(removeAds.uncomparedPrices.map(\.summary) == ["default 2.99 USD"])

        let legacy = try #require(product(catalog, "legacy_monthly"))
        #expect(legacy.kind == .autoRenewable)
        #expect(legacy.period == (try PlayTest.period("P1M")))
        #expect(legacy.introOffers?.map(\.summary) == ["free-trial P1W"])
        #expect(PlayTest.priceTexts(legacy) == ["US": "1.99 USD"])
    }

    @Test func oneTimeProductsTakePricesFromTheLegacyCompatibleBuyOption() throws {
        let catalog = try read("play/api/onetimeproducts.json")
        #expect(catalog.products.map(\.id.rawValue) == ["gem_pack.large", "starter_pack"])
        let gems = try #require(catalog.products.first)
        #expect(gems.kind == .oneTime)
        #expect(gems.clearedForSale == true)
        #expect(PlayTest.priceTexts(gems) == [
            "US": "9.99 USD", "JP": "1500 JPY", "KR": "13000 KRW", "DE": "9.99 EUR",
        ])
        #expect(gems.uncomparedPrices.map(\.summary) == ["other-regions 9.99 USD", "other-regions 9.49 EUR"])
        #expect(gems.fieldLocations[.price]?.line == 27)

        let starter = try #require(catalog.products.last)
        #expect(starter.clearedForSale == false)  // DRAFT purchase option
        #expect(PlayTest.priceTexts(starter) == ["US": "2.99 USD"])
    }

    @Test func oneTimeProductWithOnlyARentOptionUsesIt() throws {
        let catalog = try read(text: """
        {"productId": "movie", "purchaseOptions": [{"purchaseOptionId": "rent", "state": "ACTIVE",
          "rentOption": {"rentalPeriod": "P2D"},
          "regionalPricingAndAvailabilityConfigs": [{"regionCode": "CA", "availability": "AVAILABLE",
            "price": {"currencyCode": "CAD", "units": "3"}}]}]}
        """)
        #expect(catalog.products.count == 1)
        #expect(PlayTest.priceTexts(catalog.products.first) == ["CA": "3 CAD"])
        #expect(catalog.products.first?.period == nil)
    }

    @Test func emptyListResponsesAndBareResources() throws {
        #expect(try read(text: #"{"kind": "androidpublisher#inappproductsListResponse"}"#).products.isEmpty)
        #expect(try read(text: #"{"subscriptions": []}"#).products.isEmpty)
        let bare = try read(text: #"{"sku": "x"}"#)
        #expect(bare.products.map(\.id.rawValue) == ["x"])
        #expect(bare.products.first?.prices.isEmpty == true)
        #expect(bare.products.first?.clearedForSale == nil)
    }

    // MARK: - Money

    @Test func moneyIsExactFromUnitsNanosAndMicros() throws {
        let catalog = try read(text: """
        {"subscriptions": [{"productId": "s", "basePlans": [{"basePlanId": "b",
          "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"},
          "regionalConfigs": [
            {"regionCode": "US", "price": {"currencyCode": "USD", "units": "4", "nanos": 990000000}},
            {"regionCode": "JP", "price": {"currencyCode": "JPY", "units": "1200"}},
            {"regionCode": "KR", "price": {"currencyCode": "KRW", "units": "25000"}},
            {"regionCode": "IN", "price": {"currencyCode": "INR", "units": 9223372036854775807}},
            {"regionCode": "GB", "price": {"currencyCode": "GBP", "nanos": 10000000}},
            {"regionCode": "DE", "price": {"currencyCode": "EUR", "units": "0", "nanos": "1"}}]}]}],
         "inappproduct": [{"sku": "m", "prices": {
            "US": {"priceMicros": "990000", "currency": "USD"},
            "KR": {"priceMicros": "25000000000", "currency": "KRW"},
            "JP": {"priceMicros": 1, "currency": "JPY"}}}]}
        """)
        #expect(PlayTest.priceTexts(catalog.products.first) == [
            "US": "4.99 USD", "JP": "1200 JPY", "KR": "25000 KRW", "IN": "9223372036854775807 INR",
            "GB": "0.01 GBP", "DE": "0.000000001 EUR",
        ])
        #expect(PlayTest.priceTexts(catalog.products.last) == ["US": "0.99 USD", "KR": "25000 KRW", "JP": "0.000001 JPY"])
        #expect(catalog.products.first?.prices[try PlayTest.territory("US")]?.money.amount
                == Decimal(string: "4.99", locale: Locale(identifier: "en_US_POSIX")))
    }

    @Test(arguments: [
        (#"{"currencyCode": "USD", "units": "4.99"}"#, #"price.units: "4.99" is not a whole, non-negative number of units"#),
        (#"{"currencyCode": "USD", "units": "-1"}"#, #"price.units: "-1" is not a whole, non-negative number"#),
        (#"{"currencyCode": "USD", "units": "9223372036854775808"}"#, #"price.units: "9223372036854775808" is too large"#),
        (#"{"currencyCode": "USD", "units": 1e3}"#, #"price.units: "1e3" is not a whole"#),
        (#"{"currencyCode": "USD", "units": true}"#, "price.units: expected a whole number (a string or a number), found a boolean"),
        (#"{"currencyCode": "USD", "units": "1", "nanos": 1000000000}"#, #"price.nanos: "1000000000" is not a number of nanos"#),
        (#"{"currencyCode": "USD", "units": "1", "nanos": -5}"#, #"price.nanos: "-5" is not a number of nanos"#),
        (#"{"currencyCode": "USD", "units": "1", "nanos": 0.5}"#, #"price.nanos: "0.5" is not a number of nanos"#),
        (#"{"currencyCode": "XYZ", "units": "1"}"#, #"price.currencyCode: "XYZ" is not an ISO 4217 currency code"#),
        (#"{"units": "1"}"#, #"price: missing "currencyCode""#),
        (#""4.99""#, "price: expected an object, found a string"),
    ])
    func badMoneyIsAnErrorNamingTheKeyPath(money: String, message: String) throws {
        let error = try error(text: """
        {"subscriptions": [{"productId": "s", "basePlans": [{"basePlanId": "b",
          "regionalConfigs": [{"regionCode": "US", "price": \(money)}]}]}]}
        """)
        #expect(error.location.path == "doc.json")
        #expect(error.location.line == 2)
        #expect(error.message.hasPrefix("subscriptions[0].basePlans[0].regionalConfigs[0]."))
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test("a list on one line: a column after non-ASCII text counts characters, not bytes")
    func columnAfterNonASCIIText() throws {
        // The title's "é" and "☕" are 2 and 3 bytes: the "1x" is character 178 of the line and byte 181.
        let text = #"{"subscriptions":[{"productId":"s","listings":[{"title":"Prémium ☕"}],"basePlans":"#
            + #"[{"basePlanId":"b","regionalConfigs":[{"regionCode":"US","price":"#
            + #"{"currencyCode":"USD","units":"1x"}}]}]}]}"#

        let error = try error(text: text)

        #expect(error.message.hasSuffix(#"price.units: "1x" is not a whole, non-negative number of units"#),
                "\(error.message)")
        #expect(error.location == SourceLocation(path: "doc.json", line: 1, column: 178), "\(error)")
    }

    @Test(arguments: [
        (#"{"sku": "a", "prices": {"US": {"priceMicros": "0.99", "currency": "USD"}}}"#,
         #"prices.US.priceMicros: "0.99" is not an amount in micros"#),
        (#"{"sku": "a", "prices": {"US": {"priceMicros": "99999999999999999999", "currency": "USD"}}}"#,
         #"prices.US.priceMicros: "99999999999999999999" is too large for an amount in micros"#),
        (#"{"sku": "a", "prices": {"USA": {"priceMicros": "1", "currency": "USD"}}}"#,
         #"prices: "USA" is not an ISO 3166-1 alpha-2 region code"#),
        (#"{"sku": "a", "prices": {"US": {"currency": "USD"}}}"#, #"prices.US: missing "priceMicros""#),
        (#"{"sku": "a", "defaultPrice": {"priceMicros": "1"}}"#, #"defaultPrice: missing "currency""#),
        (#"{"sku": 7}"#, "sku: expected a string, found a number"),
        (#"{"sku": ""}"#, #""sku" is empty"#),
        (#"{"sku": "a", "purchaseType": "subscription", "subscriptionPeriod": "monthly"}"#,
         #"subscriptionPeriod: "monthly" is not an ISO 8601 period"#),
    ])
    func badLegacyProductIsAnError(json: String, message: String) throws {
        let error = try error(text: json)
        #expect(error.location.line == 1)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test(arguments: [
        (#"{"productId": "s", "basePlans": [{"basePlanId": "b", "regionalConfigs": [{"regionCode": "XX", "price": {"currencyCode": "USD", "units": "1"}}]}]}"#,
         #"basePlans[0].regionalConfigs[0].regionCode: "XX" is not an ISO 3166-1 alpha-2 region code"#),
        (#"{"productId": "s", "basePlans": [{"basePlanId": "b", "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "1"}}, {"regionCode": "US", "price": {"currencyCode": "USD", "units": "2"}}]}]}"#,
         #"basePlans[0].regionalConfigs[1].regionCode: region "US" is listed twice"#),
        (#"{"productId": "s", "basePlans": [{"basePlanId": "b", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}, "prepaidBasePlanType": {"billingPeriodDuration": "P1M"}}]}"#,
         #"basePlans[0].prepaidBasePlanType: a base plan has one type"#),
        (#"{"productId": "s", "basePlans": [{"basePlanId": "b", "autoRenewingBasePlanType": {"billingPeriodDuration": "1 month"}}]}"#,
         #"basePlans[0].autoRenewingBasePlanType.billingPeriodDuration: "1 month" is not an ISO 8601 period"#),
        (#"{"productId": "s", "basePlans": [{"state": "ACTIVE"}]}"#, #"basePlans[0]: missing "basePlanId""#),
        (#"{"productId": "s", "basePlans": [{"basePlanId": "b", "regionalConfigs": [{"regionCode": "US", "newSubscriberAvailability": "yes"}]}]}"#,
         "basePlans[0].regionalConfigs[0].newSubscriberAvailability: expected true or false, found a string"),
        (#"{"productId": "s", "basePlans": ["monthly"]}"#, "basePlans[0]: expected an object, found a string"),
        (#"{"productId": "s", "basePlanId": "b", "offerId": "o"}"#, #"an offer has at least one phase; "phases" is missing or empty"#),
        (#"{"productId": "s", "basePlanId": "b", "offerId": "o", "phases": [{"duration": "P1W", "regionalConfigs": [{"regionCode": "US", "free": {}, "price": {"currencyCode": "USD", "units": "1"}}]}]}"#,
         #"phases[0].regionalConfigs[0]: a phase region has exactly one of "free", "price", "relativeDiscount", "absoluteDiscount"; found "free" and "price""#),
        (#"{"productId": "s", "basePlanId": "b", "offerId": "o", "phases": [{"duration": "P1W", "regionalConfigs": [{"regionCode": "US"}]}]}"#,
         "phases[0].regionalConfigs[0]: a phase region has exactly one of"),
        (#"{"productId": "s", "basePlanId": "b", "offerId": "o", "phases": [{"duration": "P1W", "regionalConfigs": [{"regionCode": "US", "relativeDiscount": 1.5}]}]}"#,
         "phases[0].regionalConfigs[0].relativeDiscount: expected a fraction between 0 and 1, found 1.5"),
        (#"{"productId": "s", "basePlanId": "b", "offerId": "o", "phases": [{"duration": "P1W", "recurrenceCount": 0}]}"#,
         #"phases[0].recurrenceCount: "0" is not a whole number between 1 and 2147483647"#),
        (#"{"productId": "s", "basePlanId": "b", "offerId": "o", "phases": [{"recurrenceCount": 1}]}"#,
         #"phases[0]: missing "duration""#),
        (#"{"productId": "p", "purchaseOptions": [{"buyOption": {}, "rentOption": {"rentalPeriod": "P1D"}}]}"#,
         #"purchaseOptions[0]: a purchase option is either "buyOption" or "rentOption", found both"#),
        (#"{"productId": "p", "purchaseOptions": [{"buyOption": {"legacyCompatible": 1}}]}"#,
         "purchaseOptions[0].buyOption.legacyCompatible: expected true or false, found a number"),
    ])
    func badResourceIsAnErrorNamingTheKeyPath(json: String, message: String) throws {
        let error = try error(text: json)
        #expect(error.location.path == "doc.json")
        #expect(error.location.line == 1)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func unknownShapesAreErrors() throws {
        let unknown = try error(text: #"{"products": []}"#)
        #expect(unknown.message.contains("not a Play Developer API catalog resource"))
        #expect(unknown.message.contains(#"found keys "products""#))
        #expect(unknown.location == SourceLocation(path: "doc.json", line: 1, column: 1))

        let array = try error(text: "[]")
        #expect(array.message == "expected a Play Developer API resource (a JSON object), found an array")

        let sidecar = try error(text: #"{"regionsVersion":"2022/02"}"#, name: "vip.metadata.json")
        #expect(sidecar.message.contains("metadata sidecar"))

        let wrongList = try error(text: #"{"subscriptions": {"productId": "s"}}"#)
        #expect(wrongList.message == "subscriptions: expected an array, found an object")
    }

    /// `{}` is how Google writes an empty list, but alone it carries no mark of the format (DESIGN.md §2): read
    /// as an empty catalog, a renamed `{}` would make every config product "missing in store".
    @Test func anEmptyObjectAloneIsNotAPlayDocument() throws {
        // Arrange, Act
        let alone = try error(text: "{}")
        let pagingOnly = try error(text: #"{"nextPageToken": ""}"#)
        // Assert
        let message = "not a Play Developer API resource or list response: the object holds none of Play's keys "
            + "(an empty list needs its \"kind\", e.g. \"androidpublisher#inappproductsListResponse\")"
        #expect(alone.description == "doc.json:1:1: error: " + message)
        #expect(pagingOnly.description == "doc.json:1:1: error: " + message)
    }

    @Test func aFolderReadsEmptyListsBesideAPlayDocumentButNotEmptyObjectsAlone() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("a-offers.json"))
        try Data("{}".utf8).write(to: folder.appendingPathComponent("b-subscriptions.json"))
        // Act
        let emptyOnly = try #require(throws: CatalogReadError.self) {
            try reader.read(contentsOf: folder, displayPath: "play", options: try PlayTest.options())
        }
        try Data(#"{"sku": "coins"}"#.utf8).write(to: folder.appendingPathComponent("c-product.json"))
        let withProduct = try reader.read(contentsOf: folder, displayPath: "play", options: try PlayTest.options())
        // Assert
        #expect(emptyOnly.description == "play: error: not a Play Developer API catalog: none of the 2 .json files "
            + "holds a Play resource, a list of them or a Play \"kind\" (empty objects only)")
        #expect(withProduct.products.map(\.id.rawValue) == ["coins"])
    }

    @Test func emptyFolderAndMissingFileAreErrors() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try #require(throws: CatalogReadError.self) {
            try reader.read(contentsOf: folder, displayPath: "empty", options: try PlayTest.options())
        }
        #expect(empty.description == "empty: error: the folder holds no .json files")

        let missing = try #require(throws: CatalogReadError.self) {
            try reader.read(contentsOf: folder.appendingPathComponent("nope.json"), displayPath: "nope.json",
                            options: try PlayTest.options())
        }
        #expect(missing.location.path == "nope.json")
    }

    // MARK: - Malformed fixtures

    @Test func truncatedFile() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-truncated.json") }
        #expect(error.location == SourceLocation(path: "malformed/play-truncated.json", line: 14, column: 63))
        #expect(error.message.contains("invalid JSON"))
        #expect(error.message.contains("unterminated string"))
    }

    @Test func wrongTypes() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-wrong-types.json") }
        #expect(error.location == SourceLocation(path: "malformed/play-wrong-types.json", line: 11, column: 30))
        #expect(error.message == "subscriptions[0].basePlans[0].regionalConfigs: expected an array, found an object")
    }

    @Test func badMoney() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-bad-money.json") }
        #expect(error.location == SourceLocation(path: "malformed/play-bad-money.json", line: 20, column: 58))
        #expect(error.message
                == #"subscriptions[0].basePlans[0].regionalConfigs[1].price.units: "3.99" is not a whole, non-negative number of units"#)
    }

    // MARK: - Real-world files

    @Test(.enabled(if: RealWorld.isAvailable)) func tripleTProductFixture() throws {
        let catalog = try reader.read(contentsOf: RealWorld.url("google/Triple-T_gradle-play-publisher_product.json"),
                                      displayPath: "product.json", options: try PlayTest.options())
        // No purchaseType: managedUser, Play's default, a one-time product.
        #expect(catalog.products == [Product(id: ProductID("my-sku"), kind: .oneTime,
                                             location: SourceLocation(path: "product.json", line: 1, column: 1),
                                             fieldLocations: [.id: SourceLocation(path: "product.json", line: 2, column: 12)])])
        #expect(catalog.appID == nil)
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func tripleTSubscriptionFixture() throws {
        let catalog = try reader.read(
            contentsOf: RealWorld.url("google/Triple-T_gradle-play-publisher_subscription.json"),
            displayPath: "subscription.json", options: try PlayTest.options())
        // A subscription without base plans: a group, no products.
        #expect(catalog.products.isEmpty)
        #expect(catalog.groups.map(\.key) == ["subscription"])
        #expect(catalog.appID == "my-package")
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func tripleTFixturesInTheirFolderLayout() throws {
        // Lay the three real files out as gradle-play-publisher does, in a temporary folder.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.createDirectory(at: folder.appendingPathComponent("products"), withIntermediateDirectories: true)
        try manager.createDirectory(at: folder.appendingPathComponent("subscriptions"), withIntermediateDirectories: true)
        for (source, target) in [
            ("Triple-T_gradle-play-publisher_product.json", "products/product.json"),
            ("Triple-T_gradle-play-publisher_subscription.json", "subscriptions/subscription.json"),
            ("Triple-T_gradle-play-publisher_subscription.metadata.json", "subscriptions/subscription.metadata.json"),
        ] {
            try manager.copyItem(at: RealWorld.url("google/" + source), to: folder.appendingPathComponent(target))
        }
        let catalog = try reader.read(contentsOf: folder, displayPath: "play", options: try PlayTest.options())
        #expect(catalog.products.map(\.id.rawValue) == ["my-sku"])
        #expect(catalog.products.first?.location.path == "play/products/product.json")
        #expect(catalog.groups.map(\.key) == ["subscription"])
        #expect(catalog.appID == "my-package")

        let sidecar = try #require(throws: CatalogReadError.self) {
            try reader.read(contentsOf: RealWorld.url("google/Triple-T_gradle-play-publisher_subscription.metadata.json"),
                            displayPath: "subscription.metadata.json", options: try PlayTest.options())
        }
        #expect(sidecar.message.contains("metadata sidecar"))
    }

    // MARK: - A list read one resource at a time

    @Test("lists in another order than the reader's are read whole: the products come in the reader's order")
    func listsOutOfOrderAreReadWhole() throws {
        let inAppFirst = """
        {"inappproduct": [{"sku": "m", "prices": {"US": {"priceMicros": "990000", "currency": "USD"}}}],
         "subscriptions": [{"productId": "s", "basePlans": [{"basePlanId": "b",
           "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}, "regionalConfigs": []}]}]}
        """

        let catalog = try read(text: inAppFirst)

        #expect(catalog.products.map(\.id.rawValue) == ["s:b", "m"])
    }

    @Test("a resource of a list read one at a time is named by its key path in errors")
    func streamedResourceErrorsNameTheKeyPath() throws {
        let error = try error(text: """
        {"kind": "androidpublisher#inappproductsListResponse",
         "inappproduct": [{"sku": "a"},
          7]}
        """)

        #expect(error.description == "doc.json:3:3: error: inappproduct[1]: expected an object, found a number")
    }

    @Test("a list that is not an array is the reader's error, as for a document read whole")
    func listThatIsNotAnArray() throws {
        let error = try error(text: #"{"subscriptions": {"productId": "s"}}"#)

        #expect(error.description.hasPrefix("doc.json:1:19: error: subscriptions: expected an array"))
    }
}
