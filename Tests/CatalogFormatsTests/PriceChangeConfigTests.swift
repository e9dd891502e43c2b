import CatalogCore
import CatalogReports
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// The config's `priceChange` (DESIGN.md §2c), App Store Connect's `preserved` price rows, and `export` of both.
@Suite("Price change config")
struct PriceChangeConfigTests {
    /// Every `price-change-*` fixture in `config/invalid/`, with its whole message.
    static let invalid: [ExpectedConfigError] = [
        .init("price-change-bad-existing.yml", 6, 30, #"products."com.example.yearly".priceChange.existing: "keep" is not a decision for existing subscribers (preserve or update)"#),
        .init("price-change-bad-increase.yml", 8, 17, #"products."com.example.yearly".priceChange.increase: "optin" is not a Play price increase type (opt-in or opt-out); did you mean "opt-in"?"#),
        .init("price-change-bad-since.yml", 6, 45, #"products."com.example.yearly".priceChange.since: "2026-13-01" is not a date (YYYY-MM-DD, e.g. 2026-12-31)"#),
        .init("price-change-bad-territory.yml", 9, 9, #"products."com.example.yearly".priceChange.territories.EU: "EU" is not an ISO 3166-1 territory code"#),
        .init("price-change-empty.yml", 6, 5, #"products."com.example.yearly".priceChange: decides nothing (e.g. priceChange: { existing: preserve } or { existing: update, increase: opt-in })"#),
        .init("price-change-on-consumable.yml", 5, 5, #"products."com.example.coins".priceChange: only auto-renewable subscriptions have a price change decision for existing subscribers (type is consumable)"#),
        .init("price-change-territory-twice.yml", 9, 9, #"products."com.example.yearly".priceChange.territories.DEU: DE is decided twice (also as "DE" at line 8, column 9)"#),
        .init("price-change-unknown-key.yml", 6, 20, #"products."com.example.yearly".priceChange.exisitng: unknown key; did you mean "existing"?"#),
    ]

    @Test("an invalid priceChange: exactly one problem, whole message at line:column", arguments: invalid)
    func invalidPriceChange(expected: ExpectedConfigError) throws {
        // Arrange
        let path = "config/invalid/\(expected.file)"
        // Act
        let error = try #require(ConfigTesting.error(reading: path))
        // Assert
        #expect(error.problems.count == 1, "\(error)")
        #expect(error.description == "\(path):\(expected.line):\(expected.column): error: \(expected.message)")
    }

    @Test("product fields, territory overrides (alpha-3 keys read as alpha-2), and where each entry is")
    func readsPolicy() throws {
        // Act
        let catalog = try ConfigTesting.read("config/valid/price-change.yml")
        // Assert
        let path = "config/valid/price-change.yml"
        let yearly = try #require(catalog.products.first { $0.id.rawValue == "com.example.pro.yearly" })
        let monthly = try #require(catalog.products.first { $0.id.rawValue == "com.example.plus.monthly" })
        #expect(yearly.priceChange == PriceChangePolicy(
            product: PriceChangeDecision(existing: .update, increase: .optOut, since: CalendarDate(iso: "2026-12-01"),
                                         location: SourceLocation(path: path, line: 8, column: 5)),
            territories: [
                try ConfigTesting.territory("DE"): PriceChangeDecision(
                    existing: .preserve, location: SourceLocation(path: path, line: 13, column: 9)),
                try ConfigTesting.territory("GB"): PriceChangeDecision(
                    increase: .optIn, since: CalendarDate(iso: "2027-01-01"),
                    location: SourceLocation(path: path, line: 14, column: 9)),
            ]))
        #expect(monthly.priceChange == PriceChangePolicy(product: PriceChangeDecision(
            existing: .preserve, location: SourceLocation(path: path, line: 19, column: 5))))
        // A territory's entry overrides field by field.
        let britain = try #require(yearly.priceChange).decision(for: try ConfigTesting.territory("GB"))
        #expect(britain.existing == .update && britain.increase == .optIn && britain.since?.description == "2027-01-01")
    }

    @Test("the export writes priceChange back, and reading the export gives the same decisions")
    func exportRoundTrip() throws {
        // Arrange
        let catalog = try ConfigTesting.read("config/valid/price-change.yml")
        // Act
        let yaml = CatalogYAMLExporter().export(catalog)
        let json = CatalogJSONExporter().export(catalog)
        let again = try ConfigTesting.read(text: yaml)
        // Assert
        #expect(yaml.contains("""
                priceChange:
                  existing: update
                  increase: opt-out
                  since: 2026-12-01
                  territories:
                    DE: { existing: preserve }
                    GB: { increase: opt-in, since: 2027-01-01 }

            """))
        #expect(json.contains("\"priceChange\" : {\n        \"existing\" : \"update\","))
        func decisions(_ catalog: Catalog) -> [String: PriceChangePolicy?] {
            func unlocated(_ decision: PriceChangeDecision) -> PriceChangeDecision {
                PriceChangeDecision(existing: decision.existing, increase: decision.increase, since: decision.since)
            }
            return Dictionary(uniqueKeysWithValues: catalog.products.map { product in
                (product.id.rawValue, product.priceChange.map {
                    PriceChangePolicy(product: unlocated($0.product), territories: $0.territories.mapValues(unlocated))
                })
            })
        }
        #expect(decisions(again) == decisions(catalog))
    }
}

@Suite("App Store Connect preserved price rows")
struct PreservedPriceRowTests {
    static let folder = "asc/app-folder"

    @Test("consecutive rows of a territory are recorded changes, with the replaced row's preserved")
    func recordedChanges() throws {
        // Arrange
        let options = ReadOptions(asOf: try #require(CalendarDate(iso: "2026-11-22")))
        // Act
        let catalog = try AppStoreConnectReader().read(contentsOf: Fixtures.url(Self.folder), displayPath: Self.folder,
                                                       options: options)
        // Assert
        let yearly = try #require(catalog.products.first { $0.id.rawValue == "com.example.premium.yearly" })
        let file = "\(Self.folder)/02-subscription-6400000001-prices.json"
        func change(_ territory: String, _ date: String, _ from: String, _ to: String, _ currency: String,
                    preserved: Bool, line: Int) throws -> RecordedPriceChange {
            RecordedPriceChange(territory: try ConfigTesting.territory(territory),
                                date: try #require(CalendarDate(iso: date)),
                                from: try ConfigTesting.money(from, currency), to: try ConfigTesting.money(to, currency),
                                preserved: preserved, location: SourceLocation(path: file, line: line, column: 5))
        }
        // US: 29.99 (preserved: true) → 39.99 on 2024-06-01 → 44.99 scheduled for 2027; DE: 39.99 → 44.99 on the
        // as-of day. MONTHLY rows are billing-plan amounts, never recorded; GB has one row.
        #expect(yearly.recordedPriceChanges == [
            try change("DE", "2026-11-22", "39.99", "44.99", "EUR", preserved: false, line: 140),
            try change("US", "2024-06-01", "29.99", "39.99", "USD", preserved: true, line: 26),
            try change("US", "2027-01-01", "39.99", "44.99", "USD", preserved: false, line: 49),
        ])
        // The latest US change did not preserve the price: nothing for the export to state.
        #expect(PriceChangePolicy.stated(by: yearly.recordedPriceChanges) == nil)
    }

    @Test("export states existing: preserve where the latest recorded change kept the price; it reads back")
    func exportStatesPreserve() throws {
        // Arrange: Apple's example of GET /v1/subscriptions/{id}/prices, as a snapshot of one subscription.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(Self.subscription.utf8).write(to: folder.appendingPathComponent("subscriptions.json"))
        try Data(Self.prices.utf8).write(to: folder.appendingPathComponent("subscription-6470878936-prices.json"))
        let options = ReadOptions(asOf: try #require(CalendarDate(iso: "2026-11-22")))
        // Act
        let catalog = try AppStoreConnectReader().read(contentsOf: folder, displayPath: "asc", options: options)
        let yaml = CatalogYAMLExporter().export(catalog)
        let again = try ConfigTesting.read(text: yaml)
        // Assert
        let product = try #require(catalog.products.first)
        #expect(product.recordedPriceChanges.map { "\($0.territory) \($0.date) \($0.from) -> \($0.to) \($0.preserved ?? false)" }
            == ["US 2025-03-03 0.99 USD -> 2.99 USD true"])
        #expect(yaml.contains("    priceChange:\n      territories:\n        US: { existing: preserve }\n"))
        #expect(again.products.first?.priceChange?.decision(for: try ConfigTesting.territory("US")).existing == .preserve)
    }

    static let subscription = """
        {"data": [{"type": "subscriptions", "id": "6470878936",
                   "attributes": {"productId": "com.example.pro.monthly", "name": "Pro Monthly",
                                  "subscriptionPeriod": "ONE_MONTH", "state": "APPROVED"}}]}
        """

    /// Apple's example response (realworld/apple/apple-docs_GET-v1-subscriptions-id-prices_example_response.json),
    /// with the subscription the prices belong to named in `links.self`.
    static let prices = """
        {"data": [
          {"type": "subscriptionPrices", "id": "eyJhIjoiNjQ3MDg3ODkzNiIsImMiOiJVUyIsImQiOjAsInAiOiIwIn0",
           "attributes": {"startDate": null, "preserved": true, "planType": "UPFRONT"},
           "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}},
                             "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "p1"}}}},
          {"type": "subscriptionPrices", "id": "eyJhIjoiNjQ3MDg3ODkzNiIsImMiOiJVUyIsImQiOjIwMTUwLCJwIjoiMCJ9",
           "attributes": {"startDate": "2025-03-03", "preserved": false, "planType": "UPFRONT"},
           "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}},
                             "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "p2"}}}}],
         "included": [
          {"type": "territories", "id": "USA", "attributes": {"currency": "USD"}},
          {"type": "subscriptionPricePoints", "id": "p1", "attributes": {"customerPrice": "0.99"}},
          {"type": "subscriptionPricePoints", "id": "p2", "attributes": {"customerPrice": "2.99"}}],
         "links": {"self": "https://api.appstoreconnect.apple.com/v1/subscriptions/6470878936/prices"}}
        """
}
