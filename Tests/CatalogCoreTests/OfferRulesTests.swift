import CatalogCore
import Foundation
import Testing

/// Builders for offers, plans and options on small in-memory catalogs (the readers are tested on their own).
enum OfferMake {
    static func money(_ text: String) -> Money {
        let parts = text.split(separator: " ")
        return Money(amount: Money.parseAmount(parts.first ?? "") ?? -1,
                     currency: CurrencyCode(parts.last ?? "") ?? CurrencyCode("XXX")!)
    }

    static func territory(_ code: String) -> Territory { Territory(code: code) ?? .unitedStates }

    static func prices(_ entries: [String: String]) -> [Territory: Money] {
        Dictionary(uniqueKeysWithValues: entries.map { (territory($0.key), money($0.value)) })
    }

    static func period(_ text: String) -> SubscriptionPeriod? { SubscriptionPeriod(iso: text) }

    static func phase(_ mode: IntroOffer.Mode?, _ period: String?, periods: Int? = nil,
                      prices: [String: String] = [:], basePrice: String? = nil, discount: OfferDiscount? = nil,
                      discounts: [String: OfferDiscount] = [:], line: Int? = nil, path: String = "products.yml")
        -> OfferPhase {
        OfferPhase(mode: mode, period: period.flatMap(self.period), periods: periods, prices: self.prices(prices),
                   basePrice: basePrice.map(money), discount: discount,
                   discounts: Dictionary(uniqueKeysWithValues: discounts.map { (territory($0.key), $0.value) }),
                   location: line.map { SourceLocation(path: path, line: $0, column: 9) })
    }

    static func offer(_ kind: Offer.Kind, _ id: String, _ phases: [OfferPhase], eligibility: OfferEligibility? = nil,
                      active: Bool? = nil, state: String? = nil, option: String? = nil, line: Int = 20,
                      path: String = "products.yml") -> Offer {
        Offer(kind: kind, id: id, phases: phases, eligibility: eligibility, isActive: active, stateText: state,
              purchaseOption: option, location: SourceLocation(path: path, line: line, column: 7))
    }

    static func product(_ id: String, _ kind: ProductKind = .autoRenewable, period: String? = "P1Y",
                        group: String? = nil, prices: [String: String] = [:], offers: [Offer]? = nil,
                        plans: [BillingPlan]? = nil, options: [PurchaseOption]? = nil,
                        path: String = "products.yml", line: Int = 10) -> Product {
        let location = SourceLocation(path: path, line: line, column: 3)
        return Product(
            id: ProductID(id), kind: kind, groupKey: group, period: period.flatMap(self.period), offers: offers,
            billingPlans: plans, purchaseOptions: options,
            prices: Dictionary(uniqueKeysWithValues: self.prices(prices).map {
                ($0.key, Price(territory: $0.key, money: $0.value, location: location))
            }),
            listsTerritoryPrices: true, location: location)
    }

    static func config(_ products: [Product], groups: [SubscriptionGroup] = []) -> Catalog {
        Catalog(path: "products.yml", format: .catalog, groups: groups, products: products,
                capabilities: CatalogCapabilities(expressesGroups: true))
    }

    /// A store input that carries every App Store offer kind, billing plans and purchase options.
    static func store(_ products: [Product], groups: [SubscriptionGroup] = [],
                      kinds: Set<Offer.Kind> = [.promotional, .offerCode, .winBack, .play],
                      plans: Bool = true, options: Bool = true, priceable: Set<Territory>? = nil,
                      format: CatalogFormat = .ascJSON) -> Catalog {
        Catalog(path: "store.json", format: format, groups: groups, products: products,
                capabilities: CatalogCapabilities(expressesGroups: true, priceableTerritories: priceable,
                                                  offerKinds: kinds, carriesBillingPlans: plans,
                                                  carriesPurchaseOptions: options))
    }

