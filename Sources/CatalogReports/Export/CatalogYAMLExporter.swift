import CatalogCore

/// Writes any catalog as a canonical internal config (`products.yml`, schema version 1, DESIGN.md §4), for
/// `catalogcheck export`: a team bootstraps its config from a store export, and a store export becomes a file
/// that diffs cleanly in git.
///
/// Canonical means deterministic and sorted: groups by key, products by ID, keys in a fixed order, prices by
/// territory as `9.99 USD`, periods in ISO 8601, strings quoted only where YAML needs it. Offers, billing plans and
/// purchase options are written in the §4a shape (`CatalogYAMLExporter+Offers.swift`). What the config cannot
/// hold (prices that are never compared, further intro offers, a missing type, a repeated ID) is written as
/// comments, so reading the file back gives the same products. Catalogs never carry secrets, so none is written.
public struct CatalogYAMLExporter: Sendable {
    /// Creates an exporter.
    public init() {}

    /// The config text, ending in a newline.
    public func export(_ catalog: Catalog) -> String {
        var out = YAMLLines()
        out.comment("catalogcheck export of \(catalog.path) (\(catalog.format.rawValue))", indent: 0)
        for remark in catalog.remarks.sorted() {
            out.comment("note: \(remark)", indent: 0)
        }
        out.line("version: 1")
        out.line("app:")
        if let appID = catalog.appID {
            out.line("  bundleId: \(YAMLEscaper.scalar(appID))")
        }
        out.line("  baseTerritory: \(catalog.baseTerritory.alpha2)")

        let groups = CatalogExportOrder.groups(of: catalog)
        if !groups.groups.isEmpty {
            out.line("groups:")
            for (key, group) in groups.groups {
                if group.name == key {
                    out.key(key, indent: 2, value: "{}")
                } else {
                    out.key(key, indent: 2)
                    out.line("    name: \(YAMLEscaper.scalar(group.name))")
                }
            }
        }

        let order = CatalogExportOrder.productOrder(of: catalog)
        out.line(order.indices.isEmpty ? "products: {}" : "products:")
        for index in order.indices {
            let id = catalog.products[index].id
            write(catalog.products[index], catalog: catalog, groups: groups, to: &out)
            for _ in 0..<(order.repeated[id] ?? 0) {
                out.comment("\(id) appears again in the source; that record is not exported", indent: 4)
            }
        }
        return out.text
    }

    private func write(_ product: Product, catalog: Catalog, groups: CatalogExportOrder.Groups,
                       to out: inout YAMLLines) {
        out.key(product.id.rawValue, indent: 2)
        if let kind = product.kind {
            out.line("    type: \(kind.rawValue)")
        } else {
            out.comment("type: not stated by \(catalog.format.rawValue); set "
                        + ProductKind.configNames(for: catalog.store), indent: 4)
        }
        if let name = product.referenceName {
            out.line("    name: \(YAMLEscaper.scalar(name))")
        }
        if let group = product.groupKey {
            out.line("    group: \(YAMLEscaper.scalar(groups.key(for: group)))")
        }
        if let level = product.level {
            out.line("    level: \(level)")
        }
        if let period = product.period {
            out.line("    period: \(period)")
        }
        if let familyShareable = product.familyShareable {
            out.line("    familyShareable: \(familyShareable)")
        }
        if let clearedForSale = product.clearedForSale {
            out.line("    clearedForSale: \(clearedForSale)")
        }
        let (offer, otherOffers) = CatalogExportOrder.introOffer(of: product, baseTerritory: catalog.baseTerritory)
        if let offer {
            out.line("    introOffer:")
            out.line("      mode: \(offer.mode.rawValue)")
            out.line("      period: \(offer.period)")
            if offer.periods != 1 {
                out.line("      periods: \(offer.periods)")
            }
            if let price = offer.price {
                out.line("      price: \(YAMLEscaper.scalar(price.description))")
            }
        }
        for other in otherOffers {
            out.comment("another intro offer: \(other)", indent: 4)
        }
        let form = CatalogExportOrder.priceForm(of: product, baseTerritory: catalog.baseTerritory)
        switch form?.shape {
        case .price(let money)?:
            out.line("    price: \(YAMLEscaper.scalar(money.description))")
            if form?.equalized == true { out.line("    equalized: true") }
        case .tier(let tier, let money)?:
            out.line("    tier: \(tier)  # \(money)")
            if form?.equalized == true { out.line("    equalized: true") }
        case .prices(let prices)?:
            out.line("    prices:")
            for price in prices {
                let amount = YAMLEscaper.scalar(price.money.description)
                guard let later = form?.schedules[price.territory] else {
                    out.line("      \(price.territory.alpha2): \(amount)")
                    continue
                }
                // A territory with scheduled rows is written as its schedule, so the round trip holds.
                let entries = ["{price: \(amount)}"] + later.map { scheduled in
                    "{from: \(scheduled.day), price: \(YAMLEscaper.scalar(scheduled.money.description))}"
                }
                out.line("      \(price.territory.alpha2): [\(entries.joined(separator: ", "))]")
            }
            if form?.equalized == true { out.line("      \(ConfigSpelling.othersEqualized)") }
        case nil:
            break
        }
        for price in CatalogExportOrder.unwrittenPrices(of: product, form: form) {
            out.comment("not compared: \(price.summary)", indent: 4)
        }
        writePriceChange(of: product, to: &out)
        if let playID = product.storeIDs[.play] {
            out.line("    storeIds:")
            out.line("      play: \(YAMLEscaper.scalar(playID.rawValue))")
        }
        if let stores = product.stores, !stores.isEmpty {
            out.line("    stores: [\(stores.sorted().map(\.rawValue).joined(separator: ", "))]")
        }
        writeOffers(of: product, to: &out)
    }
}

