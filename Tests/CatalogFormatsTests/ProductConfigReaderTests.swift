import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

@Suite("ProductConfigReader")
struct ProductConfigReaderTests {
    // MARK: - The rich valid fixture

    /// What `config/valid/rich.yml` and `rich.json` say, without locations.
    static func richCatalog() throws -> Catalog {
        typealias T = ConfigTesting
        func prices(_ list: [(String, String, String)]) throws -> [Territory: Price] {
            var result: [Territory: Price] = [:]
            for (territory, amount, currency) in list {
                let (place, price) = try T.price(territory, amount, currency)
                result[place] = price
            }
            return result
        }
        func product(_ id: String) -> Product { Product(id: ProductID(id), location: SourceLocation(path: "")) }

        var coins = product("com.example.app.coins.100")
        coins.kind = .consumable
        coins.referenceName = "100 Coins"
        coins.prices = try prices([("GB", "0.99", "GBP")])

        var lifetime = product("com.example.app.lifetime")
        lifetime.kind = .nonConsumable
        lifetime.referenceName = "Lifetime Unlock"
        lifetime.prices = try prices([("US", "9.99", "USD")])
        lifetime.familyShareable = true
        lifetime.clearedForSale = false

        var monthly = product("com.example.app.premium.monthly")
        monthly.kind = .autoRenewable
        monthly.referenceName = "Premium: Monthly"
        monthly.groupKey = "premium"
        monthly.level = 1
        monthly.period = try T.period("P1M")
        monthly.familyShareable = true
        monthly.clearedForSale = true
        monthly.introOffers = [IntroOffer(mode: .freeTrial, period: try T.period("P1W"))]
        monthly.prices = try prices([("US", "9.99", "USD"), ("GB", "8.99", "GBP"), ("DE", "9.99", "EUR"),
                                     ("FR", "9.99", "EUR"), ("JP", "1200", "JPY"), ("CH", "10", "CHF")])
        monthly.listsTerritoryPrices = true
        monthly.storeIDs = [.play: ProductID("premium:monthly")]
        monthly.stores = [.appStore, .play]

        var weekly = product("com.example.app.premium.weekly")
        weekly.kind = .autoRenewable
        weekly.groupKey = "premium"
        weekly.level = 2
        weekly.period = try T.period("P1W")
        weekly.introOffers = [IntroOffer(mode: .payAsYouGo, period: try T.period("P1M"), periods: 3,
                                         price: try T.money("0.99", "GBP"))]
        weekly.prices = try prices([("GB", "1.99", "GBP")])

        var quarterly = product("com.example.app.premium.quarterly")
        quarterly.kind = .autoRenewable
        quarterly.groupKey = "pro"
        quarterly.period = try T.period("P3M")
        quarterly.introOffers = [IntroOffer(mode: .payUpFront, period: try T.period("P2M"),
                                            price: try T.money("4.5", "GBP"))]
        quarterly.prices = try prices([("US", "49.99", "USD")])

        var yearly = product("com.example.app.premium.yearly")
        yearly.kind = .autoRenewable
        yearly.groupKey = "premium"
        yearly.level = 3
        yearly.period = try T.period("P1Y")
        yearly.prices = try prices([("US", "99.99", "USD"), ("KR", "119000", "KRW")])
        yearly.listsTerritoryPrices = true
        yearly.stores = [.play]

        var biweekly = product("com.example.app.basic.biweekly")
        biweekly.kind = .autoRenewable
        biweekly.groupKey = "basic"
        biweekly.period = try T.period("P2W")

        var pass = product("com.example.app.pass.month")
        pass.kind = .nonRenewing
        pass.referenceName = "30-Day Pass"
        pass.period = try T.period("P1M")
        pass.prices = try prices([("US", "0", "USD")])

        var numeric = product("1234")
        numeric.kind = .consumable
        numeric.prices = try prices([("GB", "1", "GBP")])

        var norway = product("NO")
        norway.kind = .nonConsumable
        norway.clearedForSale = true

        return Catalog(
            path: "", format: .catalog, appID: "com.example.app", baseTerritory: try T.territory("GB"),
            groups: [SubscriptionGroup(key: "premium", name: "Premium Access"), SubscriptionGroup(key: "pro", name: "pro"),
                     SubscriptionGroup(key: "basic", name: "basic")],
            products: [coins, lifetime, monthly, weekly, quarterly, yearly, biweekly, pass, numeric, norway],
            capabilities: CatalogCapabilities(expressesGroups: true))
    }