    /// The spring promotion of the demo plan: pay-up-front P3M, one period, at `price` in the US.
    static func spring(_ price: String = "29.99 USD", path: String = "products.yml", line: Int = 20) -> Offer {
        offer(.promotional, "spring_promo", [phase(.payUpFront, "P3M", periods: 1, prices: ["US": price])],
              line: line, path: path)
    }
}

func offerFindings(_ config: Catalog, _ store: Catalog, territories: Set<Territory>? = nil) -> [Finding] {
    Checker(options: CheckOptions(territories: territories)).check(config: config, stores: [store]).findings
}

/// `rule product field territory expected -> actual`: everything a finding says but its message and locations.
func describe(_ findings: [Finding]) -> [String] {
    findings.map { finding in
        "\(finding.rule.rawValue) \(finding.productID ?? "-") \(finding.field) \(finding.territory?.alpha2 ?? "-") "
            + "\(finding.expected ?? "null") -> \(finding.actual ?? "null")"
    }
}

@Suite("Offer rules: matched offers")
struct OfferComparisonTests {
    typealias M = OfferMake
    let yearly = "com.trailmate.app.pro.yearly"

    @Test("identical offers give no finding")
    func identical() {
        let config = M.config([M.product(yearly, prices: ["US": "59.99 USD"], offers: [M.spring()])])
        let store = M.store([M.product(yearly, prices: ["US": "59.99 USD"], offers: [M.spring(path: "store.json")],
                                       path: "store.json")])
        #expect(offerFindings(config, store).isEmpty)
    }

