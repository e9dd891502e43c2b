import CatalogCore

/// What the release report shows besides the findings (DESIGN.md §2a): every product with its status per
/// store, and a price matrix per priced product (territories × config and each store, mismatched cells
/// marked). Built from the same `ProductMatching` and findings as `check`, so each status and each `≠` agrees
/// with a finding of the run; pure and sorted.
public struct ReleaseOverview: Hashable, Sendable {
    /// A store input, in the order given.
    public struct Store: Hashable, Sendable {
        /// Which input of the run it is.
        public var input: StoreInputID
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
        /// Not compared: another config product (earlier by key) has the same store ID (`duplicate-product-id`).
        case duplicate = "duplicate ID"
        /// The config does not sell it in this store (`stores:`).
        case notSold = "not sold here"
    }

    /// One product row: the config's description, or the store's for products only a store has.
    public struct ProductRow: Hashable, Sendable {
        /// The config key, or the store ID of a product only stores have.
        public var productID: String
        /// Whether the row is a config product (a store ID that equals a config key has a row of its own when
        /// that config product maps to another ID there).
        public var inConfig: Bool
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

    /// Builds the overview of a check: `stores` are the run's store inputs in the order `Checker` got them.
    public init(config: Catalog, stores: [Catalog], result: CheckResult) {
        self.stores = stores.enumerated().map { position, store in
            Store(input: StoreInputID(position: position), path: store.path, format: store.format)
        }
        let active = result.activeFindings
        var configRows: [String: ProductRow] = [:]
        var storeRows: [String: ProductRow] = [:]
        var matrices: [String: [Territory: PriceRow]] = [:]
        let storeCount = stores.count

        func blankRow(_ product: Product, in catalog: Catalog, inConfig: Bool) -> ProductRow {
            ProductRow(productID: product.id.rawValue, inConfig: inConfig, type: product.kind?.rawValue,
                       group: product.groupKey.map { catalog.groupName(forKey: $0) ?? $0 }, level: product.level,
                       period: product.period?.description,
                       statuses: Array(repeating: .notSold, count: storeCount),
                       findings: Array(repeating: 0, count: storeCount))
        }
        func priceRow(_ territory: Territory) -> PriceRow {
            PriceRow(territory: territory, config: nil, stores: Array(repeating: nil, count: storeCount),
                     mismatched: Array(repeating: false, count: storeCount))
        }

        for product in config.products where configRows[product.id.rawValue] == nil {
            configRows[product.id.rawValue] = blankRow(product, in: config, inConfig: true)
            for (territory, price) in product.prices {
                matrices[product.id.rawValue, default: [:]][territory, default: priceRow(territory)].config =
                    price.money.description
            }
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
            var configCounts: [String: Int] = [:]
            var storeCounts: [String: Int] = [:]
            for finding in storeFindings where finding.concernsProduct {
                guard let key = finding.productID else { continue }
                let storeSide = finding.rule == .productMissingInConfig
                    || (finding.rule == .duplicateProductID && finding.configLocation == nil
                        && unmatchedRepeats.contains(key))
                if storeSide { storeCounts[key, default: 0] += 1 } else { configCounts[key, default: 0] += 1 }
            }
            func mark(_ product: Product, _ status: Status) {
                let key = product.id.rawValue
                configRows[key]?.statuses[index] = status
                configRows[key]?.findings[index] = configCounts[key] ?? 0
            }
            for match in matching.matches {
                let key = match.mine.id.rawValue
                mark(match.mine, configCounts[key] ?? 0 == 0 ? .ok : .mismatch)
                for (territory, price) in match.theirs.prices {
                    matrices[key, default: [:]][territory, default: priceRow(territory)].stores[index] =
                        price.money.description
                }
            }
            for product in matching.missingInStore { mark(product, .missingInStore) }
            for duplicate in matching.configDuplicates { mark(duplicate.product, .duplicate) }
            for product in matching.missingInConfig {
                let key = product.id.rawValue
                var row = storeRows[key] ?? blankRow(product, in: store, inConfig: false)
                row.statuses[index] = .notInConfig
                row.findings[index] = storeCounts[key] ?? 0
                storeRows[key] = row
            }
            for finding in storeFindings where finding.rule.field == .price && finding.concernsProduct {
                guard let key = finding.productID, let territory = finding.territory else { continue }
                matrices[key, default: [:]][territory, default: priceRow(territory)].mismatched[index] = true
            }
        }
        products = (Array(configRows.values) + Array(storeRows.values)).sorted {
            ($0.productID, $0.inConfig ? 0 : 1) < ($1.productID, $1.inConfig ? 0 : 1)
        }
        priceMatrices = matrices.map { id, territories in
            PriceMatrix(productID: id, rows: territories.values.sorted { $0.territory.alpha2 < $1.territory.alpha2 })
        }.sorted { $0.productID < $1.productID }
    }
}
