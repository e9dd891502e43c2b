import CatalogCore
import CatalogFormats
import Foundation
import TestSupport
import Testing

/// The day the tests read catalogs at; StoreKit prices do not depend on it.
private func storeKitOptions() throws -> ReadOptions {
    ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
}

/// Reads `Tests/Fixtures/<relativePath>` with `relativePath` as the display path.
private func readStoreKit(_ relativePath: String) throws -> Catalog {
    try StoreKitConfigReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                    options: storeKitOptions())
}

/// The error reading a fixture throws, or nil when it reads.
private func storeKitError(_ relativePath: String) throws -> CatalogReadError? {
    let options = try storeKitOptions()
    do {
        _ = try StoreKitConfigReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                            options: options)
        return nil
    } catch {
        return error
    }
}

/// The product without its per-field locations (asserted separately), so whole values compare.
private func withoutFieldLocations(_ product: Product) -> Product {
    var copy = product
    copy.fieldLocations = [:]
    return copy
}

private func money(_ amount: String, _ currency: String) throws -> Money {
    Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
}

private func period(_ text: String) throws -> SubscriptionPeriod {
    try #require(SubscriptionPeriod(iso: text))
}

private func territory(_ code: String) throws -> Territory {
    try #require(Territory(code: code))
}

@Suite("StoreKitConfigReader")
struct StoreKitConfigReaderTests {
    @Test func readsEverySectionWithStorefrontPrices() throws {
        let path = "storekit/all-sections-v3.storekit"
        let catalog = try readStoreKit(path)
        func at(_ line: Int, _ column: Int) -> CatalogCore.SourceLocation { CatalogCore.SourceLocation(path: path, line: line, column: column) }
        let gb = try territory("GBR")
        func price(_ amount: String, _ line: Int, _ column: Int) throws -> [Territory: Price] {
            [gb: Price(territory: gb, money: try money(amount, "GBP"), location: at(line, column))]
        }

        #expect(catalog.path == path)
        #expect(catalog.format == .storekit)
        // Its subscriptions hold `adHocOffers` and `codeOffers` (one promotional offer) and no billingPlans key:
        // promotional offers and offer codes are carried (the keys state them, §5a.15), plans not.
        #expect(catalog.capabilities == CatalogCapabilities(expressesGroups: true, priceableTerritories: [gb],
                                                            singleStorefront: gb,
                                                            offerKinds: [.promotional, .offerCode]))
        #expect(catalog.remarks.isEmpty)
        #expect(catalog.groups == [
            SubscriptionGroup(key: "A1B2C3D4", name: "Premium", location: at(61, 5)),
            SubscriptionGroup(key: "Legacy", name: "Legacy", location: at(151, 5)),
        ])
        let expected: [Product] = [
            Product(id: ProductID("com.example.coins.100"), kind: .consumable, referenceName: "100 Coins",
                    familyShareable: false, prices: try price("0.99", 22, 24), location: at(21, 5)),
            Product(id: ProductID("com.example.removeads"), kind: .nonConsumable, referenceName: "Remove Ads",
                    familyShareable: true, prices: try price("4.99", 37, 24), location: at(36, 5)),
            Product(id: ProductID("com.example.season.pass"), kind: .nonRenewing, referenceName: "Season Pass",
                    familyShareable: false, prices: try price("14.99", 5, 24), location: at(4, 5)),
            Product(id: ProductID("com.example.premium.yearly"), kind: .autoRenewable,
                    referenceName: "Premium Yearly", groupKey: "A1B2C3D4", level: 1, period: try period("P1Y"),
                    familyShareable: true,
                    introOffers: [IntroOffer(mode: .payUpFront, period: try period("P6M"), periods: 1,
                                             price: try money("29.99", "GBP"), location: at(87, 33))],
                    offers: [Offer(kind: .promotional, id: "winback", phases: [
                        OfferPhase(mode: .payUpFront, period: try period("P1Y"), periods: 1,
                                   prices: [gb: try money("19.99", "GBP")], location: at(70, 13)),
                    ], location: at(70, 13))],
                    prices: try price("49.99", 83, 28), location: at(68, 9)),
            Product(id: ProductID("com.example.premium.monthly"), kind: .autoRenewable,
                    referenceName: "Premium Monthly", groupKey: "A1B2C3D4", level: 2, period: try period("P1M"),
                    familyShareable: false,
                    introOffers: [IntroOffer(mode: .freeTrial, period: try period("P1W"), location: at(113, 33))],
                    offers: [], prices: try price("5.99", 109, 28), location: at(102, 9)),
            Product(id: ProductID("com.example.premium.weekly"), kind: .autoRenewable,
                    referenceName: "Premium Weekly", groupKey: "A1B2C3D4", level: 3, period: try period("P1W"),
                    familyShareable: false, introOffers: [], offers: [], prices: try price("1.99", 135, 28),
                    location: at(128, 9)),
            Product(id: ProductID("com.example.legacy.monthly"), kind: .autoRenewable, groupKey: "Legacy", level: 1,
                    period: try period("P1M"),
                    introOffers: [IntroOffer(mode: .payAsYouGo, period: try period("P1M"), periods: 3,
                                             price: try money("0.99", "GBP"), location: at(160, 33))],
                    offers: [], prices: try price("2.49", 158, 28), location: at(157, 9)),
        ]
        #expect(catalog.products.map(withoutFieldLocations) == expected)
        #expect(catalog.products.allSatisfy { $0.clearedForSale == nil && $0.uncomparedPrices.isEmpty })
    }

    @Test func recordsWhereEachFieldWasRead() throws {
        let path = "storekit/all-sections-v3.storekit"
        let yearly = try #require(try readStoreKit(path).products.first { $0.id.rawValue == "com.example.premium.yearly" })
        func at(_ line: Int, _ column: Int) -> CatalogCore.SourceLocation { CatalogCore.SourceLocation(path: path, line: line, column: column) }
        #expect(yearly.location(of: .price) == at(83, 28))
        #expect(yearly.location(of: .level) == at(85, 27))
        #expect(yearly.location(of: .period) == at(97, 43))
        #expect(yearly.location(of: .introOffer) == at(87, 33))
        #expect(yearly.location(of: .id) == at(96, 25))
        #expect(yearly.location(of: .clearedForSale) == at(68, 9))
    }

    @Test func prefersIntroductoryOffersArrayThenSingleOffer() throws {
        let path = "storekit/introductory-offers-v5.storekit"
        let catalog = try readStoreKit(path)
        func at(_ line: Int, _ column: Int) -> CatalogCore.SourceLocation { CatalogCore.SourceLocation(path: path, line: line, column: column) }
        let us = Territory.unitedStates
        func price(_ amount: String, _ line: Int) throws -> [Territory: Price] {
            [us: Price(territory: us, money: try money(amount, "USD"), location: at(line, 28))]
        }
        // An empty `_storefront` means the United States, like an absent one.
        #expect(catalog.capabilities.singleStorefront == us)
        #expect(catalog.capabilities.priceableTerritories == [us])
        // One subscription holds `winbackOffers: []`: the file states win-back offers (none), and no other kind.
        #expect(catalog.capabilities.carriesBillingPlans && catalog.capabilities.offerKinds == [.winBack])
        #expect(catalog.remarks == [
            "settings._storefront is not set; prices are read as United States (USA) prices, Xcode's default",
        ])
        #expect(catalog.groups == [SubscriptionGroup(key: "6B0B0001", name: "Pro", location: at(20, 5))])
        let expected: [Product] = [
            // introductoryOffers[0] wins over introductoryOffer; MONTHLY billing plans are plans, not prices.
            Product(id: ProductID("com.example.pro.yearly"), kind: .autoRenewable, referenceName: "Pro Yearly",
                    groupKey: "6B0B0001", level: 1, period: try period("P1Y"), familyShareable: true,
                    introOffers: [IntroOffer(mode: .payAsYouGo, period: try period("P1W"), periods: 2,
                                             price: try money("1.99", "USD"), location: at(51, 13))],
                    offers: [],
                    billingPlans: [BillingPlan(type: .monthly, prices: [us: try money("4.99", "USD")],
                                               commitmentPrices: [us: try money("59.88", "USD")], isEnabled: true,
                                               location: at(33, 13))],
                    prices: try price("49.99", 41), location: at(31, 9)),
            // An empty introductoryOffers array falls back to introductoryOffer.
            Product(id: ProductID("com.example.pro.monthly"), kind: .autoRenewable, referenceName: "Pro Monthly",
                    groupKey: "6B0B0001", level: 2, period: try period("P1M"), familyShareable: true,
                    introOffers: [IntroOffer(mode: .freeTrial, period: try period("P2W"), location: at(80, 33))],
                    offers: [], prices: try price("6.00", 76), location: at(75, 9)),
            // Neither: the file states that there is no offer. "0.0" is a price; P7D is P1W.
            Product(id: ProductID("com.example.pro.weekly"), kind: .autoRenewable, referenceName: "Pro Weekly",
                    groupKey: "6B0B0001", level: 2, period: try period("P1W"), familyShareable: false,
                    introOffers: [], offers: [], prices: try price("0.0", 95), location: at(94, 9)),
        ]
        #expect(catalog.products.map(withoutFieldLocations) == expected)
    }

    @Test func readsAMinimalFileWithEveryKeyOptional() throws {
        let path = "storekit/minimal-v1.storekit"
        let catalog = try readStoreKit(path)
        func at(_ line: Int, _ column: Int) -> CatalogCore.SourceLocation { CatalogCore.SourceLocation(path: path, line: line, column: column) }
        #expect(catalog.groups == [SubscriptionGroup(key: "7096FF06", name: "7096FF06", location: at(8, 5))])
        #expect(catalog.products.map(withoutFieldLocations) == [
            Product(id: ProductID("com.example.tip"), location: at(3, 5)),
            Product(id: ProductID("com.example.basic"), kind: .autoRenewable, groupKey: "7096FF06", introOffers: [],
                    offers: [], location: at(11, 9)),
        ])
        #expect(catalog.capabilities.singleStorefront == .unitedStates)
    }

    /// `displayPrice: ""` is what Xcode writes for a price never set (FORMATS.md "StoreKit"): no price, not an
    /// error, for products, subscriptions and offers alike.
    @Test func aPriceNeverSetIsNoPrice() throws {
        // Arrange
        let path = "storekit/price-not-set.storekit"
        // Act
        let catalog = try readStoreKit(path)
        // Assert
        let prices = catalog.products.map { product in
            "\(product.id): " + product.prices.values.map(\.money.description).sorted().joined(separator: ", ")
        }
        #expect(prices == ["com.example.tip.new: ", "com.example.tip: 0.99 USD", "com.example.plus.monthly: "])
        #expect(catalog.products.map { $0.fieldLocations[.price] == nil } == [true, false, true])
        let monthly = try #require(catalog.products.last)
        #expect(monthly.introOffers == [
            IntroOffer(mode: .payAsYouGo, period: try period("P1M"), periods: 1, price: nil,
                       location: CatalogCore.SourceLocation(path: path, line: 60, column: 33)),
        ])
    }

    /// A subscription's group is the entry that holds it: two entries with one `id` (copied by hand) are two
    /// groups, and a derived key skips a key another entry has.
    @Test func groupsAreTheEntriesThatHoldThemEvenWithOneID() throws {
        // Arrange
        let path = "storekit/groups-sharing-an-id.storekit"
        func at(_ line: Int) -> CatalogCore.SourceLocation { CatalogCore.SourceLocation(path: path, line: line, column: 5) }
        // Act
        let catalog = try readStoreKit(path)
        // Assert
        #expect(catalog.groups == [
            SubscriptionGroup(key: "21331777", name: "Premium", location: at(10)),
            SubscriptionGroup(key: "21331777-3", name: "Family", location: at(34)),
            SubscriptionGroup(key: "21331777-2", name: "Kids", location: at(58)),
        ])
        let membership = catalog.products.map { "\($0.id) in \(catalog.groupName(forKey: $0.groupKey ?? "") ?? "-")" }
        #expect(membership == [
            "com.example.premium.monthly in Premium",
            "com.example.family.monthly in Family",
            "com.example.kids.monthly in Kids",
        ])
        #expect(catalog.remarks == [
            "subscriptionGroups[1] repeats the id \"21331777\" of an earlier group; it is a group of its own, "
                + "keyed \"21331777-3\"",
        ])
    }

    @Test func groupsKeyedByNameAreTold() throws {
        // Arrange
        let json = #"{"subscriptionGroups": [{"name": "Pro", "subscriptions": [{"productID": "a"}]}, "#
            + #"{"name": "Pro", "subscriptions": [{"productID": "b"}]}]}"#
        // Act
        let catalog = try StoreKitConfigReader().read(data: Data(json.utf8), displayPath: "inline.storekit",
                                                      options: storeKitOptions())
        // Assert
        #expect(catalog.groups.map(\.key) == ["Pro", "Pro-2"])
        #expect(catalog.groups.map(\.name) == ["Pro", "Pro"])
        #expect(catalog.products.map(\.groupKey) == ["Pro", "Pro-2"])
        #expect(catalog.remarks.last
            == "subscriptionGroups[1] repeats the name \"Pro\" of an earlier group; it is a group of its own, keyed \"Pro-2\"")
    }

    /// A JSON object without any of the three product arrays is not a StoreKit configuration (DESIGN.md §2),
    /// whatever its extension: `{}`, an unrelated object, a Play or App Store Connect document renamed.
    @Test(arguments: [
        ("storekit/not-storekit/empty-object.storekit", "the object is empty"),
        ("storekit/not-storekit/unrelated-object.storekit", #"keys found: "hello""#),
        ("storekit/not-storekit/play-subscriptions.storekit", #"keys found: "subscriptions""#),
        ("storekit/not-storekit/asc-subscription-groups.storekit",
         #"keys found: "data", "included", "links", "meta""#),
    ])
    func refusesAnObjectWithoutItsMarks(path: String, found: String) throws {
        // Act
        let error = try #require(try storeKitError(path))
        // Assert
        #expect(error.location == CatalogCore.SourceLocation(path: path, line: 1, column: 1))
        #expect(error.message == "not a StoreKit configuration: the top-level object has none of the arrays "
            + "\"products\", \"nonRenewingSubscriptions\", \"subscriptionGroups\" (\(found))")
    }

    @Test func listsAtMostEightKeysFound() throws {
        // Arrange
        let json = "{" + (1...11).map { "\"k\($0 < 10 ? "0" : "")\($0)\": 0" }.joined(separator: ", ") + "}"
        // Act
        let error = try #require(throws: CatalogReadError.self) {
            try StoreKitConfigReader().read(data: Data(json.utf8), displayPath: "x.storekit", options: storeKitOptions())
        }
        // Assert
        #expect(error.message.hasSuffix(#"(keys found: "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08" and 3 more)"#))
    }

    @Test func neverShowsTheOffersPrivateKey() throws {
        let secret = "FAKEKEYFORTESTSONLYnotARealSigningKey"
        let catalog = try readStoreKit("storekit/with-offers-key-pair.storekit")
        #expect(catalog.products.map(\.id.rawValue) == ["com.example.hint"])
        #expect(!String(describing: catalog).contains(secret))
        #expect(!String(reflecting: catalog).contains(secret))
        var dumped = ""
        dump(catalog, to: &dumped)
        #expect(!dumped.contains(secret))
        #expect(!dumped.contains("MIGTAgEAMBMGByqGSM49"))

        // Errors in files holding a key never quote it: a wrong type elsewhere, a truncated key string.
        for fixture in ["malformed/storekit-key-pair-wrong-types.storekit", "malformed/storekit-key-pair-truncated.storekit"] {
            let error = try #require(try storeKitError(fixture))
            #expect(!error.description.contains(secret))
            #expect(!error.description.contains("MIGTAgEAMBMGByqGSM49"))
        }
    }

    @Test(arguments: [
        ("malformed/storekit-truncated.storekit", 28, 10, "invalid JSON: unexpected end of file"),
        ("malformed/storekit-binary.storekit", 1, 1, "the file is not UTF-8 text (byte 0x89); save the file as UTF-8"),
        ("malformed/storekit-wrong-types.storekit", 10, 27,
         "products[1].familyShareable: expected true or false, found the string \"yes\""),
        ("malformed/storekit-bad-price.storekit", 4, 24, "products[0].displayPrice: \"9,99\" is not a decimal amount"),
        ("malformed/storekit-unknown-storefront.storekit", 10, 21,
         "settings._storefront: \"XYZ\" is not a known App Store storefront"),
        ("malformed/storekit-key-pair-wrong-types.storekit", 4, 24,
         "products[0].displayPrice: expected a string, found the number 2.99"),
        ("malformed/storekit-key-pair-truncated.storekit", 7, 20, "invalid JSON: unterminated string"),
    ])
    func rejectsMalformedFiles(path: String, line: Int, column: Int, message: String) throws {
        let error = try #require(try storeKitError(path))
        #expect(error.location == CatalogCore.SourceLocation(path: path, line: line, column: column))
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func rejectsAnEmptyFileAndAFolder() throws {
        let folderError = try #require(try storeKitError("storekit"))
        #expect(folderError.location == CatalogCore.SourceLocation(path: "storekit"))
        #expect(folderError.message.contains("is a folder"))

        let options = try storeKitOptions()
        #expect(throws: CatalogReadError("invalid JSON: the file is empty",
                                         at: CatalogCore.SourceLocation(path: "empty.storekit", line: 1, column: 1))) {
            try StoreKitConfigReader().read(data: Data(), displayPath: "empty.storekit", options: options)
        }
    }

    @Test func rejectsWrongShapesWithTheirKeyPath() throws {
        let options = try storeKitOptions()
        let cases: [(String, String)] = [
            (#"[1, 2]"#, "not a StoreKit configuration: the top level is an array, expected an object"),
            (#"{"products": {"productID": "a"}}"#, "products: expected an array, found an object"),
            (#"{"products": [{"type": "Consumable"}]}"#, "products[0]: the product has no \"productID\""),
            (#"{"products": [{"productID": "a", "type": "RecurringSubscription"}]}"#,
             "products[0].type: \"RecurringSubscription\" is not \"Consumable\" or \"NonConsumable\""),
            (#"{"subscriptionGroups": [{"subscriptions": []}]}"#,
             "subscriptionGroups[0]: the group has neither an \"id\" nor a \"name\""),
            (#"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "groupNumber": 1.5}]}]}"#,
             "subscriptionGroups[0].subscriptions[0].groupNumber: expected a whole number, found the number 1.5"),
            (#"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "recurringSubscriptionPeriod": "monthly"}]}]}"#,
             "subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: \"monthly\" is not an ISO 8601 period"),
            (#"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "introductoryOffer": {"paymentMode": "gratis", "subscriptionPeriod": "P1W"}}]}]}"#,
             "subscriptionGroups[0].subscriptions[0].introductoryOffer.paymentMode: \"gratis\" is not \"free\", \"payAsYouGo\" or \"payUpFront\""),
            (#"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "introductoryOffers": [{"paymentMode": "payUpFront", "subscriptionPeriod": "P1W", "displayPrice": "1e3"}]}]}]}"#,
             "subscriptionGroups[0].subscriptions[0].introductoryOffers[0].displayPrice: \"1e3\" is not a decimal amount"),
            (#"{"products": [], "settings": "USA"}"#, "settings: expected an object, found the string \"USA\""),
            (#"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P1W", "numberOfPeriods": 9223372036854775807}}]}]}"#,
             "subscriptionGroups[0].subscriptions[0].introductoryOffer.numberOfPeriods: 9223372036854775807 is not a count of periods (1 … 1000)"),
        ]
        for (json, message) in cases {
            #expect(throws: CatalogReadError.self) {
                try StoreKitConfigReader().read(data: Data(json.utf8), displayPath: "inline.storekit", options: options)
            }
            do {
                _ = try StoreKitConfigReader().read(data: Data(json.utf8), displayPath: "inline.storekit",
                                                    options: options)
            } catch {
                #expect(error.message == message)
                #expect(error.location.path == "inline.storekit")
                #expect(error.location.line == 1)
            }
        }
    }

    /// Every real `.storekit` file parses, with the number of products counted by hand: `products` +
    /// `nonRenewingSubscriptions` + the subscriptions of every group.
    @Test(.enabled(if: RealWorld.isAvailable), arguments: [
        ("apple/RevenueCat_purchases-ios_v1.0_SwiftExample_Configuration.storekit", 3),
        ("apple/RevenueCat_purchases-ios_v1.1_UnitTestsConfiguration.storekit", 6),
        ("apple/RevenueCat_purchases-ios_v1.2_RevenueCat_SwiftUIConfiguration.storekit", 8),
        ("apple/RevenueCat_purchases-ios_v2.0_SimpleApp_Products.storekit", 3),
        ("apple/RevenueCat_purchases-ios_v3.0_synced_PurchaseTesterStoreKitConfiguration.storekit", 16),
        ("apple/RevenueCat_purchases-ios_v4.0_PaywallsTester_Products.storekit", 5),
        ("apple/RevenueCat_purchases-ios_v5.0_UnitTestsConfiguration.storekit", 7),
        ("apple/adaptyteam_AdaptySDK-iOS_SKConfig.storekit", 13),
        ("apple/apphud_ApphudSDK_StoreKit.storekit", 10),
        ("apple/cntrump_SKDemo_Products.storekit", 10),
        ("apple/russell-archer_StoreHelper_Products.storekit", 8),
        ("apple/superwall_Superwall-iOS_Superwall_Advanced-Products.storekit", 2),
        ("other/RevenueCat_purchases-ios_Configuration.storekit", 3),
        ("other/RevenueCat_purchases-ios_UnitTestsConfiguration.storekit", 7),
    ])
    func readsRealFiles(path: String, count: Int) throws {
        let catalog = try StoreKitConfigReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                      options: storeKitOptions())
        #expect(catalog.products.count == count)
        // Every product is priced for the storefront, and every subscription states its offers.
        let storefront = try #require(catalog.capabilities.singleStorefront)
        #expect(catalog.products.allSatisfy { $0.prices.keys.allSatisfy { $0 == storefront } })
        #expect(catalog.products.filter { $0.kind == .autoRenewable }.allSatisfy { $0.introOffers != nil })
    }

    /// Every real `.storekit` file's groups: one per `subscriptionGroups[]` entry, keyed by its `id`, named by its
    /// `name`, holding exactly the subscriptions listed inside it (counted by hand). No real file repeats an `id`
    /// within itself or writes `displayPrice: ""` (`aPriceNeverSetIsNoPrice`, `groupsAreTheEntriesThatHoldThem…`
    /// cover those); RevenueCat's files reuse `7096FF06` across files, which never meet in one catalog.
    @Test(.enabled(if: RealWorld.isAvailable), arguments: [
        ("apple/RevenueCat_purchases-ios_v1.0_SwiftExample_Configuration.storekit", ["7096FF06 subscription_group: 2"]),
        ("apple/RevenueCat_purchases-ios_v1.1_UnitTestsConfiguration.storekit",
         ["7096FF06 subscription_group_1: 2", "4BB746BD subscription_group_2: 1"]),
        ("apple/RevenueCat_purchases-ios_v1.2_RevenueCat_SwiftUIConfiguration.storekit",
         ["D833F705 main subscription group: 4", "CAB34497 $39.99 Annual Group: 1"]),
        ("apple/RevenueCat_purchases-ios_v2.0_SimpleApp_Products.storekit", ["CEEF018E pro: 3"]),
        ("apple/RevenueCat_purchases-ios_v3.0_synced_PurchaseTesterStoreKitConfiguration.storekit",
         ["21331777 greenie_testing: 2", "21378123 michail_test_offers: 2", "21340048 michail_testing: 2",
          "21076983 Raquel RC Training Subscription Group: 3", "21424114 RevenueCat subscriptions: 1",
          "20736437 subscription group: 3"]),
        ("apple/RevenueCat_purchases-ios_v4.0_PaywallsTester_Products.storekit", ["CEEF018E pro: 3"]),
        ("apple/RevenueCat_purchases-ios_v5.0_UnitTestsConfiguration.storekit",
         ["7096FF06 subscription_group_1: 3", "4BB746BD subscription_group_2: 1"]),
        ("apple/adaptyteam_AdaptySDK-iOS_SKConfig.storekit", ["20770576 Demo Group: 6"]),
        ("apple/apphud_ApphudSDK_StoreKit.storekit", ["20888787 PRO: 7"]),
        ("apple/cntrump_SKDemo_Products.storekit", ["3F19ED53 Software Services: 3"]),
        ("apple/russell-archer_StoreHelper_Products.storekit", ["8126C4BB VIP: 3"]),
        ("apple/superwall_Superwall-iOS_Superwall_Advanced-Products.storekit",
         ["49A58F4B Example Subscription Group: 2"]),
        ("other/RevenueCat_purchases-ios_Configuration.storekit", ["7096FF06 subscription_group: 2"]),
        ("other/RevenueCat_purchases-ios_UnitTestsConfiguration.storekit",
         ["7096FF06 subscription_group_1: 3", "4BB746BD subscription_group_2: 1"]),
    ])
    func readsRealFilesWithTheirGroups(path: String, groups: [String]) throws {
        // Act
        let catalog = try StoreKitConfigReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                      options: storeKitOptions())
        // Assert
        let described = catalog.groups.map { group in
            "\(group.key) \(group.name): \(catalog.products.filter { $0.groupKey == group.key }.count)"
        }
        #expect(described == groups)
        #expect(catalog.products.filter { $0.kind == .autoRenewable }.allSatisfy { $0.groupKey != nil })
        #expect(!catalog.remarks.contains { $0.contains("repeats") })
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func readsRealFileDetails() throws {
        // Spain storefront: euro prices.
        let spain = try StoreKitConfigReader().read(
            contentsOf: RealWorld.url("apple/RevenueCat_purchases-ios_v2.0_SimpleApp_Products.storekit"),
            displayPath: "simple.storekit", options: storeKitOptions())
        #expect(spain.capabilities.singleStorefront == (try territory("ES")))
        #expect(spain.products.allSatisfy { $0.prices.values.allSatisfy { $0.money.currency.code == "EUR" } })

        // Apple's sample: groupNumber 1 = Pro (highest), a pay-up-front intro offer.
        let demo = try StoreKitConfigReader().read(
            contentsOf: RealWorld.url("apple/cntrump_SKDemo_Products.storekit"), displayPath: "demo.storekit",
            options: storeKitOptions())
        #expect(demo.products.contains { $0.introOffers?.first?.mode == .payUpFront })

        // v5.0: introductoryOffers[0] (free P3M) is read for the monthly product.
        let v5 = try StoreKitConfigReader().read(
            contentsOf: RealWorld.url("apple/RevenueCat_purchases-ios_v5.0_UnitTestsConfiguration.storekit"),
            displayPath: "v5.storekit", options: storeKitOptions())
        let monthly = try #require(v5.products.first { $0.id.rawValue == "com.revenuecat.monthly_4.99.1_week_intro" })
        #expect(monthly.introOffers?.map(\.summary) == ["free-trial P3M"])
        #expect(monthly.prices[.unitedStates]?.money == (try money("4.99", "USD")))
        #expect(v5.groups.map(\.name) == ["subscription_group_1", "subscription_group_2"])
    }
}