    @Test("a config offer the store lacks is missing in the store, with the offer's canonical text")
    func missingInStore() throws {
        let config = M.config([M.product(yearly, offers: [M.spring()])])
        let store = M.store([M.product(yearly, offers: [], path: "store.json")])
        let result = offerFindings(config, store)
        #expect(describe(result) == [
            "offer-missing-in-store \(yearly) offer:promotional:spring_promo - pay-up-front P3M 29.99 USD -> null",
        ])
        let finding = try #require(result.first)
        #expect(finding.configLocation == SourceLocation(path: "products.yml", line: 20, column: 7))
        #expect(finding.storeLocation == SourceLocation(path: "store.json", line: 10, column: 3))
        #expect(finding.message
            == "promotional offer 'spring_promo' is in the config but not on the store's product (store.json:10:3)")
    }

    @Test("an offer of a kind the store input does not carry, or on a record without offers, is not compared")
    func kindNotCarried() {
        let config = M.config([M.product(yearly, offers: [M.spring()])])
        let withoutKind = M.store([M.product(yearly, offers: [], path: "store.json")], kinds: [.winBack])
        let withoutOffers = M.store([M.product(yearly, offers: nil, path: "store.json")])
        #expect(offerFindings(config, withoutKind).isEmpty)
        #expect(offerFindings(config, withoutOffers).isEmpty)
    }

    @Test("an inactive config offer is never missing in the store")
    func inactiveConfigOffer() {
        var offer = M.spring()
        offer.isActive = false
        let config = M.config([M.product(yearly, offers: [offer])])
        let store = M.store([M.product(yearly, offers: [], path: "store.json")])
        #expect(offerFindings(config, store).isEmpty)
    }

    @Test("an active store offer is missing in the config only when the config lists offers (offers: {} counts)")
    func missingInConfig() {
        let storeOffers = [
            M.offer(.winBack, "WINBACK3", [M.phase(.payAsYouGo, "P1M", periods: 3)], path: "store.json"),
            M.offer(.promotional, "old_promo", [M.phase(.freeTrial, "P1W")], active: false, state: "INACTIVE",
                    path: "store.json"),
        ]
        let store = M.store([M.product(yearly, offers: storeOffers, path: "store.json")])
        let listsNone = M.config([M.product(yearly, offers: [])])
        let listsNothing = M.config([M.product(yearly, offers: nil)])
        #expect(describe(offerFindings(listsNone, store)) == [
            "offer-missing-in-config \(yearly) offer:win-back:WINBACK3 - null -> pay-as-you-go P1M×3",
        ])
        #expect(offerFindings(listsNothing, store).isEmpty)
    }

    @Test("a price per territory: config `price:` is the base territory's; a config territory the store lacks is null")
    func prices() {
        let configOffer = M.offer(.promotional, "spring_promo", [
            M.phase(.payUpFront, "P3M", prices: ["DE": "29.99 EUR"], basePrice: "24.99 USD"),
        ])
        let storeOffer = M.spring(path: "store.json")
        let config = M.config([M.product(yearly, offers: [configOffer])])
        let store = M.store([M.product(yearly, offers: [storeOffer], path: "store.json")])
        #expect(describe(offerFindings(config, store)) == [
            "offer-mismatch \(yearly) offer:promotional:spring_promo DE pay-up-front P3M 29.99 EUR -> null",
            "offer-mismatch \(yearly) offer:promotional:spring_promo US pay-up-front P3M 24.99 USD -> "
                + "pay-up-front P3M 29.99 USD",
        ])
        // `--territory` limits offer prices like product prices; a .storekit storefront prices the US only.
        #expect(describe(offerFindings(config, store, territories: [M.territory("DE")])).count == 1)
        let storekit = M.store([M.product(yearly, offers: [storeOffer], path: "store.json")],
                               priceable: [M.territory("US")], format: .storekit)
        #expect(describe(offerFindings(config, storekit)).map { $0.contains(" US ") } == [true])
    }

    @Test("mode, period and periods: one finding on the offer with both sides' terms")
    func terms() {
        let configOffer = M.offer(.winBack, "WINBACK6", [M.phase(.payAsYouGo, "P1M", periods: 3)])
        let storeOffer = M.offer(.winBack, "WINBACK6", [M.phase(.payAsYouGo, "P1M", periods: 2)], path: "store.json")
        let config = M.config([M.product(yearly, offers: [configOffer])])
        let store = M.store([M.product(yearly, offers: [storeOffer], path: "store.json")])
        #expect(describe(offerFindings(config, store)) == [
            "offer-mismatch \(yearly) offer:win-back:WINBACK6 - pay-as-you-go P1M×3 -> pay-as-you-go P1M×2",
        ])
    }

    @Test("what a file version lacks is not compared: StoreKit 4.0 win-back periods and prices")
    func storeLacksFields() {
        let configOffer = M.offer(.winBack, "WINBACK6", [M.phase(.payAsYouGo, "P1M", periods: 3,
                                                                  prices: ["US": "3.99 USD"])])
        let storeOffer = M.offer(.winBack, "WINBACK6", [M.phase(.payAsYouGo, "P1M")], path: "store.json")
        let config = M.config([M.product(yearly, offers: [configOffer])])
        let store = M.store([M.product(yearly, offers: [storeOffer], path: "store.json")], format: .storekit)
        #expect(offerFindings(config, store).isEmpty)
    }

    @Test("a store offer in DRAFT against an active config offer: the state only, on field …:state")
    func state() {
        var storeOffer = M.spring("19.99 USD", path: "store.json")
        storeOffer.isActive = false
        storeOffer.stateText = "DRAFT"
        let config = M.config([M.product(yearly, offers: [M.spring()])])
        let store = M.store([M.product(yearly, offers: [storeOffer], path: "store.json")])
        #expect(describe(offerFindings(config, store)) == [
            "offer-mismatch \(yearly) offer:promotional:spring_promo:state - active -> DRAFT",
        ])
        // A config offer marked inactive compares with it in full.
        var inactive = M.spring()
        inactive.isActive = false
        #expect(describe(offerFindings(M.config([M.product(yearly, offers: [inactive])]), store)) == [
            "offer-mismatch \(yearly) offer:promotional:spring_promo US pay-up-front P3M 29.99 USD -> "
                + "pay-up-front P3M 19.99 USD",
        ])
    }

    @Test("eligibility: only the conditions both sides state, on field …:eligibility")
    func eligibility() {
        let configOffer = M.offer(.offerCode, "Trail Friends", [M.phase(.freeTrial, "P1M")],
                                  eligibility: OfferEligibility(customers: ["new", "expired"], stackable: false))
        let storeOffer = M.offer(.offerCode, "Trail Friends", [M.phase(.freeTrial, "P1M")],
                                 eligibility: OfferEligibility(customers: ["new"], paidMonths: 6), path: "store.json")
        let config = M.config([M.product(yearly, offers: [configOffer])])
        let store = M.store([M.product(yearly, offers: [storeOffer], path: "store.json")])
        #expect(describe(offerFindings(config, store)) == [
            "offer-mismatch \(yearly) offer:offer-code:Trail Friends:eligibility - customers: [expired, new] -> "
                + "customers: [new]",
        ])
    }

    @Test("a Play discount the config states everywhere: one finding when the store's regions agree among themselves")
    func playDiscount() {
        let play = "trailmate_plus:pro-yearly"
        let configOffer = M.offer(.play, "first-year-half", [M.phase(.payAsYouGo, "P1Y", discount: .percent(40))])
        let regions: [String: OfferDiscount] = ["US": .percent(50), "DE": .percent(50), "GB": .percent(50)]
        let storeOffer = M.offer(.play, "first-year-half", [M.phase(.payAsYouGo, "P1Y", discounts: regions)],
                                 active: true, path: "play.json")
        let config = M.config([M.product(play, offers: [configOffer])])
        let store = M.store([M.product(play, offers: [storeOffer], path: "play.json")], kinds: [.play],
                            format: .playJSON)
        #expect(describe(offerFindings(config, store)) == [
            "offer-mismatch \(play) offer:play:first-year-half - pay-as-you-go P1Y -40% -> pay-as-you-go P1Y -50%",
        ])
        // Regions that differ among themselves are compared one by one.
        var uneven = storeOffer
        uneven.phases[0].discounts[M.territory("DE")] = .percent(40)
        let unevenStore = M.store([M.product(play, offers: [uneven], path: "play.json")], kinds: [.play],
                                  format: .playJSON)
        #expect(describe(offerFindings(config, unevenStore)) == [
            "offer-mismatch \(play) offer:play:first-year-half GB pay-as-you-go P1Y -40% -> pay-as-you-go P1Y -50%",
            "offer-mismatch \(play) offer:play:first-year-half US pay-as-you-go P1Y -40% -> pay-as-you-go P1Y -50%",
        ])
    }

    @Test("a one-time offer matches under its purchase option")
    func oneTimeOffer() {
        let maps = "com.trailmate.app.offline_maps"
        let configOffer = M.offer(.play, "launch-sale", [M.phase(nil, nil, discount: .percent(20))], option: "buy")
        let storeOffer = M.offer(.play, "launch-sale", [M.phase(nil, nil, discounts: ["US": .percent(20)])],
                                 active: true, option: "rent-30d", path: "play.json")
        let config = M.config([M.product(maps, .oneTime, period: nil, offers: [configOffer])])
        let store = M.store([M.product(maps, .oneTime, period: nil, offers: [storeOffer], path: "play.json")],
                            kinds: [.play], format: .playJSON)
        #expect(describe(offerFindings(config, store)) == [
            "offer-missing-in-config \(maps) offer:play:rent-30d/launch-sale - null -> -20%",
            "offer-missing-in-store \(maps) offer:play:buy/launch-sale - -20% -> null",
        ])
    }
}

