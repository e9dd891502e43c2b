import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// The config's offers, billing plans and purchase options (DESIGN.md §4a, §5a.15): what they read into, and the
/// exact message, line and column of every problem.
@Suite("Offer config")
struct OfferConfigTests {
    /// Every offer fixture in `config/invalid/`, with its whole message.
    static let invalid: [ExpectedConfigError] = [
        .init("billing-plan-on-consumable.yml", 5, 5, #"products."com.example.coins".billingPlans: only auto-renewable subscriptions have billing plans (type is consumable)"#),
        .init("offer-bad-currency.yml", 7, 76, #"products."com.example.yearly".offers.spring.price: "DOLLAR" is not an ISO 4217 currency code"#),
        .init("offer-bad-period.yml", 7, 61, #"products."com.example.yearly".offers.WINBACK6.period: "fortnight" is not a period (use P1W, P1M, … or "1 month")"#),
        .init("offer-bad-territory.yml", 11, 19, #"products."com.example.yearly".offers.spring.prices.EU: "EU" is not an ISO 3166-1 territory code"#),
        .init("offer-code-on-one-time.yml", 6, 24, #"products."com.example.maps".offers.FRIENDS.kind: an offer code belongs to an auto-renewable subscription, a consumable or a non-consumable (type is one-time)"#),
        .init("offer-discount-over-100.yml", 6, 71, #"products."premium:yearly".offers.half.discount: "150%" is outside 0–100 % (a percentage strictly between 0 and 100, like 50%)"#),
        .init("offer-discount-territory-twice.yml", 12, 11, #"products."premium:yearly".offers.half.discounts.DEU: DE is listed twice (also as "DE" at line 11, column 11)"#),
        .init("offer-free-phase-with-price.yml", 9, 54, #"products."premium:monthly".offers.trial.phases[0].prices: a free trial has no price"#),
        .init("offer-free-trial-with-price.yml", 11, 16, #"products."com.example.monthly".offers.free_week.price: a free trial has no price"#),
        .init("offer-iap-code-with-mode.yml", 6, 37, #"products."com.example.coins".offers.Comeback.mode: an offer code for an in-app purchase has no mode (it states a price)"#),
        .init("offer-play-on-non-renewing.yml", 6, 21, #"products."com.example.pass".offers.sale.kind: a Play offer belongs to an auto-renewable base plan or a one-time product (type is non-renewing)"#),
        .init("offer-promotional-on-consumable.yml", 6, 22, #"products."com.example.coins".offers.promo.kind: a promotional offer belongs to an auto-renewable subscription (type is consumable)"#),
        .init("offer-three-phases.yml", 11, 13, #"products."premium:monthly".offers.long.phases[2]: an offer has at most 2 phases (this list has 3)"#),
        .init("offer-unknown-key.yml", 7, 66, #"products."com.example.yearly".offers.WINBACK6.duration: unknown key (allowed: kind, state, purchaseOption, mode, period, periods, price, prices, discount, discounts, phases, eligibility, window)"#),
        .init("offer-unknown-kind.yml", 7, 23, #"products."com.example.yearly".offers.spring.kind: "promo" is not an offer kind (promotional, offer-code, win-back or play)"#),
        .init("purchase-option-bad-rent.yml", 6, 25, #"products."com.example.maps".purchaseOptions.rent-30d.rent: "P0D" is not a period (use P1W, P1M, … or "1 month")"#),
    ]

    @Test("an invalid offer, billing plan or purchase option: exactly one problem, whole message at line:column",
          arguments: invalid)
    func invalidOffer(expected: ExpectedConfigError) throws {
        // Arrange
        let path = "config/invalid/\(expected.file)"
        // Act
        let error = try #require(ConfigTesting.error(reading: path))
        // Assert
        #expect(error.problems.count == 1, "\(error)")
        #expect(error.description == "\(path):\(expected.line):\(expected.column): error: \(expected.message)")
    }

    @Test("every problem of a config full of offer mistakes is reported, in file order")
    func everyProblemReported() throws {
        // Act
        let error = try #require(ConfigTesting.error(reading: "config/several-problems/offers.yml"))
        // Assert
        let path = "config/several-problems/offers.yml"
        let yearly = #"products."com.x.yearly""#
        let coins = #"products."com.x.coins""#
        #expect(error.problems.map(\.description) == [
            "\(path):8:18: error: \(yearly).offers.a.kind: \"intro\" is not an offer kind (promotional, offer-code, win-back or play)",
            "\(path):9:69: error: \(yearly).offers.b.price: a free trial has no price",
            "\(path):14:59: error: \(yearly).offers.c.phases[1].discount: \"150%\" is outside 0–100 % (a percentage strictly between 0 and 100, like 50%)",
            "\(path):15:13: error: \(yearly).offers.c.phases[2]: an offer has at most 2 phases (this list has 3)",
            "\(path):16:93: error: \(yearly).offers.d.eligibility.customers[1]: \"churned-spender\" is not a customer kind (new, existing, expired)",
            "\(path):17:62: error: \(yearly).offers.e.discount: only Play offers have discounts (an App Store offer states its price)",
            "\(path):19:42: error: \(yearly).billingPlans.monthly.prices.XX: \"XX\" is not an ISO 3166-1 territory code",
            "\(path):20:7: error: \(yearly).billingPlans.weekly: unknown key (allowed: monthly)",
            "\(path):25:18: error: \(coins).offers.w.kind: a win-back offer belongs to an auto-renewable subscription (type is consumable)",
            "\(path):26:33: error: \(coins).offers.code.mode: an offer code for an in-app purchase has no mode (it states a price)",
            "\(path):27:7: error: \(coins).offers.sale: missing \"purchaseOption\" (the purchaseOptionId the offer discounts, e.g. buy)",
            "\(path):29:18: error: \(coins).purchaseOptions.r.rent: \"P0D\" is not a period (use P1W, P1M, … or \"1 month\")",
            "\(path):30:23: error: \(coins).purchaseOptions.b.rent: use only one of buy and rent (buy is at line 30, column 12)",
        ])
    }

    @Test("more wrong offers, each with its message", arguments: [
        ("{ kind: promotional, mode: pay-up-front, period: P1M, eligibility: { customers: [new] } }",
         "products.\"com.x.yearly\".offers.o.eligibility: a promotional offer has no eligibility (the app decides whom to offer it)"),
        ("{ kind: play, mode: pay-as-you-go, period: P1M, discount: 0% }",
         "products.\"com.x.yearly\".offers.o.discount: \"0%\" is outside 0–100 % (a percentage strictly between 0 and 100, like 50%)"),
        ("{ kind: play, mode: pay-as-you-go, period: P1M, discount: 50 }",
         "products.\"com.x.yearly\".offers.o.discount: \"50\" needs % or a currency, e.g. \"50%\" or \"50 USD\""),
        ("{ kind: play, mode: pay-as-you-go, period: P1M, price: 1.99 USD, discount: 10% }",
         "products.\"com.x.yearly\".offers.o.discount: use only one of price, prices, discount and discounts (price is at line 7, column 58)"),
        ("{ kind: play, phases: [], }",
         "products.\"com.x.yearly\".offers.o.phases: lists no phase (an offer has one or two)"),
        ("{ kind: play, mode: free-trial, period: P7D, phases: [{ mode: free-trial, period: P7D }] }",
         "products.\"com.x.yearly\".offers.o.mode: use either phases or one phase's mode, period, periods, price, prices, discount (phases is at line 7, column 55)"),
        ("{ kind: win-back, mode: free-trial, period: P1M, eligibility: { lapsedMonths: [12, 1] } }",
         "products.\"com.x.yearly\".offers.o.eligibility.lapsedMonths: the minimum 12 is greater than the maximum 1"),
        ("{ kind: play, mode: free-trial, period: P7D, eligibility: { scope: everyone } }",
         "products.\"com.x.yearly\".offers.o.eligibility.scope: \"everyone\" is not a targeting scope (this-subscription, any-subscription or { specific: [subscription IDs] })"),
        ("{ kind: offer-code, mode: free-trial, period: P1M, state: paused }",
         "products.\"com.x.yearly\".offers.o.state: \"paused\" is not a state (active or inactive)"),
        ("{ kind: play, mode: free-trial, period: P7D, purchaseOption: buy }",
         "products.\"com.x.yearly\".offers.o.purchaseOption: only a one-time product's Play offer has a purchaseOption"),
        ("{ kind: promotional, period: P1M }",
         "products.\"com.x.yearly\".offers.o: missing \"mode\" (free-trial, pay-as-you-go or pay-up-front)"),
        ("{ mode: free-trial, period: P1M }",
         "products.\"com.x.yearly\".offers.o: missing \"kind\" (promotional, offer-code, win-back or play)"),
    ])
    func wrongOffer(offer: String, message: String) throws {
        // Arrange
        let text = """
            version: 1
            products:
              com.x.yearly:
                type: auto-renewable
                period: P1Y
                offers:
                  o: \(offer)

            """
        // Act
        let error = try #require(ConfigTesting.error(readingText: text))
        // Assert
        #expect(error.problems.count == 1, "\(error)")
        #expect(error.problems.first?.message == message)
    }

    @Test("valid/offers.yml reads every kind, billing plans and purchase options into the model")
    func validOffers() throws {
        // Act
        let catalog = try ConfigTesting.read("config/valid/offers.yml")
        // Assert
        func product(_ id: String) throws -> Product {
            try #require(catalog.products.first { $0.id.rawValue == id })
        }
        func offer(_ product: Product, _ id: String) throws -> Offer {
            try #require(product.comparableContent().offers?.first { $0.id == id })
        }
        let period = ConfigTesting.period
        let money = ConfigTesting.money
        let us = Territory.unitedStates
        let de = try ConfigTesting.territory("DE")
        let gb = try ConfigTesting.territory("GB")

        let yearly = try product("com.example.app.premium.yearly")
        #expect(yearly.offers?.map(\.key.description)
                    == ["promotional:spring_promo", "win-back:WINBACK6", "offer-code:One Year Free", "play:first-year-half"])
        #expect(try offer(yearly, "spring_promo") == Offer(
            kind: .promotional, id: "spring_promo",
            phases: [OfferPhase(mode: .payUpFront, period: try period("P3M"), periods: 1,
                                prices: [us: try money("29.99", "USD"), de: try money("29.99", "EUR")])],
            isActive: true))
        #expect(try offer(yearly, "WINBACK6") == Offer(
            kind: .winBack, id: "WINBACK6",
            phases: [OfferPhase(mode: .payAsYouGo, period: try period("P1M"), periods: 3,
                                basePrice: try money("4.99", "USD"))],
            eligibility: OfferEligibility(paidMonths: 6, lapsedMonths: 1...12, waitMonths: 3), isActive: true))
        #expect(try offer(yearly, "One Year Free") == Offer(
            kind: .offerCode, id: "One Year Free",
            phases: [OfferPhase(mode: .freeTrial, period: try period("P1Y"), periods: 1)],
            eligibility: OfferEligibility(customers: ["new", "expired"], stackable: false), isActive: false))
        #expect(try offer(yearly, "first-year-half") == Offer(
            kind: .play, id: "first-year-half",
            phases: [OfferPhase(mode: .payAsYouGo, period: try period("P1Y"), periods: 1, discount: .percent(50))],
            eligibility: OfferEligibility(rule: .acquisition, scope: .thisSubscription, oncePerUser: true),
            isActive: true))
        #expect(yearly.billingPlans?.map { BillingPlan(type: $0.type, prices: $0.prices) }
                    == [BillingPlan(type: .monthly, prices: [de: try money("5.49", "EUR"), gb: try money("4.99", "GBP")])])
        #expect(yearly.location(of: .billingPlan(.monthly)).line == 42)
        #expect(yearly.location(of: .offer(OfferKey(kind: .winBack, id: "WINBACK6"))).line == 22)

        let monthly = try product("premium:monthly")
        #expect(try offer(monthly, "intro-then-half").phases == [
            OfferPhase(mode: .freeTrial, period: try period("P1W"), periods: 1),
            OfferPhase(mode: .payAsYouGo, period: try period("P1M"), periods: 3, discount: .percent(50)),
        ])
        #expect(try offer(monthly, "upgrade-deal") == Offer(
            kind: .play, id: "upgrade-deal",
            phases: [OfferPhase(mode: .payAsYouGo, period: try period("P1M"), periods: 1,
                                discounts: [us: .amount(try money("1.00", "USD")), de: .percent(25)])],
            eligibility: OfferEligibility(rule: .upgrade, scope: .specific(["basic", "plus"])), isActive: true))
        #expect(try offer(monthly, "fixed-price").isActive == false)

        let coins = try product("com.example.app.coins.100")
        #expect(try offer(coins, "Coins Comeback") == Offer(
            kind: .offerCode, id: "Coins Comeback", phases: [OfferPhase(prices: [us: try money("0.49", "USD")])],
            eligibility: OfferEligibility(customers: ["churned-spender", "non-spender"]), isActive: true))

        let maps = try product("com.example.app.maps")
        #expect(try offer(maps, "launch-sale") == Offer(
            kind: .play, id: "launch-sale", phases: [OfferPhase(discount: .percent(20))], isActive: true,
            purchaseOption: "buy", window: OfferWindow(start: "2026-11-27T00:00:00Z", end: "2026-12-01T00:00:00Z")))
        #expect(maps.offers?.map(\.key.description) == ["play:buy/launch-sale", "play:rent-30d/rent-deal"])
        #expect(maps.purchaseOptions?.map { PurchaseOption(id: $0.id, kind: $0.kind, prices: $0.prices,
                                                           isActive: $0.isActive) } == [
            PurchaseOption(id: "rent-30d", kind: .rent(period: try period("P30D"), expiration: try period("P2D")),
                           prices: [us: try money("2.99", "USD")], isActive: true),
            PurchaseOption(id: "buy-bundle", kind: .buy(legacyCompatible: false),
                           prices: [us: try money("14.99", "USD"), de: try money("14.99", "EUR")], isActive: false),
        ])

        let lifetime = try product("com.example.app.lifetime")
        #expect(lifetime.offers == [])
        #expect(lifetime.billingPlans == [])
        #expect(lifetime.purchaseOptions == nil)
        #expect(try product("com.example.app.premium.yearly").purchaseOptions == nil)
    }

    @Test("a Play phase may leave its mode out (its terms say what is paid); an App Store offer may not")
    func playPhaseWithoutMode() throws {
        // Arrange
        let text = """
            version: 1
            products:
              "p:m":
                type: auto-renewable
                offers:
                  loyal: { kind: play, period: P1M, periods: 3, discount: 30% }

            """
        // Act
        let catalog = try ConfigTesting.read(text: text)
        // Assert
        #expect(catalog.products.first?.comparableContent().offers == [
            Offer(kind: .play, id: "loyal",
                  phases: [OfferPhase(period: try ConfigTesting.period("P1M"), periods: 3, discount: .percent(30))],
                  isActive: true),
        ])
        let appStore = text.replacingOccurrences(of: "kind: play", with: "kind: promotional")
            .replacingOccurrences(of: ", discount: 30%", with: "")
        #expect(ConfigTesting.error(readingText: appStore)?.problems.map(\.description) == [
            #"products.yml:6:14: error: products."p:m".offers.loyal: missing "mode" (free-trial, pay-as-you-go or pay-up-front)"#,
        ])
    }

    @Test("the JSON form of a config reads the same offers as the YAML form")
    func jsonForm() throws {
        // Arrange
        let yaml = """
            version: 1
            products:
              "p:y":
                type: auto-renewable
                offers:
                  half: { kind: play, phases: [{ mode: free-trial, period: P7D }, { mode: pay-as-you-go, period: P1M, discount: 50% }] }

            """
        let json = """
            {"version": 1, "products": {"p:y": {"type": "auto-renewable", "offers": {"half": {"kind": "play",
             "phases": [{"mode": "free-trial", "period": "P7D"},
                        {"mode": "pay-as-you-go", "period": "P1M", "discount": "50%"}]}}}}}
            """
        // Act
        let fromYAML = try ConfigTesting.read(text: yaml).comparableContent()
        let fromJSON = try ConfigTesting.read(text: json, displayPath: "products.json").comparableContent()
        // Assert
        #expect(fromJSON.products.first?.offers == fromYAML.products.first?.offers)
        #expect(fromYAML.products.first?.offers?.first?.phases.count == 2)
    }
}
