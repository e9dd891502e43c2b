import CatalogCore
import CatalogFormats
import Foundation
import TestSupport
import Testing

/// Reading `.storekit` files, the promotional offers, offer codes, win-back offers and billing plans of their
/// subscriptions (DESIGN.md §4a, FORMATS.md "Offers, purchase options and billing plans").
private enum StoreKitOffers {
    /// Reads a file with `displayPath` naming it in locations.
    static func read(_ url: URL, displayPath: String) throws -> Catalog {
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        return try StoreKitConfigReader().read(contentsOf: url, displayPath: displayPath, options: options)
    }

    /// Reads `Tests/Fixtures/<relativePath>`, named by that path.
    static func fixture(_ relativePath: String) throws -> Catalog {
        try read(Fixtures.url(relativePath), displayPath: relativePath)
    }

    /// Reads inline JSON, named `inline.storekit`.
    static func inline(_ json: String) throws -> Catalog {
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        return try StoreKitConfigReader().read(data: Data(json.utf8), displayPath: "inline.storekit", options: options)
    }

    static func money(_ amount: String, _ currency: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode(currency)))
    }

    static func period(_ text: String) throws -> SubscriptionPeriod {
        try #require(SubscriptionPeriod(iso: text))
    }

    /// One line per offer and billing plan, in reading order: `<product> <kind>:<id> <phase> [<prices>]`, then
    /// an offer code's customers and stacking; `(periods not stated)` where the file does not say.
    static func lines(_ catalog: Catalog) -> [String] {
        catalog.products.flatMap { product in
            (product.offers ?? []).map { "\(product.id) \(describe($0))" }
                + (product.billingPlans ?? []).map { "\(product.id) \(describe($0))" }
        }
    }

    static func describe(_ offer: Offer) -> String {
        var text = "\(offer.key) " + offer.phases.map { phase in
            var phaseText = phase.summary
            if phase.periods == nil { phaseText += " (periods not stated)" }
            let prices = phase.prices.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return ([phaseText] + prices).joined(separator: " ")
        }.joined(separator: " + ")
        if let customers = offer.eligibility?.customers { text += " for \(customers.sorted().joined(separator: ", "))" }
        if let stackable = offer.eligibility?.stackable { text += stackable ? " stackable" : " not stackable" }
        return text
    }

    static func describe(_ plan: BillingPlan) -> String {
        var parts = ["billingPlan:\(plan.type.rawValue)"]
        parts += plan.prices.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        parts += plan.commitmentPrices.sorted { $0.key < $1.key }.map { "commitment \($0.key) \($0.value)" }
        if let isEnabled = plan.isEnabled { parts.append(isEnabled ? "enabled" : "disabled") }
        return parts.joined(separator: " ")
    }

    /// The error reading a file throws.
    static func error(_ relativePath: String) throws -> CatalogReadError {
        try #require(throws: CatalogReadError.self) { try fixture(relativePath) }
    }
}