@Suite("Offer rules: determinism")
struct OfferDeterminismTests {
    typealias M = OfferMake

    @Test("shuffled offers, phases' territories and products give the same findings, in the same order")
    func shuffled() {
        var generator = SystemRandomNumberGenerator()
        func catalogs(shuffle: Bool) -> (Catalog, Catalog) {
            func maybe<T>(_ items: [T]) -> [T] { shuffle ? items.shuffled(using: &generator) : items }
            let configOffers = maybe([
                M.offer(.promotional, "a", [M.phase(.payUpFront, "P3M", prices: ["US": "9.99 USD", "DE": "9.99 EUR",
                                                                                   "GB": "8.99 GBP"])]),
                M.offer(.promotional, "b", [M.phase(.freeTrial, "P1W")]),
                M.offer(.winBack, "a", [M.phase(.payAsYouGo, "P1M", periods: 2, prices: ["US": "1.99 USD"])]),
            ])
            let storeOffers = maybe([
                M.offer(.promotional, "a", [M.phase(.payUpFront, "P3M", prices: ["US": "8.99 USD", "DE": "8.99 EUR"])],
                        path: "store.json"),
                M.offer(.winBack, "a", [M.phase(.payAsYouGo, "P1M", periods: 3)], path: "store.json"),
                M.offer(.offerCode, "c", [M.phase(.freeTrial, "P1M", prices: ["US": "0.99 USD"])], path: "store.json"),
            ])
            let config = M.config(maybe([M.product("x", offers: configOffers), M.product("y", offers: configOffers)]))
            let store = M.store(maybe([M.product("x", offers: storeOffers, path: "store.json"),
                                       M.product("y", offers: storeOffers, path: "store.json")]))
            return (config, store)
        }
        let (config, store) = catalogs(shuffle: false)
        let expected = offerFindings(config, store)
        #expect(expected.count == 18)
        for _ in 0..<5 {
            let (shuffledConfig, shuffledStore) = catalogs(shuffle: true)
            #expect(offerFindings(shuffledConfig, shuffledStore) == expected)
        }
    }
}

