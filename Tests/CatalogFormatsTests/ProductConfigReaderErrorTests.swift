import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// An invalid input and what reading it must say.
struct ExpectedConfigError: Sendable, CustomTestStringConvertible {
    let file: String
    let line: Int
    let column: Int
    let message: String

    init(_ file: String, _ line: Int, _ column: Int, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    var testDescription: String { file }
}

@Suite("ProductConfigReader errors")
struct ProductConfigReaderErrorTests {
    /// Every file in `config/invalid/`, with the exact location and (a fragment of) the message.
    static let invalid: [ExpectedConfigError] = [
        .init("amount-without-currency.yml", 6, 11, #"products."com.example.coins".prices.US: "9.99" needs a currency, e.g. "9.99 USD""#),
        .init("bad-base-territory.yml", 3, 18, #"app.baseTerritory: "Europe" is not an ISO 3166-1 territory code"#),
        .init("bad-currency.yml", 5, 12, #"products."com.example.coins".price: "EURO" is not an ISO 4217 currency code"#),
        .init("bad-period-words.yml", 5, 13, #"products."com.x.biweekly".period: "1 fortnight" is not a period (use P1W, P1M, … or "1 month")"#),
        .init("bad-period.yml", 5, 13, #"products."com.x.monthly".period: "P0M" is not a period (use P1W, P1M, … or "1 month")"#),
        .init("bad-territory.yml", 7, 7, #"products."com.example.coins".prices.XX: "XX" is not an ISO 3166-1 territory code"#),
        .init("bad-type.yml", 4, 11, #"products."com.example.monthly".type: "subscription" is not a product type (consumable, non-consumable, auto-renewable, non-renewing or one-time)"#),
        .init("bool-quoted.yml", 5, 21, #"products."com.example.unlock".clearedForSale: "true" is not true or false"#),
        .init("bool-yes.yml", 5, 22, #"products."com.example.unlock".familyShareable: "yes" is not true or false"#),
        .init("comma-amount.yml", 6, 11, #"products."com.example.coins".prices.DE: "0,99" is not a decimal amount"#),
        .init("duplicate-product.yml", 7, 3, #"products."com.example.coins": duplicate key (first at line 3, column 3)"#),
        .init("duplicate-quoted-key.yml", 3, 41, #"products."com.example.coins".type: duplicate key (first at line 3, column 23)"#),
        .init("empty-prices.yml", 5, 13, #"products."com.example.coins".prices: lists no territory"#),
        .init("exponent-amount.yml", 5, 21, #"products."com.example.coins".price.amount: "9.9e1" is not a decimal amount"#),
        .init("free-trial-with-price.yml", 8, 7, #"products."com.example.monthly".introOffer.price: a free trial has no price"#),
        .init("group-on-consumable.yml", 7, 5, #"products."com.example.coins".group: only subscriptions belong to a group (type is consumable)"#),
        .init("intro-offer-bad-mode.yml", 5, 24, #"products."com.example.monthly".introOffer.mode: "trial" is not an offer mode (free-trial, pay-as-you-go or pay-up-front)"#),
        .init("intro-offer-on-consumable.yml", 5, 5, #"products."com.example.coins".introOffer: only auto-renewable subscriptions have an introductory offer"#),
        .init("intro-offer-zero-periods.yml", 5, 61, #"products."com.example.monthly".introOffer.periods: "0" is not a number of periods"#),
        .init("level-without-group.yml", 5, 5, #"products."com.example.monthly".level: a level is a rank within a group; add "group""#),
        .init("level-zero.yml", 8, 12, #"products."com.example.monthly".level: "0" is not a level (a whole number, 1 = highest service level)"#),
        .init("lowercase-currency.yml", 6, 38, #"products."com.example.coins".prices.DE.currency: "eur" is not an ISO 4217 currency code (codes are upper case: EUR)"#),
        .init("missing-products.yml", 1, 1, #"products: missing"#),
        .init("missing-type.yml", 3, 3, #"products."com.example.coins": missing "type" (consumable, non-consumable, auto-renewable, non-renewing or one-time)"#),
        .init("missing-version.yml", 2, 1, #"version: missing; the config must start with "version: 1""#),
        .init("negative-amount.yml", 5, 12, #"products."com.example.coins".price: "-0.99" is not a decimal amount"#),
        .init("non-mapping-root.yml", 1, 1, #"the config must be a mapping with the keys version, app, groups and products, not a list"#),
        .init("non-scalar-key.yml", 3, 5, #"products: a key must be a plain string, not a list"#),
        .init("period-on-non-consumable.yml", 5, 5, #"products."com.example.unlock".period: only subscriptions have a period (type is non-consumable)"#),
        .init("price-and-prices.yml", 6, 5, #"products."com.example.coins".prices: use only one of price, tier and prices (price is at line 5, column 5)"#),
        .init("price-and-tier.yml", 6, 5, #"products."com.example.coins".price: use only one of price, tier and prices (tier is at line 5, column 5)"#),
        .init("product-without-fields.yml", 3, 3, #"products."com.example.coins": the product has no fields; it needs at least "type""#),
        .init("products-not-mapping.yml", 3, 3, #"products: a list is not a mapping of product IDs to products"#),
        .init("several-documents.yml", 3, 1, #"invalid YAML: the file holds several documents"#),
        .init("storeids-appstore.yml", 7, 7, #"products."com.example.monthly".storeIds.appstore: only "play" can have a different ID in schema version 1"#),
        .init("stores-not-a-list.yml", 5, 13, #"products."com.example.coins".stores: "play" is not a list of stores"#),
        .init("stores-unknown.yml", 5, 24, #"products."com.example.coins".stores[1]: "amazon" is not a store (appstore, play)"#),
        .init("syntax-error.yml", 5, 4, #"invalid YAML: did not find expected key"#),
        .init("territory-twice.yml", 8, 7, #"products."com.example.coins".prices.USA: US is priced twice (also as "US" at line 6, column 7)"#),
        .init("tier-out-of-range.yml", 5, 11, #"products."com.example.coins".tier: "88" is not a legacy App Store price tier (a whole number, 0…87)"#),
        .init("unknown-group.yml", 7, 12, #"products."com.example.monthly".group: "premum" is not a group key (did you mean "premium"? groups: premium)"#),
        .init("unknown-intro-offer-key.yml", 5, 49, #"products."com.example.monthly".introOffer.duration: unknown key (allowed: mode, period, periods, price)"#),
        .init("unknown-product-key.yml", 5, 5, #"products."com.example.coins".prise: unknown key; did you mean "price"?"#),
        .init("unknown-root-key.yml", 2, 1, #"product: unknown key; did you mean "products"?"#),
        .init("version-not-a-number.yml", 1, 10, #"version: "1" is a string; write the number: version: 1"#),
        .init("wrong-version.yml", 1, 10, #"version: "2" is not supported; this is schema version 1"#),
        .init("yaml-tag.yml", 5, 12, #"products."com.example.coins".price: YAML tags are not supported"#),
    ]

    /// Every `config-*` file in `malformed/`.
    static let malformed: [ExpectedConfigError] = [
        .init("config-alias-bomb.yml", 2, 49, "the document expands to too many values"),
        .init("config-binary.yml", 3, 22, "the file is not UTF-8 text (byte 0x89)"),
        .init("config-deep-nesting.yml", 2, 12, "invalid YAML: nesting deeper than 1000 levels"),
        .init("config-duplicate-keys.yml", 8, 7, #"products."com.example.coins".prices.US: duplicate key (first at line 6, column 7)"#),
        .init("config-empty.yml", 1, 1, "the file is empty"),
        .init("config-huge-number.yml", 5, 12, #"products."com.example.coins".price: "123456789012345678901234567890.99" has too many digits for an amount"#),
        .init("config-truncated.json", 6, 16, "invalid JSON: unterminated string"),
        .init("config-unknown-key.yml", 3, 3, #"app.bundleID: unknown key; did you mean "bundleId"?"#),
        .init("config-wrong-types.yml", 7, 11, #"products."com.example.monthly".name: a list is not a string"#),
    ]

    @Test("every invalid fixture has an expectation")
    func invalidFixturesAreCovered() {
        #expect(Fixtures.files(in: "config/invalid") == (Self.invalid + OfferConfigTests.invalid + PriceChangeConfigTests.invalid)
            .map(\.file).sorted())
        #expect(Fixtures.files(in: "malformed").filter { $0.hasPrefix("config-") } == Self.malformed.map(\.file).sorted())
    }

    @Test("invalid configs name file, line, column, key path and value", arguments: invalid)
    func invalidConfig(expected: ExpectedConfigError) throws {
        let path = "config/invalid/\(expected.file)"
        let error = try #require(ConfigTesting.error(reading: path))
        #expect(error.location == SourceLocation(path: path, line: expected.line, column: expected.column))
        #expect(error.message.contains(expected.message), "\(error.message)")
        #expect(error.description.hasPrefix("\(path):\(expected.line):\(expected.column): error: "))
        // One mistake, one problem: reporting every problem must not report one mistake twice.
        #expect(error.problems.count == 1, "\(error)")
    }

    @Test("malformed configs are errors, never crashes", arguments: malformed)
    func malformedConfig(expected: ExpectedConfigError) throws {
        let path = "malformed/\(expected.file)"
        let error = try #require(ConfigTesting.error(reading: path))
        #expect(error.location == SourceLocation(path: path, line: expected.line, column: expected.column))
        #expect(error.message.contains(expected.message), "\(error.message)")
        #expect(error.problems.count == 1, "\(error)")
    }

    @Test("a file with only comments or whitespace is empty")
    func commentsOnly() {
        #expect(ConfigTesting.error(readingText: "# nothing yet\n\n")?.message.hasPrefix("the config is empty") == true)
        #expect(ConfigTesting.error(readingText: " \n\t\n")?.message.hasPrefix("the file is empty") == true)
        #expect(ConfigTesting.error(readingText: "\u{FEFF}", displayPath: "c.json")?.message
                    .hasPrefix("the file is empty") == true)
    }

    @Test("a scalar root, null values and a quoted level are errors", arguments: [
        ("just text\n", "the config must be a mapping"),
        ("version: 1\nproducts:\n  x:\n    type: consumable\n    name:\n", #"products.x.name: has no value"#),
        ("version: 1\nproducts:\n  x:\n    type:\n", #"products.x.type: has no value"#),
        ("version: 1\ngroups: {g: {}}\nproducts:\n  x: {type: auto-renewable, group: g, level: \"1\"}\n",
         #"products.x.level: "1" is not a level"#),
        ("version: 1\nproducts:\n  x: {type: consumable, tier: \"1\"}\n", #"products.x.tier: "1" is not a legacy"#),
        ("version: 1\nproducts:\n  x: {type: consumable, price: {amount: 1}}\n", #"products.x.price: missing "currency""#),
        ("version: 1\nproducts:\n  x: {type: consumable, price: {currency: USD}}\n", #"products.x.price: missing "amount""#),
        ("version: 1\nproducts:\n  x: {type: consumable, price: {amount: true, currency: USD}}\n",
         #"products.x.price.amount: "true" is not a decimal amount"#),
        ("version: 1\nproducts:\n  x: {type: consumable, price: USD 0.99}\n", #"products.x.price: "USD" is not a decimal amount"#),
        ("version: 1\nproducts:\n  x: {type: consumable, price: [0.99, USD]}\n", #"products.x.price: a list is not a price"#),
        ("version: 1\nproducts:\n  x: {type: consumable, stores: []}\n", #"products.x.stores: lists no store"#),
        ("version: 1\nproducts:\n  x: {type: consumable, stores: [play, play]}\n", #"products.x.stores[1]: "play" is listed twice"#),
        ("version: 1\nproducts:\n  x: {type: auto-renewable, introOffer: {period: P1W}}\n", #"products.x.introOffer: missing "mode""#),
        ("version: 1\nproducts:\n  x: {type: auto-renewable, introOffer: {mode: free-trial}}\n", #"products.x.introOffer: missing "period""#),
        ("version: 1\nproducts:\n  x: {type: consumable, storeIds: {play: \"\"}}\n", #"products.x.storeIds.play: must not be empty"#),
        ("version: 1\nproducts:\n  x: {type: consumable, prices: {us: 0.99 USD}}\n", #"products.x.prices.us: "us" is not an ISO 3166-1 territory code (codes are upper case: US)"#),
        ("version: 1\nproducts:\n  \"\": {type: consumable}\n", "products: a product ID must not be empty"),
        ("version: 1\ngroups: {g: {name: \"\"}}\nproducts: {}\n", "groups.g.name: must not be empty"),
        ("version: 1\ngroups: [g]\nproducts: {}\n", "groups: a list is not a mapping of group keys to groups"),
        ("version: 1\napp: com.example\nproducts: {}\n", #"app: "com.example" is not a mapping (keys: bundleId, baseTerritory)"#),
        ("version: 1\nproducts:\n  x: {type: consumable, <<: {name: X}}\n", #"products.x."<<": unknown key"#),
        ("version: 1.0\nproducts: {}\n", #"version: "1.0" is not supported"#),
    ])
    func otherErrors(text: String, fragment: String) {
        let error = ConfigTesting.error(readingText: text)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("JSON configs: the same checks, JSON positions")
    func jsonErrors() {
        let text = """
            {
              "version": 1,
              "products": {
                "com.x.monthly": {
                  "type": "auto-renewable",
                  "period": "P0M"
                }
              }
            }
            """
        let error = ConfigTesting.error(readingText: text, displayPath: "products.json")
        #expect(error == CatalogReadError(
            #"products."com.x.monthly".period: "P0M" is not a period (use P1W, P1M, … or "1 month")"#,
            at: SourceLocation(path: "products.json", line: 6, column: 17)))
        let duplicate = ConfigTesting.error(readingText: #"{"version": 1, "version": 1, "products": {}}"#,
                                            displayPath: "products.json")
        #expect(duplicate?.message.contains("duplicate key \"version\"") == true)
        #expect(duplicate?.location == SourceLocation(path: "products.json", line: 1, column: 16))
        let bool = ConfigTesting.error(
            readingText: #"{"version": 1, "products": {"x": {"type": "consumable", "clearedForSale": "yes"}}}"#,
            displayPath: "products.json")
        #expect(bool?.message == #"products.x.clearedForSale: "yes" is not true or false"#)
        let number = ConfigTesting.error(
            readingText: #"{"version": 1, "products": {"x": {"type": "consumable", "price": 0.99}}}"#,
            displayPath: "products.json")
        #expect(number?.message == #"products.x.price: "0.99" needs a currency, e.g. "0.99 USD""#)
        let name = ConfigTesting.error(
            readingText: #"{"version": 1, "products": {"x": {"type": "consumable", "name": 12}}}"#,
            displayPath: "products.json")
        #expect(name?.message == #"products.x.name: "12" is not a string"#)
    }
}
