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
    /// Offers other than the introductory one (§4a): nil when the input does not carry offers for this product
    /// (config: no `offers:` key), `[]` when it carries them and there is none.
    public var offers: [Offer]?
    /// App Store billing plans: nil when the input does not carry them for this product.
    public var billingPlans: [BillingPlan]?
    /// Play one-time purchase options beyond the legacy-compatible buy option the product's `prices` describe:
    /// nil when the input does not carry them (config: no `purchaseOptions:` key).
    public var purchaseOptions: [PurchaseOption]?
    /// Current prices by territory. Empty when the input holds no current price for the product.
    public var prices: [Territory: Price]
    /// The territory whose price the store sets by hand and equalizes the others from (App Store Connect: an
    /// in-app purchase price schedule's `baseTerritory`); nil when the input does not say.
    public var priceBaseTerritory: Territory?
    /// Prices stated but never compared (scheduled, or not for a territory).
    public var uncomparedPrices: [UncomparedPrice]
    /// Config only: the prices come from a per-territory `prices:` list (not `price:` / `tier:`), so a territory
    /// the store prices and the list lacks is a finding (`price-missing-in-config`).
    public var listsTerritoryPrices: Bool
    /// Config only: the listed prices are fixed and the store sets every other territory from the base
    /// territory (`others: equalized` in `prices:`, or `equalized: true` beside `price:`; DESIGN.md §4).
    public var equalizesOtherTerritories: Bool
    /// Whether each current price was set by hand or derived by the store, by territory, where the format says
    /// (App Store Connect in-app purchases); empty otherwise. Kept beside `prices`, not in `Price`, so that a
    /// price stays 48 bytes (`SourceLocationTests`).
    public var priceOrigins: [Territory: PriceOrigin] = [:]
    /// Config only: the territories whose price is written as a schedule (`[{price}, {from, price}]`): their
    /// entries after `--as-of` are `uncomparedPrices` labelled `scheduled`, compared with the store's
    /// (`price-schedule-mismatch`).
    public var scheduledTerritories: Set<Territory> = []
    /// The territories the store input says the product is sold in (App Store Connect `availableTerritories`);
    /// nil when the input does not say.
    public var availableTerritories: Set<Territory>?
    /// Cleared for sale / available; nil when the format does not say.
    public var clearedForSale: Bool?
    /// Config only: what existing subscribers get when the price changes (`priceChange`, DESIGN.md §2c).
    public var priceChange: PriceChangePolicy?
    /// The dated price changes the store input records (App Store Connect subscription price rows), sorted by
    /// territory and date; empty when the format records none.
    public var recordedPriceChanges: [RecordedPriceChange]
    /// Config only: the ID in a store when it differs from `id`.
    public var storeIDs: [StoreKind: ProductID]
    /// Config only: the stores the product is meant for; nil = every store.
    public var stores: Set<StoreKind>?
    /// A declared source of several apps (RevenueCat) only: the ID of the app the product belongs to.
    public var declaredApp: String?
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
        offers: [Offer]? = nil,
        billingPlans: [BillingPlan]? = nil,
        purchaseOptions: [PurchaseOption]? = nil,
        prices: [Territory: Price] = [:],
        uncomparedPrices: [UncomparedPrice] = [],
        priceBaseTerritory: Territory? = nil,
        listsTerritoryPrices: Bool = false,
        equalizesOtherTerritories: Bool = false,
        availableTerritories: Set<Territory>? = nil,
        clearedForSale: Bool? = nil,
        priceChange: PriceChangePolicy? = nil,
        recordedPriceChanges: [RecordedPriceChange] = [],
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
        self.offers = offers
        self.billingPlans = billingPlans
        self.purchaseOptions = purchaseOptions
        self.prices = prices
        self.uncomparedPrices = uncomparedPrices
        self.priceBaseTerritory = priceBaseTerritory
        self.listsTerritoryPrices = listsTerritoryPrices
        self.equalizesOtherTerritories = equalizesOtherTerritories
        self.availableTerritories = availableTerritories
        self.clearedForSale = clearedForSale
        self.priceChange = priceChange
        self.recordedPriceChanges = recordedPriceChanges
        self.storeIDs = storeIDs
        self.stores = stores
        self.location = location
        self.fieldLocations = fieldLocations
    }

    /// The scheduled prices (`uncomparedPrices` labelled `scheduled`: App Store Connect rows that start after
    /// `--as-of`, a config schedule's later entries), by territory, each territory's by day. The one reading of a
    /// schedule for the schedule and currency rules, the diff and the exports.
    public var scheduledPrices: [Territory: [ScheduledPrice]] {
        var result: [Territory: [ScheduledPrice]] = [:]
        for price in uncomparedPrices where price.isScheduled {
            if let territory = price.territory, let day = price.startDate, let money = price.amount {
                result[territory, default: []].append(ScheduledPrice(day: day, money: money))
            }
        }
        return result.mapValues { $0.sorted { $0.day < $1.day } }
    }

    /// The intro offer for `territory`, else the one for every territory (nil territory); nil when there is
    /// none.
    public func introOffer(for territory: Territory) -> IntroOffer? {
        guard let offers = introOffers else { return nil }
        return offers.first(where: { $0.territory == territory }) ?? offers.first(where: { $0.territory == nil })
    }

    /// The location of a field, falling back to the record.
    public func location(of field: ProductField) -> SourceLocation {
        fieldLocations[field] ?? location
    }
}

