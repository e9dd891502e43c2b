import CatalogCore
import CatalogFormats
import Foundation
import TestSupport
import Testing

private typealias Location = CatalogCore.SourceLocation

/// 2026-11-22: the day the fixtures' price histories are read at.
private func ascOptions() throws -> ReadOptions {
    ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
}

private func readASC(_ relativePath: String, asOf: ReadOptions? = nil) throws -> Catalog {
    try AppStoreConnectReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                     options: asOf ?? ascOptions())
}

private func ascError(_ relativePath: String) throws -> CatalogReadError? {
    let options = try ascOptions()
    do {
        _ = try AppStoreConnectReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                             options: options)
        return nil
    } catch {
        return error
    }
}

private func ascError(json: String) throws -> CatalogReadError? {
    let options = try ascOptions()
    do {
        _ = try AppStoreConnectReader().read(data: Data(json.utf8), displayPath: "inline.json", options: options)
        return nil
    } catch {
        return error
    }
}

/// The product with every location reduced to its file, so whole values compare; exact lines are asserted
/// separately.
private func fileOnly(_ product: Product) -> Product {
    var copy = product
    copy.location = Location(path: product.location.path)
    copy.fieldLocations = [:]
    // The recorded price changes have their own test, line for line (PriceChangeConfigTests).
    copy.recordedPriceChanges = []
    // Manual or automatic: `EqualizedPriceTests` reads them from schedules that state both.
    copy.priceOrigins = [:]
    copy.prices = product.prices.mapValues {
        Price(territory: $0.territory, money: $0.money, location: $0.location.map { Location(path: $0.path) })
    }
    copy.introOffers = product.introOffers?.map {
        var offer = $0
        offer.location = $0.location.map { Location(path: $0.path) }
        return offer
    }
    copy.billingPlans = product.billingPlans?.map {
        var plan = $0
        plan.location = $0.location.map { Location(path: $0.path) }
        return plan
    }
    return copy
}

private func money(_ amount: String, _ currency: String) throws -> Money {
    Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
}

private func period(_ text: String) throws -> SubscriptionPeriod {
    try #require(SubscriptionPeriod(storeText: text))
}

private func territory(_ code: String) throws -> Territory {
    try #require(Territory(code: code))
}

private func date(_ text: String) throws -> CalendarDate {
    try #require(CalendarDate(iso: text))
}

/// Prices keyed by territory, each read in `file`.
private func prices(_ entries: [(String, String, String)], file: String) throws -> [Territory: Price] {
    var result: [Territory: Price] = [:]
    for (code, amount, currency) in entries {
        let place = try territory(code)
        result[place] = Price(territory: place, money: try money(amount, currency), location: Location(path: file))
    }
    return result
}

@Suite("AppStoreConnectReader")
struct AppStoreConnectReaderTests {
    static let folder = "asc/app-folder"
    static func file(_ name: String) -> String { "\(folder)/\(name)" }

