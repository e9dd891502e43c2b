import CatalogCore
import Foundation
import Testing

/// Builders for small catalogs, so each test states only what it is about.
private enum Make {
    static func money(_ text: String, _ currency: String) -> Money {
        Money(amount: Money.parseAmount(text) ?? -1, currency: CurrencyCode(currency) ?? usd)
    }

    static let usd: CurrencyCode = CurrencyCode("USD")!

    static func territory(_ code: String) -> Territory {
        Territory(code: code) ?? .unitedStates
    }

    static func prices(_ entries: [(String, String, String)], path: String) -> [Territory: Price] {
        var result: [Territory: Price] = [:]
        for (index, (code, amount, currency)) in entries.enumerated() {
            let territory = territory(code)
            result[territory] = Price(territory: territory, money: money(amount, currency),
                                      location: SourceLocation(path: path, line: 100 + index, column: 5))
        }
        return result
    }

    static func product(_ id: String, _ kind: ProductKind? = .consumable, line: Int = 1, path: String,
                        configure: (inout Product) -> Void = { _ in }) -> Product {
        var product = Product(id: ProductID(id), kind: kind, location: SourceLocation(path: path, line: line, column: 3))
        configure(&product)
        return product
    }

    static func config(_ products: [Product], groups: [SubscriptionGroup] = []) -> Catalog {
        Catalog(path: "products.yml", format: .catalog, groups: groups, products: products,
                capabilities: CatalogCapabilities(expressesGroups: true))
    }

    static func store(_ products: [Product], format: CatalogFormat = .ascJSON, groups: [SubscriptionGroup] = [],
                      capabilities: CatalogCapabilities = CatalogCapabilities(expressesGroups: true)) -> Catalog {
        Catalog(path: "store.json", format: format, groups: groups, products: products, capabilities: capabilities)
    }
}

private func findings(_ config: Catalog, _ store: Catalog, options: CheckOptions = CheckOptions()) -> [Finding] {
    Checker(options: options).check(config: config, stores: [store]).findings
}

/// (rule, product, territory) triples: the identity the contract pins for scenario comparisons.
private func triples(_ findings: [Finding]) -> [String] {
    findings.map { "\($0.rule.rawValue) \($0.productID ?? "-") \($0.territory?.alpha2 ?? "-")" }
}

@Suite("Checker: products")
struct CheckerProductTests {
    @Test("identical catalogs give no finding")
    func identical() {
        let config = Make.config([Make.product("coins", path: "products.yml")])
        let store = Make.store([Make.product("coins", path: "store.json")])
        #expect(findings(config, store).isEmpty)
    }

