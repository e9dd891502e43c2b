import Foundation
import TestSupport
import Testing

/// Scheduled prices are changes on their date (DESIGN.md §2c, §4): `diff` and `check --since` judge a schedule
/// entry the old config lacks as a change from the price the day before, effective on its `from` day.
@Suite("Scheduled prices are price changes on their date (CLI)")
struct ScheduledPriceChangeTests {
    static let old = "Tests/Fixtures/price-change/scheduled/old.yml"
    static let new = "Tests/Fixtures/price-change/scheduled/new.yml"
    static let asOf = ["--as-of", "2026-11-22"]

    /// `check --since` of the fixture's configs against `stores`, only the change rules on.
    static func checkSince(_ stores: [String], _ extra: [String] = []) throws -> CommandResult {
        try CommandRunner.run(["check", "--config", new, "--since", old, "--rules",
                               "Tests/Fixtures/price-change/scheduled/only-change-rules.yml"]
            + stores.flatMap { ["--store", $0] } + asOf + extra)
    }

    /// The diff's price fields of the fixture's one product.
    static func priceFields(_ arguments: [String]) throws -> [[String: Any]] {
        let result = try CommandRunner.run(["diff"] + arguments + ["--format", "json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let products = try #require(document["products"] as? [[String: Any]])
        return try #require(products.first?["fields"] as? [[String: Any]])
    }

    @Test("diff: each new schedule entry is a change from the price the day before, dated, in date order")
    func diffText() throws {
        // Act
        let result = try CommandRunner.run(["diff", Self.old, Self.new] + Self.asOf)
        // Assert
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == """
            ~ com.example.pro.monthly
                price DE from 2027-03-01: 9.99 EUR -> 12.99 EUR (+30%; App Store: existing keep 9.99 (preserve); Play: new purchases only (preserve))
                price GB from 2027-04-01: 8.99 GBP -> 9.99 GBP (+11.1%; App Store: undecided (if not preserved: consent not-required); Play: new purchases only until decided (undecided))
                price JP from 2027-02-01: 1800 JPY -> (none) (scheduled change withdrawn)
                price US from 2027-01-01: 9.99 USD -> 10.99 USD (+10%; App Store: existing pay 10.99 (update; consent not-required); Play: existing after opt-in migration (update))
                price US from 2027-06-01: 10.99 USD -> 11.99 USD (+9.1%; App Store: existing pay 11.99 (update; consent required); Play: existing after opt-in migration (update))
            0 added, 0 removed, 1 changed (old: Tests/Fixtures/price-change/scheduled/old.yml, new: Tests/Fixtures/price-change/scheduled/new.yml)

            """)
    }

    @Test("diff JSON: a scheduled change carries its day as `from`; a change of the price in effect has no `from`")
    func diffJSON() throws {
        // Act
        let scheduled = try Self.priceFields([Self.old, Self.new] + Self.asOf)
        let current = try Self.priceFields([Self.old, Self.new, "--as-of", "2027-03-01"])
        // Assert
        #expect(scheduled.map { $0["from"] as? String } == ["2027-03-01", "2027-04-01", "2027-02-01", "2027-01-01",
                                                           "2027-06-01"])
        let withdrawn = try #require(scheduled.first { $0["territory"] as? String == "JP" })
        #expect(withdrawn["remark"] as? String == "scheduled change withdrawn")
        #expect(withdrawn["subscriberImpact"] is NSNull)
        // By 2027-03-01 the US rise of 2027-01-01 is the price in effect: a change without `from`.
        let unitedStates = current.filter { $0["territory"] as? String == "US" }
        #expect(unitedStates.map { $0["from"] as? String } == [nil, "2027-06-01"])
        #expect(unitedStates.map { $0["new"] as? String } == ["10.99 USD", "11.99 USD"])
    }

    @Test("a decision's since covers the scheduled change dated on or after it, not a change at --as-of")
    func sinceCoversTheScheduledDay() throws {
        // Arrange: DE says `existing: preserve, since: 2027-03-01`, the day DE's entry starts.
        let fields = try Self.priceFields([Self.old, Self.new] + Self.asOf)
        // Act
        let germany = try #require(fields.first { $0["territory"] as? String == "DE" })
        let impact = try #require(germany["subscriberImpact"] as? [String: [String: String]])
        // Assert
        #expect(impact["appstore"]?["existing"] == "preserve")
        #expect(impact["appstore"]?["consent"] == "n/a")
        #expect(impact["play"]?["existing"] == "preserve")
    }

    @Test("the schedule's own earlier unpreserved rise makes a second one within 365 days need consent")
    func secondRiseInTheSchedule() throws {
        // Act
        let fields = try Self.priceFields([Self.old, Self.new] + Self.asOf)
        let rises = fields.filter { $0["territory"] as? String == "US" }
            .compactMap { ($0["subscriberImpact"] as? [String: [String: String]])?["appstore"] }
        // Assert: +1.00 USD (+10 %, then +9.1 %) is below both thresholds; only the second is within 365 days.
        #expect(rises.map { $0["consent"] } == ["not-required", "required"])
        #expect(rises.last?["reason"] == "existing subscribers pay 11.99 USD: the second increase within 365 days "
            + "that does not preserve the price (the config plans 9.99 USD -> 10.99 USD on 2027-01-01 with existing: "
            + "update): Apple asks every existing subscriber to consent, and without consent the subscription expires")
    }

    @Test("an unchanged schedule is no change, on any day")
    func unchangedSchedule() throws {
        for day in ["2026-11-22", "2027-03-01", "2027-12-31"] {
            let result = try CommandRunner.run(["diff", Self.new, Self.new, "--as-of", day, "--exit-code"])
            #expect(result.exitCode == 0, "\(day): \(result.stdout)")
        }
    }

    @Test("check --since: the change rules fire on scheduled entries, located at the territory's price")
    func checkSince() throws {
        // Act
        let result = try Self.checkSince(["catalogs/demo/asc", "catalogs/demo/play"])
        // Assert
        #expect(result.exitCode == 1, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").filter { $0.contains("com.example.pro.monthly") }
        #expect(lines.contains { $0.hasPrefix("\(Self.new):28:18: error: [subscription-price-change-undecided]")
            && $0.contains("GB 8.99 GBP -> 9.99 GBP from 2027-04-01 (+11.1%): no priceChange decides what existing App "
                + "Store subscribers pay") })
        #expect(lines.contains { $0.hasPrefix("\(Self.new):18:18: warning: [subscription-price-consent-required]")
            && $0.contains("US 10.99 USD -> 11.99 USD from 2027-06-01 (+9.1%) reaches existing App Store subscribers") })
        // Play: one note for the product, US named once, with the days its scheduled prices must be set on.
        let note = try #require(lines.first { $0.contains("[play-cohort-migration-needed]") })
        #expect(note.contains("(regionalPriceMigrations: US)"))
        #expect(note.contains("Google Play prices have no start date: set each scheduled price on its day, then "
            + "migrate that cohort (US 2027-01-01, 2027-06-01)"))
        // A withdrawn entry and a preserved one reach nobody: no finding names JP or DE.
        #expect(!lines.contains { $0.contains(" JP ") || $0.contains(" DE ") })
    }

    @Test("a scheduled change's finding expects the new price on its day, so a baseline tells it from another")
    func expectedNamesTheDay() throws {
        // Act
        let result = try Self.checkSince(["catalogs/demo/asc"], ["--format", "json"])
        // Assert
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.map { "\($0["rule"] ?? "") \($0["territory"] ?? "") \($0["actual"] ?? "") -> \($0["expected"] ?? "")" }
            == ["subscription-price-change-undecided GB 8.99 GBP -> 9.99 GBP from 2027-04-01",
                "subscription-price-consent-required US 10.99 USD -> 11.99 USD from 2027-06-01"])
    }
}
