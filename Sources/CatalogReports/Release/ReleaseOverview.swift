import CatalogCore
import Foundation

/// What the release report shows besides the verdict (DESIGN.md §2a): the app, every product with its name,
/// status per store, offers and findings, a price matrix per priced product (territories × config and each
/// store, mismatched cells marked, each store's difference from the config), the product-less findings, the
/// look-alike IDs, and with `--since` what the release changes. Built from the same `ProductMatching` and
/// findings as `check`, so each status and each `≠` agrees with a finding of the run; pure and sorted.
public struct ReleaseOverview: Hashable, Sendable {
    /// A store input, in the order given.
    public struct Store: Hashable, Sendable {
        /// Which input of the run it is.
        public var input: StoreInputID
        /// The path as given.
        public var path: String
        /// Its format.
        public var format: CatalogFormat
        /// What a reader calls it: `App Store`, `Google Play`; with the file name when two inputs would read
        /// alike (`App Store (asc)`).
        public var label: String
        /// The territories its input can price (a .storekit file: its storefront); nil for any.
        public var priceableTerritories: Set<Territory>?
        /// Its price-point table, when it holds one: `price points of 2026-11-20 (8 days before --as-of), 4
        /// territories` (DESIGN.md §2c "Price points").
        public var pricePoints: String?
    }

    /// A product's standing in one store.
    public enum Status: String, Hashable, Sendable {
        /// Matched, no finding that counts.
        case ok
        /// Matched, with findings (`findings` says how many).
        case mismatch
        /// In the config, not in the store.
        case missingInStore = "missing in store"
        /// In the store, not in the config.
        case notInConfig = "not in config"
        /// Not compared: another config product (earlier by key) has the same store ID (`duplicate-product-id`).
        case duplicate = "duplicate ID"
        /// The config does not sell it in this store (`stores:`).
        case notSold = "not sold here"

        /// Whether a release manager has something to do about it.
        public var needsAttention: Bool {
            switch self {
            case .ok, .notSold: false
            case .mismatch, .missingInStore, .notInConfig, .duplicate: true
            }
        }
    }

    /// Another product's ID that reads the same as this one (`coins.5OO` and `coins.500`).
    public struct LookAlike: Hashable, Sendable {
        /// The other ID.
        public var other: String
        /// The 0-based offsets, in Unicode scalars of this product's ID, of the characters that differ.
        public var offsets: [Int]
        /// `letter 'O' where the other has digit '0', twice, from character 26` (`LookAlikes.difference`).
        public var description: String
    }

    /// One product row: the config's description, or the store's for products only a store has.
    public struct ProductRow: Hashable, Sendable {
        /// The config key, or the store ID of a product only stores have.
        public var productID: String
        /// Whether the row is a config product (a store ID that equals a config key has a row of its own when
        /// that config product maps to another ID there).
        public var inConfig: Bool
        /// The reference name (the config's, or the store's for a product only a store has).
        public var name: String?
        /// The type, canonical text.
        public var type: String?
        /// The subscription group's name.
        public var group: String?
        /// The rank within the group.
        public var level: Int?
        /// The subscription period, ISO 8601.
        public var period: String?
        /// The introductory offer (a free trial, most often) in the base territory, canonical text
        /// (`free-trial P1W`); nil when the product states none.
        public var introOffer: String?
        /// One per store, in store order.
        public var statuses: [Status]
        /// Findings that count, per store.
        public var findings: [Int]
        /// The findings that count about this product: the config's own first, then each store's in store order,
        /// each in output order.
        public var details: [Finding]
        /// Its offers, billing plans and purchase options, one line each
        /// (`spring_promo (promotional, pay-up-front P3M, 29.99 USD)`).
        public var offers: [String]
        /// The product of the report whose ID looks the same, when there is one.
        public var lookAlike: LookAlike?

        /// Whether a release manager has something to do about it: a status that is not fine, or a finding.
        public var needsAttention: Bool {
            statuses.contains(where: \.needsAttention) || !details.isEmpty
        }
    }

