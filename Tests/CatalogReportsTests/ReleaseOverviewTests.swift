import CatalogCore
import CatalogReports
import Testing

@Suite("ReleaseOverview")
struct ReleaseOverviewTests {
    private func price(_ code: String, _ amount: String, _ currency: String) -> (Territory, Price)? {
        guard let territory = Territory(code: code), let value = Money.parseAmount(amount),
              let currency = CurrencyCode(currency) else { return nil }
        return (territory, Price(territory: territory, money: Money(amount: value, currency: currency)))
    }

    private func product(_ id: String, _ kind: ProductKind, prices: [(String, String, String)] = [],
                         configure: (inout Product) -> Void = { _ in }) -> Product {
        var product = Product(id: ProductID(id), kind: kind, location: SourceLocation(path: "p", line: 1, column: 1))
        product.prices = Dictionary(uniqueKeysWithValues: prices.compactMap { price($0.0, $0.1, $0.2) })
        product.listsTerritoryPrices = true
        configure(&product)
        return product
    }

    @Test("statuses per store and a price matrix with the mismatched cells marked")
    func overview() throws {
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "9.99", "EUR")]) {
                $0.period = SubscriptionPeriod(iso: "P1M")
            },
            product("ios.only", .nonConsumable) { $0.stores = [.appStore] },
            product("gone", .consumable),
        ], capabilities: CatalogCapabilities(expressesGroups: true))
        let appStore = Catalog(path: "a.json", format: .ascJSON, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "8.99", "EUR")]),
            product("ios.only", .nonConsumable),
            product("extra", .consumable),
        ])
        let play = Catalog(path: "play", format: .playJSON, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
        ])
        let result = Checker().check(config: config, stores: [appStore, play])
        let overview = ReleaseOverview(config: config, stores: [appStore, play], result: result)

        #expect(overview.stores.map(\.path) == ["a.json", "play"])
        #expect(overview.products.map(\.productID) == ["coins", "extra", "gone", "ios.only", "sub"])
        let statuses = Dictionary(uniqueKeysWithValues: overview.products.map { ($0.productID, $0.statuses) })
        #expect(statuses["coins"] == [.ok, .ok])
        #expect(statuses["extra"] == [.notInConfig, .notSold])
        #expect(statuses["gone"] == [.missingInStore, .missingInStore])
        #expect(statuses["ios.only"] == [.ok, .notSold])
        #expect(statuses["sub"] == [.mismatch, .missingInStore])

        let matrix = try #require(overview.priceMatrices.first { $0.productID == "sub" })
        #expect(matrix.rows.map(\.territory.alpha2) == ["DE", "US"])
        #expect(matrix.rows[0].config?.description == "9.99 EUR")
        #expect(matrix.rows[0].stores.map { $0?.description } == ["8.99 EUR", nil])
        #expect(matrix.rows[0].difference(store: 0)?.text == "-1.00 EUR, -10%")
        #expect(matrix.rows[0].difference(store: 1) == nil)
        #expect(matrix.rows[0].mismatched == [true, false])
        #expect(matrix.rows[1].mismatched == [false, false])
        #expect(overview.priceMatrices.map(\.productID) == ["coins", "sub"])
    }

    @Test("a config product whose Play ID another holds is a duplicate; inputs that print alike keep their columns")
    func duplicatesAndIdentity() {
        // Arrange: coins.b maps to the Play ID coins.a holds; two Play inputs share a path text.
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("coins.a", .consumable, prices: [("US", "4.99", "USD")]) {
                $0.storeIDs = [.play: ProductID("coins")]
            },
            product("coins.b", .consumable, prices: [("US", "7.99", "USD")]) {
                $0.storeIDs = [.play: ProductID("coins")]
            },
        ])
        let clean = Catalog(path: "play", format: .playCSV, products: [
            product("coins", .consumable, prices: [("US", "4.99", "USD")]),
        ])
        let drifted = Catalog(path: "play", format: .playCSV, products: [
            product("coins", .consumable, prices: [("US", "5.99", "USD")]),
        ])
        let result = Checker().check(config: config, stores: [clean, drifted])

        // Act
        let overview = ReleaseOverview(config: config, stores: [clean, drifted], result: result)

        // Assert
        #expect(overview.stores.map(\.input) == [StoreInputID(position: 0), StoreInputID(position: 1)])
        #expect(overview.products.map { "\($0.productID) \($0.statuses.map(\.rawValue)) \($0.findings)" } == [
            #"coins.a ["ok", "mismatch"] [0, 1]"#,
            #"coins.b ["duplicate ID", "duplicate ID"] [1, 1]"#,
        ])
        #expect(overview.priceMatrices.map { matrix in
            "\(matrix.productID) " + matrix.rows.map {
                "\($0.territory.alpha2) \($0.config?.description ?? "-") \($0.stores.map { $0?.description }) \($0.mismatched)"
            }
                .joined()
        } == [
            #"coins.a US 4.99 USD [Optional("4.99 USD"), Optional("5.99 USD")] [false, true]"#,
            #"coins.b US 7.99 USD [nil, nil] [false, false]"#,
        ])
    }

    @Test("a cell is compared only where the store has the product with prices and can price the territory")
    func comparedCells() throws {
        // Arrange: a .storekit-like input pricing US only, a Play input without `sub`, and `sub`'s intro offer.
        let week = try #require(SubscriptionPeriod(iso: "P1W"))
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "9.99", "EUR")]) {
                $0.period = SubscriptionPeriod(iso: "P1M")
                $0.introOffers = [IntroOffer(mode: .freeTrial, period: week)]
            },
            product("gone", .consumable, prices: [("US", "0.99", "USD")]),
        ])
        let us = try #require(Territory(code: "US"))
        let storeKit = Catalog(path: "a.storekit", format: .storekit, products: [
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD")]),
        ], capabilities: CatalogCapabilities(priceableTerritories: [us]))
        let play = Catalog(path: "play", format: .playJSON, products: [])
        let result = Checker().check(config: config, stores: [storeKit, play])

        // Act
        let overview = ReleaseOverview(config: config, stores: [storeKit, play], result: result)

        // Assert
        let sub = try #require(overview.priceMatrices.first { $0.productID == "sub" })
        #expect(sub.rows.map { "\($0.territory.alpha2) \($0.compared)" } == ["DE [false, false]", "US [true, false]"])
        #expect(overview.product("sub")?.introOffer == "free-trial P1W")
        #expect(overview.product("gone")?.introOffer == nil)
        let gone = try #require(overview.priceMatrices.first { $0.productID == "gone" })
        #expect(gone.rows.map(\.compared) == [[false, false]])
    }

    @Test("the picture at a glance is counted per product: attention, differing prices, nowhere, only in stores")
    func glance() {
        // Arrange: `sub` differs in one price in one store; `gone` is in no store; `extra` only in a store.
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "9.99", "EUR")]),
            product("gone", .consumable),
        ])
        let appStore = Catalog(path: "a.json", format: .ascJSON, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]),
            product("sub", .autoRenewable, prices: [("US", "9.99", "USD"), ("DE", "8.99", "EUR")]),
            product("extra", .consumable),
        ])
        let result = Checker().check(config: config, stores: [appStore])

        // Act
        let overview = ReleaseOverview(config: config, stores: [appStore], result: result)

        // Assert
        #expect(overview.products.map { "\($0.productID) \($0.needsAttention)" }
                == ["coins false", "extra true", "gone true", "sub true"])
        #expect(overview.productsNeedingAttention == 3)
        #expect(overview.differingPrices == 1)
        #expect(overview.productsInNoStore == 1)
        #expect(overview.productsOnlyInStores == 1)
        #expect(overview.matricesDifferingFirst.map(\.productID) == ["sub", "coins"])
        #expect(overview.stores.map(\.label) == ["App Store"])
    }

    @Test("IDs that differ only in look-alike characters are paired, with the offsets where they differ")
    func lookAlikes() {
        // Arrange: the demo's drift, a config ID with letters O where the store has digits 0.
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("com.trailmate.app.coins.5OO", .consumable), product("com.trailmate.app.coins.100", .consumable),
        ])
        let store = Catalog(path: "play", format: .playJSON, products: [
            product("com.trailmate.app.coins.500", .consumable), product("com.trailmate.app.coins.100", .consumable),
        ])
        let result = Checker().check(config: config, stores: [store])

        // Act
        let overview = ReleaseOverview(config: config, stores: [store], result: result)

        // Assert
        let marked = overview.products.map { row in
            "\(row.productID) \(row.lookAlike.map { "\($0.other) \($0.offsets)" } ?? "-")"
        }
        #expect(marked == ["com.trailmate.app.coins.100 -",
                           "com.trailmate.app.coins.500 com.trailmate.app.coins.5OO [25, 26]",
                           "com.trailmate.app.coins.5OO com.trailmate.app.coins.500 [25, 26]"])
        #expect(overview.product("com.trailmate.app.coins.5OO")?.lookAlike?.description
                == "letter 'O' where the other has digit '0', twice, from character 26")
        #expect(overview.stores.map(\.label) == ["Google Play"])
    }

    @Test("a price difference: amount with the prices' decimals, percent as diff rounds it, + when the store is higher",
          arguments: [
              ("6.99", "USD", "7.99", "USD", "+1.00 USD, +14.3%"),
              ("64.99", "EUR", "59.99", "EUR", "-5.00 EUR, -7.7%"),
              ("9800", "JPY", "10000", "JPY", "+200 JPY, +2%"),
              ("0", "USD", "0.99", "USD", "+0.99 USD"),
              ("9.99", "USD", "9.99", "EUR", "other currency"),
          ])
    func difference(config: String, configCurrency: String, store: String, storeCurrency: String, expected: String) throws {
        let before = Money(amount: try #require(Money.parseAmount(config)), currency: try #require(CurrencyCode(configCurrency)))
        let after = Money(amount: try #require(Money.parseAmount(store)), currency: try #require(CurrencyCode(storeCurrency)))
        #expect(PriceDifference(config: before, store: after).text == expected)
    }

    @Test("a product's offers, billing plans and purchase options are listed, one line each, base territory's price")
    func offers() throws {
        // Arrange
        let us = try #require(Territory(code: "US"))
        let usd = try #require(CurrencyCode("USD"))
        func dollars(_ amount: String) throws -> Money {
            Money(amount: try #require(Money.parseAmount(amount)), currency: usd)
        }
        let offers = [
            Offer(kind: .winBack, id: "come_back", phases: [OfferPhase(mode: .freeTrial, period: SubscriptionPeriod(iso: "P1M"))],
                  isActive: false, stateText: "INACTIVE"),
            Offer(kind: .promotional, id: "spring_promo",
                  phases: [OfferPhase(mode: .payUpFront, period: SubscriptionPeriod(iso: "P3M"), periods: 1,
                                      prices: [us: try dollars("29.99")])]),
        ]
        let plan = BillingPlan(type: .monthly, prices: [us: try dollars("5.99")])
        let rental = PurchaseOption(id: "rent-30d", kind: .rent(period: try #require(SubscriptionPeriod(iso: "P30D")), expiration: nil),
                                    prices: [us: try dollars("1.99")])
        let subscription = product("pro", .autoRenewable, prices: [("US", "59.99", "USD")]) {
            $0.offers = offers
            $0.billingPlans = [plan]
        }
        let movie = product("movie", .nonConsumable) { $0.purchaseOptions = [rental] }
        let config = Catalog(path: "products.yml", format: .catalog, products: [subscription, movie])

        // Act
        let overview = ReleaseOverview(config: config, stores: [], result: Checker().check(config: config, stores: []))

        // Assert
        #expect(overview.product("pro")?.offers == ["spring_promo (promotional, pay-up-front P3M 29.99 USD)",
                                                    "come_back (win-back, free-trial P1M, inactive)",
                                                    "monthly billing plan (5.99 USD a month)"])
        #expect(overview.product("movie")?.offers == ["rent-30d (rent P30D, 1.99 USD)"])
    }

    @Test("each price says how it is set (equalized, manual, the next scheduled change), and a table its age")
    func originsAndPricePointAge() throws {
        // Arrange: the config prices US and leaves the rest to the store; the store sets US by hand, derives DE
        // and schedules US ahead; its price-point table was fetched 8 days before --as-of.
        let us = try #require(Territory(code: "US"))
        let de = try #require(Territory(code: "DE"))
        let usd = try #require(CurrencyCode("USD"))
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD")]) {
                $0.listsTerritoryPrices = false
                $0.equalizesOtherTerritories = true
            },
        ])
        var store = Catalog(path: "asc", format: .ascJSON, products: [
            product("coins", .consumable, prices: [("US", "0.99", "USD"), ("DE", "0.99", "EUR")]) {
                $0.priceOrigins = [us: .manual, de: .automatic]
                $0.uncomparedPrices = [UncomparedPrice(label: UncomparedPrice.scheduledLabel, territory: us,
                                                       amount: Money(amount: 1.29, currency: usd),
                                                       startDate: CalendarDate(year: 2027, month: 1, day: 15))]
            },
        ])
        store.pricePoints = PricePointTable(
            points: [.inAppPurchase: [us: PricePointTable.Points(currency: usd, amounts: [0.99, 1.29])]],
            fetchedOn: CalendarDate(year: 2026, month: 11, day: 14), location: SourceLocation(path: "asc"))

        // Act
        let overview = ReleaseOverview(config: config, stores: [store],
                                       result: Checker().check(config: config, stores: [store]),
                                       asOf: CalendarDate(year: 2026, month: 11, day: 22))

        // Assert
        let rows = try #require(overview.priceMatrices.first?.rows)
        #expect(rows.map(\.territory.alpha2) == ["DE", "US"])
        #expect(rows.map(\.configOrigin) == ["equalized", nil])
        #expect(rows.map(\.storeOrigins) == [["equalized"], ["manual; 1.29 USD from 2027-01-15"]])
        #expect(overview.stores.first?.pricePoints == "price points of 2026-11-14 (8 days before --as-of), 1 territory")
    }
}