    @Test("missing on either side, with near-miss hints")
    func missing() {
        let config = Make.config([
            Make.product("com.example.premium.monthly", path: "products.yml"),
            Make.product("gems", path: "products.yml"),
        ])
        let store = Make.store([
            Make.product("com.example.premium.montly", path: "store.json"),
            Make.product("unrelated.thing", path: "store.json"),
        ])
        let result = findings(config, store)
        #expect(triples(result) == [
            "product-missing-in-store com.example.premium.monthly -",
            "product-missing-in-config com.example.premium.montly -",
            "product-missing-in-store gems -",
            "product-missing-in-config unrelated.thing -",
        ].sorted { a, b in
            // Sorted by product ID, then rule.
            let pa = a.split(separator: " ")[1], pb = b.split(separator: " ")[1]
            return pa == pb ? a < b : pa < pb
        })
        #expect(result.first { $0.productID == "com.example.premium.monthly" }?.hint
            == "did you mean 'com.example.premium.montly'?")
        #expect(result.first { $0.productID == "com.example.premium.montly" }?.hint
            == "did you mean 'com.example.premium.monthly'?")
        #expect(result.first { $0.productID == "gems" }?.hint == nil)
    }

    @Test("a case-only difference is hinted")
    func caseHint() {
        let result = findings(Make.config([Make.product("Coins.100", path: "products.yml")]),
                              Make.store([Make.product("coins.100", path: "store.json")]))
        #expect(result.map(\.hint) == ["did you mean 'coins.100'?", "did you mean 'Coins.100'?"])
    }

    @Test("duplicates in the store and config products mapping to one store ID")
    func duplicates() {
        let config = Make.config([
            Make.product("a", path: "products.yml"),
            Make.product("b", path: "products.yml") { $0.storeIDs[.appStore] = ProductID("a") },
        ])
        let store = Make.store([
            Make.product("a", line: 3, path: "store.json"),
            Make.product("a", line: 9, path: "store.json"),
        ])
        let result = findings(config, store)
        #expect(triples(result) == ["duplicate-product-id a -", "duplicate-product-id b -"])
        #expect(result[0].message == "is listed 2 times in the store (lines 3, 9)")
    }

    @Test("storeIds map a config key to the store's ID")
    func storeIDs() {
        let config = Make.config([
            Make.product("premium.monthly", .autoRenewable, path: "products.yml") {
                $0.storeIDs[.play] = ProductID("premium:monthly")
            },
        ])
        let store = Make.store([Make.product("premium:monthly", .autoRenewable, path: "play.json")], format: .playJSON,
                               capabilities: CatalogCapabilities())
        #expect(findings(config, store).isEmpty)
    }

    @Test("products meant for another store are not missing here")
    func storesFilter() {
        let config = Make.config([
            Make.product("ios.only", path: "products.yml") { $0.stores = [.appStore] },
            Make.product("android.only", path: "products.yml") { $0.stores = [.play] },
        ])
        let store = Make.store([Make.product("ios.only", path: "store.json")])
        #expect(findings(config, store).isEmpty)
    }

    @Test("type mismatch, and a type the store does not state is not compared")
    func types() {
        let config = Make.config([
            Make.product("a", .consumable, path: "products.yml"),
            Make.product("b", .consumable, path: "products.yml"),
        ])
        let store = Make.store([
            Make.product("a", .nonConsumable, path: "store.json"),
            Make.product("b", nil, path: "store.json"),
        ])
        let result = findings(config, store)
        #expect(triples(result) == ["type-mismatch a -"])
        #expect(result[0].expected == "consumable")
        #expect(result[0].actual == "non-consumable")
    }
}

@Suite("Checker: prices")
struct CheckerPriceTests {
    @Test("equal decimals and alpha-3 territories agree")
    func equalDecimals() {
        let config = Make.config([Make.product("a", path: "products.yml") {
            $0.prices = Make.prices([("US", "9.99", "USD"), ("DEU", "9.9", "EUR")], path: "products.yml")
        }])
        let store = Make.store([Make.product("a", path: "store.json") {
            $0.prices = Make.prices([("USA", "9.990", "USD"), ("DE", "9.90", "EUR")], path: "store.json")
        }])
        #expect(findings(config, store).isEmpty)
    }

    @Test("mismatch in amount and in currency, with expected/actual and both locations")
    func mismatch() {
        let config = Make.config([Make.product("a", path: "products.yml") {
            $0.prices = Make.prices([("DE", "9.99", "EUR"), ("CH", "9.99", "CHF")], path: "products.yml")
        }])
        let store = Make.store([Make.product("a", path: "store.json") {
            $0.prices = Make.prices([("DE", "8.99", "EUR"), ("CH", "9.99", "EUR")], path: "store.json")
        }])
        let result = findings(config, store)
        #expect(triples(result) == ["price-mismatch a CH", "price-mismatch a DE"])
        let germany = result[1]
        #expect(germany.expected == "9.99 EUR")
        #expect(germany.actual == "8.99 EUR")
        #expect(germany.configLocation == SourceLocation(path: "products.yml", line: 100, column: 5))
        #expect(germany.storeLocation == SourceLocation(path: "store.json", line: 100, column: 5))
        #expect(germany.message == "DE is 8.99 EUR in the store (store.json:100:5), 9.99 EUR in the config")
    }

