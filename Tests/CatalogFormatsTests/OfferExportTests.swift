import CatalogCore
import CatalogFormats
@testable import CatalogReports
import Foundation
import TestSupport
import Testing

/// `export` writes offers, billing plans and purchase options in the config's §4a shape, from a config and from a
/// store-like catalog, deterministically; reading the YAML back gives the same offers.
@Suite("Offer export")
struct OfferExportTests {
    /// A product's offers without locations, sorted by key (the export sorts them by ID).
    static func offers(of product: Product?) -> [Offer]? {
        product?.comparableContent().offers?.sorted { $0.key < $1.key }
    }

    @Test("export (YAML) of a config with every kind, read back, has equal offers, plans and options")
    func configRoundTrip() throws {
        // Arrange
        let original = try ConfigTesting.read("config/valid/offers.yml")
        // Act
        let text = CatalogYAMLExporter().export(original)
        let back = try ConfigTesting.read(text: text, displayPath: "exported.yml")
        // Assert
        #expect(back.products.count == original.products.count)
        for product in original.products {
            let read = back.products.first { $0.id == product.id }
            #expect(Self.offers(of: read) == Self.offers(of: product), "\(product.id)")
            #expect(read?.comparableContent().billingPlans == product.comparableContent().billingPlans)
            #expect(read?.comparableContent().purchaseOptions?.sorted { $0.id < $1.id }
                        == product.comparableContent().purchaseOptions?.sorted { $0.id < $1.id })
        }
        #expect(back.products.reduce(0) { $0 + ($1.offers?.count ?? 0) } == 10)
        // Exporting again gives the same text: the export is a fixed point.
        #expect(CatalogYAMLExporter().export(back).replacingOccurrences(of: "exported.yml", with: original.path)
                    == text)
    }

    @Test("a store-like catalog's offers export in the §4a shape and read back; what the config cannot hold is a comment")
    func storeLikeYAML() throws {
        // Arrange
        let store = try Self.storeLikeCatalog()
        // Act
        let text = CatalogYAMLExporter().export(store)
        let back = try ConfigTesting.read(text: text, displayPath: "store.yml")
        // Assert
        #expect(text.contains("""
              com.example.yearly:
                type: auto-renewable
                group: plus
                period: P1Y
                price: 59.99 USD
                offers:
                  # win-back:RETURN: its ID is also the key of another offer; not exported
                  RETURN:
                    kind: promotional
                    mode: pay-as-you-go
                    period: P1M
                    periods: 2
                    prices:
                      US: 3.49 USD
                  WINBACK3:
                    kind: win-back
                    mode: free-trial
                    period: P1M
                  first-year-half:
                    kind: play
                    state: inactive
                    # play:first-year-half: state in the source: DRAFT
                    phases:
                      - mode: free-trial
                        period: P1W
                      - mode: pay-as-you-go
                        period: P1Y
                        discounts:
                          DE: 1 EUR
                          US: "50%"
                    eligibility:
                      rule: acquisition
                      scope: this-subscription
                billingPlans:
                  # monthly billing plan commitment: US 65.88 USD
                  # upfront billing plan (the subscription's own price): US 59.99 USD
                  monthly:
                    prices:
                      US: 5.49 USD

            """))
        let yearly = try #require(back.products.first { $0.id.rawValue == "com.example.yearly" })
        let storeYearly = try #require(store.products.first { $0.id.rawValue == "com.example.yearly" })
        // The win-back offer without a period count reads back with the config's default of 1; the store's
        // offer without a state reads back active (the config's default); the rest is equal.
        var expected = try #require(Self.offers(of: storeYearly)).filter { $0.key.description != "win-back:RETURN" }
        for index in expected.indices {
            expected[index].isActive = expected[index].isActive ?? true
            expected[index].stateText = nil
            for phase in expected[index].phases.indices where expected[index].phases[phase].mode != nil {
                expected[index].phases[phase].periods = expected[index].phases[phase].periods ?? 1
            }
        }
        #expect(Self.offers(of: yearly) == expected)
        #expect(yearly.comparableContent().billingPlans
                    == [BillingPlan(type: .monthly, prices: [.unitedStates: try ConfigTesting.money("5.49", "USD")])])
        let maps = try #require(back.products.first { $0.id.rawValue == "com.example.maps" })
        #expect(maps.comparableContent().purchaseOptions == [
            PurchaseOption(id: "rent-7d", kind: .rent(period: try ConfigTesting.period("P7D"), expiration: nil),
                           prices: [.unitedStates: try ConfigTesting.money("0.99", "USD")], isActive: true),
        ])
        #expect(Self.offers(of: maps)?.map(\.key.description) == ["play:buy/launch-sale"])
        #expect(text.contains("      # buy: the legacy-compatible buy option (the product's prices); not exported\n"))
        let coins = try #require(back.products.first { $0.id.rawValue == "com.example.coins" })
        #expect(coins.offers == [])
    }

    @Test("JSON export: offers, billing plans and purchase options in the §4a shape, notes in $comment")
    func storeLikeJSON() throws {
        // Arrange
        let store = try Self.storeLikeCatalog()
        // Act
        let text = CatalogJSONExporter().export(store)
        // Assert
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let products = try #require(object["products"] as? [String: [String: Any]])
        let yearly = try #require(products["com.example.yearly"])
        let offers = try #require(yearly["offers"] as? [String: Any])
        #expect(offers.keys.sorted() == ["RETURN", "WINBACK3", "first-year-half"])
        #expect(offers["RETURN"] as? NSDictionary == [
            "kind": "promotional", "mode": "pay-as-you-go", "period": "P1M", "periods": 2,
            "prices": ["US": "3.49 USD"],
        ] as NSDictionary)
        #expect(offers["first-year-half"] as? NSDictionary == [
            "kind": "play", "state": "inactive",
            "phases": [["mode": "free-trial", "period": "P1W"],
                       ["mode": "pay-as-you-go", "period": "P1Y", "discounts": ["DE": "1 EUR", "US": "50%"]]],
            "eligibility": ["rule": "acquisition", "scope": "this-subscription"],
        ] as NSDictionary)
        #expect(yearly["billingPlans"] as? NSDictionary == ["monthly": ["prices": ["US": "5.49 USD"]]] as NSDictionary)
        #expect(yearly["$comment"] as? [String] == [
            "win-back:RETURN: its ID is also the key of another offer; not exported",
            "monthly billing plan commitment: US 65.88 USD",
            "upfront billing plan (the subscription's own price): US 59.99 USD",
            "play:first-year-half: state in the source: DRAFT",
        ])
        let maps = try #require(products["com.example.maps"])
        #expect(maps["purchaseOptions"] as? NSDictionary
                    == ["rent-7d": ["rent": "P1W", "prices": ["US": "0.99 USD"]]] as NSDictionary)
        #expect((maps["offers"] as? NSDictionary)
                    == ["launch-sale": ["kind": "play", "purchaseOption": "buy", "discount": "20%",
                                        "window": ["start": "2026-11-27T00:00:00Z"]]] as NSDictionary)
        let coins = try #require(products["com.example.coins"])
        #expect(coins["offers"] as? NSDictionary == [:] as NSDictionary)
        #expect(coins["billingPlans"] == nil)
    }

    @Test("the JSON export's offers, plans and options read back as a config like the YAML's")
    func jsonIsConfigShape() throws {
        // Arrange
        let original = try ConfigTesting.read("config/valid/offers.yml")
        let exported = CatalogJSONExporter().export(original)
        // Act
        let fromJSON = try ConfigTesting.read(text: exported, displayPath: "x.json")
        // Assert
        #expect(fromJSON.products.count == 5)
        for product in original.products {
            let read = fromJSON.products.first { $0.id == product.id }
            #expect(Self.offers(of: read) == Self.offers(of: product), "\(product.id)")
            #expect(read?.comparableContent().billingPlans == product.comparableContent().billingPlans)
            #expect(Set(read?.comparableContent().purchaseOptions ?? [])
                        == Set(product.comparableContent().purchaseOptions ?? []))
        }
    }

    @Test("offer and option IDs that need quoting survive the YAML round trip")
    func trickyIDs() throws {
        // Arrange
        let ids = ["premium:monthly", "NO", "1234", "a # b", "- dash", "[list]", "quote\"d", "Münzen", "tab\there",
                   " leading", "x,y", "{map}", "@at", "null", "50%"]
        var product = Product(id: ProductID("com.x.maps"), kind: .oneTime, location: SourceLocation(path: ""))
        product.offers = ids.map { id in
            Offer(kind: .play, id: id, phases: [OfferPhase(discount: .percent(10))], isActive: true,
                  purchaseOption: id)
        }
        product.purchaseOptions = ids.map { id in
            PurchaseOption(id: id, kind: .buy(legacyCompatible: false), isActive: true)
        }
        var yearly = Product(id: ProductID("com.x.yearly"), kind: .autoRenewable, location: SourceLocation(path: ""))
        yearly.offers = [Offer(kind: .play, id: "targeted", phases: [OfferPhase(mode: .freeTrial,
                                                                                   period: try ConfigTesting.period("P1W"),
                                                                                   periods: 1)],
                               eligibility: OfferEligibility(rule: .upgrade, scope: .specific(ids)), isActive: true)]
        let catalog = Catalog(path: "tricky", format: .catalog, products: [product, yearly])
        // Act
        let back = try ConfigTesting.read(text: CatalogYAMLExporter().export(catalog), displayPath: "tricky.yml")
        // Assert
        #expect(Self.offers(of: back.products.first) == Self.offers(of: product))
        #expect(Set(back.products.first?.comparableContent().purchaseOptions ?? []) == Set(product.purchaseOptions ?? []))
        #expect(Self.offers(of: back.products.last) == Self.offers(of: yearly))
    }

    @Test("the offer export does not depend on the order of offers, phases' territories, plans or options")
    func determinism() throws {
        // Arrange
        let store = try Self.storeLikeCatalog()
        var reversed = store
        for index in reversed.products.indices {
            reversed.products[index].offers?.reverse()
            reversed.products[index].billingPlans?.reverse()
            reversed.products[index].purchaseOptions?.reverse()
        }
        // Act and assert
        #expect(CatalogYAMLExporter().export(reversed) == CatalogYAMLExporter().export(store))
        #expect(CatalogJSONExporter().export(reversed) == CatalogJSONExporter().export(store))
    }

    // MARK: - Fixtures

    /// A catalog like the store readers make: StoreKit-style offers without state or period count, a Play offer
    /// in DRAFT with per-region discounts, a promotional and a win-back offer sharing an ID, billing plans with a
    /// commitment price and an upfront plan, a legacy-compatible buy option beside a rental.
    static func storeLikeCatalog() throws -> Catalog {
        let path = "store.storekit"
        let us = Territory.unitedStates
        let de = try ConfigTesting.territory("DE")
        let money = ConfigTesting.money
        let period = ConfigTesting.period
        var yearly = Product(id: ProductID("com.example.yearly"), kind: .autoRenewable,
                             location: SourceLocation(path: path, line: 3))
        yearly.groupKey = "plus"
        yearly.period = try period("P1Y")
        yearly.prices = [us: Price(territory: us, money: try money("59.99", "USD"))]
        yearly.offers = [
            Offer(kind: .winBack, id: "WINBACK3", phases: [OfferPhase(mode: .freeTrial, period: try period("P1M"))],
                  location: SourceLocation(path: path, line: 10)),
            Offer(kind: .promotional, id: "RETURN",
                  phases: [OfferPhase(mode: .payAsYouGo, period: try period("P1M"), periods: 2,
                                      prices: [us: try money("3.49", "USD")])]),
            Offer(kind: .winBack, id: "RETURN", phases: [OfferPhase(mode: .freeTrial, period: try period("P1W"))]),
            Offer(kind: .play, id: "first-year-half",
                  phases: [OfferPhase(mode: .freeTrial, period: try period("P7D"), periods: 1),
                           OfferPhase(mode: .payAsYouGo, period: try period("P1Y"), periods: 1,
                                      discounts: [us: .percent(50), de: .amount(try money("1.00", "EUR"))])],
                  eligibility: OfferEligibility(rule: .acquisition, scope: .thisSubscription),
                  isActive: false, stateText: "DRAFT"),
        ]
        yearly.billingPlans = [
            BillingPlan(type: .upfront, prices: [us: try money("59.99", "USD")], isEnabled: true),
            BillingPlan(type: .monthly, prices: [us: try money("5.49", "USD")],
                        commitmentPrices: [us: try money("65.88", "USD")], isEnabled: true),
        ]
        var maps = Product(id: ProductID("com.example.maps"), kind: .oneTime,
                           location: SourceLocation(path: path, line: 40))
        maps.prices = [us: Price(territory: us, money: try money("9.99", "USD"))]
        maps.purchaseOptions = [
            PurchaseOption(id: "rent-7d", kind: .rent(period: try period("P7D"), expiration: nil),
                           prices: [us: try money("0.99", "USD")], isActive: true),
            PurchaseOption(id: "buy", kind: .buy(legacyCompatible: true), prices: [us: try money("9.99", "USD")],
                           isActive: true),
        ]
        maps.offers = [
            Offer(kind: .play, id: "launch-sale", phases: [OfferPhase(discount: .percent(20))], isActive: true,
                  purchaseOption: "buy", window: OfferWindow(start: "2026-11-27T00:00:00Z")),
        ]
        var coins = Product(id: ProductID("com.example.coins"), kind: .consumable,
                            location: SourceLocation(path: path, line: 50))
        coins.prices = [us: Price(territory: us, money: try money("0.99", "USD"))]
        coins.offers = []
        return Catalog(path: path, format: .storekit, groups: [SubscriptionGroup(key: "plus", name: "plus")],
                       products: [yearly, maps, coins])
    }
}
