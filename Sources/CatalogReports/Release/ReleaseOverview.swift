/// What the release report shows besides the findings (DESIGN.md §2a): every product with its status per
/// store, and a price matrix per priced product (territories × config and each store, mismatched cells
/// marked). Built from the catalogs and the checked result; pure and sorted.
public struct ReleaseOverview: Hashable, Sendable {
    /// A store input, in the order given.
    public struct Store: Hashable, Sendable {
        /// The path as given.
        public var path: String
        /// Its format.
        public var format: CatalogFormat
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
        /// The config does not sell it in this store (`stores:`).
        case notSold = "not sold here"
    }

    /// One product row: the config's description, or the store's for products only a store has.
    public struct ProductRow: Hashable, Sendable {
        public var productID: String
        public var type: String?
        public var group: String?
        public var level: Int?
        public var period: String?
        /// One per store, in store order.
        public var statuses: [Status]
        /// Findings that count, per store.
        public var findings: [Int]
    }

    /// One territory of a price matrix.
    public struct PriceRow: Hashable, Sendable {
        public var territory: Territory
        /// The config's price (canonical text), nil when it has none there.
        public var config: String?
        /// Each store's price, in store order.
        public var stores: [String?]
        /// Whether a price finding that counts marks the cell, per store.
        public var mismatched: [Bool]
    }

    /// A priced product's matrix.
    public struct PriceMatrix: Hashable, Sendable {
        public var productID: String
        public var rows: [PriceRow]
    }

    /// The store inputs.
    public var stores: [Store]
    /// Products sorted by ID.
    public var products: [ProductRow]
    /// Matrices for products that have a price on some side, sorted by product ID; rows by territory.
    public var priceMatrices: [PriceMatrix]

    /// Builds the overview of a check.
    public init(config: Catalog, stores: [Catalog], result: CheckResult) {
        self.stores = stores.map { Store(path: $0.path, format: $0.format) }
        let active = result.activeFindings
        var rows: [String: ProductRow] = [:]
        var matrices: [String: [Territory: PriceRow]] = [:]
        let storeCount = stores.count

        func blankRow(_ product: Product, in catalog: Catalog) -> ProductRow {
            ProductRow(productID: product.id.rawValue, type: product.kind?.rawValue,
                       group: product.groupKey.map { catalog.groupName(forKey: $0) ?? $0 }, level: product.level,
                       period: product.period?.description,
                       statuses: Array(repeating: .notSold, count: storeCount),
                       findings: Array(repeating: 0, count: storeCount))
        }
        func priceRow(_ territory: Territory) -> PriceRow {
            PriceRow(territory: territory, config: nil, stores: Array(repeating: nil, count: storeCount),
                     mismatched: Array(repeating: false, count: storeCount))
        }

        for product in config.products where rows[product.id.rawValue] == nil {
            rows[product.id.rawValue] = blankRow(product, in: config)
            for (territory, price) in product.prices {
                matrices[product.id.rawValue, default: [:]][territory, default: priceRow(territory)].config =
                    price.money.description
            }
        }
        for (index, store) in stores.enumerated() {
            let storeFindings = active.filter { $0.store == store.path }
            // Counted once per store, not once per product (a big catalog has thousands of each).
            var findingsPerProduct: [String: Int] = [:]
            for finding in storeFindings where finding.concernsProduct {
                if let key = finding.productID { findingsPerProduct[key, default: 0] += 1 }
            }
            var storeByID: [ProductID: Product] = [:]
            for product in store.products where storeByID[product.id] == nil { storeByID[product.id] = product }
            var matchedStoreIDs: Set<ProductID> = []
            for product in config.products {
                let key = product.id.rawValue
                if let kinds = product.stores, let kind = store.store, !kinds.contains(kind) { continue }
                let storeID = store.store.flatMap { product.storeIDs[$0] } ?? product.id
                guard let theirs = storeByID[storeID] else {
                    rows[key]?.statuses[index] = .missingInStore
                    continue
                }
                matchedStoreIDs.insert(storeID)
                let count = findingsPerProduct[key] ?? 0
                rows[key]?.statuses[index] = count == 0 ? .ok : .mismatch
                rows[key]?.findings[index] = count
                for (territory, price) in theirs.prices {
                    matrices[key, default: [:]][territory, default: priceRow(territory)].stores[index] =
                        price.money.description
                }
            }
            for (id, product) in storeByID where !matchedStoreIDs.contains(id) {
                var row = rows[id.rawValue] ?? blankRow(product, in: store)
                row.statuses[index] = .notInConfig
                rows[id.rawValue] = row
            }
            for finding in storeFindings where finding.rule.field == .price && finding.concernsProduct {
                guard let key = finding.productID, let territory = finding.territory else { continue }
                matrices[key, default: [:]][territory, default: priceRow(territory)].mismatched[index] = true
            }
        }
        products = rows.values.sorted { $0.productID < $1.productID }
        priceMatrices = matrices.map { id, territories in
            PriceMatrix(productID: id, rows: territories.values.sorted { $0.territory.alpha2 < $1.territory.alpha2 })
        }.sorted { $0.productID < $1.productID }
    }
}
