/// The one matcher (DESIGN.md §2a, §5a.5): which config product pairs with which record of one store input.
/// `check` (Checker), `report` (ReleaseOverview) and `diff` (CatalogDiffer) all read it, so a report's
/// statuses and price cells and a diff's changes agree with `check`'s findings on the same inputs.
///
/// - A config product is meant for the store unless its `stores:` names other stores only.
/// - It matches the store record whose ID equals its `storeIds.<store>`, else its key.
/// - Two config products with one store ID: the first by key order is matched (or missing), the others are
///   duplicates. Two store records with one ID: the first in reading order is matched (or unmatched), the
///   others are duplicates. A duplicate is neither matched nor missing.
///
/// `diff` between two catalogs that are not a config and a store puts the old one on the config side: with no
/// store to map to, a product's key is its store ID, and a repeated ID there keeps its first record too.
/// Linear in the products of both sides (plus sorting).
public struct ProductMatching: Sendable {
    /// A config product and the store record it matched.
    public struct Match: Hashable, Sendable {
        /// The config's product.
        public var mine: Product
        /// The store's record (the first one with that ID).
        public var theirs: Product
    }

    /// A config product whose store ID an earlier config product (by key order) already holds.
    public struct ConfigDuplicate: Hashable, Sendable {
        /// The product left out.
        public var product: Product
        /// The store ID both map to.
        public var storeID: ProductID
        /// The product that holds the store ID.
        public var first: Product
    }

    /// A store ID listed more than once in the store input.
    public struct StoreDuplicate: Hashable, Sendable {
        /// The first record: the one matched, or reported missing in the config.
        public var first: Product
        /// The later records with the same ID, in reading order.
        public var repeats: [Product]
    }

    /// The store the store input describes; nil when it is a config (or both sides are configs).
    public let storeKind: StoreKind?
    /// Config products meant for this store (not excluded by `stores:`), in config order.
    public let relevant: [Product]
    /// Config products not meant for this store (their `stores:` names others only), in config order.
    public let notSold: [Product]
    /// Each config product that holds its store ID (matched or missing), by that store ID.
    public let configByStoreID: [ProductID: Product]
    /// The first store record of each ID.
    public let storeByID: [ProductID: Product]
    /// Matched pairs, sorted by config key.
    public let matches: [Match]
    /// Config products whose store ID the store input lacks, sorted by key.
    public let missingInStore: [Product]
    /// First store records no config product matches, sorted by ID.
    public let missingInConfig: [Product]
    /// Config products mapping to a store ID another config product holds, sorted by key.
    public let configDuplicates: [ConfigDuplicate]
    /// Store IDs listed more than once, sorted by ID.
    public let storeDuplicates: [StoreDuplicate]

    /// Matches the config's products with one store input's records. A declared project (RevenueCat) is matched
    /// through the products of the app paired with the store (`Catalog.declared(for:)`).
    public init(config whole: Catalog, store: Catalog) {
        let config = whole.declared(for: store)
        // Only a config maps to a store: its `storeIds` and `stores:` name the store the other side describes.
        let kind = config.store == nil ? store.store : nil
        storeKind = kind
        var relevant: [Product] = []
        var notSold: [Product] = []
        for product in config.products {
            if let kind, let stores = product.stores, !stores.contains(kind) {
                notSold.append(product)
            } else {
                relevant.append(product)
            }
        }
        self.relevant = relevant
        self.notSold = notSold

        var storeByID: [ProductID: Product] = [:]
        var repeats: [ProductID: [Product]] = [:]
        for product in store.products {
            if storeByID[product.id] == nil {
                storeByID[product.id] = product
            } else {
                repeats[product.id, default: []].append(product)
            }
        }
        self.storeByID = storeByID
        storeDuplicates = repeats.compactMap { id, later in
            storeByID[id].map { StoreDuplicate(first: $0, repeats: later) }
        }.sorted { $0.first.id < $1.first.id }

        // Key order decides which of two config products keeps a store ID; reading order breaks ties between
        // records of a non-config catalog with one ID.
        var configByStoreID: [ProductID: Product] = [:]
        var configDuplicates: [ConfigDuplicate] = []
        let ordered = relevant.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }
        for (_, product) in ordered {
            let id = kind.flatMap { product.storeIDs[$0] } ?? product.id
            if let first = configByStoreID[id] {
                configDuplicates.append(ConfigDuplicate(product: product, storeID: id, first: first))
            } else {
                configByStoreID[id] = product
            }
        }
        self.configByStoreID = configByStoreID
        self.configDuplicates = configDuplicates

        var matches: [Match] = []
        var missingInStore: [Product] = []
        for (id, product) in configByStoreID {
            if let theirs = storeByID[id] {
                matches.append(Match(mine: product, theirs: theirs))
            } else {
                missingInStore.append(product)
            }
        }
        self.matches = matches.sorted { $0.mine.id < $1.mine.id }
        self.missingInStore = missingInStore.sorted { $0.id < $1.id }
        missingInConfig = storeByID.values.filter { configByStoreID[$0.id] == nil }.sorted { $0.id < $1.id }
    }

    /// The ID a config product has in this store: its `storeIds.<store>`, else its key.
    public func storeID(of product: Product) -> ProductID {
        storeKind.flatMap { product.storeIDs[$0] } ?? product.id
    }

    /// The key of the config product matched with a store ID; nil when none is.
    public func configKey(forStoreID id: ProductID) -> ProductID? {
        guard storeByID[id] != nil else { return nil }
        return configByStoreID[id]?.id
    }

    /// How many distinct product IDs the store input holds.
    public var storeProductCount: Int { storeByID.count }
}