/// The field a finding is about; the raw value is the `field` of JSON output and of baseline entries. The fixed
/// fields are `allCases`; offers, billing plans and purchase options name their own (§5a.15):
/// `offer:<kind>:<id>` (and `offer:<kind>:<id>:state` for an offer's state), `offer:<id>` for `offer-id-reused`,
/// `billingPlan:monthly`, `purchaseOption:<id>`.
public struct ProductField: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The field's text.
    public let rawValue: String

    private init(fixed: String) { rawValue = fixed }

    /// Accepts a fixed field or one of the offer, billing-plan or purchase-option forms.
    public init?(rawValue: String) {
        if Self.allCases.contains(where: { $0.rawValue == rawValue }) {
            self.rawValue = rawValue
            return
        }
        let prefixes = ["offer:", "billingPlan:", "purchaseOption:"]
        guard let prefix = prefixes.first(where: { rawValue.hasPrefix($0) }),
              rawValue.count > prefix.count else { return nil }
        self.rawValue = rawValue
    }

    public static let id = ProductField(fixed: "id")
    public static let type = ProductField(fixed: "type")
    public static let name = ProductField(fixed: "name")
    public static let group = ProductField(fixed: "group")
    public static let level = ProductField(fixed: "level")
    public static let period = ProductField(fixed: "period")
    public static let price = ProductField(fixed: "price")
    public static let introOffer = ProductField(fixed: "introOffer")
    public static let familyShareable = ProductField(fixed: "familyShareable")
    public static let clearedForSale = ProductField(fixed: "clearedForSale")
    /// A rules-file `ignore` entry (the `ignore-expired` and `ignore-unused` rules).
    public static let ignore = ProductField(fixed: "ignore")
    /// The app itself: its bundle ID or package name (`app-mismatch`).
    public static let app = ProductField(fixed: "app")

    /// The fixed fields, in declaration order.
    public static let allCases: [ProductField] = [
        .id, .type, .name, .group, .level, .period, .price, .introOffer, .familyShareable, .clearedForSale,
        .ignore, .app,
    ]

    /// An offer as a whole: `offer:<kind>:<id>`.
    public static func offer(_ key: OfferKey) -> ProductField { ProductField(fixed: "offer:\(key)") }

    /// One aspect of an offer (`state`, `eligibility`, `phases`): `offer:<kind>:<id>:<aspect>`.
    public static func offer(_ key: OfferKey, aspect: String) -> ProductField {
        ProductField(fixed: "offer:\(key):\(aspect)")
    }

    /// An offer ID used by two kinds within one group (`offer-id-reused`): `offer:<id>`.
    public static func offerID(_ id: String) -> ProductField { ProductField(fixed: "offer:\(id)") }

    /// A billing plan: `billingPlan:monthly`.
    public static func billingPlan(_ type: BillingPlan.PlanType) -> ProductField {
        ProductField(fixed: "billingPlan:\(type.rawValue)")
    }

    /// A Play purchase option: `purchaseOption:<id>`.
    public static func purchaseOption(_ id: String) -> ProductField { ProductField(fixed: "purchaseOption:\(id)") }

    public var description: String { rawValue }

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
