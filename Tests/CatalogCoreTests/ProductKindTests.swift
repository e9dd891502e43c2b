import CatalogCore
import Testing

@Suite("ProductKind")
struct ProductKindTests {
    @Test("one-time matches consumable and non-consumable; every other pair only itself", arguments: [
        (ProductKind.oneTime, ProductKind.consumable, true),
        (.oneTime, .nonConsumable, true),
        (.consumable, .oneTime, true),
        (.nonConsumable, .oneTime, true),
        (.oneTime, .oneTime, true),
        (.oneTime, .autoRenewable, false),
        (.oneTime, .nonRenewing, false),
        (.nonRenewing, .oneTime, false),
        (.consumable, .nonConsumable, false),
        (.autoRenewable, .nonRenewing, false),
        (.consumable, .consumable, true),
    ])
    func matching(lhs: ProductKind, rhs: ProductKind, matches: Bool) {
        #expect(lhs.matches(rhs) == matches)
    }

    @Test("the config names, as messages list them")
    func configNames() {
        #expect(ProductKind.configNames == "consumable, non-consumable, auto-renewable, non-renewing or one-time")
        #expect(ProductKind.configNames(for: .appStore) == "consumable, non-consumable, auto-renewable or non-renewing")
        #expect(ProductKind.configNames(for: .play) == ProductKind.configNames)
        #expect(ProductKind.configNames(for: nil) == ProductKind.configNames)
    }
}
