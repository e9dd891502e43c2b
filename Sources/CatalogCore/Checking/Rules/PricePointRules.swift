import Foundation

/// Apple's price points (DESIGN.md §2c "Price points"): `price-not-a-price-point` and the `price-points-missing`
/// note. Only a store input that holds a price-point table (`Catalog.pricePoints`, App Store Connect pages
/// `fetch appstore --price-points` writes) is checked; a run with no table says nothing about price points.
///
/// Every App Store price of the config products meant for that store and of the store's own products is
/// checked: product prices (in effect and scheduled), offer phases, intro offers and billing plans, each
/// against the table of its product's kind (subscription or in-app purchase points). Apple accepts no other
/// customer price: App Store Connect prices are set by choosing a price point (OpenAPI 4.4.1
/// `SubscriptionPriceCreateRequest` and `InAppPurchasePriceScheduleCreateRequest` name a price point, never
/// an amount). A price in another currency than the table's for its territory is left to the currency rules.
enum PricePointRules {
    /// One price to check: where it belongs and where it was read.
    private struct Candidate {
        let productID: String
        let field: ProductField
        let territory: Territory
        let money: Money
        let kind: PricePointTable.Kind
        let inConfig: Bool
        let location: SourceLocation?
        let what: String

        /// The price itself, whichever side states it.
        var key: Key { Key(productID: productID, field: field, territory: territory, money: money) }
    }

    private struct Key: Hashable {
        let productID: String
        let field: ProductField
        let territory: Territory
        let money: Money
    }

    /// The findings on one store input and the config products meant for it (`relevant`); the config's prices
    /// first, so a price both sides state is reported once, at the config.
    static func check(config: Catalog, relevant: [Product], store: Catalog, territories: Set<Territory>?,
                      idFor: (Product) -> String) -> [Finding] {
        guard let table = store.pricePoints, store.store == .appStore else { return [] }
        var candidates: [Candidate] = []
        for product in relevant {
            candidates += prices(of: product, id: product.id.rawValue, base: config.baseTerritory, inConfig: true)
        }
        for product in store.products {
            candidates += prices(of: product, id: idFor(product), base: store.baseTerritory, inConfig: false)
        }
        var findings: [Finding] = []
        var seen: Set<Key> = []
        var unchecked: [Territory: Int] = [:]
        for candidate in candidates where territories?.contains(candidate.territory) ?? true {
            // One finding (or count) per price: a store price the config states alike is the config's.
            guard seen.insert(candidate.key).inserted else { continue }
            guard let points = table.points[candidate.kind]?[candidate.territory] else {
                unchecked[candidate.territory, default: 0] += 1
                continue
            }
            guard points.currency == candidate.money.currency,
                  let near = points.neighbours(of: candidate.money.amount) else { continue }
            findings.append(finding(candidate, near: near, currency: points.currency, table: table, store: store,
                                    configPath: config.path))
        }
        if !unchecked.isEmpty { findings.append(missing(unchecked, table: table, store: store)) }
        return findings
    }

    /// The App Store prices of one product, each with the table it is checked against.
    private static func prices(of product: Product, id: String, base: Territory, inConfig: Bool) -> [Candidate] {
        guard let kind = PricePointTable.Kind(product.kind) else { return [] }
        var result: [Candidate] = []
        func add(_ field: ProductField, _ territory: Territory, _ money: Money, _ location: SourceLocation?,
                 _ what: String) {
            result.append(Candidate(productID: id, field: field, territory: territory, money: money, kind: kind,
                                    inConfig: inConfig, location: location ?? product.location(of: field),
                                    what: what))
        }
        for price in product.prices.values { add(.price, price.territory, price.money, price.location, "price") }
        for (territory, schedule) in product.scheduledPrices {
            for entry in schedule {
                add(.price, territory, entry.money, product.location(of: .price), "price from \(entry.day)")
            }
        }
        for offer in product.introOffers ?? [] {
            guard let price = offer.price else { continue }
            add(.introOffer, offer.territory ?? base, price, offer.location, "intro offer price")
        }
        for offer in product.offers ?? [] {
            for phase in offer.phases {
                for (territory, money) in phase.prices {
                    add(offer.key.field, territory, money, phase.location ?? offer.location, "offer \(offer.key) price")
                }
            }
        }
        for plan in product.billingPlans ?? [] {
            for (territory, money) in plan.prices {
                add(plan.field, territory, money, plan.location, "\(plan.type.rawValue) billing plan price")
            }
        }
        return result
    }

    private static func finding(_ candidate: Candidate, near: (lower: Decimal?, higher: Decimal?),
                                currency: CurrencyCode, table: PricePointTable, store: Catalog,
                                configPath: String) -> Finding {
        let nearest = [near.lower, near.higher].compactMap { $0 }
            .map { Money(amount: $0, currency: currency).description }
        let between = switch (near.lower, near.higher) {
        case (.some, .some): "between the price points \(nearest.joined(separator: " and "))"
        case (.some, nil): "above the highest price point \(nearest.joined())"
        case (nil, .some): "below the lowest price point \(nearest.joined())"
        case (nil, nil): "in a territory without price points"
        }
        let side = candidate.inConfig ? "the config" : "the store"
        let location = candidate.location ?? SourceLocation(path: candidate.inConfig ? configPath : store.path)
        return Finding(
            rule: .priceNotAPricePoint, productID: candidate.productID, field: candidate.field,
            territory: candidate.territory,
            expected: nearest.isEmpty ? "a price point" : nearest.joined(separator: " or "),
            actual: candidate.money.description,
            message: "\(candidate.territory) \(candidate.what) \(candidate.money) in \(side) is no App Store"
                + " \(candidate.kind.rawValue) price point: it lies \(between) (price points "
                + "\(table.dated), \(table.location))",
            configLocation: candidate.inConfig ? location : nil,
            storeLocation: candidate.inConfig ? nil : location, store: store.path)
    }

    /// One note per store input: the prices of territories the table has no points for.
    private static func missing(_ unchecked: [Territory: Int], table: PricePointTable, store: Catalog) -> Finding {
        let prices = unchecked.values.reduce(0, +)
        let territories = unchecked.keys.sorted()
        let named = territories.prefix(10).map(\.description).joined(separator: ", ")
            + (territories.count > 10 ? ", …" : "")
        return Finding(
            rule: .pricePointsMissing, productID: nil, territory: territories.count == 1 ? territories.first : nil,
            actual: "\(territories.count)",
            message: "\(prices) App Store price\(prices == 1 ? "" : "s") in \(territories.count) "
                + "territor\(territories.count == 1 ? "y" : "ies") (\(named)) \(prices == 1 ? "was" : "were") not "
                + "checked against price "
                + "points: the price-point table \(table.dated) (\(table.location)) has none for "
                + (territories.count == 1 ? "it" : "them") + "; fetch them with `fetch appstore --price-points`",
            storeLocation: table.location, store: store.path)
    }
}