    /// One territory of a price matrix.
    public struct PriceRow: Hashable, Sendable {
        /// The territory.
        public var territory: Territory
        /// The config's price, nil when it has none there.
        public var config: Money?
        /// Each store's price, in store order.
        public var stores: [Money?]
        /// Whether a price finding that counts marks the cell, per store.
        public var mismatched: [Bool]
        /// Whether each store compared this territory, in store order: it has the product, its product defines
        /// prices (DESIGN.md §5a.7), and its input can price the territory (a .storekit file prices its
        /// storefront only). A store without a price here that did not compare it has "not compared", not
        /// "no price".
        public var compared: [Bool]
        /// How the config sets the price here: `equalized` (left to the store), and its next scheduled change
        /// (`10.99 USD from 2027-01-01`); nil for a plain price.
        public var configOrigin: String? = nil
        /// How each store set its price, in store order: `equalized` (App Store Connect automatic) or `manual`
        /// where the store says, and its next scheduled change; nil where there is nothing to say.
        public var storeOrigins: [String?] = []

        /// How the store at `index` differs from the config here: nil when either has no price or the amounts
        /// are equal.
        public func difference(store index: Int) -> PriceDifference? {
            guard let config, let price = stores[index], price != config else { return nil }
            return PriceDifference(config: config, store: price)
        }
    }

    /// A priced product's matrix.
    public struct PriceMatrix: Hashable, Sendable {
        /// The product's ID (config key, or store ID).
        public var productID: String
        /// The product's reference name.
        public var name: String?
        /// One row per territory that some side prices, sorted by territory code.
        public var rows: [PriceRow]

        /// Whether a store's price differs from the config's (or one side lacks it) in some territory.
        public var differs: Bool {
            rows.contains { row in row.mismatched.contains(true) || row.stores.indices.contains { row.difference(store: $0) != nil } }
        }

        /// Whether the store at `index` compared some territory of the matrix.
        public func compares(store index: Int) -> Bool {
            rows.contains { $0.compared[index] }
        }
    }

    /// The app the config describes (`app.bundleId`).
    public var appID: String?
    /// The store inputs.
    public var stores: [Store]
    /// Products sorted by ID.
    public var products: [ProductRow]
    /// Matrices for products that have a price on some side, sorted by product ID; rows by territory.
    public var priceMatrices: [PriceMatrix]
    /// Findings that count and concern no product (a group, a storefront, a rules-file entry), in output order.
    public var otherFindings: [Finding]
    /// What the release changes: the config given to `--since` against this one; nil without `--since`.
    public var changes: CatalogDiff?
    /// Each product ID's row in `products` (the config's when a store-only row shares the ID).
    private var rowIndex: [String: Int] = [:]

    /// The row of a product ID (the config's when a store-only row shares it), in constant time.
    public func product(_ id: String) -> ProductRow? {
        rowIndex[id].map { products[$0] }
    }

    /// The price matrices where a store differs from the config first, then the others, each part by product
    /// ID: what a reader must look at comes before what agrees.
    public var matricesDifferingFirst: [PriceMatrix] {
        priceMatrices.filter(\.differs) + priceMatrices.filter { !$0.differs }
    }

    /// How many products need attention (the picture at a glance: "8 of 9 products need attention").
    public var productsNeedingAttention: Int { products.count { $0.needsAttention } }

    /// How many price cells (product × territory × store) a price finding marks.
    public var differingPrices: Int {
        priceMatrices.reduce(0) { sum, matrix in
            sum + matrix.rows.reduce(0) { $0 + $1.mismatched.count { $0 } }
        }
    }

    /// Config products that are missing in every store they are sold in.
    public var productsInNoStore: Int {
        products.count { row in
            row.inConfig && row.statuses.contains(.missingInStore)
                && row.statuses.allSatisfy { $0 == .missingInStore || $0 == .notSold }
        }
    }

    /// Products that some store has and the config does not.
    public var productsOnlyInStores: Int { products.count { !$0.inConfig } }