    @Test("missing prices on either side; price-missing-in-config only with a prices: list")
    func missingPrices() {
        let config = Make.config([
            Make.product("listed", path: "products.yml") {
                $0.prices = Make.prices([("US", "1", "USD"), ("GB", "1", "GBP")], path: "products.yml")
                $0.listsTerritoryPrices = true
            },
            Make.product("single", path: "products.yml") {
                $0.prices = Make.prices([("US", "1", "USD")], path: "products.yml")
            },
        ])
        let store = Make.store([
            Make.product("listed", path: "store.json") {
                $0.prices = Make.prices([("US", "1", "USD"), ("JP", "160", "JPY")], path: "store.json")
            },
            Make.product("single", path: "store.json") {
                $0.prices = Make.prices([("US", "1", "USD"), ("JP", "160", "JPY")], path: "store.json")
            },
        ])
        #expect(triples(findings(config, store)) == [
            "price-missing-in-config listed JP", "price-missing-in-store listed GB",
        ])
    }

    @Test("a store product without prices runs no price rule; priceable territories limit missing prices")
    func storeWithoutPrices() {
        let config = Make.config([Make.product("a", path: "products.yml") {
            $0.prices = Make.prices([("US", "1", "USD"), ("GB", "1", "GBP")], path: "products.yml")
        }, Make.product("b", path: "products.yml") {
            $0.prices = Make.prices([("US", "1", "USD"), ("GB", "1", "GBP")], path: "products.yml")
        }])
        let store = Make.store([
            Make.product("a", path: "a.storekit"),
            Make.product("b", path: "a.storekit") { $0.prices = Make.prices([("US", "1", "USD")], path: "a.storekit") },
        ], format: .storekit, capabilities: CatalogCapabilities(
            expressesGroups: true, priceableTerritories: [.unitedStates], singleStorefront: .unitedStates))
        #expect(triples(findings(config, store)) == ["storekit-single-storefront - US"])
    }

    @Test("--territory limits price comparisons")
    func territoryFilter() {
        let config = Make.config([Make.product("a", path: "products.yml") {
            $0.prices = Make.prices([("US", "1", "USD"), ("GB", "1", "GBP")], path: "products.yml")
        }])
        let store = Make.store([Make.product("a", path: "store.json") {
            $0.prices = Make.prices([("US", "2", "USD"), ("GB", "2", "GBP")], path: "store.json")
        }])
        let result = findings(config, store, options: CheckOptions(territories: [Make.territory("GB")]))
        #expect(triples(result) == ["price-mismatch a GB"])
    }
}

@Suite("Checker: subscriptions")
struct CheckerSubscriptionTests {
    static let groups = [SubscriptionGroup(key: "premium", name: "Premium")]

    func subscription(_ id: String, path: String, period: String = "P1M", group: String = "premium", level: Int = 1,
                      configure: (inout Product) -> Void = { _ in }) -> Product {
        Make.product(id, .autoRenewable, path: path) {
            $0.period = SubscriptionPeriod(iso: period)
            $0.groupKey = group
            $0.level = level
            configure(&$0)
        }
    }

    @Test("P12M equals P1Y; P4W is not P1M")
    func periods() {
        let config = Make.config([
            subscription("yearly", path: "products.yml", period: "P12M"),
            subscription("fourweeks", path: "products.yml", period: "P4W"),
        ], groups: Self.groups)
        let store = Make.store([
            subscription("yearly", path: "store.json", period: "P1Y"),
            subscription("fourweeks", path: "store.json", period: "P1M"),
        ], groups: [SubscriptionGroup(key: "premium", name: "Premium")])
        let result = findings(config, store)
        #expect(triples(result) == ["period-mismatch fourweeks -"])
        #expect(result[0].expected == "P4W")
        #expect(result[0].actual == "P1M")
    }

