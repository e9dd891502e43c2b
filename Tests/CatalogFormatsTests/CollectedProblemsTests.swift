import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// DESIGN.md §5a.1: every problem in the config, the rules file or the baseline is reported, in file order, at most
/// 50, then how many more; a file with three mistakes takes one run to fix, not three.
@Suite("Every problem of a config, rules file or baseline")
struct CollectedProblemsTests {
    /// Each problem of `error` as `line:column: message`.
    static func problems(_ error: CatalogReadError?) -> [String] {
        error?.problems.map { "\($0.location.line ?? 0):\($0.location.column ?? 0): \($0.message)" } ?? []
    }

    /// A config of `count` products, each with an unknown type (one problem each, on line 3 + 2 × its index).
    static func configWithBadTypes(_ count: Int) -> String {
        var text = "version: 1\nproducts:\n"
        for index in 0..<count {
            text += "  p\(index):\n    type: subscription\n"
        }
        return text
    }

    static let badType = #"is not a product type (consumable, non-consumable, auto-renewable, non-renewing or one-time)"#

    @Test("a config with mistakes in three products reports all three, in file order, with their locations",
          arguments: [
              ("config/several-problems/three-products.yml", [(5, 12), (8, 13), (11, 22)]),
              ("config/several-problems/three-products.json", [(4, 62), (5, 73), (6, 73)]),
          ])
    func threeProducts(path: String, places: [(Int, Int)]) throws {
        let error = try #require(ConfigTesting.error(reading: path))
        let messages = [
            #"products."com.example.coins.100".price: "0,99" is not a decimal amount "#
                + #"(digits with an optional "." and decimals, like 9.99)"#,
            #"products."com.example.premium.monthly".period: "P0M" is not a period (use P1W, P1M, … or "1 month")"#,
            #"products."com.example.unlock".familyShareable: "yes" is not true or false"#,
        ]
        #expect(Self.problems(error) == zip(places, messages).map { "\($0.0):\($0.1): \($1)" })
        #expect(error.unlistedProblemCount == 0)
        #expect(error.description == zip(places, messages).map { "\(path):\($0.0):\($0.1): error: \($1)" }
            .joined(separator: "\n"))
    }

    @Test("a config with 60 problems lists the first 50 in file order, then says 10 more")
    func sixtyProblems() throws {
        let error = try #require(ConfigTesting.error(readingText: Self.configWithBadTypes(60)))
        #expect(error.problems.count == 50)
        #expect(error.unlistedProblemCount == 10)
        #expect(error.problems.map { $0.location.line ?? 0 } == (0..<50).map { 4 + 2 * $0 })
        #expect(error.problems.last?.message == #"products.p49.type: "subscription" \#(Self.badType)"#)
        let lines = error.lines
        #expect(lines.count == 51)
        #expect(lines.first == #"products.yml:4:11: error: products.p0.type: "subscription" \#(Self.badType)"#)
        #expect(lines.last == "… and 10 more problems in products.yml")
    }

    @Test("51 problems: one more, in the singular")
    func oneMore() throws {
        let error = try #require(ConfigTesting.error(readingText: Self.configWithBadTypes(51)))
        #expect(error.lines.count == 51)
        #expect(error.lines.last == "… and 1 more problem in products.yml")
    }

    @Test("thousands of problems keep the first 50 in file order, also when the first is found last")
    func firstFoundLast() throws {
        // The first product waits for `groups` (written after the products), so it is validated after the
        // 2,000 products the parser handed over while reading.
        let text = """
            version: 1
            products:
              first:
                type: auto-renewable
                group: nope
            \(Self.configWithBadTypes(2_000).dropFirst("version: 1\nproducts:\n".count))groups:
              premium: {}
            """
        let error = try #require(ConfigTesting.error(readingText: text))
        #expect(error.problems.count == 50)
        #expect(error.unlistedProblemCount == 1_951)
        #expect(error.message == #"products.first.group: "nope" is not a group key (groups: premium)"#)
        #expect(error.location == SourceLocation(path: "products.yml", line: 5, column: 12))
        #expect(error.problems.dropFirst().map { $0.location.line ?? 0 } == (0..<49).map { 7 + 2 * $0 })
    }

    @Test("several problems in one product, at the root and in settings are each reported")
    func problemsEverywhere() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            colour: red
            app:
              baseTerritory: Europe
            groups:
              premium: {name: ""}
            products:
              com.x.monthly:
                type: auto-renewable
                group: premium
                period: P0M
                prise: 9.99 USD
                introOffer: {mode: trial, period: P1W}
            """)
        #expect(Self.problems(error) == [
            "2:1: colour: unknown key (allowed: $schema, $comment, version, app, groups, products)",
            #"4:18: app.baseTerritory: "Europe" is not an ISO 3166-1 territory code"#,
            "6:19: groups.premium.name: must not be empty",
            #"11:13: products."com.x.monthly".period: "P0M" is not a period (use P1W, P1M, … or "1 month")"#,
            #"12:5: products."com.x.monthly".prise: unknown key; did you mean "price"?"#,
            #"13:24: products."com.x.monthly".introOffer.mode: "trial" is not an offer mode "#
                + "(free-trial, pay-as-you-go or pay-up-front)",
        ])
    }

    @Test("a misspelled key is reported once, not also as a missing one")
    func misspelledNotMissing() {
        let config = ConfigTesting.error(readingText: "version: 1\nproduct: {}\n")
        #expect(Self.problems(config) == [#"2:1: product: unknown key; did you mean "products"?"#])
        let type = ConfigTesting.error(readingText: "version: 1\nproducts:\n  x: {typ: consumable}\n")
        #expect(Self.problems(type) == [#"3:7: products.x.typ: unknown key; did you mean "type"?"#])
    }

    @Test("a syntax error stops the reading; the problems found before it come with it")
    func syntaxErrorAfterProblems() throws {
        let error = try #require(ConfigTesting.error(readingText: """
            version: 1
            products:
              a: {type: subscription}
              b: {type: consumable, price: 1 USD}
              c: {type: [
            """))
        #expect(error.problems.count == 2)
        #expect(error.problems.first?.message == #"products.a.type: "subscription" \#(Self.badType)"#)
        #expect(error.problems.last?.message.hasPrefix("invalid YAML: ") == true)
    }

    @Test("a duplicate key stops the reading too; the problems found before it come with it")
    func duplicateKeyAfterProblems() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              a: {type: subscription}
              b: {type: consumable}
              b: {type: consumable}
            """)
        #expect(Self.problems(error) == [
            #"3:13: products.a.type: "subscription" \#(Self.badType)"#,
            "5:3: products.b: duplicate key (first at line 4, column 3)",
        ])
    }

    @Test("every repeated key is reported, in file order, with the problems around it (issue 25)")
    func everyRepeatedKey() {
        let error = ConfigTesting.error(readingText: """
            version: 1
            products:
              a:
                type: consumable
                prices: { US: 0.99 USD, US: 1.99 USD, GB: 0.99 GBP, US: 2.99 USD }
              b: {type: subscription}
              a: {type: consumable}
            """)
        #expect(Self.problems(error) == [
            "5:29: products.a.prices.US: duplicate key (first at line 5, column 15)",
            "5:57: products.a.prices.US: duplicate key (first at line 5, column 15)",
            #"6:13: products.b.type: "subscription" \#(Self.badType)"#,
            "7:3: products.a: duplicate key (first at line 3, column 3)",
        ])
    }

    @Test("a JSON config reports every repeated key too, in file order")
    func everyRepeatedKeyInJSON() {
        let error = ConfigTesting.error(readingText: """
            {"version": 1, "products": {
              "a": {"type": "consumable", "prices": {"US": "0.99 USD", "US": "1.99 USD"}},
              "a": {"type": "consumable", "type": "consumable"}}}
            """, displayPath: "products.json")
        #expect(Self.problems(error) == [
            #"2:60: invalid JSON: duplicate key "US""#,
            #"3:3: invalid JSON: duplicate key "a""#,
            #"3:31: invalid JSON: duplicate key "type""#,
        ])
    }

    @Test("200,000 repeats of US in one price map: the first 50 listed, then 199,950 more")
    func manyRepeatedKeys() throws {
        // Arrange
        var text = "version: 1\nproducts:\n  a:\n    type: consumable\n    prices:\n"
        text.reserveCapacity(20 * 200_001)
        for _ in 0...200_000 { text += "      US: 0.99 USD\n" }
        // Act
        let error = try #require(ConfigTesting.error(readingText: text))
        // Assert
        #expect(error.problems.count == 50)
        #expect(error.unlistedProblemCount == 199_950)
        #expect(error.problems.map { $0.location.line ?? 0 } == (0..<50).map { 7 + $0 })
        #expect(error.lines.last == "… and 199950 more problems in products.yml")
    }

    @Test("an unsupported version is reported alone: the rest is not judged by schema 1")
    func unsupportedVersionAlone() {
        let error = ConfigTesting.error(readingText: "version: 2\nproducts:\n  a: {type: subscription}\n")
        #expect(Self.problems(error) == [
            #"1:10: version: "2" is not supported; this is schema version 1 (write "version: 1")"#,
        ])
    }

    @Test("a rules file with an unknown rule ID, a bad date and an unknown key reports all three")
    func rulesFile() {
        let path = "rules/several-problems/three-problems.yml"
        let error = ConfigTesting.error {
            _ = try RulesFileReader().read(contentsOf: Fixtures.url(path), displayPath: path)
        }
        #expect(Self.problems(error) == [
            #"4:3: rules.prise-mismatch: "prise-mismatch" is not a rule; did you mean "price-mismatch"?"#,
            #"8:12: ignore[0].until: "2026-13-01" is not a date (YYYY-MM-DD, e.g. 2026-12-31)"#,
            "9:5: ignore[0].territory: unknown key (allowed: rule, product, territories, store, reason, until)",
        ])
    }

    @Test("a baseline with several bad entries reports each")
    func baseline() throws {
        let path = "baseline/several-bad-entries.json"
        let error = try #require(ConfigTesting.error {
            _ = try BaselineReader().read(contentsOf: Fixtures.url(path), displayPath: path)
        })
        let problems = Self.problems(error)
        #expect(problems.count == 3)
        #expect(problems.first
                    == #"3:12: findings[1].rule: "price-mismatc" is not a rule; did you mean "price-mismatch"?"#)
        #expect(problems.dropFirst().first?.hasPrefix(#"4:56: findings[2].field: "kind" is not a field ("#) == true)
        #expect(problems.last == #"5:94: findings[3].store: "amazon" is not a store (appstore, play)"#)
    }
}