    /// Builds the overview of a check: `stores` are the run's store inputs in the order `Checker` got them;
    /// `changes` is the `--since` diff, when there is one.
    public init(config: Catalog, stores: [Catalog], result: CheckResult, changes: CatalogDiff? = nil,
                asOf: CalendarDate? = nil) {
        appID = config.appID
        self.changes = changes
        self.stores = Self.stores(stores, asOf: asOf)
        let active = result.activeFindings
        var configRows: [String: ProductRow] = [:]
        var storeRows: [String: ProductRow] = [:]
        var matrices: [String: [Territory: PriceRow]] = [:]
        var names: [String: String] = [:]
        // Per product and store, whether the store's matched product defines prices (what prices compare).
        var priced: [String: [Bool]] = [:]
        let storeCount = stores.count

        func blankRow(_ product: Product, in catalog: Catalog, inConfig: Bool) -> ProductRow {
            ProductRow(productID: product.id.rawValue, inConfig: inConfig, name: product.referenceName,
                       type: product.kind?.rawValue,
                       group: product.groupKey.map { catalog.groupName(forKey: $0) ?? $0 }, level: product.level,
                       period: product.period?.description,
                       introOffer: product.introOffer(for: catalog.baseTerritory)?.summary,
                       statuses: Array(repeating: .notSold, count: storeCount),
                       findings: Array(repeating: 0, count: storeCount), details: [],
                       offers: Self.offers(of: product, in: catalog), lookAlike: nil)
        }
        func priceRow(_ territory: Territory) -> PriceRow {
            PriceRow(territory: territory, config: nil, stores: Array(repeating: nil, count: storeCount),
                     mismatched: Array(repeating: false, count: storeCount),
                     compared: Array(repeating: false, count: storeCount),
                     storeOrigins: Array(repeating: nil, count: storeCount))
        }
        var configOrigins: [String: PriceOriginText] = [:]

        for product in config.products where configRows[product.id.rawValue] == nil {
            configRows[product.id.rawValue] = blankRow(product, in: config, inConfig: true)
            configOrigins[product.id.rawValue] = PriceOriginText(product)
            names[product.id.rawValue] = product.referenceName
            for (territory, price) in product.prices {
                matrices[product.id.rawValue, default: [:]][territory, default: priceRow(territory)].config = price.money
            }
        }
        for finding in result.activeFindings(forStore: nil) where finding.concernsProduct {
            if let key = finding.productID { configRows[key]?.details.append(finding) }
        }
        var findingsByInput: [StoreInputID: [Finding]] = [:]
        for finding in active {
            if let input = finding.storeInput { findingsByInput[input, default: []].append(finding) }
        }
        for (index, store) in stores.enumerated() {
            let matching = ProductMatching(config: config, store: store)
            let storeFindings = findingsByInput[StoreInputID(position: index)] ?? []
            // Store-side findings on an unmatched store ID (missing in config, repeated records) belong to the
            // store's row; every other product finding to the config product's.
            let unmatchedRepeats = Set(matching.storeDuplicates.map(\.first.id)
                .filter { matching.configKey(forStoreID: $0) == nil }.map(\.rawValue))
            var configDetails: [String: [Finding]] = [:]
            var storeDetails: [String: [Finding]] = [:]
            for finding in storeFindings where finding.concernsProduct {
                guard let key = finding.productID else { continue }
                let storeSide = finding.rule.sides == .storeProductOnly
                    || (finding.rule.sides == .repeatedRecords && finding.configLocation == nil
                        && unmatchedRepeats.contains(key))
                if storeSide {
                    storeDetails[key, default: []].append(finding)
                } else {
                    configDetails[key, default: []].append(finding)
                }
            }
            func mark(_ product: Product, _ status: Status) {
                let key = product.id.rawValue
                let details = configDetails[key] ?? []
                configRows[key]?.statuses[index] = status
                configRows[key]?.findings[index] = details.count
                configRows[key]?.details += details
            }
            for match in matching.matches {
                let key = match.mine.id.rawValue
                mark(match.mine, configDetails[key]?.isEmpty ?? true ? .ok : .mismatch)
                if !match.theirs.prices.isEmpty {
                    priced[key, default: Array(repeating: false, count: storeCount)][index] = true
                }
                let origins = PriceOriginText(match.theirs)
                for (territory, price) in match.theirs.prices {
                    matrices[key, default: [:]][territory, default: priceRow(territory)].stores[index] = price.money
                    matrices[key]?[territory]?.storeOrigins[index] = origins.text(territory, hasPrice: true)
                }
            }
            for product in matching.missingInStore { mark(product, .missingInStore) }
            for duplicate in matching.configDuplicates { mark(duplicate.product, .duplicate) }
            for product in matching.missingInConfig {
                let key = product.id.rawValue
                var row = storeRows[key] ?? blankRow(product, in: store, inConfig: false)
                row.statuses[index] = .notInConfig
                row.findings[index] = storeDetails[key]?.count ?? 0
                row.details += storeDetails[key] ?? []
                storeRows[key] = row
                if names[key] == nil { names[key] = product.referenceName }
            }
            for finding in storeFindings where finding.rule.disagreesOnAmount && finding.concernsProduct {
                guard let key = finding.productID, let territory = finding.territory else { continue }
                matrices[key, default: [:]][territory, default: priceRow(territory)].mismatched[index] = true
            }
        }
        products = Self.markingLookAlikes((Array(configRows.values) + Array(storeRows.values)).sorted {
            ($0.productID, $0.inConfig ? 0 : 1) < ($1.productID, $1.inConfig ? 0 : 1)
        })
        let storeList = self.stores
        priceMatrices = matrices.map { id, territories in
            let pricedIn = priced[id] ?? Array(repeating: false, count: storeCount)
            let rows = territories.values.sorted { $0.territory < $1.territory }.map { row in
                var row = row
                row.compared = storeList.indices.map { index in
                    pricedIn[index] && storeList[index].priceableTerritories?.contains(row.territory) ?? true
                }
                row.configOrigin = configOrigins[id]?.text(row.territory, hasPrice: row.config != nil)
                return row
            }
            return PriceMatrix(productID: id, name: names[id], rows: rows)
        }.sorted { $0.productID < $1.productID }
        otherFindings = active.filter { !$0.concernsProduct }
        for (index, row) in products.enumerated() where rowIndex[row.productID] == nil { rowIndex[row.productID] = index }
    }

