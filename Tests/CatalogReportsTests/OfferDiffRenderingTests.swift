import CatalogCore
import CatalogReports
import Foundation
import Testing

@Suite("Diff renderers: offers, billing plans and purchase options")
struct OfferDiffRenderingTests {
    static let diff = CatalogDiff(
        old: CatalogDiff.Input(path: "old.yml", format: .catalog),
        new: CatalogDiff.Input(path: "new.yml", format: .catalog),
        groups: [],
        products: [
            ProductChange(productID: "pro.yearly", change: .changed, fields: [
                FieldChange(field: .billingPlan, territory: Territory(code: "GB"), old: "4.99 GBP", new: "6.99 GBP",
                            percent: Decimal(string: "40.1"),
                            subscriberImpact: SubscriberImpact(
                                direction: .increase,
                                appStore: AppStoreImpact(existing: .undecided, consent: .notRequired,
                                                         reason: "no priceChange decides it",
                                                         summary: "undecided (if not preserved: consent not-required)")),
                            item: "monthly"),
                FieldChange(field: .offer, old: "pay-as-you-go P1M×3 -50%",
                            new: "free-trial P7D, pay-as-you-go P1M×3 -50%", item: "play:intro",
                            remark: "new free phase on a live offer"),
                FieldChange(field: .offer, territory: Territory(code: "US"), old: "pay-up-front P3M 29.99 USD",
                            new: "pay-up-front P3M 24.99 USD", percent: Decimal(string: "-16.7"),
                            item: "promotional:spring_promo", remark: "price cut on a live offer"),
                FieldChange(field: .offer, old: nil, new: "free-trial P1W", item: "promotional:summer_promo"),
            ]),
        ])

    @Test("text: each offer change on its own line, named like the finding field, with its remark")
    func text() {
        #expect(DiffFormat.text.render(Self.diff) == """
            ~ pro.yearly
                billingPlan:monthly GB: 4.99 GBP -> 6.99 GBP (+40.1%; App Store: undecided (if not preserved: consent not-required))
                offer:play:intro: pay-as-you-go P1M×3 -50% -> free-trial P7D, pay-as-you-go P1M×3 -50% (new free phase on a live offer)
                offer:promotional:spring_promo US: pay-up-front P3M 29.99 USD -> pay-up-front P3M 24.99 USD (-16.7%, price cut on a live offer)
                offer:promotional:summer_promo: (none) -> free-trial P1W
            0 added, 0 removed, 1 changed (old: old.yml, new: new.yml)

            """)
    }

    @Test("JSON: the field names the offer; a remark only where there is one")
    func json() throws {
        let text = DiffFormat.json.render(Self.diff)
        let spring = try #require(text.range(of: "\"field\" : \"offer:promotional:spring_promo\""))
        let next = text[spring.upperBound...].prefix { $0 != "}" }
        #expect(next.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } == [
            ",",
            "\"new\" : \"pay-up-front P3M 24.99 USD\",",
            "\"old\" : \"pay-up-front P3M 29.99 USD\",",
            "\"percent\" : -16.7,",
            "\"remark\" : \"price cut on a live offer\",",
            "\"subscriberImpact\" : null,",
            "\"territory\" : \"US\"",
        ])
        #expect(text.components(separatedBy: "\"remark\"").count == 3)
        #expect(text.contains("\"field\" : \"billingPlan:monthly\""))
    }

    @Test("Markdown: the changed table names the offer and notes the remark")
    func markdown() {
        let text = DiffFormat.markdown.render(Self.diff)
        #expect(text.contains("| `pro.yearly` | offer:promotional:spring\\_promo US | pay-up-front P3M 29.99 USD | "
            + "pay-up-front P3M 24.99 USD | -16.7%, price cut on a live offer |"))
        #expect(text.contains("| `pro.yearly` | offer:promotional:summer\\_promo | — | free-trial P1W |  |"))
    }
}
