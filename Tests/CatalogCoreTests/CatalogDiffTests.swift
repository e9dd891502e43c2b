import CatalogCore
import Foundation
import Testing

/// Small catalogs for diff tests: every helper states only what a test is about.
private enum DiffMake {
    static func price(_ code: String, _ amount: String, _ currency: String) -> (Territory, Price)? {
        guard let territory = Territory(code: code), let amount = Money.parseAmount(amount),
              let currency = CurrencyCode(currency) else { return nil }
        return (territory, Price(territory: territory, money: Money(amount: amount, currency: currency)))
    }

    static func product(_ id: String, _ kind: ProductKind = .consumable,
                        _ configure: (inout Product) -> Void = { _ in }) -> Product {
        var product = Product(id: ProductID(id), kind: kind, location: SourceLocation(path: "x", line: 1, column: 1))
        configure(&product)
        return product
    }

    static func catalog(_ products: [Product], format: CatalogFormat = .catalog, path: String = "products.yml",
                        groups: [SubscriptionGroup] = [],
                        capabilities: CatalogCapabilities = CatalogCapabilities(expressesGroups: true)) -> Catalog {
        Catalog(path: path, format: format, groups: groups, products: products, capabilities: capabilities)
    }

    static func prices(_ entries: (String, String, String)...) -> [Territory: Price] {
        Dictionary(uniqueKeysWithValues: entries.compactMap { price($0.0, $0.1, $0.2) })
    }
}

extension FieldChange {
    /// The change without its subscriber impact, for tests that compare the rest whole.
    var withoutImpact: FieldChange {
        var change = self
        change.subscriberImpact = nil
        return change
    }
}

extension DiffMake {
    /// The impact of a decrease without a decision, judged for both stores.
    static func decrease(from old: String, to new: String) -> SubscriberImpact {
        SubscriberImpact(
            direction: .decrease,
            appStore: AppStoreImpact(existing: .update, consent: .notApplicable,
                                     reason: "a decrease reaches every existing subscriber at their next renewal: App "
                                         + "Store Connect cannot preserve the higher price",
                                     summary: "existing pay \(new.split(separator: " ")[0]) (a decrease always applies)"),
            play: PlayImpact(existing: .undecided, migration: .undecided,
                             reason: "new purchases pay \(new) within hours; existing subscribers stay in a legacy "
                                 + "price cohort at \(old) until priceChange decides whether to migrate them "
                                 + "(existing: preserve keeps them there; existing: update migrates them)",
                             summary: "new purchases only until decided (undecided)"))
    }
}

@Suite("CatalogDiff")
struct CatalogDiffTests {
    private let differ = CatalogDiffer()

    @Test("identical catalogs: no change")
    func identical() {
        let catalog = DiffMake.catalog([DiffMake.product("a") { $0.prices = DiffMake.prices(("US", "0.99", "USD")) }])
        let diff = differ.diff(old: catalog, new: catalog)
        #expect(diff.isEmpty)
        #expect(diff.products.isEmpty && diff.groups.isEmpty)
    }