    /// How one product's prices are set (DESIGN.md §2c), read once per product: its schedule is built from all
    /// its rows, so reading it per territory would cost the square of its prices.
    struct PriceOriginText {
        let origins: [Territory: PriceOrigin]
        let next: [Territory: ScheduledPrice]
        let equalizes: Bool

        init(_ product: Product) {
            origins = product.priceOrigins
            next = product.scheduledPrices.compactMapValues(\.first)
            equalizes = product.equalizesOtherTerritories
        }

        /// `equalized` where the store derives the price (App Store Connect automatic) or a product without a
        /// price there leaves it to the store, `manual` where the store says it was set by hand, then the next
        /// scheduled change; nil when there is nothing to say.
        func text(_ territory: Territory, hasPrice: Bool) -> String? {
            var parts: [String] = []
            switch origins[territory] {
            case .automatic: parts.append("equalized")
            case .manual: parts.append("manual")
            case nil: if !hasPrice && equalizes { parts.append("equalized") }
            }
            if let next = next[territory] { parts.append("\(next.money) from \(next.day)") }
            return parts.isEmpty ? nil : parts.joined(separator: "; ")
        }
    }

    /// A store's price-point table as the report names it, with its age at `asOf`.
    static func pricePoints(of catalog: Catalog, asOf: CalendarDate?) -> String? {
        guard let table = catalog.pricePoints else { return nil }
        var text = "price points \(table.dated)"
        if let fetched = table.fetchedOn, let asOf {
            let days = asOf.days(since: fetched)
            text += days >= 0 ? " (\(days) day\(days == 1 ? "" : "s") before --as-of)" : " (after --as-of)"
        }
        let territories = table.territories.count
        return text + ", \(territories) territor\(territories == 1 ? "y" : "ies")"
    }

    /// The store inputs with their labels: the store's name, and the file name where two would read alike.
    private static func stores(_ catalogs: [Catalog], asOf: CalendarDate?) -> [Store] {
        func name(_ catalog: Catalog) -> String {
            switch catalog.store {
            case .appStore: "App Store"
            case .play: "Google Play"
            case nil: catalog.format.rawValue
            }
        }
        let names = catalogs.map(name)
        return catalogs.enumerated().map { position, catalog in
            var label = names[position]
            if names.count(where: { $0 == label }) > 1 {
                label += " (\(catalog.path.split(separator: "/").last.map(String.init) ?? catalog.path))"
            }
            return Store(input: StoreInputID(position: position), path: catalog.path, format: catalog.format,
                         label: label, priceableTerritories: catalog.capabilities.priceableTerritories,
                         pricePoints: pricePoints(of: catalog, asOf: asOf))
        }
    }