/// How the config spells a product's equalized territories.
enum ConfigSpelling {
    /// The `prices:` entry that leaves every territory not listed to the store (DESIGN.md §4).
    static let othersEqualized = "others: equalized"
}

/// The order and selection both exporters share, so their outputs agree.
enum CatalogExportOrder {
    /// The prices an export lists, by territory, and whether it leaves the others to equalization: a config's
    /// as they are; a store's whose prices include automatic ones (App Store Connect in-app purchases) as its
    /// manual prices and `others: equalized` — never the automatic amounts, which Apple rewrites at its tax and
    /// exchange-rate updates (DESIGN.md §4). Without any manual price the export pins every amount.
    static func listedPrices(of product: Product) -> (prices: [Price], equalized: Bool) {
        let all = product.prices.values.sorted { $0.territory < $1.territory }
        if product.equalizesOtherTerritories { return (all, true) }
        let fixed = all.filter { product.priceOrigins[$0.territory] != .automatic }
        guard fixed.count < all.count, !fixed.isEmpty else { return (all, false) }
        return (fixed, true)
    }

    /// The groups to write, each under the key the export gives it, and that key for every group key of the
    /// catalog.
    struct Groups {
        /// Sorted by export key.
        var groups: [(key: String, group: SubscriptionGroup)] = []
        /// The catalog's group key → its export key.
        var keys: [String: String] = [:]

        /// The export key of a product's group key.
        func key(for groupKey: String) -> String { keys[groupKey] ?? groupKey }
    }

