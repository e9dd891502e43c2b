/// One product of a catalog, normalized. A field a format cannot express is nil and is never compared.
public struct Product: Hashable, Sendable {
    /// The ID: the config key, or the store's product ID (Play base plans: `subscriptionId:basePlanId`).
    public var id: ProductID
    /// Consumable, non-consumable, auto-renewable or non-renewing; nil when the format does not say.
    public var kind: ProductKind?
    /// The reference name (internal name in the store).
    public var referenceName: String?
    /// The key of the product's subscription group in `Catalog.groups`.
    public var groupKey: String?
    /// Rank in the group, 1 = highest level of service.
    public var level: Int?
    /// The renewal period of a subscription.
    public var period: SubscriptionPeriod?
    /// Whether family sharing is on.
    public var familyShareable: Bool?
    /// Introductory offers: nil when the input does not carry offers for this product, `[]` when it carries
    /// them and there is none. Several entries when the store keeps one per territory.
    public var introOffers: [IntroOffer]?
    /// Current prices by territory. Empty when the input holds no current price for the product.
    public var prices: [Territory: Price]
    /// Prices stated but never compared (scheduled, or not for a territory).
    public var uncomparedPrices: [UncomparedPrice]
    /// Config only: the prices come from a per-territory `prices:` list (not `price:` / `tier:`), so a territory
    /// the store prices and the list lacks is a finding (`price-missing-in-config`).
    public var listsTerritoryPrices: Bool
    /// Cleared for sale / available; nil when the format does not say.
    public var clearedForSale: Bool?
    /// Config only: the ID in a store when it differs from `id`.
    public var storeIDs: [StoreKind: ProductID]
    /// Config only: the stores the product is meant for; nil = every store.
    public var stores: Set<StoreKind>?
    /// Where the product record starts.
    public var location: SourceLocation
    /// Where individual fields were read, for findings that point at a field rather than the record.
    public var fieldLocations: [ProductField: SourceLocation]

    /// Creates a product; everything but the ID and location is optional.
    public init(
        id: ProductID,
        kind: ProductKind? = nil,
        referenceName: String? = nil,
        groupKey: String? = nil,
        level: Int? = nil,
        period: SubscriptionPeriod? = nil,
        familyShareable: Bool? = nil,
        introOffers: [IntroOffer]? = nil,
        prices: [Territory: Price] = [:],
        uncomparedPrices: [UncomparedPrice] = [],
        listsTerritoryPrices: Bool = false,
        clearedForSale: Bool? = nil,
        storeIDs: [StoreKind: ProductID] = [:],
        stores: Set<StoreKind>? = nil,
        location: SourceLocation,
        fieldLocations: [ProductField: SourceLocation] = [:]
    ) {
        self.id = id
        self.kind = kind
        self.referenceName = referenceName
        self.groupKey = groupKey
        self.level = level
        self.period = period
        self.familyShareable = familyShareable
        self.introOffers = introOffers
        self.prices = prices
        self.uncomparedPrices = uncomparedPrices
        self.listsTerritoryPrices = listsTerritoryPrices
        self.clearedForSale = clearedForSale
        self.storeIDs = storeIDs
        self.stores = stores
        self.location = location
        self.fieldLocations = fieldLocations
    }

    /// The location of a field, falling back to the record.
    public func location(of field: ProductField) -> SourceLocation {
        fieldLocations[field] ?? location
    }
}

/// The fields a finding can be about; the raw value is the `field` of JSON output.
public enum ProductField: String, CaseIterable, Hashable, Comparable, Sendable {
    case id
    case type
    case name
    case group
    case level
    case period
    case price
    case introOffer
    case familyShareable
    case clearedForSale
    /// A rules-file `ignore` entry (the `ignore-expired` and `ignore-unused` rules).
    case ignore
    /// The app itself: its bundle ID or package name (`app-mismatch`).
    case app

    public static func < (lhs: ProductField, rhs: ProductField) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A subscription group.
public struct SubscriptionGroup: Hashable, Sendable {
    /// The key products refer to (config key, or the store's group ID/name).
    public var key: String
    /// The reference name, used to match config groups with store groups.
    public var name: String
    /// Where the group was read.
    public var location: SourceLocation?

    /// Creates a group.
    public init(key: String, name: String, location: SourceLocation? = nil) {
        self.key = key
        self.name = name
        self.location = location
    }
}