    @Test("added and removed products carry a summary; near IDs are marked as a possible rename")
    func addedRemoved() {
        let old = DiffMake.catalog([DiffMake.product("com.x.coins.100"), DiffMake.product("com.x.legacy")])
        let new = DiffMake.catalog([
            DiffMake.product("com.x.coins.1OO") { $0.prices = DiffMake.prices(("US", "0.99", "USD")) },
            DiffMake.product("com.x.season", .nonRenewing),
        ])
        let diff = differ.diff(old: old, new: new)
        #expect(diff.products == [
            ProductChange(productID: "com.x.coins.100", change: .removed, possibleRename: "com.x.coins.1OO",
                          summary: "consumable", cautions: [.removedSold]),
            ProductChange(productID: "com.x.coins.1OO", change: .added, possibleRename: "com.x.coins.100",
                          summary: "consumable, 0.99 USD"),
            ProductChange(productID: "com.x.legacy", change: .removed, summary: "consumable", cautions: [.removedSold]),
            ProductChange(productID: "com.x.season", change: .added, summary: "non-renewing"),
        ])
        #expect(diff.count(.added) == 2 && diff.count(.removed) == 2 && diff.count(.changed) == 0)
    }

    @Test("a removed + added pair with the same type, prices, period and name is a rename, however far the IDs")
    func renameByContent() {
        let old = DiffMake.catalog([
            DiffMake.product("com.x.unlock", .nonConsumable) {
                $0.referenceName = "Unlock"
                $0.prices = DiffMake.prices(("US", "4.99", "USD"))
            },
            DiffMake.product("com.x.other", .nonConsumable) {
                $0.referenceName = "Unlock"
                $0.prices = DiffMake.prices(("US", "5.99", "USD"))
            },
        ])
        let new = DiffMake.catalog([
            DiffMake.product("com.x.unlock.lifetime.everything", .nonConsumable) {
                $0.referenceName = "Unlock"
                $0.prices = DiffMake.prices(("US", "4.99", "USD"))
            },
        ])

        let diff = differ.diff(old: old, new: new)

        #expect(diff.products.map(\.possibleRename) == [nil, "com.x.unlock.lifetime.everything", "com.x.unlock"])
        #expect(diff.products.map(\.productID) == ["com.x.other", "com.x.unlock", "com.x.unlock.lifetime.everything"])
    }

    @Test("renames pair one to one: a content-identical pair wins, and a distance-only hint claims no paired side")
    func renamesPairOneToOne() {
        // Arrange: ai.credits100 was renamed to the identical ai.tokens100; ai.credits500 is new (other price and
        // name) and two edits from ai.credits100.
        let old = DiffMake.catalog([
            DiffMake.product("ai.credits100") {
                $0.referenceName = "100 Credits"
                $0.prices = DiffMake.prices(("US", "0.99", "USD"))
            },
        ])
        let new = DiffMake.catalog([
            DiffMake.product("ai.credits500") {
                $0.referenceName = "500 Credits"
                $0.prices = DiffMake.prices(("US", "3.99", "USD"))
            },
            DiffMake.product("ai.tokens100") {
                $0.referenceName = "100 Credits"
                $0.prices = DiffMake.prices(("US", "0.99", "USD"))
            },
        ])

        // Act
        let diff = differ.diff(old: old, new: new)

        // Assert
        #expect(diff.products.map(\.productID) == ["ai.credits100", "ai.credits500", "ai.tokens100"])
        #expect(diff.products.map(\.possibleRename) == ["ai.tokens100", nil, "ai.credits100"])
    }

    @Test("distance-only renames pair each side with its nearest, once: a second removed ID near it gets none")
    func distanceRenamesAreMutual() {
        // Arrange: coins.101 is one edit from coins.100 and two from coins.200, both removed.
        let old = DiffMake.catalog([DiffMake.product("com.x.coins.200"), DiffMake.product("com.x.coins.100")])
        let new = DiffMake.catalog([DiffMake.product("com.x.coins.101")])

        // Act
        let diff = differ.diff(old: old, new: new)

        // Assert
        #expect(diff.products.map(\.productID) == ["com.x.coins.100", "com.x.coins.101", "com.x.coins.200"])
        #expect(diff.products.map(\.possibleRename) == ["com.x.coins.101", "com.x.coins.100", nil])
    }

    @Test("bare IDs (no type) are no evidence of a rename; another type, price or name is none either")
    func noRenameByContent() {
        let old = DiffMake.catalog([
            Product(id: ProductID("com.x.first"), location: SourceLocation(path: "x", line: 1)),
            DiffMake.product("com.x.coins", .consumable) { $0.prices = DiffMake.prices(("US", "0.99", "USD")) },
        ])
        let new = DiffMake.catalog([
            Product(id: ProductID("com.x.second.one"), location: SourceLocation(path: "x", line: 1)),
            DiffMake.product("com.x.gems.pack", .nonConsumable) { $0.prices = DiffMake.prices(("US", "0.99", "USD")) },
        ])

        let diff = differ.diff(old: old, new: new)

        #expect(diff.products.allSatisfy { $0.possibleRename == nil })
    }

    @Test("cautions: removed non-consumable (even not for sale), removed sold, re-typed sold, live period change")
    func cautions() {
        let old = DiffMake.catalog([
            DiffMake.product("a.owned", .nonConsumable) { $0.clearedForSale = false },
            DiffMake.product("b.coins", .consumable),
            DiffMake.product("c.hidden", .consumable) { $0.clearedForSale = false },
            DiffMake.product("d.season", .nonRenewing),
            DiffMake.product("e.monthly", .autoRenewable) { $0.period = SubscriptionPeriod(iso: "P1M") },
            DiffMake.product("f.draft", .autoRenewable) {
                $0.period = SubscriptionPeriod(iso: "P1M")
                $0.clearedForSale = false
            },
        ])
        let new = DiffMake.catalog([
            DiffMake.product("d.season", .nonConsumable),
            DiffMake.product("e.monthly", .autoRenewable) { $0.period = SubscriptionPeriod(iso: "P1Y") },
            DiffMake.product("f.draft", .autoRenewable) {
                $0.period = SubscriptionPeriod(iso: "P1Y")
                $0.clearedForSale = false
            },
        ])

        let diff = differ.diff(old: old, new: new)

        #expect(diff.products.map(\.cautions) == [
            [.removedNonConsumable], [.removedSold], [], [.retypedSold], [.periodChangedLive], [],
        ])
        #expect(diff.cautionCount == 4)
    }

    @Test("every field: type, name, group, level, period, intro offer, family sharing, availability, storeIds")
    func everyField() {
        let groups = [SubscriptionGroup(key: "a", name: "Plus"), SubscriptionGroup(key: "b", name: "Pro")]
        let old = DiffMake.catalog([DiffMake.product("sub", .nonRenewing) {
            $0.referenceName = "Old"
            $0.groupKey = "a"
            $0.level = 1
            $0.period = SubscriptionPeriod(iso: "P1M")
            $0.introOffers = SubscriptionPeriod(iso: "P1W").map { [IntroOffer(mode: .freeTrial, period: $0)] }
            $0.familyShareable = false
            $0.clearedForSale = true
        }], groups: groups)
        let new = DiffMake.catalog([DiffMake.product("sub", .autoRenewable) {
            $0.referenceName = "New"
            $0.groupKey = "b"
            $0.level = 2
            $0.period = SubscriptionPeriod(iso: "P1Y")
            $0.introOffers = []
            $0.familyShareable = true
            $0.clearedForSale = false
            $0.storeIDs = [.play: ProductID("sub:yearly")]
        }], groups: groups)
        let fields = differ.diff(old: old, new: new).products.first?.fields ?? []
        #expect(fields == [
            FieldChange(field: .availability, old: "true", new: "false"),
            FieldChange(field: .familyShareable, old: "false", new: "true"),
            FieldChange(field: .group, old: "Plus", new: "Pro"),
            FieldChange(field: .introOffer, old: "free-trial P1W", new: "none"),
            FieldChange(field: .level, old: "1", new: "2"),
            FieldChange(field: .name, old: "Old", new: "New"),
            FieldChange(field: .period, old: "P1M", new: "P1Y"),
            FieldChange(field: .storeIds, old: nil, new: "play: sub:yearly"),
            FieldChange(field: .type, old: "non-renewing", new: "auto-renewable"),
        ])
    }

    @Test("prices: territories added, removed and changed; percent and subscriber impact")
    func prices() {
        let old = DiffMake.catalog([
            DiffMake.product("sub", .autoRenewable) {
                $0.prices = DiffMake.prices(("DE", "59.99", "EUR"), ("GB", "9.99", "GBP"), ("US", "9.99", "USD"),
                                            ("JP", "1000", "JPY"))
            },
            DiffMake.product("coins") { $0.prices = DiffMake.prices(("US", "0.99", "USD")) },
        ])
        let new = DiffMake.catalog([
            DiffMake.product("sub", .autoRenewable) {
                $0.prices = DiffMake.prices(("DE", "64.99", "EUR"), ("FR", "9.99", "EUR"), ("US", "8.99", "USD"),
                                            ("JP", "7", "USD"))
            },
            DiffMake.product("coins") { $0.prices = DiffMake.prices(("US", "1.99", "USD")) },
        ])
        let diff = differ.diff(old: old, new: new)
        #expect(diff.products.map(\.productID) == ["coins", "sub"])
        #expect(diff.products[0].fields == [
            FieldChange(field: .price, territory: Territory(code: "US"), old: "0.99 USD", new: "1.99 USD",
                        percent: Decimal(string: "101")),
        ])
        #expect(diff.products[1].fields.map(\.withoutImpact) == [
            FieldChange(field: .price, territory: Territory(code: "DE"), old: "59.99 EUR", new: "64.99 EUR",
                        percent: Decimal(string: "8.3")),
            FieldChange(field: .price, territory: Territory(code: "FR"), old: nil, new: "9.99 EUR"),
            FieldChange(field: .price, territory: Territory(code: "GB"), old: "9.99 GBP", new: nil),
            FieldChange(field: .price, territory: Territory(code: "JP"), old: "1000 JPY", new: "7 USD"),
            FieldChange(field: .price, territory: Territory(code: "US"), old: "9.99 USD", new: "8.99 USD",
                        percent: Decimal(string: "-10")),
        ])
        // A subscription's price change priced on both sides says what it does to existing subscribers; a
        // territory added or removed has none to judge (SubscriberImpactTests judge them).
        #expect(diff.products[1].fields.map { $0.subscriberImpact?.direction } == [
            .increase, nil, nil, .unknown, .decrease,
        ])
        #expect(diff.products[0].fields[0].subscriberImpact == nil)
    }

    @Test("9.99 and 9.990 are the same price")
    func scale() {
        let old = DiffMake.catalog([DiffMake.product("a") { $0.prices = DiffMake.prices(("US", "9.99", "USD")) }])
        let new = DiffMake.catalog([DiffMake.product("a") { $0.prices = DiffMake.prices(("US", "9.990", "USD")) }])
        #expect(differ.diff(old: old, new: new).isEmpty)
    }

    @Test("groups: added, removed, renamed (same key, new name)")
    func groups() {
        let old = DiffMake.catalog([], groups: [SubscriptionGroup(key: "premium", name: "Premium"),
                                                SubscriptionGroup(key: "legacy", name: "Legacy")])
        let new = DiffMake.catalog([], groups: [SubscriptionGroup(key: "premium", name: "Premium Plus"),
                                                SubscriptionGroup(key: "lite", name: "Lite")])
        #expect(differ.diff(old: old, new: new).groups == [
            GroupChange(change: .removed, key: "legacy", oldName: "Legacy", newName: nil),
            GroupChange(change: .added, key: "lite", oldName: nil, newName: "Lite"),
            GroupChange(change: .renamed, key: "premium", oldName: "Premium", newName: "Premium Plus"),
        ])
    }

    @Test("different formats: what one side cannot express is not a change; storeIds and stores map the config")
    func differentFormats() {
        let config = DiffMake.catalog([
            DiffMake.product("com.x.monthly", .autoRenewable) {
                $0.referenceName = "Monthly"
                $0.clearedForSale = true
                $0.storeIDs = [.play: ProductID("premium:monthly")]
                $0.prices = DiffMake.prices(("US", "9.99", "USD"), ("DE", "9.99", "EUR"))
                $0.listsTerritoryPrices = true
            },
            DiffMake.product("com.x.ios.only") { $0.stores = [.appStore] },
        ])
        let play = DiffMake.catalog([
            DiffMake.product("premium:monthly", .autoRenewable) {
                $0.prices = DiffMake.prices(("US", "9.99", "USD"), ("DE", "8.99", "EUR"))
            },
        ], format: .playJSON, path: "play", capabilities: CatalogCapabilities())
        let diff = differ.diff(old: config, new: play)
        #expect(diff.products == [
            ProductChange(productID: "premium:monthly", change: .changed, fields: [
                FieldChange(field: .price, territory: Territory(code: "DE"), old: "9.99 EUR", new: "8.99 EUR",
                            percent: Decimal(string: "-10"), subscriberImpact: DiffMake.decrease(from: "9.99 EUR",
                                                                                             to: "8.99 EUR")),
            ]),
        ])
        #expect(diff.groups.isEmpty)

        let storekit = DiffMake.catalog([
            DiffMake.product("com.x.monthly", .autoRenewable) { $0.prices = DiffMake.prices(("GB", "8.99", "GBP")) },
        ], format: .storekit, path: "a.storekit",
           capabilities: CatalogCapabilities(expressesGroups: true, priceableTerritories: [Territory(code: "GB") ?? .unitedStates]))
        // The .storekit file prices GB only: the config's US and DE are not changes; its missing GB is, since
        // the config lists its prices per territory.
        let fromStoreKit = differ.diff(old: storekit, new: config)
        #expect(fromStoreKit.products == [
            ProductChange(productID: "com.x.ios.only", change: .added, summary: "consumable"),
            ProductChange(productID: "com.x.monthly", change: .changed, fields: [
                FieldChange(field: .price, territory: Territory(code: "GB"), old: "8.99 GBP", new: nil),
            ]),
        ])
    }

    @Test("config against a store: groups change where check reports them missing, never against Play")
    func groupsAcrossFormats() {
        // Arrange: 'Family' holds only Play products, so check expects it in no App Store catalog.
        let config = DiffMake.catalog([
            DiffMake.product("plus.monthly", .autoRenewable) { $0.groupKey = "plus" },
            DiffMake.product("family.monthly", .autoRenewable) { $0.groupKey = "family"; $0.stores = [.play] },
        ], groups: [SubscriptionGroup(key: "plus", name: "Plus"), SubscriptionGroup(key: "family", name: "Family"),
                    SubscriptionGroup(key: "lite", name: "Lite")])
        let storekit = DiffMake.catalog([
            DiffMake.product("plus.monthly", .autoRenewable) { $0.groupKey = "1" },
        ], format: .storekit, path: "a.storekit",
           groups: [SubscriptionGroup(key: "1", name: "Plus"), SubscriptionGroup(key: "2", name: "Extra")])
        let play = DiffMake.catalog([
            DiffMake.product("plus.monthly", .autoRenewable) { $0.groupKey = "plus_sub" },
        ], format: .playJSON, path: "play", groups: [SubscriptionGroup(key: "plus_sub", name: "plus_sub")])

        // Act
        let toStoreKit = differ.diff(old: config, new: storekit)
        let fromStoreKit = differ.diff(old: storekit, new: config)
        let toPlay = differ.diff(old: config, new: play)

        // Assert
        #expect(toStoreKit.groups == [
            GroupChange(change: .added, key: "2", oldName: nil, newName: "Extra"),
            GroupChange(change: .removed, key: "lite", oldName: "Lite", newName: nil),
        ])
        #expect(fromStoreKit.groups == [
            GroupChange(change: .removed, key: "2", oldName: "Extra", newName: nil),
            GroupChange(change: .added, key: "lite", oldName: nil, newName: "Lite"),
        ])
        #expect(toStoreKit.products.isEmpty)
        // Play's group is the subscription: no group change even where the catalog says it states groups.
        #expect(toPlay.groups.isEmpty)
        #expect(toPlay.products.map { "\($0.change.rawValue) \($0.productID) \($0.fields)" }
            == ["removed family.monthly []"])
    }
}