    /// The catalog's groups, plus a group for every key a product names that the catalog does not list.
    ///
    /// A config keeps its own keys. A store catalog's keys are the store's identifiers (Xcode's random
    /// `subscriptionGroups[].id`, App Store Connect resource IDs), which no team would write: its groups are keyed
    /// by a slug of their name instead (`Trailmate Plus` → `trailmate-plus`; a Play subscription ID such as
    /// `trailmate_plus` stays itself). Groups match by name anyway (DESIGN.md §5a.10), so the round trip holds.
    /// Slugs are unique: where two groups would share one (two groups named `Premium`, or `Pro Plan` beside
    /// `pro-plan`), the first in reading order keeps it and the next get `-2`, `-3`, … (a suffix no other group's
    /// slug is), so the keys depend only on the file.
    static func groups(of catalog: Catalog) -> Groups {
        var listed: [SubscriptionGroup] = []
        var seen: Set<String> = []
        for group in catalog.groups where seen.insert(group.key).inserted {
            listed.append(group)
        }
        for product in catalog.products {
            if let key = product.groupKey, seen.insert(key).inserted {
                listed.append(SubscriptionGroup(key: key, name: key))
            }
        }
        var result = Groups()
        guard catalog.store != nil else {
            result.groups = listed.map { ($0.key, $0) }.sorted { $0.key < $1.key }
            result.keys = Dictionary(uniqueKeysWithValues: listed.map { ($0.key, $0.key) })
            return result
        }
        let slugs = listed.map { slug(of: $0.name) }
        var uses: [String: Int] = [:]
        for slug in slugs { uses[slug, default: 0] += 1 }
        var taken = Set(slugs.filter { uses[$0] == 1 })
        for index in listed.indices.sorted(by: { (slugs[$0], $0) < (slugs[$1], $1) }) {
            var key = slugs[index]
            if uses[key, default: 0] > 1 {
                var number = 2
                while taken.contains(key) || (key != slugs[index] && uses[key] != nil) {
                    key = "\(slugs[index])-\(number)"
                    number += 1
                }
                taken.insert(key)
            }
            result.keys[listed[index].key] = key
            result.groups.append((key, listed[index]))
        }
        result.groups.sort { $0.key < $1.key }
        return result
    }