    @Test func readsAFolderOfDocuments() throws {
        let catalog = try readASC(Self.folder)
        let groupsFile = Self.file("01-subscription-groups.json")
        let subPrices = Self.file("02-subscription-6400000001-prices.json")
        let offersFile = Self.file("04-subscription-6400000001-introductoryOffers.json")
        let iapFile = Self.file("05-in-app-purchases.json")
        let manualFile = Self.file("06-iap-6500000001-manualPrices.json")
        let automaticFile = Self.file("07-iap-6500000001-automaticPrices.json")

        #expect(catalog.path == Self.folder)
        #expect(catalog.format == .ascJSON)
        // MONTHLY price rows: the input carries billing plans.
        #expect(catalog.capabilities == CatalogCapabilities(expressesGroups: true, carriesBillingPlans: true))
        #expect(catalog.remarks.isEmpty)
        #expect(catalog.groups == [
            SubscriptionGroup(key: "20000001", name: "Premium", location: Location(path: groupsFile, line: 3, column: 5)),
            SubscriptionGroup(key: "20000002", name: "Archive", location: Location(path: groupsFile, line: 31, column: 5)),
        ])

        var expected: [Product] = [
            // null 29.99 and 2024-06-01 39.99 → 39.99; DE's row dated on the as-of day applies; GB's row has no
            // planType; MONTHLY rows are never prices; the 2027 row is scheduled.
            Product(id: ProductID("com.example.premium.yearly"), kind: .autoRenewable, referenceName: "Premium Yearly",
                    groupKey: "20000001", level: 1, period: try period("P1Y"), familyShareable: true,
                    introOffers: [
                        IntroOffer(mode: .freeTrial, period: try period("P1W"), periods: 1,
                                   territory: try territory("US"), location: Location(path: offersFile)),
                        IntroOffer(mode: .payAsYouGo, period: try period("P1M"), periods: 3,
                                   price: try money("1.99", "GBP"), territory: try territory("GB"),
                                   location: Location(path: offersFile)),
                    ],
                    prices: try prices([("US", "39.99", "USD"), ("GB", "34.99", "GBP"), ("DE", "44.99", "EUR")],
                                       file: subPrices),
                    uncomparedPrices: [UncomparedPrice(label: "scheduled", territory: try territory("US"),
                                                       amount: try money("44.99", "USD"),
                                                       startDate: try date("2027-01-01"))],
                    clearedForSale: true, location: Location(path: groupsFile)),
            // Single-object `data` under links.self; CAN is in no territories resource → App Store currency.
            Product(id: ProductID("com.example.premium.monthly"), kind: .autoRenewable,
                    referenceName: "Premium Monthly", groupKey: "20000001", level: 2, period: try period("P1M"),
                    familyShareable: false, introOffers: [],
                    prices: try prices([("CA", "12.99", "CAD")], file: Self.file("03-subscription-6400000002-prices.json")),
                    location: Location(path: groupsFile)),
            // No offers in the input → nil; removed from sale → not cleared.
            Product(id: ProductID("com.example.basic.weekly"), kind: .autoRenewable, referenceName: "Basic Weekly",
                    groupKey: "20000001", level: 3, period: try period("P1W"), familyShareable: false,
                    clearedForSale: false, location: Location(path: groupsFile)),
            // Manual 1.29 beats automatic 1.19 from the same day; the null manual row ended 2025-01-01; GB's row
            // takes its territory from the price point; DE's null row ends after the as-of day.
            Product(id: ProductID("com.example.coins.100"), kind: .consumable, referenceName: "100 Coins",
                    familyShareable: false,
                    prices: [
                        try territory("US"): Price(territory: try territory("US"), money: try money("1.29", "USD"),
                                                   location: Location(path: manualFile)),
                        try territory("GB"): Price(territory: try territory("GB"), money: try money("0.99", "GBP"),
                                                   location: Location(path: automaticFile)),
                        try territory("DE"): Price(territory: try territory("DE"), money: try money("0.99", "EUR"),
                                                   location: Location(path: automaticFile)),
                    ],
                    uncomparedPrices: [
                        UncomparedPrice(label: "scheduled", territory: try territory("DE"),
                                        amount: try money("1.19", "EUR"), startDate: try date("2026-12-24")),
                        UncomparedPrice(label: "scheduled", territory: try territory("US"),
                                        amount: try money("1.49", "USD"), startDate: try date("2027-03-01")),
                    ],
                    priceBaseTerritory: try territory("US"),
                    clearedForSale: true, location: Location(path: iapFile)),
            // Schedule linked by the links.self of a `/v2/inAppPurchases/{id}/iapPriceSchedule` document.
            Product(id: ProductID("com.example.coins.500"), kind: .consumable, referenceName: "500 Coins",
                    familyShareable: false,
                    prices: try prices([("US", "4.99", "USD")], file: Self.file("08-iap-6500000002-iapPriceSchedule.json")),
                    clearedForSale: true, location: Location(path: iapFile)),
            Product(id: ProductID("com.example.removeads"), kind: .nonConsumable, referenceName: "Remove Ads",
                    familyShareable: true, clearedForSale: false, location: Location(path: iapFile)),
            Product(id: ProductID("com.example.season.pass"), kind: .nonRenewing, referenceName: "Season Pass",
                    familyShareable: false, location: Location(path: iapFile)),
        ]
        // The MONTHLY rows are the monthly billing plan (the one of 2026-12-01 is not current yet); a subscription
        // without them has none.
        expected[0].billingPlans = [BillingPlan(type: .monthly, prices: [try territory("US"): try money("3.99", "USD")],
                                                location: Location(path: subPrices))]
        expected[1].billingPlans = []
        expected[2].billingPlans = []
        #expect(catalog.products.map(fileOnly) == expected)
    }

    @Test func locatesProductsAndPricesInTheirFiles() throws {
        let catalog = try readASC(Self.folder)
        let yearly = try #require(catalog.products.first)
        #expect(yearly.location == Location(path: Self.file("01-subscription-groups.json"), line: 48, column: 5))
        #expect(yearly.location(of: .level) == Location(path: Self.file("01-subscription-groups.json"), line: 58, column: 24))
        #expect(yearly.prices[try territory("US")]?.location
                == Location(path: Self.file("02-subscription-6400000001-prices.json"), line: 26, column: 5))
        #expect(yearly.location(of: .price) == yearly.prices[try territory("DE")]?.location)
    }

    @Test func currentPriceFollowsTheAsOfDay() throws {
        // As of 2026-11-22: null 29.99 and 2024-06-01 39.99 → 39.99 (and the 2027-01-01 row is scheduled).
        let november = try readASC(Self.folder).products[0]
        #expect(november.prices[.unitedStates]?.money == (try money("39.99", "USD")))
        #expect(november.uncomparedPrices.map(\.summary) == ["scheduled US 44.99 USD from 2027-01-01"])

        // Before 2024-06-01 the null row is current; the 2024 row is then scheduled too.
        let early = try readASC(Self.folder, asOf: ReadOptions(asOf: try date("2024-05-31"))).products[0]
        #expect(early.prices[.unitedStates]?.money == (try money("29.99", "USD")))
        #expect(early.prices[try territory("DE")]?.money == (try money("39.99", "EUR")))
        #expect(early.uncomparedPrices.map(\.summary) == [
            "scheduled DE 44.99 EUR from 2026-11-22",
            "scheduled US 39.99 USD from 2024-06-01",
            "scheduled US 44.99 USD from 2027-01-01",
        ])

        // From 2027-01-01 the scheduled row applies and nothing is scheduled.
        let later = try readASC(Self.folder, asOf: ReadOptions(asOf: try date("2027-01-01"))).products[0]
        #expect(later.prices[.unitedStates]?.money == (try money("44.99", "USD")))
        #expect(later.uncomparedPrices.isEmpty)

        // The in-app purchase's manual USA row of 2027-03-01 beats the automatic one of the same day.
        let coins = try readASC(Self.folder, asOf: ReadOptions(asOf: try date("2027-06-01"))).products[3]
        #expect(coins.prices[.unitedStates]?.money == (try money("1.49", "USD")))
        #expect(coins.prices[try territory("DE")]?.money == (try money("1.19", "EUR")))
    }

    @Test func readsAnArrayOfDocumentsLinkedByRelationshipsAndSelfLinks() throws {
        let path = "asc/documents-array.json"
        let catalog = try readASC(path)
        #expect(catalog.groups == [SubscriptionGroup(key: "20000009", name: "Pro",
                                                     location: Location(path: path, line: 4, column: 7))])
        var expected = Product(id: ProductID("com.example.pro.monthly"), kind: .autoRenewable,
                               referenceName: "Pro Monthly", groupKey: "20000009", level: 1,
                               period: try period("ONE_MONTH"), prices: try prices([("US", "9.99", "USD")], file: path),
                               location: Location(path: path))
        // The MONTHLY row is the billing plan's monthly amount, not the price.
        expected.billingPlans = [BillingPlan(type: .monthly, prices: [try territory("US"): try money("0.99", "USD")],
                                             location: Location(path: path))]
        #expect(catalog.products.map(fileOnly) == [expected])
    }

    @Test func readsLegacyAndV2InAppPurchaseTypes() throws {
        let path = "asc/legacy-v1-in-app-purchases.json"
        let catalog = try readASC(path)
        // `inAppPurchasesV2` and `inAppPurchases` with one ID are one resource; attributes merge.
        #expect(catalog.products.map(fileOnly) == [
            Product(id: ProductID("com.example.gold.monthly"), kind: .autoRenewable, referenceName: "Gold Monthly",
                    clearedForSale: true, location: Location(path: path)),
            Product(id: ProductID("com.example.magazine"), referenceName: "Magazine", location: Location(path: path)),
            Product(id: ProductID("com.example.gems"), kind: .consumable, referenceName: "Gems",
                    location: Location(path: path)),
        ])
        #expect(catalog.groups.isEmpty)
    }

    @Test func keepsDuplicateProductIDsOfDistinctResources() throws {
        let catalog = try readASC("asc/duplicate-product-ids.json")
        #expect(catalog.products.map(\.id.rawValue) == ["com.example.dup", "com.example.dup", "com.example.once"])
        #expect(catalog.products.map(\.kind) == [.consumable, .nonConsumable, .consumable])
    }

    @Test func pricesOfASubscriptionKnownOnlyByIDAreNoProduct() throws {
        // links.self names subscription 6400000077, but its resource (with a productId) is not in the input.
        let catalog = try readASC("asc/prices-without-subscription.json")
        #expect(catalog.products.isEmpty)
        #expect(catalog.remarks == ["1 price row(s) belong to no product in the input and were not read"])
    }

    @Test(arguments: [
        ("malformed/asc-truncated.json", 28, 18, "invalid JSON: unexpected end of file, expected a value"),
        ("malformed/asc-empty.json", 1, 1, "invalid JSON: the file is empty"),
        ("malformed/asc-errors-response.json", 2, 16,
         "App Store Connect returned an error response: \"Authentication credentials are missing or invalid.\" "
            + "(status 401, NOT_AUTHORIZED) — \"Provide a properly configured and signed bearer token, and make sure "
            + "that it has not expired.\""),
        ("malformed/asc-not-a-document.json", 1, 1,
         "the document is not an App Store Connect API response: it has no \"data\" and no \"errors\""),
        ("malformed/asc-bad-customer-price.json", 35, 40,
         "inAppPurchasePricePoints \"point-1\" attributes.customerPrice: \"0,99\" is not a decimal amount"),
        ("malformed/asc-wrong-types.json", 9, 22,
         "subscriptions \"6400000001\" attributes.groupLevel: expected a whole number, found the string \"1\""),
        ("malformed/asc-unknown-territory.json", 14, 18, "territories \"ZZZ\" is not an ISO 3166-1 territory code"),
    ])
    func rejectsMalformedFiles(path: String, line: Int, column: Int, message: String) throws {
        let error = try #require(try ascError(path))
        #expect(error.location == Location(path: path, line: line, column: column))
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func rejectsWrongShapesWithTheirPath() throws {
        let cases: [(String, String)] = [
            (#""data""#, "not an App Store Connect API response: the top level is a string, expected an object "
                + "(a JSON:API document) or an array of them"),
            (#"[{"data": []}, 3]"#, "[1]: expected a JSON:API document (an object), found the number 3"),
            (#"{"data": 5}"#, "data: expected an object, an array or null, found the number 5"),
            (#"{"data": [{"id": "1"}]}"#, "data[0]: a resource needs a \"type\" string"),
            (#"{"data": [{"type": "subscriptions", "id": 1}]}"#, "data[0]: a resource needs an \"id\" string"),
            (#"{"data": [{"type": "subscriptions", "id": "1", "attributes": []}]}"#,
             "data[0].attributes: expected an object, found an array"),
            (#"{"data": [{"type": "subscriptions", "id": "1", "relationships": {"prices": {"data": ["x"]}}}]}"#,
             "data[0].relationships.prices.data[0]: expected a resource object, found the string \"x\""),
            (#"{"data": [{"type": "subscriptions", "id": "1", "relationships": []}]}"#,
             "data[0].relationships: expected an object, found an array"),
            (#"{"data": {"type": "subscriptions", "id": "1", "relationships": {"pr\u0069ces": 2}}}"#,
             "data.relationships.prices: expected an object, found the number 2"),
            (#"{"data": [{"type": "subscriptions", "id": "1", "relationships": {"prices": {"data": true}}}]}"#,
             "data[0].relationships.prices.data: expected an object, an array or null, found true"),
            (#"{"data": [{"type": "subscriptions", "id": "1"}], "included": [{"type": "", "id": "2"}]}"#,
             "included[0]: a resource needs a \"type\" string"),
            (#"{"data": [], "included": {}}"#, "included: expected an array, found an object"),
            (#"{"data": [], "links": {"self": 1}}"#, "links.self: expected a string, found the number 1"),
            (#"{"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p", "subscriptionPeriod": "MONTHLY"}}]}"#,
             "subscriptions \"1\" attributes.subscriptionPeriod: \"MONTHLY\" is not a subscription period (ONE_WEEK … ONE_YEAR)"),
            (#"{"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p", "familySharable": "true"}}]}"#,
             "subscriptions \"1\" attributes.familySharable: expected true or false, found the string \"true\""),
            (#"{"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p"}, "relationships": {"prices": {"data": [{"type": "subscriptionPrices", "id": "r"}]}}}], "included": [{"type": "subscriptionPrices", "id": "r", "attributes": {"startDate": "01/02/2025"}}]}"#,
             "subscriptionPrices \"r\" attributes.startDate: \"01/02/2025\" is not a date (YYYY-MM-DD)"),
            (#"{"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p"}, "relationships": {"introductoryOffers": {"data": [{"type": "subscriptionIntroductoryOffers", "id": "o"}]}}}], "included": [{"type": "subscriptionIntroductoryOffers", "id": "o", "attributes": {"offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 0}}]}"#,
             "subscriptionIntroductoryOffers \"o\" attributes.numberOfPeriods: 0 is not a count of periods (1 … 1000)"),
            (#"{"errors": [{"status": "404", "code": "NOT_FOUND", "title": "The specified resource does not exist"}, {"title": "x"}]}"#,
             "App Store Connect returned an error response: \"The specified resource does not exist\" (status 404, NOT_FOUND) and 1 more error(s)"),
        ]
        for (json, message) in cases {
            let error = try #require(try ascError(json: json), "\(json)")
            #expect(error.message == message)
            #expect(error.location.path == "inline.json")
            #expect(error.location.line == 1)
        }
    }

    @Test func introOffersAreUnknownUnlessTheInputHoldsThemInFull() throws {
        let options = try ascOptions()
        // Relationship data names an offer whose resource is not included: the offers are not known.
        let partial = #"""
        {"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p"},
                   "relationships": {"introductoryOffers": {"data": [{"type": "subscriptionIntroductoryOffers", "id": "o"}]}}}]}
        """#
        let catalog = try AppStoreConnectReader().read(data: Data(partial.utf8), displayPath: "inline.json",
                                                       options: options)
        #expect(catalog.products.map(\.introOffers) == [nil])
        #expect(catalog.remarks == ["the introductory offers of 1 subscription(s) are only partly in the input "
            + "(offers without offerMode or duration); they are not compared"])

        // An offer that links to its subscription (no relationship data on the subscription) is read.
        let reverse = #"""
        {"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p"}}],
         "included": [{"type": "subscriptionIntroductoryOffers", "id": "o",
                       "attributes": {"offerMode": "FREE_TRIAL", "duration": "THREE_DAYS"},
                       "relationships": {"subscription": {"data": {"type": "subscriptions", "id": "1"}}}}]}
        """#
        let linked = try AppStoreConnectReader().read(data: Data(reverse.utf8), displayPath: "inline.json",
                                                      options: options)
        #expect(linked.products.first?.introOffers?.map(\.summary) == ["free-trial P3D"])

        // Offers for the MONTHLY billing plan, or not in effect on the as-of day, are left out.
        let dated = #"""
        {"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p"},
                   "relationships": {"introductoryOffers": {"data": [
                     {"type": "subscriptionIntroductoryOffers", "id": "monthly"},
                     {"type": "subscriptionIntroductoryOffers", "id": "ended"},
                     {"type": "subscriptionIntroductoryOffers", "id": "future"},
                     {"type": "subscriptionIntroductoryOffers", "id": "current"}]}}}],
         "included": [
           {"type": "subscriptionIntroductoryOffers", "id": "monthly", "attributes": {"offerMode": "FREE_TRIAL",
            "duration": "ONE_MONTH", "targetSubscriptionPlanType": "MONTHLY"}},
           {"type": "subscriptionIntroductoryOffers", "id": "ended", "attributes": {"offerMode": "FREE_TRIAL",
            "duration": "TWO_WEEKS", "endDate": "2026-11-22"}},
           {"type": "subscriptionIntroductoryOffers", "id": "future", "attributes": {"offerMode": "FREE_TRIAL",
            "duration": "ONE_WEEK", "startDate": "2026-11-23"}},
           {"type": "subscriptionIntroductoryOffers", "id": "current", "attributes": {"offerMode": "FREE_TRIAL",
            "duration": "THREE_DAYS", "startDate": "2026-11-22", "endDate": "2026-11-23",
            "targetSubscriptionPlanType": "UPFRONT"}}]}
        """#
        let filtered = try AppStoreConnectReader().read(data: Data(dated.utf8), displayPath: "inline.json",
                                                        options: options)
        #expect(filtered.products.first?.introOffers?.map(\.summary) == ["free-trial P3D"])

        // An empty `…/introductoryOffers` document states that there are none.
        let empty = #"""
        [{"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p"}}]},
         {"data": [], "links": {"self": "https://api.appstoreconnect.apple.com/v1/subscriptions/1/introductoryOffers"}}]
        """#
        let none = try AppStoreConnectReader().read(data: Data(empty.utf8), displayPath: "inline.json",
                                                    options: options)
        #expect(none.products.first?.introOffers == [])
    }

    @Test func rejectsAnEmptyFolder() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = try ascOptions()
        #expect(throws: CatalogReadError("the folder holds no .json files", at: Location(path: "exports"))) {
            try AppStoreConnectReader().read(contentsOf: folder, displayPath: "exports", options: options)
        }
    }

    // MARK: Real-world documents (Apple's documentation examples)

    @Test(.enabled(if: RealWorld.isAvailable)) func readsApplesPricesExample() throws {
        // Two subscriptionPrices rows and their price points, but no subscription resource and no links.self:
        // nothing links them to a product, so there is none, and no error.
        let path = "apple/apple-docs_GET-v1-subscriptions-id-prices_example_response.json"
        let catalog = try AppStoreConnectReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                       options: ascOptions())
        #expect(catalog.products.isEmpty)
        #expect(catalog.groups.isEmpty)
        #expect(catalog.remarks == ["2 price row(s) belong to no product in the input and were not read"])
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func readsApplesPricesExampleWithItsSubscription() throws {
        // The same document read together with the subscription its request names
        // (`GET /v1/subscriptions/6470878936/prices`): null 0.99 and 2025-03-03 2.99 → 2.99 as of 2026-11-22.
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogcheck-asc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = try Data(contentsOf: RealWorld.url(
            "apple/apple-docs_GET-v1-subscriptions-id-prices_example_response.json"))
        // Apple's example leaves out links.self; the request it answers is added around the same data.
        let text = String(decoding: example, as: UTF8.self)
        let withSelf = try #require(text.range(of: "\"meta\"")).lowerBound
        let linked = text[..<withSelf]
            + "\"links\" : { \"self\" : \"https://api.appstoreconnect.apple.com/v1/subscriptions/6470878936/prices\" },\n  "
            + text[withSelf...]
        try Data(linked.utf8).write(to: folder.appendingPathComponent("2-prices.json"))
        try Data(#"{"data": {"type": "subscriptions", "id": "6470878936", "attributes": {"productId": "com.example.sub"}}}"#.utf8)
            .write(to: folder.appendingPathComponent("1-subscription.json"))
        let catalog = try AppStoreConnectReader().read(contentsOf: folder, displayPath: "asc", options: ascOptions())
        let product = try #require(catalog.products.first)
        #expect(catalog.products.count == 1)
        #expect(product.prices[.unitedStates]?.money == (try money("2.99", "USD")))
        #expect(product.prices[.unitedStates]?.location?.path == "asc/2-prices.json")
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func readsApplesPricePointsExample() throws {
        // Price points list the choices, not a price of any product.
        let path = "apple/apple-docs_GET-v1-subscriptions-id-pricePoints_example_response.json"
        let catalog = try AppStoreConnectReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                       options: ascOptions())
        #expect(catalog.products.isEmpty)
        #expect(catalog.remarks.isEmpty)
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func readsApplesManualPricesExample() throws {
        // Children of price schedule 6446148560 (links.self); the purchase itself is not in the input, and the
        // old-style points carry `priceTier`, no customerPrice.
        let path = "apple/apple-docs_GET-v1-inAppPurchasePriceSchedules-id-manualPrices_example_response.json"
        let catalog = try AppStoreConnectReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                       options: ascOptions())
        #expect(catalog.products.isEmpty)
        #expect(catalog.remarks == ["2 price row(s) belong to no product in the input and were not read"])
    }
}
