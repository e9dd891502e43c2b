import CatalogCore
import Foundation
import Testing

/// `duplicate-offer-id` (DESIGN.md §5, issue 25): one store catalog listing one offer, billing plan or purchase
/// option twice on a product is an error naming every location, even when the first matches the config.
@Suite("Duplicate offer IDs")
struct DuplicateOfferRulesTests {
    typealias M = OfferMake
    let yearly = "com.trailmate.app.pro.yearly"

    @Test("two promotional offers with one ID: an error naming both, though the first matches the config")
    func twoPromotionalOffersWithOneID() throws {
        // Arrange
        let config = M.config([M.product(yearly, prices: ["US": "59.99 USD"], offers: [M.spring()])])
        let store = M.store([M.product(yearly, prices: ["US": "59.99 USD"], offers: [
            M.spring(path: "store.json", line: 30), M.spring("19.99 USD", path: "store.json", line: 40),
        ], path: "store.json")])
        // Act
        let findings = offerFindings(config, store)
        // Assert
        #expect(describe(findings) == ["duplicate-offer-id \(yearly) offer:promotional:spring_promo - null -> 2"])
        let finding = try #require(findings.first)
        #expect(finding.severity == .error)
        #expect(finding.storeLocation == SourceLocation(path: "store.json", line: 40, column: 7))
        #expect(finding.message == "promotional offer 'spring_promo' is listed 2 times on the store's product "
            + "(store.json:30:7, store.json:40:7); which one the store uses is unknown")
    }

    @Test("two MONTHLY plans, two Play offers and two purchase options with one ID: one finding each")
    func plansOffersAndOptions() {
        // Arrange
        let at = { (line: Int) in SourceLocation(path: "store.json", line: line, column: 5) }
        let plans = [BillingPlan(type: .monthly, location: at(50)), BillingPlan(type: .upfront, location: at(55)),
                     BillingPlan(type: .monthly, location: at(60))]
        let play = M.offer(.play, "intro", [M.phase(.freeTrial, "P7D")], line: 70, path: "store.json")
        let options = [PurchaseOption(id: "rent-30d", kind: .buy(legacyCompatible: false), location: at(80)),
                       PurchaseOption(id: "rent-30d", kind: .buy(legacyCompatible: false), location: at(90))]
        let config = M.config([M.product(yearly), M.product("coins", .oneTime, period: nil)])
        let store = M.store([M.product(yearly, offers: [play, play], plans: plans, path: "store.json"),
                             M.product("coins", .oneTime, period: nil, options: options, path: "store.json",
                                       line: 12)])
        // Act
        let findings = offerFindings(config, store)
        // Assert
        #expect(describe(findings.filter { $0.rule == .duplicateOfferID }) == [
            "duplicate-offer-id coins purchaseOption:rent-30d - null -> 2",
            "duplicate-offer-id \(yearly) offer:play:intro - null -> 2",
            "duplicate-offer-id \(yearly) billingPlan:monthly - null -> 2",
        ])
    }

    @Test("one key per offer, plan and option: no finding")
    func distinctKeys() {
        let config = M.config([M.product(yearly, offers: [M.spring()])])
        let store = M.store([M.product(yearly, offers: [
            M.spring(path: "store.json"),
            M.offer(.winBack, "spring_promo", [M.phase(.freeTrial, "P1M")], path: "store.json"),
        ], plans: [BillingPlan(type: .monthly), BillingPlan(type: .upfront)], path: "store.json")])
        #expect(offerFindings(config, store).filter { $0.rule == .duplicateOfferID }.isEmpty)
    }
}