@Suite("StoreKitConfigReader offers and billing plans")
struct StoreKitOfferReaderTests {
    /// File 1.2: promotional offers (one without `numberOfPeriods`, which means 1) and an offer code, whole
    /// values with their locations; consumables carry no offers.
    @Test func readsPromotionalOffersAndOfferCodes() throws {
        // Arrange
        let path = "storekit/offers-v1.2.storekit"
        func at(_ line: Int) -> CatalogCore.SourceLocation { CatalogCore.SourceLocation(path: path, line: line, column: 13) }
        let us = Territory.unitedStates
        // Act
        let catalog = try StoreKitOffers.fixture(path)
        // Assert
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode])
        #expect(catalog.capabilities.carriesBillingPlans == false)
        #expect(catalog.products.map(\.id.rawValue)
            == ["com.example.tip", "com.example.premium.yearly", "com.example.premium.monthly"])
        #expect(catalog.products.map { $0.offers?.count } == [nil, 3, 1])
        #expect(catalog.products.allSatisfy { $0.billingPlans == nil })
        let yearly = catalog.products[1]
        #expect(yearly.offers == [
            Offer(kind: .promotional, id: "$4 for month", phases: [
                OfferPhase(mode: .payUpFront, period: try StoreKitOffers.period("P1M"), periods: 1,
                           prices: [us: try StoreKitOffers.money("4.00", "USD")], location: at(34)),
            ], location: at(34)),
            Offer(kind: .promotional, id: "Free two weeks", phases: [
                OfferPhase(mode: .freeTrial, period: try StoreKitOffers.period("P2W"), periods: 1, location: at(42)),
            ], location: at(42)),
            Offer(kind: .offerCode, id: "TestOffer", phases: [
                OfferPhase(mode: .freeTrial, period: try StoreKitOffers.period("P1W"), periods: 1, location: at(51)),
            ], eligibility: OfferEligibility(customers: ["new", "existing", "expired"], stackable: true),
            location: at(51)),
        ])
        #expect(yearly.location(of: OfferKey(kind: .offerCode, id: "TestOffer").field) == at(51))
        #expect(StoreKitOffers.lines(catalog).last == "com.example.premium.monthly "
            + "promotional:com.example.premium.monthly.pay_as_you_go pay-as-you-go P1M×2 US 20.15 USD")
    }

    /// File 4.0: win-back offers, whose file version states neither a number of periods nor a price; prices are
    /// for the storefront (United Kingdom, pounds).
    @Test func readsWinBackOffersWithoutPeriodsOrPrices() throws {
        // Act
        let catalog = try StoreKitOffers.fixture("storekit/offers-v4.storekit")
        // Assert
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(StoreKitOffers.lines(catalog) == [
            "com.example.pro.monthly promotional:cancel-offer free-trial P1M",
            "com.example.pro.monthly offer-code:Lapsed three months pay-as-you-go P1M×3 GB 0.99 GBP for expired "
                + "not stackable",
            "com.example.pro.monthly win-back:come-back pay-up-front P3M (periods not stated)",
        ])
        let winBack = try #require(catalog.products.first?.offers?.last)
        #expect(winBack.eligibility == nil && winBack.isActive == nil && winBack.stateText == nil)
        #expect(winBack.location == CatalogCore.SourceLocation(path: "storekit/offers-v4.storekit", line: 69, column: 13))
        #expect(catalog.products.last?.offers == [])
    }

    /// File 5.0: billing plans (a price never set, `""`, is no price), `billingPlanType` on offers, win-back
    /// `numberOfPeriods`; a subscription with `billingPlans: []` states that it has none.
    @Test func readsBillingPlansAndWinBackPeriods() throws {
        // Arrange
        let path = "storekit/offers-v5.storekit"
        // Act
        let catalog = try StoreKitOffers.fixture(path)
        // Assert
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(catalog.capabilities.carriesBillingPlans)
        #expect(StoreKitOffers.lines(catalog) == [
            "com.example.annual_with_commitment promotional:year_discount pay-up-front P1Y US 40.99 USD",
            "com.example.annual_with_commitment offer-code:First month free free-trial P1M for new stackable",
            "com.example.annual_with_commitment win-back:winback_two pay-as-you-go P1M×2",
            "com.example.annual_with_commitment billingPlan:upfront US 11.88 USD commitment US 11.88 USD enabled",
            "com.example.annual_with_commitment billingPlan:monthly US 0.99 USD commitment US 11.88 USD enabled",
            "com.example.annual_plan_not_set billingPlan:monthly disabled",
        ])
        #expect(catalog.products.map { $0.billingPlans?.count } == [2, 1, 0])
        let annual = try #require(catalog.products.first)
        #expect(annual.location(of: .billingPlan(.monthly)) == CatalogCore.SourceLocation(path: path, line: 48, column: 13))
        #expect(annual.location(of: .billingPlan(.upfront)) == CatalogCore.SourceLocation(path: path, line: 41, column: 13))
        // The plans are plans: the subscription's own price is its displayPrice.
        #expect(annual.prices[.unitedStates]?.money == (try StoreKitOffers.money("11.88", "USD")))
    }

    /// What the issue says real files do and the rules flag: a free promotional offer with a `displayPrice` (the
    /// price is read, so `offer-free-with-price` can see it), a MONTHLY plan whose commitment price is not
    /// 12 × its monthly price (both read as written).
    @Test func readsWhatBreaksTheRulesAsWritten() throws {
        // Act
        let catalog = try StoreKitOffers.fixture("storekit/offers-breaking-rules-v5.storekit")
        // Assert
        #expect(StoreKitOffers.lines(catalog) == [
            "com.example.plus.yearly promotional:free_week free-trial P1W US 0.99 USD",
            "com.example.plus.yearly billingPlan:upfront US 59.99 USD commitment US 59.99 USD enabled",
            "com.example.plus.yearly billingPlan:monthly US 5.49 USD commitment US 60 USD enabled",
        ])
    }

    /// A file without any offer or plan key (older versions) carries no offer kind and no plans, and still
    /// states that each subscription has no offer.
    @Test func aFileWithoutOfferKeysCarriesNothing() throws {
        // Act
        let catalog = try StoreKitOffers.inline(
            #"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "introductoryOffer": null}]}]}"#)
        // Assert
        #expect(catalog.capabilities.offerKinds.isEmpty)
        #expect(catalog.capabilities.carriesBillingPlans == false)
        #expect(catalog.products.map(\.offers) == [[]])
        #expect(catalog.products.map(\.billingPlans) == [nil])
    }

    /// Offer kinds by the format's keys (DESIGN.md §5a.15): subscriptions holding `adHocOffers`, `codeOffers`
    /// and `winbackOffers`, each `[]`, carry all three kinds with no offer.
    @Test func emptyOfferListsCarryTheirKinds() throws {
        // Act
        let catalog = try StoreKitOffers.fixture("offers/empty-offer-lists.storekit")
        // Assert
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(catalog.products.map(\.offers) == [[]])
    }

    /// An Xcode-synced 4.0 file's win-back offers carry `displayPrice`: read for the storefront, like any
    /// offer price.
    @Test func readsWinBackDisplayPrices() throws {
        // Act
        let catalog = try StoreKitOffers.fixture("offers/winback-prices.storekit")
        // Assert
        #expect(StoreKitOffers.lines(catalog) == [
            "com.example.pro.monthly win-back:WINBACK3 pay-as-you-go P1M (periods not stated) US 3.99 USD",
            "com.example.pro.monthly win-back:WINBACK6 pay-as-you-go P1M (periods not stated) US 4.99 USD",
        ])
    }

    /// Bad offers and plans exit 2 at the offending value, like the rest of the reader.
    @Test(arguments: [
        ("malformed/storekit-offer-unknown-mode.storekit", 25, 31,
         "subscriptionGroups[0].subscriptions[0].codeOffers[0].paymentMode: \"freeTrial\" is not \"free\", "
            + "\"payAsYouGo\" or \"payUpFront\""),
        ("malformed/storekit-offer-bad-period.storekit", 43, 38,
         "subscriptionGroups[0].subscriptions[0].winbackOffers[0].subscriptionPeriod: \"1 month\" is not an ISO "
            + "8601 period"),
        ("malformed/storekit-offer-bad-price.storekit", 17, 32,
         "subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice: \"4,99\" is not a decimal amount"),
        ("malformed/storekit-billing-plan-bad-price.storekit", 21, 42,
         "subscriptionGroups[0].subscriptions[0].billingPlans[0].commitmentDisplayPrice: \"$59.88\" is not a "
            + "decimal amount"),
        ("malformed/storekit-billing-plan-unknown-type.storekit", 20, 35,
         "subscriptionGroups[0].subscriptions[0].billingPlans[0].billingPlanType: \"YEARLY\" is not "
            + "\"BILLED_UPFRONT\" or \"MONTHLY\""),
    ])
    func rejectsMalformedOffersAtTheValue(path: String, line: Int, column: Int, message: String) throws {
        // Act
        let error = try StoreKitOffers.error(path)
        // Assert
        #expect(error.location == CatalogCore.SourceLocation(path: path, line: line, column: column))
        #expect(error.message == message)
    }

    /// Wrong shapes name their key path; a key the file version does not have is never one of them.
    @Test(arguments: [
        (#"{"adHocOffers": [{"paymentMode": "free", "subscriptionPeriod": "P1W"}]}"#,
         "s.adHocOffers[0]: the offer has no \"offerID\""),
        (#"{"codeOffers": [{"referenceName": "", "paymentMode": "free", "subscriptionPeriod": "P1W"}]}"#,
         "s.codeOffers[0].referenceName is empty"),
        (#"{"winbackOffers": [{"offerID": "w", "subscriptionPeriod": "P1W"}]}"#,
         "s.winbackOffers[0]: the offer has no \"paymentMode\""),
        (#"{"adHocOffers": [{"offerID": "p", "paymentMode": "free"}]}"#,
         "s.adHocOffers[0]: the offer has no \"subscriptionPeriod\""),
        (#"{"adHocOffers": [{"offerID": "p", "paymentMode": "free", "subscriptionPeriod": "P1W", "numberOfPeriods": 0}]}"#,
         "s.adHocOffers[0].numberOfPeriods: 0 is not a count of periods (1 … 1000)"),
        (#"{"codeOffers": [{"referenceName": "c", "paymentMode": "free", "subscriptionPeriod": "P1W", "eligibility": ["new", "lapsed"]}]}"#,
         "s.codeOffers[0].eligibility[1]: \"lapsed\" is not \"new\", \"existing\" or \"expired\""),
        (#"{"codeOffers": [{"referenceName": "c", "paymentMode": "free", "subscriptionPeriod": "P1W", "eligibility": "new"}]}"#,
         "s.codeOffers[0].eligibility: expected an array, found the string \"new\""),
        (#"{"codeOffers": [{"referenceName": "c", "paymentMode": "free", "subscriptionPeriod": "P1W", "isStackable": "yes"}]}"#,
         "s.codeOffers[0].isStackable: expected true or false, found the string \"yes\""),
        (#"{"adHocOffers": ["p"]}"#, "s.adHocOffers[0]: expected an object, found the string \"p\""),
        (#"{"winbackOffers": {}}"#, "s.winbackOffers: expected an array, found an object"),
        (#"{"billingPlans": {}}"#, "s.billingPlans: expected an array, found an object"),
        (#"{"billingPlans": [{"displayPrice": "4.99"}]}"#, "s.billingPlans[0]: the billing plan has no \"billingPlanType\""),
        (#"{"billingPlans": [{"billingPlanType": "MONTHLY", "isEnabled": "true"}]}"#,
         "s.billingPlans[0].isEnabled: expected true or false, found the string \"true\""),
        (#"{"billingPlans": [{"billingPlanType": "MONTHLY", "displayPrice": 4.99}]}"#,
         "s.billingPlans[0].displayPrice: expected a string, found the number 4.99"),
    ])
    func rejectsWrongShapesWithTheirKeyPath(subscription: String, message: String) throws {
        // Arrange: the members are spliced into one subscription; `s` stands for its key path.
        let members = subscription.dropFirst().dropLast()
        let json = #"{"subscriptionGroups": [{"id": "g", "subscriptions": [{"productID": "a", "# + members + "}]}]}"
        // Act
        let error = try #require(throws: CatalogReadError.self) { try StoreKitOffers.inline(json) }
        // Assert
        #expect(error.message == "subscriptionGroups[0].subscriptions[0]" + message.dropFirst())
        #expect(error.location.path == "inline.storekit")
    }

    /// Every real `.storekit` file reads in place with exactly these offers and plans (read off the files by
    /// hand), the kinds it carries (the offer lists its subscriptions hold, `[]` included: DESIGN.md §5a.15) and
    /// whether it carries plans. No real file holds a win-back offer (all
    /// `winbackOffers` are empty) or a free offer with a `displayPrice`; RevenueCat's 5.0 file holds a MONTHLY plan
    /// whose commitment is 12 × its 0.50 (6.00 USD) but below the subscription's own 11.88 USD, and a BILLED_UPFRONT
    /// plan of 0.99 USD on that 11.88 USD subscription: the reader reads them as written, the rules judge them.
    @Test(.enabled(if: RealWorld.isAvailable), arguments: [
        ("apple/RevenueCat_purchases-ios_v1.0_SwiftExample_Configuration.storekit", [.promotional], false, []),
        ("apple/RevenueCat_purchases-ios_v1.1_UnitTestsConfiguration.storekit", [.promotional, .offerCode], false, [
            "com.revenuecat.monthly_4.99.1_week_intro promotional:com.revenuecat.monthly_4.99.1_week_intro.year_discount "
                + "pay-up-front P1Y US 40.99 USD",
            "com.revenuecat.monthly_4.99.1_week_intro promotional:com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go "
                + "pay-as-you-go P1M×2 US 20.15 USD",
        ]),
        ("apple/RevenueCat_purchases-ios_v1.2_RevenueCat_SwiftUIConfiguration.storekit", [.promotional, .offerCode],
         false, [
            "com.revenuecat.annual_39.99.2_week_intro promotional:$4 for month pay-up-front P1M US 4 USD",
            "com.revenuecat.annual_39.99.2_week_intro promotional:Free two weeks free-trial P2W",
            "com.revenuecat.annual_39.99.2_week_intro offer-code:TestOffer free-trial P1W for existing, expired, new "
                + "stackable",
        ]),
        ("apple/RevenueCat_purchases-ios_v2.0_SimpleApp_Products.storekit", [.promotional, .offerCode], false, []),
        ("apple/RevenueCat_purchases-ios_v3.0_synced_PurchaseTesterStoreKitConfiguration.storekit",
         [.promotional, .offerCode], false, [
            "test_product1 promotional:test pay-as-you-go P1W×2 US 1.99 USD",
            "test_product1 offer-code:my_offer_code free-trial P3D for existing, expired, new stackable",
            "test_product1 offer-code:my_test_code free-trial P1W for existing not stackable",
            "test_product1 offer-code:test2 pay-as-you-go P1W US 0.99 USD for new stackable",
            "test_refname2 promotional:test_promo free-trial P1M",
            "test_refname2 offer-code:Test free-trial P3D for new stackable",
            "test_refname2 offer-code:Test2 free-trial P1W for existing, new stackable",
            "P1 promotional:Deema_promo_offer_identifier_3 free-trial P3M",
            "P1 promotional:deema_promo_offer_identifier free-trial P1W",
            "P1 promotional:deema_promo2_offer_id pay-as-you-go P1W×3 US 0.99 USD",
            "P1 offer-code:deema-offer-code free-trial P2W for existing, expired, new stackable",
            "P1 offer-code:deema-offer-code-existing-subs free-trial P1M for existing not stackable",
            "P1 offer-code:deema-offer-code-expired-subs-no-intro pay-as-you-go P1W×5 US 0.99 USD for expired not "
                + "stackable",
        ]),
        ("apple/RevenueCat_purchases-ios_v4.0_PaywallsTester_Products.storekit", [.promotional, .offerCode, .winBack], false, [
            "com.revenuecat.simpleapp.monthly promotional:rc-cancel-offer free-trial P1M",
            "com.revenuecat.simpleapp.monthly promotional:rc-refund-offer pay-up-front P1M US 0.99 USD",
            "com.revenuecat.simpleapp.yearly promotional:rc-cancel-offer free-trial P1M",
        ]),
        ("apple/RevenueCat_purchases-ios_v5.0_UnitTestsConfiguration.storekit", [.promotional, .offerCode, .winBack], true,
         revenueCatFile5Lines),
        ("apple/adaptyteam_AdaptySDK-iOS_SKConfig.storekit", [.promotional, .offerCode], false, [
            "monthly.premium.999 promotional:test_promo free-trial P1W",
            "monthly.premium.999 promotional:month_discount pay-up-front P1M US 4.99 USD",
            "sixmonth.premium.999 promotional:threemonth.premium.50off pay-up-front P6M US 6.99 USD",
            "yearly.premium.6999 promotional:promo50off pay-as-you-go P1Y US 29.99 USD",
            "yearly.premium.6999 offer-code:adaptyrules free-trial P1Y for existing, expired, new not stackable",
        ]),
        ("apple/apphud_ApphudSDK_StoreKit.storekit", [.promotional, .offerCode], false, [
            "com.apphud.monthly_promo promotional:com.apphud.monthly_promo_skidos pay-up-front P3M US 0.99 USD",
        ]),
        ("apple/cntrump_SKDemo_Products.storekit", [.promotional, .offerCode], false, []),
        ("apple/russell-archer_StoreHelper_Products.storekit", [.promotional], false, []),
        ("apple/superwall_Superwall-iOS_Superwall_Advanced-Products.storekit", [.promotional, .offerCode, .winBack], false,
         []),
        ("other/RevenueCat_purchases-ios_Configuration.storekit", [.promotional], false, []),
        ("other/RevenueCat_purchases-ios_UnitTestsConfiguration.storekit", [.promotional, .offerCode, .winBack], true,
         revenueCatFile5Lines),
    ] as [(String, Set<Offer.Kind>, Bool, [String])])
    func readsRealFilesOffers(path: String, kinds: Set<Offer.Kind>, carriesPlans: Bool, lines: [String]) throws {
        // Act
        let catalog = try StoreKitOffers.read(RealWorld.url(path), displayPath: path)
        // Assert
        #expect(StoreKitOffers.lines(catalog) == lines)
        #expect(catalog.capabilities.offerKinds == kinds)
        #expect(catalog.capabilities.carriesBillingPlans == carriesPlans)
        // Every subscription states its offers; nothing else has any.
        #expect(catalog.products.allSatisfy { ($0.offers != nil) == ($0.kind == .autoRenewable) })
    }

    /// The demo app's StoreKit side (OFFERS.md "The demo plan"): consistent in `catalogs/demo`; in
    /// `catalogs/demo-drift` an extra win-back offer, one ID on a promotional and a win-back offer of one group,
    /// a free offer with a price, and a commitment price that is not 12 × the monthly one.
    @Test(arguments: [
        ("demo/appstore.storekit", [
            "com.trailmate.app.pro.yearly promotional:spring_promo pay-up-front P3M US 29.99 USD",
            "com.trailmate.app.pro.yearly offer-code:Trail Friends free-trial P1M for expired, new not stackable",
            "com.trailmate.app.pro.yearly win-back:WINBACK6 pay-as-you-go P1M×3",
            "com.trailmate.app.pro.yearly billingPlan:upfront US 59.99 USD commitment US 59.99 USD enabled",
            "com.trailmate.app.pro.yearly billingPlan:monthly US 5.49 USD commitment US 65.88 USD enabled",
            "com.trailmate.app.plus.monthly promotional:loyal_month pay-as-you-go P1M×2 US 3.49 USD",
            "com.trailmate.app.plus.monthly billingPlan:upfront US 6.99 USD commitment US 6.99 USD enabled",
            "com.trailmate.app.basic.weekly billingPlan:upfront US 1.99 USD commitment US 1.99 USD enabled",
        ]),
        ("demo-drift/appstore.storekit", [
            "com.trailmate.app.pro.yearly promotional:spring_promo pay-up-front P3M US 29.99 USD",
            "com.trailmate.app.pro.yearly offer-code:Trail Friends free-trial P1M for expired, new not stackable",
            "com.trailmate.app.pro.yearly win-back:WINBACK6 pay-as-you-go P1M×3",
            "com.trailmate.app.pro.yearly win-back:WINBACK3 pay-as-you-go P1M×3",
            "com.trailmate.app.pro.yearly win-back:RETURN free-trial P1M",
            "com.trailmate.app.pro.yearly billingPlan:upfront US 59.99 USD commitment US 59.99 USD enabled",
            "com.trailmate.app.pro.yearly billingPlan:monthly US 5.49 USD commitment US 60 USD disabled",
            "com.trailmate.app.plus.monthly promotional:loyal_month pay-as-you-go P1M×2 US 3.49 USD",
            "com.trailmate.app.plus.monthly promotional:RETURN pay-as-you-go P1M US 4.99 USD",
            "com.trailmate.app.plus.monthly promotional:free_week free-trial P1W US 0.99 USD",
            "com.trailmate.app.plus.monthly billingPlan:upfront US 7.99 USD commitment US 7.99 USD enabled",
            "com.trailmate.app.basic.weekly billingPlan:upfront US 1.99 USD commitment US 1.99 USD enabled",
        ]),
    ])
    func readsTheDemoOffers(path: String, lines: [String]) throws {
        // Act
        let catalog = try StoreKitOffers.read(Fixtures.catalog(path), displayPath: path)
        // Assert
        #expect(StoreKitOffers.lines(catalog) == lines)
        #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
        #expect(catalog.capabilities.carriesBillingPlans)
    }

    /// RevenueCat's 5.0 unit-test file (in `apple/` and, as the newest copy, in `other/`).
    static let revenueCatFile5Lines = [
        "com.revenuecat.monthly_4.99.1_week_intro promotional:com.revenuecat.monthly_4.99.1_week_intro.year_discount "
            + "pay-up-front P1Y US 40.99 USD",
        "com.revenuecat.monthly_4.99.1_week_intro promotional:com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go "
            + "pay-as-you-go P1M×2 US 20.15 USD",
        "com.revenuecat.monthly_4.99.1_week_intro billingPlan:upfront US 4.99 USD commitment US 4.99 USD enabled",
        "com.revenuecat.annual_39.99.2_week_intro billingPlan:upfront US 39.99 USD commitment US 39.99 USD enabled",
        "com.revenuecat.annual_with_commitment billingPlan:upfront US 0.99 USD commitment US 0.99 USD enabled",
        "com.revenuecat.annual_with_commitment billingPlan:monthly US 0.5 USD commitment US 6 USD enabled",
        "com.revenuecat.annual_39.99_no_trial billingPlan:upfront US 39.99 USD commitment US 39.99 USD enabled",
    ]
}