    @Test("groups match by name; group and level mismatches; missing group")
    func groups() {
        let config = Make.config([
            subscription("a", path: "products.yml"),
            subscription("b", path: "products.yml", group: "pro", level: 2),
        ], groups: Self.groups + [SubscriptionGroup(key: "pro", name: "Pro")])
        let store = Make.store([
            subscription("a", path: "store.json", group: "G1", level: 1),
            subscription("b", path: "store.json", group: "G1", level: 3),
        ], groups: [SubscriptionGroup(key: "G1", name: "Premium")])
        let result = findings(config, store)
        #expect(triples(result) == [
            "group-missing-in-store pro -", "group-level-mismatch b -", "group-mismatch b -",
        ])
        #expect(result[2].expected == "Pro")
        #expect(result[2].actual == "Premium")
    }

    @Test("group rules never run against Play")
    func noGroupsOnPlay() {
        let config = Make.config([subscription("a", path: "products.yml", level: 1)], groups: Self.groups)
        let store = Make.store([subscription("a", path: "play.json", group: "a", level: 2)], format: .playJSON,
                               groups: [SubscriptionGroup(key: "a", name: "a")], capabilities: CatalogCapabilities())
        #expect(findings(config, store).isEmpty)
    }

    @Test("intro offers compare mode and period; price only when both give one")
    func introOffers() throws {
        let week = try #require(SubscriptionPeriod(iso: "P1W"))
        let month = try #require(SubscriptionPeriod(iso: "P1M"))
        let config = Make.config([
            subscription("same", path: "products.yml") { $0.introOffers = [IntroOffer(mode: .freeTrial, period: week)] },
            subscription("other", path: "products.yml") { $0.introOffers = [IntroOffer(mode: .freeTrial, period: week)] },
            subscription("none", path: "products.yml") { $0.introOffers = [IntroOffer(mode: .freeTrial, period: week)] },
            subscription("unknown", path: "products.yml") { $0.introOffers = [IntroOffer(mode: .freeTrial, period: week)] },
        ], groups: Self.groups)
        let store = Make.store([
            subscription("same", path: "s.json") {
                $0.introOffers = [IntroOffer(mode: .freeTrial, period: SubscriptionPeriod(iso: "P7D") ?? month)]
            },
            subscription("other", path: "s.json") { $0.introOffers = [IntroOffer(mode: .payUpFront, period: week)] },
            subscription("none", path: "s.json") { $0.introOffers = [] },
            subscription("unknown", path: "s.json"),
        ], groups: [SubscriptionGroup(key: "premium", name: "Premium")])
        let result = findings(config, store)
        #expect(triples(result) == ["intro-offer-mismatch none -", "intro-offer-mismatch other -"])
        #expect(result[0].actual == nil)
        #expect(result[1].actual == "pay-up-front P1W")
    }

    @Test("intro offer prices compare in the base territory; a storefront elsewhere compares no price")
    func introOfferPrices() throws {
        let month = try #require(SubscriptionPeriod(iso: "P1M"))
        func offer(_ amount: String, _ currency: String, _ territory: String? = nil) -> IntroOffer {
            IntroOffer(mode: .payAsYouGo, period: month, periods: 3, price: Make.money(amount, currency),
                       territory: territory.map(Make.territory))
        }
        let config = Make.config([
            subscription("equal", path: "products.yml") { $0.introOffers = [offer("0.99", "USD")] },
            subscription("cheaper", path: "products.yml") { $0.introOffers = [offer("0.99", "USD")] },
            subscription("per-territory", path: "products.yml") { $0.introOffers = [offer("0.99", "USD")] },
        ], groups: Self.groups)
        let asc = Make.store([
            subscription("equal", path: "s.json") { $0.introOffers = [offer("0.990", "USD", "US")] },
            subscription("cheaper", path: "s.json") { $0.introOffers = [offer("0.49", "USD", "US")] },
            subscription("per-territory", path: "s.json") {
                $0.introOffers = [offer("0.49", "GBP", "GB"), offer("0.99", "USD", "US")]
            },
        ], groups: Self.groups)
        let storefrontGB = Make.store([
            subscription("equal", path: "s.storekit") { $0.introOffers = [offer("0.79", "GBP")] },
            subscription("cheaper", path: "s.storekit") { $0.introOffers = [offer("0.79", "GBP")] },
            subscription("per-territory", path: "s.storekit") { $0.introOffers = [offer("0.79", "GBP")] },
        ], format: .storekit, groups: Self.groups,
           capabilities: CatalogCapabilities(expressesGroups: true, priceableTerritories: [Make.territory("GB")]))

        let againstASC = findings(config, asc)
        let againstStorefrontGB = findings(config, storefrontGB)

        #expect(triples(againstASC) == ["intro-offer-mismatch cheaper -"])
        #expect(againstASC.first?.actual == "pay-as-you-go P1M×3 at 0.49 USD")
        #expect(againstASC.first?.expected == "pay-as-you-go P1M×3 at 0.99 USD")
        #expect(againstStorefrontGB.isEmpty)
    }

    @Test("a free trial longer than the period is reported on each catalog")
    func trialExceedsPeriod() throws {
        let month = try #require(SubscriptionPeriod(iso: "P1M"))
        let config = Make.config([
            subscription("weekly", path: "products.yml", period: "P1W") {
                $0.introOffers = [IntroOffer(mode: .freeTrial, period: month)]
            },
        ], groups: Self.groups)
        let store = Make.store([
            subscription("weekly", path: "s.json", period: "P1W") {
                $0.introOffers = [IntroOffer(mode: .freeTrial, period: month)]
            },
        ], groups: [SubscriptionGroup(key: "premium", name: "Premium")])
        let result = Checker().check(config: config, stores: [store]).findings
        #expect(triples(result) == ["intro-offer-exceeds-period weekly -", "intro-offer-exceeds-period weekly -"])
        #expect(result.map(\.store) == [nil, "store.json"])
    }

    @Test("family sharing, availability and names")
    func flags() {
        let config = Make.config([Make.product("a", .nonConsumable, path: "products.yml") {
            $0.familyShareable = true
            $0.clearedForSale = true
            $0.referenceName = "Lifetime"
        }])
        let store = Make.store([Make.product("a", .nonConsumable, path: "s.json") {
            $0.familyShareable = false
            $0.clearedForSale = false
            $0.referenceName = "Lifetime Unlock"
        }])
        let result = findings(config, store)
        #expect(triples(result) == ["availability-mismatch a -", "family-sharing-mismatch a -", "name-mismatch a -"])
        #expect(result.map(\.severity) == [.warning, .warning, .note])
    }
}