    @Test("rich.yml reads into the expected catalog, product by product")
    func richYAML() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.yml")
        let expected = try Self.richCatalog()
        #expect(catalog.path == "config/valid/rich.yml")
        #expect(catalog.format == .catalog)
        #expect(catalog.products.map(\.id.rawValue) == expected.products.map(\.id.rawValue))
        let stripped = catalog.comparableContent()
        for (actual, wanted) in zip(stripped.products, expected.products) {
            #expect(actual == wanted)
        }
        #expect(stripped == expected)
    }

    @Test("rich.json reads into the same catalog as rich.yml")
    func richJSONEqualsYAML() throws {
        let yaml = try ConfigTesting.read("config/valid/rich.yml")
        let json = try ConfigTesting.read("config/valid/rich.json")
        #expect(json.path == "config/valid/rich.json")
        #expect(json.comparableContent() == yaml.comparableContent())
        #expect(json.comparableContent() == (try Self.richCatalog()))
    }

    @Test("YAML locations: product at its key, fields at their keys, prices at their values")
    func yamlLocations() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.yml")
        let path = "config/valid/rich.yml"
        let monthly = try #require(catalog.products.first { $0.id.rawValue == "com.example.app.premium.monthly" })
        #expect(monthly.location == SourceLocation(path: path, line: 22, column: 3))
        #expect(monthly.fieldLocations[.type] == SourceLocation(path: path, line: 23, column: 5))
        #expect(monthly.fieldLocations[.name] == SourceLocation(path: path, line: 24, column: 5))
        #expect(monthly.fieldLocations[.group] == SourceLocation(path: path, line: 25, column: 5))
        #expect(monthly.fieldLocations[.level] == SourceLocation(path: path, line: 26, column: 5))
        #expect(monthly.fieldLocations[.period] == SourceLocation(path: path, line: 27, column: 5))
        #expect(monthly.fieldLocations[.familyShareable] == SourceLocation(path: path, line: 28, column: 5))
        #expect(monthly.fieldLocations[.clearedForSale] == SourceLocation(path: path, line: 29, column: 5))
        #expect(monthly.fieldLocations[.introOffer] == SourceLocation(path: path, line: 30, column: 5))
        #expect(monthly.fieldLocations[.price] == SourceLocation(path: path, line: 31, column: 5))
        #expect(monthly.introOffers?.first?.location == SourceLocation(path: path, line: 30, column: 17))
        #expect(monthly.prices[try ConfigTesting.territory("US")]?.location
                    == SourceLocation(path: path, line: 32, column: 11))
        // `GBR:` is one character longer than `US:`.
        #expect(monthly.prices[try ConfigTesting.territory("GB")]?.location
                    == SourceLocation(path: path, line: 33, column: 12))
        #expect(monthly.prices[try ConfigTesting.territory("DE")]?.location
                    == SourceLocation(path: path, line: 34, column: 11))
        let coins = try #require(catalog.products.first)
        #expect(coins.location == SourceLocation(path: path, line: 12, column: 3))
        #expect(coins.prices[try ConfigTesting.territory("GB")]?.location
                    == SourceLocation(path: path, line: 15, column: 12))
        #expect(coins.fieldLocations[.price] == SourceLocation(path: path, line: 15, column: 5))
        #expect(catalog.groups.map(\.location) == [SourceLocation(path: path, line: 7, column: 3),
                                                   SourceLocation(path: path, line: 9, column: 3),
                                                   SourceLocation(path: path, line: 10, column: 3)])
    }

    @Test("JSON locations come from the JSON parser")
    func jsonLocations() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.json")
        let path = "config/valid/rich.json"
        let coins = try #require(catalog.products.first)
        #expect(coins.location == SourceLocation(path: path, line: 15, column: 5))
        #expect(coins.fieldLocations[.type] == SourceLocation(path: path, line: 16, column: 7))
        #expect(coins.prices[try ConfigTesting.territory("GB")]?.location
                    == SourceLocation(path: path, line: 18, column: 16))
    }

    // MARK: - Constructs

    @Test("keys are their source text: NO, yes, on, 1234, 0x10 and 1.0 are product IDs")
    func keysAreSourceText() throws {
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              NO: {type: consumable}
              yes: {type: consumable}
              on: {type: consumable}
              1234: {type: consumable}
              0x10: {type: consumable}
              1.0: {type: consumable}
              ~: {type: consumable}
              "null": {type: consumable}
            """)
        #expect(catalog.products.map(\.id.rawValue) == ["NO", "yes", "on", "1234", "0x10", "1.0", "~", "null"])
    }

    @Test("a territory key NO is Norway", .enabled(if: Territory(code: "NO") != nil && CurrencyCode("NOK") != nil))
    func norwayTerritoryKey() throws {
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              com.example.coins:
                type: consumable
                prices:
                  NO: 12 NOK
                  US: 0.99 USD
            """)
        let product = try #require(catalog.products.first)
        #expect(product.prices.keys.map(\.alpha2).sorted() == ["NO", "US"])
        #expect(product.prices[try ConfigTesting.territory("NO")]?.money == (try ConfigTesting.money("12", "NOK")))
    }

    @Test("a territory key NO is never read as false")
    func norwayIsNotFalse() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              com.example.coins:
                type: consumable
                prices:
                  NO: 12 QQQ
            """)
        // Whether or not the territory table knows Norway, the key stays "NO".
        #expect(error?.message.contains("QQQ") == true || error?.message.contains("\"NO\"") == true)
        #expect(error?.message.contains("false") == false)
    }

    @Test("period spellings", arguments: [
        ("P1W", "P1W"), ("P7D", "P1W"), ("p1m", "P1M"), ("P12M", "P1Y"), ("P4W", "P4W"), ("P3D", "P3D"),
        ("ONE_WEEK", "P1W"), ("one_month", "P1M"), ("TWO_MONTHS", "P2M"), ("THREE_MONTHS", "P3M"),
        ("SIX_MONTHS", "P6M"), ("ONE_YEAR", "P1Y"), ("THREE_DAYS", "P3D"),
        ("1 day", "P1D"), ("3 days", "P3D"), ("1 week", "P1W"), ("2 Weeks", "P2W"), ("1 month", "P1M"),
        ("6 months", "P6M"), ("1 year", "P1Y"), ("1 Year", "P1Y"),
        ("weekly", "P1W"), ("Monthly", "P1M"), ("QUARTERLY", "P3M"), ("yearly", "P1Y"), ("annual", "P1Y"),
    ])
    func periodSpellings(text: String, iso: String) throws {
        #expect(ConfigValidator.parsePeriod(text)?.description == iso)
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              sub:
                type: auto-renewable
                period: "\(text)"
            """)
        #expect(catalog.products.first?.period?.description == iso)
    }

    @Test("rejected period spellings", arguments: [
        "P0M", "P1", "1M", "P1M1D", "PT1H", "0 months", "month", "fortnightly", "1 fortnight", " P1M", "P-1M",
        "biweekly", "P1000000D", "",
    ])
    func rejectedPeriods(text: String) {
        #expect(ConfigValidator.parsePeriod(text) == nil)
    }

    @Test("price forms: string, {amount, currency} with a string or a number, trailing zeros")
    func priceForms() throws {
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              a: {type: consumable, price: 9.990 USD}
              b: {type: consumable, price: {amount: "9.99", currency: USD}}
              c: {type: consumable, price: {amount: 9.990, currency: USD}}
              d: {type: consumable, price: "9.99   USD"}
              e: {type: consumable, price: 0 USD}
            """)
        let expected = try ConfigTesting.money("9.99", "USD")
        for product in catalog.products.prefix(4) {
            #expect(product.prices == [.unitedStates: Price(territory: .unitedStates, money: expected,
                                                             location: product.prices[.unitedStates]?.location)])
        }
        #expect(catalog.products[4].prices[.unitedStates]?.money == (try ConfigTesting.money("0", "USD")))
    }

    @Test("JSON: amounts as numbers keep their source text; strict types")
    func jsonAmounts() throws {
        let catalog = try ConfigTesting.read(text: """
            {"version": 1, "products": {"a": {"type": "consumable", "price": {"amount": 0.10, "currency": "EUR"}}}}
            """, displayPath: "products.json")
        #expect(catalog.products.first?.prices[.unitedStates]?.money == (try ConfigTesting.money("0.1", "EUR")))
        let error = ConfigTesting.error(readingText: """
            {"version": 1, "products": {"a": {"type": "consumable", "price": {"amount": 1e2, "currency": "EUR"}}}}
            """, displayPath: "products.json")
        #expect(error?.message == "products.a.price.amount: \"1e2\" is not a decimal amount (digits with an optional \".\" and decimals, like 9.99)")
        #expect(error?.location == SourceLocation(path: "products.json", line: 1, column: 77))
    }

    @Test("JSON: a quoted version or level is a string, not a number")
    func jsonStrictNumbers() {
        let version = ConfigTesting.error(readingText: #"{"version": "1", "products": {}}"#, displayPath: "c.json")
        #expect(version?.message.hasPrefix("version: \"1\" is a string") == true)
        #expect(version?.location == SourceLocation(path: "c.json", line: 1, column: 13))
        let level = ConfigTesting.error(readingText: """
            {"version": 1, "groups": {"g": {}},
             "products": {"s": {"type": "auto-renewable", "group": "g", "level": "1"}}}
            """, displayPath: "c.json")
        #expect(level?.message.hasPrefix("products.s.level: \"1\" is not a level") == true)
        #expect(level?.location == SourceLocation(path: "c.json", line: 2, column: 70))
    }

    @Test("syntax: by extension, then by content")
    func syntaxDetection() throws {
        let json = #"{"version": 1, "products": {"x": {"type": "consumable"}}}"#
        #expect(try ConfigTesting.read(text: json, displayPath: "config").products.count == 1)
        #expect(try ConfigTesting.read(text: "version: 1\nproducts: {x: {type: consumable}}\n",
                                       displayPath: "config").products.count == 1)
        // YAML flow syntax in a .json file is not JSON.
        let error = ConfigTesting.error(readingText: "{version: 1, products: {}}", displayPath: "c.json")
        #expect(error?.message.hasPrefix("invalid JSON") == true)
        // JSON is valid YAML: a .yml file holding JSON reads.
        #expect(try ConfigTesting.read(text: json, displayPath: "c.yml").products.count == 1)
    }

    @Test("empty products and groups, a baseTerritory written alpha-3, comments and anchors")
    func minimalForms() throws {
        let empty = try ConfigTesting.read(text: "version: 1\nproducts: {}\n")
        #expect(empty.products.isEmpty)
        #expect(empty.baseTerritory == .unitedStates)
        #expect(empty.appID == nil)
        #expect(empty.capabilities.expressesGroups)
        let null = try ConfigTesting.read(text: "version: 1\ngroups:\nproducts:\n")
        #expect(null.products.isEmpty && null.groups.isEmpty)
        let anchored = try ConfigTesting.read(text: """
            version: 1 # schema
            app: {baseTerritory: DEU}
            products:
              a: &base {type: consumable, price: 1.99 EUR}
              b: *base
            """)
        #expect(anchored.baseTerritory == (try ConfigTesting.territory("DE")))
        #expect(anchored.products.map(\.id.rawValue) == ["a", "b"])
        #expect(anchored.products[1].prices[try ConfigTesting.territory("DE")]?.money
                    == (try ConfigTesting.money("1.99", "EUR")))
    }

    @Test("introOffers is nil without introOffer")
    func introOffersNil() throws {
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              s: {type: auto-renewable, period: P1M}
            """)
        #expect(catalog.products.first?.introOffers == nil)
        #expect(catalog.products.first?.stores == nil)
        #expect(catalog.products.first?.storeIDs == [:])
    }

    @Test("the reader reads files through CatalogReader; a folder is an error")
    func readerProtocol() throws {
        let reader: any CatalogReader = ProductConfigReader()
        #expect(reader.format == .catalog)
        let options = try ConfigTesting.options
        #expect(throws: CatalogReadError.self) {
            try reader.read(contentsOf: Fixtures.url("config/valid"), displayPath: "config/valid", options: options)
        }
        #expect(throws: CatalogReadError("the file does not exist", at: SourceLocation(path: "missing.yml"))) {
            try reader.read(contentsOf: Fixtures.url("config/missing.yml"), displayPath: "missing.yml",
                            options: options)
        }
    }
}