@Suite("Offer rules: each catalog on its own")
struct OfferLintTests {
    typealias M = OfferMake

    @Test("a promotional and a win-back offer with one ID in one group: offer-id-reused, by the config's group key")
    func idReused() throws {
        let group = SubscriptionGroup(key: "plus", name: "Trailmate Plus")
        let storeGroup = SubscriptionGroup(key: "21345678", name: "Trailmate Plus")
        let promo = M.offer(.promotional, "RETURN", [M.phase(.payAsYouGo, "P1M", prices: ["US": "3.99 USD"])],
                            line: 30, path: "store.json")
        let winBack = M.offer(.winBack, "RETURN", [M.phase(.freeTrial, "P1M")], line: 40, path: "store.json")
        let store = M.store([
            M.product("plus.monthly", period: "P1M", group: "21345678", offers: [promo], path: "store.json"),
            M.product("plus.yearly", group: "21345678", offers: [winBack], path: "store.json", line: 35),
        ], groups: [storeGroup])
        let config = M.config([M.product("plus.monthly", period: "P1M", group: "plus")], groups: [group])
        let result = offerFindings(config, store).filter { $0.rule.rawValue.hasPrefix("offer") }
        #expect(describe(result) == ["offer-id-reused plus offer:RETURN - null -> promotional, win-back"])
        let finding = try #require(result.first)
        #expect(finding.message == "offer ID 'RETURN' names a promotional offer on plus.monthly (store.json:30:7) "
            + "and a win-back offer on plus.yearly (store.json:40:7) in one subscription group; Apple requires "
            + "offer IDs unique across the group's offers")
        #expect(finding.storeLocation == SourceLocation(path: "store.json", line: 40, column: 7))
        #expect(finding.storeInput != nil)
        // The config on its own, too; two promotional offers of one ID on two products are not this rule's.
        let configAlone = M.config([
            M.product("a", period: "P1M", group: "plus", offers: [promo]),
            M.product("b", period: "P1M", group: "plus", offers: [winBack]),
            M.product("c", period: "P1M", group: "other", offers: [promo]),
        ], groups: [group])
        #expect(describe(Checker().check(config: configAlone, stores: []).findings)
            == ["offer-id-reused plus offer:RETURN - null -> promotional, win-back"])
    }

    @Test("a free trial with a price: offer-free-with-price per territory, in the store on its own")
    func freeWithPrice() {
        let free = M.offer(.promotional, "free_week", [M.phase(.freeTrial, "P1W", prices: ["US": "0.99 USD"])],
                           path: "store.json")
        let clean = M.offer(.promotional, "free_month", [M.phase(.freeTrial, "P1M")], path: "store.json")
        let store = M.store([M.product("plus.monthly", period: "P1M", offers: [free, clean], path: "store.json")])
        let config = M.config([])
        #expect(describe(offerFindings(config, store)).filter { $0.hasPrefix("offer-free") } == [
            "offer-free-with-price plus.monthly offer:promotional:free_week US free-trial P1W -> free-trial P1W 0.99 USD",
        ])
    }

    @Test("offer-not-a-discount: pay-as-you-go per period, pay-up-front per whole periods, IAP offer codes")
    func notADiscount() {
        let monthly = M.product("plus.monthly", period: "P1M", prices: ["US": "6.99 USD"], offers: [
            M.offer(.promotional, "loyal_month", [M.phase(.payAsYouGo, "P1M", periods: 2, basePrice: "7.99 USD")]),
            M.offer(.promotional, "cheap_month", [M.phase(.payAsYouGo, "P1M", periods: 2, basePrice: "3.49 USD")]),
            M.offer(.promotional, "quarter", [M.phase(.payUpFront, "P3M", basePrice: "20.97 USD")]),
            M.offer(.promotional, "quarter_ok", [M.phase(.payUpFront, "P3M", basePrice: "20.96 USD")]),
            M.offer(.promotional, "weekly", [M.phase(.payAsYouGo, "P1W", basePrice: "6.99 USD")]),
        ])
        let yearly = M.product("pro.yearly", prices: ["US": "54.99 USD"], offers: [
            M.offer(.promotional, "spring_promo", [M.phase(.payUpFront, "P3M", basePrice: "59.99 USD")]),
            M.offer(.play, "half", [M.phase(.payAsYouGo, "P1Y", discount: .percent(0))]),
        ])
        let coins = M.product("coins.500", .consumable, period: nil, prices: ["US": "2.99 USD"], offers: [
            M.offer(.offerCode, "Coins Comeback", [M.phase(nil, nil, prices: ["US": "2.99 USD"])]),
        ])
        let findings = Checker().check(config: M.config([monthly, yearly, coins]), stores: []).findings
        #expect(describe(findings) == [
            "offer-not-a-discount coins.500 offer:offer-code:Coins Comeback US 2.99 USD -> 2.99 USD",
            "offer-not-a-discount plus.monthly offer:promotional:loyal_month US 6.99 USD -> pay-as-you-go P1M×2 7.99 USD",
            "offer-not-a-discount plus.monthly offer:promotional:quarter US 20.97 USD -> pay-up-front P3M 20.97 USD",
        ])
    }
}