    /// A group's name as a key: lower case, letters and digits kept with `_` and `.`, every other run of
    /// characters one `-`, none at either end; `group` for a name with nothing to keep.
    static func slug(of name: String) -> String {
        var slug = ""
        var pendingDash = false
        for character in name.lowercased() {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                if pendingDash && !slug.isEmpty { slug.append("-") }
                pendingDash = false
                slug.append(character)
            } else {
                pendingDash = true
            }
        }
        return slug.isEmpty ? "group" : slug
    }

    /// How the config writes a product's prices (DESIGN.md §4), decided once for both exporters.
    struct PriceForm {
        /// The key the prices are written under.
        enum Shape {
            /// `price:`, the base territory's.
            case price(Money)
            /// `tier:`, a legacy App Store tier, with its US dollar amount.
            case tier(Int, Money)
            /// `prices:`, sorted by territory.
            case prices([Price])
        }

        /// The key and the prices under it.
        let shape: Shape
        /// Whether the territories not written are left to the store: `equalized: true` beside `price:` or
        /// `tier:`, `others: equalized` in `prices:`.
        let equalized: Bool
        /// The later rows of each territory `prices:` writes as a schedule (`[{price}, {from, price}]`), by
        /// start; empty for the other shapes.
        let schedules: [Territory: [ScheduledPrice]]

        /// Whether the shape is `prices:`, which holds `others: equalized` itself.
        var isTerritoryList: Bool {
            if case .prices = shape { return true }
            return false
        }
    }

    /// The form of a product's prices; nil when it lists none. One price in the base territory reads back the
    /// same as `price:` (and keeps its meaning); a lone US dollar price outside the base territory came from a
    /// legacy tier, and `tier:` keeps its meaning; a product that lists territories, or has a schedule, keeps
    /// `prices:`.
    static func priceForm(of product: Product, baseTerritory: Territory) -> PriceForm? {
        let (listed, equalized) = listedPrices(of: product)
        // The scheduled prices of the listed territories (DESIGN.md §4 "Scheduled prices"); a row without an
        // amount stays a comment.
        let territories = Set(listed.map(\.territory))
        let scheduled = product.scheduledPrices.filter { territories.contains($0.key) }
        if !product.listsTerritoryPrices, scheduled.isEmpty, listed.count == 1, let single = listed.first {
            if single.territory == baseTerritory {
                return PriceForm(shape: .price(single.money), equalized: equalized, schedules: [:])
            }
            if single.territory == .unitedStates, single.money.currency.code == "USD",
               let tier = PriceTierTable.tier(forUSD: single.money.amount) {
                return PriceForm(shape: .tier(tier, single.money), equalized: equalized, schedules: [:])
            }
        }
        guard !listed.isEmpty else { return nil }
        return PriceForm(shape: .prices(listed), equalized: equalized, schedules: scheduled)
    }

    /// The prices a product's form does not hold, which both exports write as `not compared: …` text: every
    /// never-compared price except the scheduled rows written in a territory's schedule.
    static func unwrittenPrices(of product: Product, form: PriceForm?) -> [UncomparedPrice] {
        product.uncomparedPrices.sorted().filter { price in
            !(price.isScheduled && price.territory.map { form?.schedules[$0] != nil } ?? false)
        }
    }

    /// The positions in `catalog.products` of the products sorted by ID (reading order among equal IDs), the
    /// first of each ID, and how many more records each ID has. Positions, not copies: a copied product retains
    /// each of its fields, which for a 10,000-product Transporter export was a sixth of its time.
    static func productOrder(of catalog: Catalog) -> (indices: [Int], repeated: [ProductID: Int]) {
        let products = catalog.products
        let sorted = products.indices.sorted { (products[$0].id, $0) < (products[$1].id, $1) }
        var indices: [Int] = []
        indices.reserveCapacity(sorted.count)
        var repeated: [ProductID: Int] = [:]
        for index in sorted {
            if let last = indices.last, products[last].id == products[index].id {
                repeated[products[index].id, default: 0] += 1
            } else {
                indices.append(index)
            }
        }
        return (indices, repeated)
    }

    /// The intro offer the config form can hold — the one for the base territory, else one for every territory:
    /// what the config's `introOffer` means, and what `intro-offer-mismatch` compares it with (DESIGN.md §5a.11) —
    /// and the other, different offers as `<territory> <summary>` text. An offer for other territories only is
    /// never the config's (read back, it would stand for the base territory). The chosen offer carries no
    /// territory: the config's has none, so an export and the export of that export agree (DESIGN.md §2's round
    /// trip).
    static func introOffer(of product: Product,
                           baseTerritory: Territory) -> (offer: IntroOffer?, others: [String]) {
        guard let offers = product.introOffers, !offers.isEmpty else { return (nil, []) }
        func rank(_ offer: IntroOffer) -> Int {
            offer.territory == baseTerritory ? 0 : offer.territory == nil ? 1 : 2
        }
        let ordered = offers.sorted { lhs, rhs in
            (rank(lhs), lhs.territory?.alpha2 ?? "", lhs.summary) < (rank(rhs), rhs.territory?.alpha2 ?? "",
                                                                      rhs.summary)
        }
        let chosen = ordered.first.flatMap { rank($0) < 2 ? $0 : nil }
        var others: [String] = []
        for offer in ordered.dropFirst(chosen == nil ? 0 : 1) where offer.summary != chosen?.summary {
            let text = offer.territory.map { "\($0.alpha2) \(offer.summary)" } ?? offer.summary
            if !others.contains(text) { others.append(text) }
        }
        guard var canonical = chosen else { return (nil, others) }
        canonical.location = nil
        canonical.territory = nil
        return (canonical, others)
    }
}

/// Lines of YAML text being written.
struct YAMLLines {
    private(set) var text = ""

    mutating func line(_ line: String) {
        text += line
        text += "\n"
    }

    /// A mapping key, with its value on the same line or, without one, a nested block to follow. A key longer
    /// than YAML allows an implicit key to be is written as an explicit key (`? key` then `: value`).
    mutating func key(_ key: String, indent: Int, value: String? = nil) {
        let prefix = String(repeating: " ", count: indent)
        let written = YAMLEscaper.scalar(key)
        let separator = value.map { ": " + $0 } ?? ":"
        if YAMLEscaper.fitsImplicitKey(written) {
            line(prefix + written + separator)
        } else {
            line(prefix + "? " + written)
            line(prefix + separator)
        }
    }

    /// A `# comment` line; line breaks and control characters in the text become spaces.
    mutating func comment(_ comment: String, indent: Int) {
        let flat = String(String.UnicodeScalarView(comment.unicodeScalars.map { scalar in
            YAMLEscaper.isPrintable(scalar) && scalar != "\n" && scalar != "\r" && scalar != "\t" ? scalar : " "
        }))
        line(String(repeating: " ", count: indent) + "# " + flat)
    }
}
