import CatalogCore
import CatalogReports
import Foundation
import Testing

/// The offer rules and their fields in every report format (DESIGN.md §6): one check of small in-memory
/// catalogs with an offer price that differs, an offer ID used by two kinds, and a monthly plan the store lacks.
@Suite("Reporters: offer findings")
struct OfferReportingTests {
    static func money(_ amount: String) -> [Territory: Money] {
        guard let currency = CurrencyCode("USD"), let value = Money.parseAmount(amount) else { return [:] }
        return [.unitedStates: Money(amount: value, currency: currency)]
    }

    static func result() -> CheckResult {
        func product(_ path: String, _ offers: [Offer], plans: [BillingPlan]) -> Product {
            Product(id: ProductID("pro.yearly"), kind: .autoRenewable, groupKey: "plus", offers: offers,
                    billingPlans: plans, location: SourceLocation(path: path, line: 3, column: 3))
        }
        func promo(_ path: String, _ amount: String) -> Offer {
            Offer(kind: .promotional, id: "RETURN", phases: [OfferPhase(mode: .payUpFront, period: SubscriptionPeriod(iso: "P3M"),
                                                                         prices: money(amount))],
                  location: SourceLocation(path: path, line: 8, column: 7))
        }
        let winBack = Offer(kind: .winBack, id: "RETURN", phases: [OfferPhase(mode: .freeTrial, period: SubscriptionPeriod(iso: "P1M"))],
                            location: SourceLocation(path: "store.json", line: 12, column: 7))
        let group = SubscriptionGroup(key: "plus", name: "Plus")
        let config = Catalog(path: "products.yml", format: .catalog, groups: [group], products: [
            product("products.yml", [promo("products.yml", "24.99")],
                    plans: [BillingPlan(type: .monthly, location: SourceLocation(path: "products.yml", line: 14, column: 7))]),
        ])
        let store = Catalog(path: "store.json", format: .ascJSON, groups: [group], products: [
            product("store.json", [promo("store.json", "29.99"), winBack], plans: []),
        ], capabilities: CatalogCapabilities(expressesGroups: true, offerKinds: [.promotional, .winBack],
                                             carriesBillingPlans: true))
        return Checker().check(config: config, stores: [store])
    }

    static func render(_ format: ReportFormat) -> String {
        format.reporter.report(result(), context: ReportContext())
    }

    @Test("the check finds what the reports show")
    func findings() {
        #expect(Self.result().findings.map { "\($0.rule.rawValue) \($0.field) \($0.territory?.alpha2 ?? "-")" } == [
            "offer-id-reused offer:RETURN -",
            "billing-plan-missing-in-store billingPlan:monthly -",
            "offer-mismatch offer:promotional:RETURN US",
            "offer-missing-in-config offer:win-back:RETURN -",
        ])
    }

    @Test("text: one compiler-style line per finding")
    func text() {
        let lines = Self.render(.text).split(separator: "\n").map(String.init)
        #expect(lines.contains("products.yml:8:7: error: [offer-mismatch] pro.yearly: promotional offer 'RETURN' is "
            + "pay-up-front P3M 29.99 USD in US in the store (store.json:8:7), pay-up-front P3M 24.99 USD in the config"))
        #expect(lines.contains("store.json:12:7: error: [offer-id-reused] plus: offer ID 'RETURN' names a promotional "
            + "offer on pro.yearly (store.json:8:7) and a win-back offer on pro.yearly (store.json:12:7) in one "
            + "subscription group; Apple requires offer IDs unique across the group's offers"))
    }

    @Test("JSON: field, territory, expected and actual of an offer finding")
    func json() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.render(.json).utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        let mismatch = try #require(findings.first { $0["rule"] as? String == "offer-mismatch" })
        #expect(mismatch["field"] as? String == "offer:promotional:RETURN")
        #expect(mismatch["territory"] as? String == "US")
        #expect(mismatch["expected"] as? String == "pay-up-front P3M 24.99 USD")
        #expect(mismatch["actual"] as? String == "pay-up-front P3M 29.99 USD")
        let plan = try #require(findings.first { $0["rule"] as? String == "billing-plan-missing-in-store" })
        #expect(plan["field"] as? String == "billingPlan:monthly")
        #expect(plan["actual"] is NSNull)
    }

    @Test("SARIF: every new rule in the driver, results point at their rule by index")
    func sarif() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(Self.render(.sarif).utf8)) as? [String: Any])
        let run = try #require((object["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ids = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(ids == Rule.allCases.map(\.rawValue))
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.compactMap { result in
            (result["ruleId"] as? String).flatMap { id in (result["ruleIndex"] as? Int).map { ids[$0] == id } }
        } == [true, true, true, true])
    }

    @Test("JUnit, Markdown, HTML and GitHub name every new rule that fired")
    func others() {
        for format in [ReportFormat.junit, .markdown, .html, .github] {
            let output = Self.render(format)
            for rule in ["offer-mismatch", "offer-id-reused", "offer-missing-in-config", "billing-plan-missing-in-store"] {
                #expect(output.contains(rule), "\(format.rawValue) lacks \(rule)")
            }
        }
    }
}
