import CatalogCore
import CatalogFormats
@testable import CatalogReports
import Foundation
import TestSupport
import Testing

@Suite("CatalogExport")
struct CatalogExportTests {
    // MARK: - Snapshots

    @Test("YAML export of rich.yml matches its snapshot")
    func yamlSnapshot() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.yml")
        expectSnapshot(CatalogYAMLExporter().export(catalog), named: "export-rich.expected.yml")
    }

    @Test("JSON export of rich.yml matches its snapshot")
    func jsonSnapshot() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.yml")
        expectSnapshot(CatalogJSONExporter().export(catalog), named: "export-rich.expected.json")
    }

    @Test("YAML export of a store-like catalog (uncompared prices, several offers, no type, repeated ID)")
    func storeLikeSnapshot() throws {
        expectSnapshot(CatalogYAMLExporter().export(try Self.storeLikeCatalog()), named: "export-store-like.expected.yml")
        expectSnapshot(CatalogJSONExporter().export(try Self.storeLikeCatalog()), named: "export-store-like.expected.json")
    }

    @Test("an intro offer for other territories only is no config introOffer: a note in both exports")
    func introOfferOfAnotherTerritoryOnly() throws {
        // Arrange: base territory US, the one intro offer is Germany's.
        var catalog = try Self.storeLikeCatalog()
        catalog.products[0].introOffers = [
            IntroOffer(mode: .freeTrial, period: try ConfigTesting.period("P2W"), territory: try ConfigTesting.territory("DE")),
        ]
        // Act
        let yaml = CatalogYAMLExporter().export(catalog)
        let json = CatalogJSONExporter().export(catalog)
        // Assert: read back, an introOffer would stand for the US and fail the check against its own source.
        #expect(!yaml.contains("introOffer:"))
        #expect(yaml.contains("    # another intro offer: DE free-trial P2W\n"))
        #expect(!json.contains("\"introOffer\""))
        #expect(json.contains("\"$comment\" : [\n        \"another intro offer: DE free-trial P2W\",\n"))
    }

    // MARK: - Round trips

    @Test("export (YAML) of a config, read back, equals the original", arguments: ["rich.yml", "rich.json"])
    func configRoundTrip(file: String) throws {
        let original = try ConfigTesting.read("config/valid/\(file)")
        let text = CatalogYAMLExporter().export(original)
        let back = try ConfigTesting.read(text: text, displayPath: "exported.yml")
        // The export is sorted; everything else is equal.
        var expected = original.comparableContent()
        expected.products.sort { $0.id < $1.id }
        expected.groups.sort { $0.key < $1.key }
        #expect(back.comparableContent() == expected)
        // And exporting again gives the same text: the export is a fixed point.
        #expect(CatalogYAMLExporter().export(back).replacingOccurrences(of: "exported.yml", with: original.path)
                    == text)
    }

    @Test("strings that need quoting survive the round trip")
    func trickyStringsRoundTrip() throws {
        let ids = ["premium:monthly", "NO", "no", "Yes", "on", "~", "null", "1234", "0x1F", "1.0", "1e3",
                   "2024-01-01", "12:30", "a#b", "a # b", "- dash", "@at", "`tick", "!bang", "&anchor", "*alias",
                   "%percent", "[list]", "{map}", "x,y", "quote\"d", "back\\slash", "it's", "tab\there",
                   " leading", "trailing ", "Münzen", "コイン", "emoji 🎉", "ctl\u{7}", "bom\u{FEFF}", "nel\u{85}x",
                   "ls\u{2028}x", "?", "-", ">folded", "|literal", "=", "<<", ".inf", "+1", "com.example.app.coins.100"]
        var catalog = Catalog(path: "tricky", format: .catalog, capabilities: CatalogCapabilities(expressesGroups: true))
        catalog.groups = [SubscriptionGroup(key: "yes", name: "No: really # not"),
                          SubscriptionGroup(key: "1", name: "line\nbreak")]
        for (index, id) in ids.enumerated() {
            var product = Product(id: ProductID(id), kind: .autoRenewable, location: SourceLocation(path: ""))
            product.referenceName = id
            product.groupKey = index.isMultiple(of: 2) ? "yes" : "1"
            product.storeIDs = [.play: ProductID(id + ":base")]
            catalog.products.append(product)
        }
        let text = CatalogYAMLExporter().export(catalog)
        let back = try ConfigTesting.read(text: text, displayPath: "tricky.yml")
        var expected = catalog.comparableContent()
        expected.products.sort { $0.id < $1.id }
        expected.groups.sort { $0.key < $1.key }
        #expect(back.comparableContent() == expected)
    }

    @Test("a store catalog reads back with what the config can hold")
    func storeLikeRoundTrip() throws {
        let store = try Self.storeLikeCatalog()
        let text = CatalogYAMLExporter().export(store)
        // The product without a type does not read back until someone sets it.
        let fixed = text.replacingOccurrences(of: "    # type: not stated by play-json",
                                              with: "    type: consumable\n    # type: not stated by play-json")
        let back = try ConfigTesting.read(text: fixed, displayPath: "store.yml")
        #expect(back.products.map(\.id.rawValue) == ["com.example.coins", "com.example.monthly", "premium:monthly"])
        let monthly = try #require(back.products.first { $0.id.rawValue == "com.example.monthly" })
        #expect(monthly.introOffers == [IntroOffer(mode: .freeTrial, period: try ConfigTesting.period("P1W"),
                                                    location: monthly.introOffers?.first?.location)])
        #expect(monthly.prices.keys.map(\.alpha2).sorted() == ["DE", "US"])
        #expect(back.groups.map(\.key) == ["premium"])
    }

    @Test("a StoreKit file of a non-US storefront exports that storefront as baseTerritory, its prices as price:")
    func storeKitStorefrontIsTheBaseTerritory() throws {
        let path = "storekit/all-sections-v3.storekit"
        let store = try StoreKitConfigReader().read(contentsOf: Fixtures.url(path), displayPath: path,
                                                    options: try ConfigTesting.options)
        #expect(store.baseTerritory.alpha2 == "GB")
        let text = CatalogYAMLExporter().export(store)
        #expect(text.contains("\n  baseTerritory: GB\n"))
        #expect(text.contains("\n    price: 0.99 GBP\n"))
        #expect(!text.contains("\n    prices:"))  // products' own prices; offers keep their per-territory lists
        let json = try #require(try JSONSerialization.jsonObject(with: Data(CatalogJSONExporter().export(store).utf8))
                                    as? [String: Any])
        #expect((json["app"] as? [String: Any])?["baseTerritory"] as? String == "GB")
        let back = try ConfigTesting.read(text: text, displayPath: "exported.yml")
        #expect(back.baseTerritory.alpha2 == "GB")
        let storePrices = Dictionary(store.products.map { ($0.id, $0.comparableContent().prices) },
                                     uniquingKeysWith: { first, _ in first })
        #expect(storePrices.values.contains { !$0.isEmpty })
        for product in back.products {
            #expect(product.comparableContent().prices == storePrices[product.id], "\(product.id)")
            #expect(!product.listsTerritoryPrices)
        }
    }

    @Test("a store catalog's groups are keyed by a slug of their name, not the store's IDs; equal slugs get -2, -3")
    func storeGroupsKeyedByName() throws {
        // Arrange: Xcode's random group IDs; two groups named Premium, one named Premium 2, Pro Plan beside
        // pro-plan, and names with nothing or only non-ASCII letters to keep.
        let names = ["Premium", "Premium", "Premium 2", "Pro Plan", "pro-plan", "プレミアム", "★"]
        var catalog = Catalog(path: "x.storekit", format: .storekit)
        for (index, name) in names.enumerated() {
            let id = String(21_482_456 + index)
            catalog.groups.append(SubscriptionGroup(key: id, name: name))
            var product = Product(id: ProductID("sub.\(index)"), kind: .autoRenewable, location: SourceLocation(path: ""))
            product.groupKey = id
            product.period = try ConfigTesting.period("P1M")
            catalog.products.append(product)
        }

        // Act
        let yaml = CatalogYAMLExporter().export(catalog)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(CatalogJSONExporter().export(catalog).utf8))
                                    as? [String: Any])

        // Assert
        #expect(yaml.contains("""
            groups:
              group:
                name: "★"
              premium:
                name: Premium
              premium-2:
                name: Premium 2
              premium-3:
                name: Premium
              pro-plan:
                name: Pro Plan
              pro-plan-2:
                name: pro-plan
              プレミアム: {}
            products:

            """))
        let back = try ConfigTesting.read(text: yaml, displayPath: "exported.yml")
        #expect(back.products.map { $0.groupKey ?? "" }
                == ["premium", "premium-3", "premium-2", "pro-plan", "pro-plan-2", "プレミアム", "group"])
        let products = try #require(json["products"] as? [String: [String: Any]])
        #expect((0..<names.count).map { products["sub.\($0)"]?["group"] as? String ?? "" }
                == ["premium", "premium-3", "premium-2", "pro-plan", "pro-plan-2", "プレミアム", "group"])
        #expect(json["groups"] as? [String: [String: String]] == [
            "group": ["name": "★"], "premium": ["name": "Premium"], "premium-2": ["name": "Premium 2"],
            "premium-3": ["name": "Premium"], "pro-plan": ["name": "Pro Plan"], "pro-plan-2": ["name": "pro-plan"],
            "プレミアム": [:],
        ])
    }

    @Test("the demo .storekit exports its group under the key trailmate-plus, as a team writes it")
    func storeKitGroupKey() throws {
        let path = "catalogs/demo/appstore.storekit"
        let store = try StoreKitConfigReader().read(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path),
                                                    displayPath: path, options: try ConfigTesting.options)
        let yaml = CatalogYAMLExporter().export(store)
        #expect(yaml.contains("\ngroups:\n  trailmate-plus:\n    name: Trailmate Plus\nproducts:\n"))
        #expect(yaml.contains("\n    group: trailmate-plus\n"))
        #expect(!store.groups.map(\.key).contains("trailmate-plus"))
    }

    // MARK: - Properties

    @Test("output does not depend on the order of products, groups, prices or offers")
    func determinism() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.yml")
        var shuffled = catalog
        var generator = SeededGenerator(seed: 42)
        shuffled.products.shuffle(using: &generator)
        shuffled.groups.shuffle(using: &generator)
        for index in shuffled.products.indices {
            shuffled.products[index].introOffers?.shuffle(using: &generator)
        }
        #expect(CatalogYAMLExporter().export(shuffled) == CatalogYAMLExporter().export(catalog))
        #expect(CatalogJSONExporter().export(shuffled) == CatalogJSONExporter().export(catalog))
        let store = try Self.storeLikeCatalog()
        var reversed = store
        reversed.products.reverse()
        for index in reversed.products.indices {
            reversed.products[index].introOffers?.reverse()
            reversed.products[index].uncomparedPrices.reverse()
        }
        // Repeated IDs keep reading order, so only compare catalogs without them.
        reversed.products.removeAll { $0.id.rawValue == "com.example.coins" }
        var forward = store
        forward.products.removeAll { $0.id.rawValue == "com.example.coins" }
        #expect(CatalogYAMLExporter().export(reversed) == CatalogYAMLExporter().export(forward))
        #expect(CatalogJSONExporter().export(reversed) == CatalogJSONExporter().export(forward))
    }

    @Test("JSON export: the config as JSON — groups and products keyed, provenance in $comment — read back alike")
    func jsonShape() throws {
        let catalog = try ConfigTesting.read("config/valid/rich.yml")
        let text = CatalogJSONExporter().export(catalog)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["version"] as? Int == 1)
        #expect(object["$comment"] as? [String] == ["catalogcheck export of config/valid/rich.yml (catalog)"])
        #expect(object["source"] == nil)
        let products = try #require(object["products"] as? [String: [String: Any]])
        #expect(products.count == 10)
        let monthly = try #require(products["com.example.app.premium.monthly"])
        #expect(monthly["id"] == nil)
        #expect(monthly["type"] as? String == "auto-renewable")
        #expect(monthly["group"] as? String == "premium")
        #expect(monthly["level"] as? Int == 1)
        #expect(monthly["period"] as? String == "P1M")
        #expect(monthly["prices"] as? [String: String] == ["US": "9.99 USD", "GB": "8.99 GBP", "DE": "9.99 EUR",
                                                             "FR": "9.99 EUR", "JP": "1200 JPY", "CH": "10 CHF"])
        #expect(monthly["storeIds"] as? [String: String] == ["play": "premium:monthly"])
        #expect(monthly["stores"] as? [String] == ["appstore", "play"])
        #expect(!text.contains("\\/"))
        let groups = try #require(object["groups"] as? [String: [String: String]])
        #expect(groups == ["basic": [:], "premium": ["name": "Premium Access"], "pro": [:]])
        // The same config as the YAML export: reading either gives the same catalog.
        let fromJSON = try ConfigTesting.read(text: text, displayPath: "exported.json")
        let fromYAML = try ConfigTesting.read(text: CatalogYAMLExporter().export(catalog), displayPath: "exported.yml")
        #expect(fromJSON.comparableContent() == fromYAML.comparableContent())
    }

    @Test("JSON export: an empty catalog is {}, and quotes, backslashes and control characters are escaped")
    func jsonEmptyListsAndEscapes() throws {
        // Arrange
        var catalog = Catalog(path: "odd \"path\"\\x\u{1B}[31m", format: .catalog)
        catalog.products = []
        // Act
        let text = CatalogJSONExporter().export(catalog)
        // Assert
        #expect(text == """
            {
              "$comment" : [
                "catalogcheck export of odd \\"path\\"\\\\x\\u001b[31m (catalog)"
              ],
              "app" : {
                "baseTerritory" : "US"
              },
              "products" : {},
              "version" : 1
            }

            """)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect((object["$comment"] as? [String])?.first == "catalogcheck export of \(catalog.path) (catalog)")
    }

    @Test("YAML scalars: plain only when every YAML reader reads the same string", arguments: [
        ("com.example.app.coins.100", "com.example.app.coins.100"), ("100 Coins", "100 Coins"),
        ("9.99 USD", "9.99 USD"), ("P1M", "P1M"), ("Münzen", "Münzen"),
        ("premium:monthly", "\"premium:monthly\""), ("NO", "\"NO\""), ("off", "\"off\""), ("1234", "\"1234\""),
        ("1.0", "\"1.0\""), ("2024-01-01", "\"2024-01-01\""), ("", "\"\""), (" x", "\" x\""), ("x ", "\"x \""),
        ("a#b", "\"a#b\""), ("say \"hi\"", "\"say \\\"hi\\\"\""), ("a\\b", "\"a\\\\b\""), ("l1\nl2", "\"l1\\nl2\""),
        ("bell\u{7}", "\"bell\\x07\""), ("nel\u{85}", "\"nel\\N\""), ("bom\u{FEFF}", "\"bom\\uFEFF\""),
        ("del\u{7F}", "\"del\\x7F\""), ("emoji 🎉", "\"emoji 🎉\""), ("-x", "\"-x\""), ("_x", "_x"),
    ])
    func yamlQuoting(text: String, written: String) {
        #expect(YAMLEscaper.scalar(text) == written)
    }

    // MARK: - Fixtures

    /// A catalog like a store reader makes: ASC-style offers per territory, scheduled and other-region prices,
    /// a Play product without a type, an ID written twice, a group only products name.
    static func storeLikeCatalog() throws -> Catalog {
        let path = "store.json"
        var monthly = Product(id: ProductID("com.example.monthly"), kind: .autoRenewable,
                              location: SourceLocation(path: path, line: 3))
        monthly.referenceName = "Monthly"
        monthly.groupKey = "premium"
        monthly.level = 1
        monthly.period = try ConfigTesting.period("P1M")
        monthly.clearedForSale = true
        monthly.introOffers = [
            IntroOffer(mode: .freeTrial, period: try ConfigTesting.period("P2W"), territory: try ConfigTesting.territory("DE")),
            IntroOffer(mode: .freeTrial, period: try ConfigTesting.period("P1W"), territory: .unitedStates,
                       location: SourceLocation(path: path, line: 9)),
            IntroOffer(mode: .payAsYouGo, period: try ConfigTesting.period("P1M"), periods: 3,
                       price: try ConfigTesting.money("2.99", "GBP"), territory: try ConfigTesting.territory("GB")),
        ]
        let (us, usPrice) = try ConfigTesting.price("US", "9.99", "USD")
        let (de, dePrice) = try ConfigTesting.price("DE", "9.49", "EUR")
        monthly.prices = [us: usPrice, de: dePrice]
        monthly.uncomparedPrices = [
            UncomparedPrice(label: "scheduled", territory: us, amount: try ConfigTesting.money("10.99", "USD"),
                            startDate: CalendarDate(year: 2027, month: 1, day: 1)),
            UncomparedPrice(label: "other-regions", amount: try ConfigTesting.money("9.99", "EUR")),
        ]
        var play = Product(id: ProductID("premium:monthly"), kind: .autoRenewable,
                           location: SourceLocation(path: path, line: 20))
        play.groupKey = "premium"
        play.period = try ConfigTesting.period("P1M")
        play.introOffers = []
        var coins = Product(id: ProductID("com.example.coins"), location: SourceLocation(path: path, line: 30))
        coins.uncomparedPrices = [UncomparedPrice(label: "default", rawAmount: "0.99")]
        var coinsAgain = Product(id: ProductID("com.example.coins"), kind: .consumable,
                                 location: SourceLocation(path: path, line: 40))
        coinsAgain.referenceName = "Second record"
        return Catalog(path: path, format: .playJSON, appID: "com.example.app", products: [monthly, coins, play, coinsAgain],
                       remarks: ["prices of com.example.coins are in the merchant's home currency"])
    }
}

/// `export --format json` writes a large catalog in pieces instead of holding its text whole.
@Suite("CatalogExport in chunks")
struct CatalogExportChunkTests {
    @Test("a large catalog comes out in chunks of about 64 KiB that join into the whole document")
    func chunks() throws {
        let usd = try #require(CurrencyCode("USD"))
        let territories = try ["AT", "AU", "BE", "BR", "CA", "CH", "DE", "DK", "ES", "FI", "FR", "GB", "IE", "IT",
                               "JP", "NL", "NO", "PL", "SE", "US"].map { try #require(Territory(code: $0)) }
        let location = SourceLocation(path: "big.yml", line: 1, column: 1)
        let products = (0..<2000).map { index in
            Product(id: ProductID("com.example.product\(index)"), kind: .consumable,
                    prices: Dictionary(uniqueKeysWithValues: territories.map { territory in
                        (territory, Price(territory: territory, money: Money(amount: Decimal(index) + 0.99, currency: usd)))
                    }), location: location)
        }
        let catalog = Catalog(path: "big.yml", format: .catalog, products: products)

        var chunks: [[UInt8]] = []
        CatalogJSONExporter().export(catalog) { chunks.append($0) }

        #expect(chunks.count > 10)
        #expect(chunks.dropLast().allSatisfy { $0.count >= 1 << 16 && $0.count < (1 << 16) + 4096 })
        let document = try #require(try JSONSerialization.jsonObject(with: Data(chunks.joined())) as? [String: Any])
        let exported = try #require(document["products"] as? [String: [String: Any]])
        #expect(exported.count == 2000)
        #expect((exported["com.example.product0"]?["prices"] as? [String: String])?["US"] == "0.99 USD")
    }
}