@Suite("Billing plan and purchase option rules")
struct BillingPlanRulesTests {
    typealias M = OfferMake
    let yearly = "com.trailmate.app.pro.yearly"

    func plan(_ prices: [String: String], commitment: [String: String] = [:], enabled: Bool? = nil,
              path: String = "products.yml") -> BillingPlan {
        BillingPlan(type: .monthly, prices: M.prices(prices), commitmentPrices: M.prices(commitment),
                    isEnabled: enabled, location: SourceLocation(path: path, line: 50, column: 7))
    }

    @Test("no monthly plan in a store that carries plans: billing-plan-missing-in-store; not carried: nothing")
    func missing() {
        let config = M.config([M.product(yearly, plans: [plan(["DE": "5.49 EUR"])])])
        let store = M.store([M.product(yearly, plans: [], path: "store.json")])
        #expect(describe(offerFindings(config, store)) == [
            "billing-plan-missing-in-store \(yearly) billingPlan:monthly - monthly -> null",
        ])
        #expect(offerFindings(config, M.store([M.product(yearly, plans: [], path: "store.json")], plans: false))
            .isEmpty)
        let disabled = M.store([M.product(yearly, plans: [plan(["DE": "5.49 EUR"], enabled: false)],
                                          path: "store.json")])
        #expect(describe(offerFindings(config, disabled)) == [
            "billing-plan-missing-in-store \(yearly) billingPlan:monthly - monthly -> disabled",
        ])
    }

    @Test("amounts per territory; a config territory the store's plan lacks has actual null")
    func priceMismatch() {
        let config = M.config([M.product(yearly, plans: [plan(["DE": "5.49 EUR", "GB": "6.99 GBP", "FR": "5.49 EUR"])])])
        let store = M.store([M.product(yearly, plans: [plan(["DE": "5.49 EUR", "GB": "4.99 GBP"], path: "store.json")],
                                       path: "store.json")])
        #expect(describe(offerFindings(config, store)) == [
            "billing-plan-price-mismatch \(yearly) billingPlan:monthly FR 5.49 EUR -> null",
            "billing-plan-price-mismatch \(yearly) billingPlan:monthly GB 6.99 GBP -> 4.99 GBP",
        ])
    }

    @Test("12 × the monthly amount outside [yearly, 1.5 × yearly], and a commitment price not 12 × the monthly one")
    func outOfRange() {
        let config = M.config([M.product(yearly, prices: ["GB": "54.99 GBP", "DE": "59.99 EUR", "US": "59.99 USD"],
                                         plans: [plan(["GB": "6.99 GBP", "DE": "5.49 EUR", "US": "4.99 USD"])])])
        let store = M.store([M.product(yearly, prices: ["US": "59.99 USD"], plans: [
            plan(["US": "5.49 USD"], commitment: ["US": "60.00 USD"], path: "store.json"),
        ], path: "store.json")], priceable: [M.territory("US")], format: .storekit)
        #expect(describe(offerFindings(config, store)) == [
            "billing-plan-out-of-range \(yearly) billingPlan:monthly GB [54.99 GBP, 82.485 GBP] -> 83.88 GBP",
            "billing-plan-out-of-range \(yearly) billingPlan:monthly US [59.99 USD, 89.985 USD] -> 59.88 USD",
            "billing-plan-out-of-range \(yearly) billingPlan:monthly:commitment US 65.88 USD -> 60 USD",
            "billing-plan-price-mismatch \(yearly) billingPlan:monthly US 4.99 USD -> 5.49 USD",
        ])
    }

    @Test("purchase options: kind and rent period, prices, an option on one side only")
    func purchaseOptions() {
        let maps = "com.trailmate.app.offline_maps"
        func rent(_ id: String, _ period: String, _ prices: [String: String], active: Bool? = nil) -> PurchaseOption {
            PurchaseOption(id: id, kind: .rent(period: M.period(period)!, expiration: nil), prices: M.prices(prices),
                           isActive: active)
        }
        let config = M.config([M.product(maps, .oneTime, period: nil, options: [
            rent("rent-30d", "P7D", ["US": "2.99 USD"]),
            rent("rent-1y", "P1Y", ["US": "9.99 USD", "DE": "9.99 EUR"]),
        ])])
        let storeOptions = [
            rent("rent-30d", "P30D", ["US": "2.99 USD"]),
            rent("rent-1y", "P1Y", ["US": "8.99 USD"]),
            PurchaseOption(id: "buy-new", kind: .buy(legacyCompatible: false), prices: M.prices(["US": "4.99 USD"])),
            rent("rent-old", "P1D", ["US": "0.99 USD"], active: false),
        ]
        let store = M.store([M.product(maps, .oneTime, period: nil, options: storeOptions, path: "play.json")],
                            kinds: [.play], format: .playJSON)
        #expect(describe(offerFindings(config, store)) == [
            "purchase-option-mismatch \(maps) purchaseOption:buy-new - null -> buy, US 4.99 USD",
            "purchase-option-mismatch \(maps) purchaseOption:rent-30d - rent P1W -> rent P30D",
            "purchase-option-mismatch \(maps) purchaseOption:rent-1y DE 9.99 EUR -> null",
            "purchase-option-mismatch \(maps) purchaseOption:rent-1y US 9.99 USD -> 8.99 USD",
        ])
        let listsNone = M.config([M.product(maps, .oneTime, period: nil, options: nil)])
        #expect(offerFindings(listsNone, store).isEmpty)
    }
}