    /// Each row with the other row whose ID looks the same, if any: rows are grouped by `LookAlikes.skeleton`,
    /// so only IDs that can look alike are compared (linear in the IDs' total length, whatever their number).
    private static func markingLookAlikes(_ rows: [ProductRow]) -> [ProductRow] {
        var bySkeleton: [String: [Int]] = [:]
        for (index, row) in rows.enumerated() {
            bySkeleton[LookAlikes.skeleton(of: row.productID), default: []].append(index)
        }
        var marked = rows
        for indices in bySkeleton.values where indices.count > 1 {
            for index in indices {
                let id = rows[index].productID
                // The first other ID that differs (a config row and a store row may share an ID).
                for other in indices.map({ rows[$0].productID }) where other != id {
                    guard let offsets = LookAlikes.markedOffsets(id, from: other),
                          let description = LookAlikes.difference(id, from: other) else { continue }
                    marked[index].lookAlike = LookAlike(other: other, offsets: offsets, description: description)
                    break
                }
            }
        }
        return marked
    }

    /// A line per offer, billing plan and purchase option, sorted as the model sorts them:
    /// `spring_promo (promotional, pay-up-front P3M, 29.99 USD)`, `monthly billing plan (4.99 USD a month)`,
    /// `rent-30d (rent P30D, 1.99 USD)`. Prices are the base territory's, else the first territory's.
    private static func offers(of product: Product, in catalog: Catalog) -> [String] {
        func price(_ prices: [Territory: Money]) -> Money? {
            prices[catalog.baseTerritory] ?? prices.min { $0.key < $1.key }?.value
        }
        var lines: [String] = []
        for offer in (product.offers ?? []).sorted(by: { $0.key < $1.key }) {
            // The canonical text of §5a.15, in the base territory where the offer states a value there.
            let text = offer.resolvingBasePrice(in: catalog.baseTerritory).summary(preferring: catalog.baseTerritory)
            var parts = [offer.kind.rawValue]
            if !text.isEmpty { parts.append(text) }
            if offer.isActive == false { parts.append(offer.stateText?.lowercased() ?? "inactive") }
            let name = offer.purchaseOption.map { "\($0)/\(offer.id)" } ?? offer.id
            lines.append("\(name) (\(parts.joined(separator: ", ")))")
        }
        for plan in (product.billingPlans ?? []).sorted(by: { $0.type < $1.type }) {
            let amount = price(plan.prices).map { " (\($0) a month)" } ?? ""
            lines.append("\(plan.type.rawValue) billing plan" + (plan.type == .monthly ? amount : ""))
        }
        for option in (product.purchaseOptions ?? []).sorted(by: { $0.id < $1.id }) {
            var parts = [option.kind.description]
            if let money = price(option.prices) { parts.append(money.description) }
            if option.isActive == false { parts.append("inactive") }
            lines.append("\(option.id) (\(parts.joined(separator: ", ")))")
        }
        return lines
    }
}

extension ReleaseOverview {
    /// `8 of 9 products need attention` and `5 prices differ`, `2 products are in no store`, … — counted per
    /// product (DESIGN.md §2a), in the words both release documents use.
    var glance: (headline: String, details: [String]) {
        let total = products.count
        let attention = productsNeedingAttention
        let headline = attention == 0
            ? "All \(plural(total, "product")) agree with every store"
            : "\(attention) of \(plural(total, "product")) \(attention == 1 ? "needs" : "need") attention"
        var details: [String] = []
        let prices = differingPrices
        if prices > 0 { details.append("\(plural(prices, "price")) \(prices == 1 ? "differs" : "differ")") }
        let nowhere = productsInNoStore
        if nowhere > 0 {
            details.append("\(plural(nowhere, "product")) \(nowhere == 1 ? "is" : "are") in no store")
        }
        let extra = productsOnlyInStores
        if extra > 0 {
            details.append("\(plural(extra, "product")) \(extra == 1 ? "is" : "are") in a store but not in the config")
        }
        return (headline, details)
    }