@Suite("Checker: results")
struct CheckResultTests {
    @Test("shuffled inputs give identical findings")
    func determinism() {
        let ids = (0..<40).map { "product.\($0)" }
        var generator = SystemRandomNumberGenerator()
        let configProducts = ids.map { id in Make.product(id, path: "products.yml") {
            $0.prices = Make.prices([("US", "1", "USD"), ("GB", "1", "GBP"), ("JP", "100", "JPY")], path: "products.yml")
        } }
        let storeProducts = ids.dropFirst(3).map { id in Make.product(id, .nonConsumable, path: "s.json") {
            $0.prices = Make.prices([("US", "2", "USD"), ("GB", "1", "GBP")], path: "s.json")
        } } + [Make.product("extra", path: "s.json")]
        let baseline = findings(Make.config(configProducts), Make.store(storeProducts))
        for _ in 0..<5 {
            let shuffled = findings(Make.config(configProducts.shuffled(using: &generator)),
                                    Make.store(storeProducts.shuffled(using: &generator)))
            #expect(shuffled == baseline)
        }
        #expect(baseline.count == 3 + 1 + 37 * 3)
    }
}

@Suite("Checker: many pairs")
struct CheckerManyPairsTests {
    @Test("pairs compared on two cores give the findings, in the order, of pairs compared one by one")
    func twoCores() {
        // 100 pairs: the later 50 are compared on the second core; drift on both sides of the split.
        let ids = (0..<100).map { String(format: "p%03d", $0) }
        let config = Make.config(ids.enumerated().map { index, id in
            Make.product(id, line: index + 1, path: "products.yml") {
                $0.prices = Make.prices([("US", "1.99", "USD"), ("DE", "1.99", "EUR")], path: "products.yml")
            }
        })
        let store = Make.store(ids.enumerated().map { index, id in
            Make.product(id, index == 60 ? .nonConsumable : .consumable, line: index + 1, path: "store.json") {
                let germany = index == 7 || index == 93 ? "2.49" : "1.99"
                $0.prices = Make.prices([("US", index == 93 ? "0.99" : "1.99", "USD"), ("DE", germany, "EUR")],
                                        path: "store.json")
            }
        })

        let result = findings(config, store)

        #expect(triples(result) == [
            "price-mismatch p007 DE", "type-mismatch p060 -", "price-mismatch p093 DE", "price-mismatch p093 US",
        ])
        #expect(result.map(\.actual) == ["2.49 EUR", "non-consumable", "2.49 EUR", "0.99 USD"])
    }
}
