import CatalogCore
import Foundation
import Testing

@Suite("Diff: offers, billing plans and purchase options")
struct OfferDiffTests {
    typealias M = OfferMake

    func catalog(_ path: String, _ products: [Product]) -> Catalog {
        Catalog(path: path, format: .catalog, products: products, capabilities: CatalogCapabilities(expressesGroups: true))
    }

    func plan(_ prices: [String: String]) -> BillingPlan { BillingPlan(type: .monthly, prices: M.prices(prices)) }

    /// Two revisions of a config: a price cut on a live promotional offer, an offer added and one removed, a
    /// free phase added to a live Play offer, a monthly plan's amount raised, a rent period changed.
    func revisions() -> (old: Catalog, new: Catalog) {
        let winBack = M.offer(.winBack, "WINBACK6", [M.phase(.payAsYouGo, "P1M", periods: 3, basePrice: "3.99 USD")])
        let summer = M.offer(.promotional, "summer_promo", [M.phase(.freeTrial, "P1W")])
        let half = M.phase(.payAsYouGo, "P1M", periods: 3, discount: .percent(50))
        func yearly(_ promo: String, _ offers: [Offer], plan amount: String) -> Product {
            M.product("pro.yearly", prices: ["US": "59.99 USD"],
                      offers: [M.offer(.promotional, "spring_promo", [M.phase(.payUpFront, "P3M", basePrice: promo)])]
                        + offers,
                      plans: [plan(["GB": amount])])
        }
        func rent(_ period: String) -> PurchaseOption {
            PurchaseOption(id: "rent-30d", kind: .rent(period: M.period(period)!, expiration: nil),
                           prices: M.prices(["US": "2.99 USD"]))
        }
        let old = catalog("old.yml", [
            yearly("29.99 USD", [winBack], plan: "4.99 GBP"),
            M.product("plus:monthly", period: "P1M", offers: [M.offer(.play, "intro", [half])]),
            M.product("maps", .oneTime, period: nil, options: [rent("P30D")]),
        ])
        let new = catalog("new.yml", [
            yearly("24.99 USD", [summer], plan: "6.99 GBP"),
            M.product("plus:monthly", period: "P1M",
                      offers: [M.offer(.play, "intro", [M.phase(.freeTrial, "P7D"), half])]),
            M.product("maps", .oneTime, period: nil, options: [rent("P7D")]),
        ])
        return (old, new)
    }

    @Test("two configs: every offer, plan and option change, with percent and the remarks a reviewer must see")
    func configRevisions() {
        let (old, new) = revisions()
        let diff = CatalogDiffer().diff(old: old, new: new)
        #expect(diff.products.map(\.productID) == ["maps", "plus:monthly", "pro.yearly"])
        // The monthly plan's increase is judged for the App Store alone (the only store with billing plans).
        let plan = diff.products.flatMap(\.fields).first { $0.field == .billingPlan }?.subscriberImpact
        #expect(plan?.direction == .increase && plan?.play == nil)
        #expect(plan?.appStore?.summary == "undecided (if not preserved: consent not-required)")
        #expect(diff.products.flatMap(\.fields).map(\.withoutImpact) == [
            FieldChange(field: .purchaseOption, old: "rent P30D", new: "rent P1W", item: "rent-30d"),
            FieldChange(field: .offer, old: "pay-as-you-go P1M×3 -50%", new: "free-trial P1W, pay-as-you-go P1M×3 -50%",
                        item: "play:intro", remark: "new free phase on a live offer"),
            FieldChange(field: .billingPlan, territory: M.territory("GB"), old: "4.99 GBP", new: "6.99 GBP",
                        percent: Decimal(string: "40.1"), item: "monthly"),
            FieldChange(field: .offer, territory: M.territory("US"), old: "pay-up-front P3M 29.99 USD",
                        new: "pay-up-front P3M 24.99 USD", percent: Decimal(string: "-16.7"),
                        item: "promotional:spring_promo", remark: "price cut on a live offer"),
            FieldChange(field: .offer, old: nil, new: "free-trial P1W", item: "promotional:summer_promo"),
            FieldChange(field: .offer, old: "pay-as-you-go P1M×3 3.99 USD", new: nil, item: "win-back:WINBACK6"),
        ])
        #expect(diff.products.flatMap(\.fields).map(\.name) == [
            "purchaseOption:rent-30d", "offer:play:intro", "billingPlan:monthly", "offer:promotional:spring_promo",
            "offer:promotional:summer_promo", "offer:win-back:WINBACK6",
        ])
    }

    @Test("a deeper discount and a state change on one offer")
    func discountAndState() {
        let before = M.offer(.play, "half", [M.phase(.payAsYouGo, "P1Y", discount: .percent(40))])
        var after = M.offer(.play, "half", [M.phase(.payAsYouGo, "P1Y", discount: .percent(50))])
        let old = catalog("old.yml", [M.product("p", offers: [before])])
        #expect(CatalogDiffer().diff(old: old, new: catalog("new.yml", [M.product("p", offers: [after])]))
            .products.flatMap(\.fields) == [
                FieldChange(field: .offer, old: "pay-as-you-go P1Y -40%", new: "pay-as-you-go P1Y -50%", item: "play:half",
                            remark: "deeper discount on a live offer"),
            ])
        after.isActive = false
        #expect(CatalogDiffer().diff(old: old, new: catalog("new.yml", [M.product("p", offers: [after])]))
            .products.flatMap(\.fields) == [
                FieldChange(field: .offer, old: "pay-as-you-go P1Y -40%", new: "pay-as-you-go P1Y -50%", item: "play:half"),
                FieldChange(field: .offer, old: "active", new: "inactive", item: "play:half:state"),
            ])
    }

    @Test("a config against a store: the changes are check's offer findings")
    func configAgainstStore() {
        let config = catalog("products.yml", [M.product("pro.yearly", offers: [M.spring("24.99 USD")])])
        let store = M.store([M.product("pro.yearly", offers: [M.spring(path: "store.json")], path: "store.json")])
        #expect(CatalogDiffer().diff(old: config, new: store).products.flatMap(\.fields) == [
            FieldChange(field: .offer, territory: M.territory("US"), old: "pay-up-front P3M 24.99 USD",
                        new: "pay-up-front P3M 29.99 USD", item: "promotional:spring_promo"),
        ])
        // Offers of a kind the store does not carry are no change.
        let noKinds = M.store([M.product("pro.yearly", offers: [], path: "store.json")], kinds: [])
        #expect(CatalogDiffer().diff(old: config, new: noKinds).products.isEmpty)
    }

    @Test("no change when both revisions state the same offers, or neither states any")
    func unchanged() {
        let (old, _) = revisions()
        #expect(CatalogDiffer().diff(old: old, new: old).isEmpty)
        let bare = catalog("a.yml", [M.product("p")])
        #expect(CatalogDiffer().diff(old: bare, new: bare).isEmpty)
    }
}