    /// The line `report --output FILE` prints on standard error once FILE is written, since the terminal would
    /// otherwise stay empty: `report.html: release report written; failed: 3 errors, 1 warning, 2 notes; 8 of 9
    /// products need attention`.
    public func writtenLine(to path: String, result: CheckResult) -> String {
        let headline = glance.headline
        let lowered = (headline.first.map { String($0).lowercased() } ?? "") + headline.dropFirst()
        return "\(path): release report written; \(ReportOverview(result).verdictLine); \(lowered)"
    }

    /// What the reports say beside a matrix where no store price differs from the config's (DESIGN.md §2a),
    /// true of every store: a store that compared no territory of it (the product is not there, not sold there,
    /// its ID belongs to another product there, or the store prices none of these territories) is named as not
    /// compared, never counted as agreeing.
    func agreement(of matrix: PriceMatrix) -> String {
        let row = product(matrix.productID)
        let compared = stores.indices.filter { matrix.compares(store: $0) }
        let reasons = stores.indices.filter { !matrix.compares(store: $0) }.map { index in
            let label = stores[index].label
            return switch row?.statuses[index] {
            case .missingInStore?: "not in \(label)"
            case .notSold?: "not sold in \(label)"
            case .duplicate?: "its ID in \(label) is another product's"
            default: "\(label) prices none of these territories"
            }
        }
        if compared.isEmpty {
            let inNoStore = row?.statuses.allSatisfy { $0 == .missingInStore || $0 == .notSold } ?? false
                && row?.statuses.contains(.missingInStore) ?? false
            return inNoStore ? "Not compared: the product is in no store." : "Not compared: \(reasons.joined(separator: "; "))."
        }
        let someCells = matrix.rows.contains { row in compared.contains { !row.compared[$0] } }
        var text = compared.count == stores.count ? "No store price differs from the config's"
            : "No price differs in \(compared.map { stores[$0].label }.joined(separator: " or "))"
        if someCells { text += " in the territories compared" }
        if !reasons.isEmpty { text += "; not compared: " + reasons.joined(separator: "; ") }
        return text + "."
    }
}

/// How a store's price differs from the config's in one territory: the amount when the currencies match, and
/// the percent (`+8.3%` means the store is higher), rounded as `diff` rounds.
public struct PriceDifference: Hashable, Sendable {
    /// Store minus config, when both are in one currency.
    public var amount: Money?
    /// `amount` over the config's amount, in percent, one decimal; nil when the currencies differ or the
    /// config's amount is zero.
    public var percent: Decimal?

    /// The difference of `store` from `config`.
    public init(config: Money, store: Money) {
        guard config.currency == store.currency else {
            amount = nil
            percent = nil
            return
        }
        amount = Money(amount: store.amount - config.amount, currency: config.currency)
        percent = CatalogDiffer.percent(from: config.amount, to: store.amount)
        decimals = max(Self.decimals(config.amount), Self.decimals(store.amount))
    }

    /// Decimal places to show the amount with: as many as the more precise of the two prices.
    private var decimals = 0

    /// `+1.00 USD`, `-5.00 EUR`; nil when the currencies differ.
    public var amountText: String? {
        guard let amount else { return nil }
        let sign = amount.amount < 0 ? "-" : "+"
        var digits = Money.format(abs(amount.amount))
        let shown = Self.decimals(abs(amount.amount))
        if shown < decimals { digits += (shown == 0 ? "." : "") + String(repeating: "0", count: decimals - shown) }
        return "\(sign)\(digits) \(amount.currency.code)"
    }

    /// `+14.3%`, `-7.7%`, `0%` style text; nil when there is no percent.
    public var percentText: String? {
        percent.map { ($0 > 0 ? "+" : "") + Money.format($0) + "%" }
    }

    /// `+1.00 USD, +14.3%`, or `other currency` when the two cannot be compared.
    public var text: String {
        guard let amountText else { return "other currency" }
        return [amountText, percentText].compactMap { $0 }.joined(separator: ", ")
    }

    private static func decimals(_ amount: Decimal) -> Int {
        let text = Money.format(amount)
        guard let dot = text.firstIndex(of: ".") else { return 0 }
        return text.distance(from: text.index(after: dot), to: text.endIndex)
    }
}
