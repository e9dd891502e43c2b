import CatalogCore
import CatalogReports
import Foundation
@testable import CatalogFormats
import Testing

/// The baseline with the offer, billing-plan and purchase-option fields (§5a.15): written, read back, and
/// matching the same findings on the next run, not findings whose values moved.
@Suite("Baseline: offer findings")
struct OfferBaselineTests {
    static let usd = CurrencyCode("USD")
    static let us = Territory.unitedStates

    static func money(_ amount: String) -> Money? {
        guard let usd, let value = Money.parseAmount(amount) else { return nil }
        return Money(amount: value, currency: usd)
    }

    /// A config and a store whose promotional offer differs in the US, with a monthly plan the store lacks and
    /// a win-back offer only the store has.
    static func catalogs(storePromo: String) -> (Catalog, Catalog) {
        func product(_ path: String, offers: [Offer], plans: [BillingPlan]) -> Product {
            Product(id: ProductID("pro.yearly"), kind: .autoRenewable, offers: offers, billingPlans: plans,
                    location: SourceLocation(path: path, line: 3, column: 3))
        }
        func promo(_ amount: String) -> Offer {
            Offer(kind: .promotional, id: "spring_promo",
                  phases: [OfferPhase(mode: .payUpFront, prices: money(amount).map { [us: $0] } ?? [:])])
        }
        let config = Catalog(path: "products.yml", format: .catalog, products: [
            product("products.yml", offers: [promo("24.99")], plans: [BillingPlan(type: .monthly)]),
        ])
        let store = Catalog(path: "store.json", format: .ascJSON, products: [
            product("store.json", offers: [promo(storePromo), Offer(kind: .winBack, id: "WINBACK3", phases: [])],
                    plans: []),
        ], capabilities: CatalogCapabilities(offerKinds: [.promotional, .winBack], carriesBillingPlans: true))
        return (config, store)
    }

    static func run(storePromo: String, baseline: Baseline? = nil) throws -> CheckResult {
        let (config, store) = catalogs(storePromo: storePromo)
        let asOf = try #require(CalendarDate(year: 2026, month: 11, day: 24))
        return Policy(baseline: baseline, asOf: asOf).apply(to: Checker().check(config: config, stores: [store]))
    }

    @Test("recorded, written, read back: the same findings are suppressed; a moved offer price is changed drift")
    func roundTrip() throws {
        let first = try Self.run(storePromo: "29.99")
        #expect(first.findings.map(\.field.rawValue) == [
            "billingPlan:monthly", "offer:promotional:spring_promo", "offer:win-back:WINBACK3",
        ])
        let text = BaselineWriter().write(Baseline(path: "baseline.json", recording: first))
        #expect(text.contains("""
            {"rule": "offer-mismatch", "productId": "pro.yearly", "field": "offer:promotional:spring_promo", \
            "territory": "US", "store": "appstore", "expected": "pay-up-front 24.99 USD", \
            "actual": "pay-up-front 29.99 USD"}
            """))
        let baseline = try BaselineReader().read(data: Data(text.utf8), displayPath: "baseline.json")

        let again = try Self.run(storePromo: "29.99", baseline: baseline)
        #expect(again.suppressedCount == 3)
        #expect(again.exitCode == 0)

        let moved = try Self.run(storePromo: "19.99", baseline: baseline)
        #expect(moved.suppressedCount == 2)
        #expect(moved.changedBaselineFindings == 1)
        #expect(moved.activeFindings.map(\.actual) == ["pay-up-front 19.99 USD"])
    }
}
