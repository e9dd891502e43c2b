/// A store a catalog belongs to.
public enum StoreKind: String, CaseIterable, Hashable, Comparable, Sendable {
    /// Apple's App Store.
    case appStore = "appstore"
    /// Google Play.
    case play

    public static func < (lhs: StoreKind, rhs: StoreKind) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The formats catalogcheck reads; the raw value is the name users type (`--store-format`).
public enum CatalogFormat: String, CaseIterable, Hashable, Comparable, Sendable {
    case appstoreXML = "appstore-xml"
    case storekit
    case ascJSON = "asc-json"
    case playCSV = "play-csv"
    case playJSON = "play-json"
    case plist
    case catalog
    /// A RevenueCat project snapshot (`fetch revenuecat`): a declared catalog of several stores' apps (§4b).
    case revenuecat
    /// A mapping file over a team's own JSON or YAML (a server or remote config): a declared catalog (§4b).
    case map

    /// The store this format describes; nil for the internal config and the declared sources.
    public var store: StoreKind? {
        switch self {
        case .appstoreXML, .storekit, .ascJSON, .plist: .appStore
        case .playCSV, .playJSON: .play
        case .catalog, .revenuecat, .map: nil
        }
    }

    /// Whether the format is only ever the declared side (`--config`), never a store (DESIGN.md §4b).
    public var isDeclaredOnly: Bool { self == .revenuecat || self == .map }

    public static func < (lhs: CatalogFormat, rhs: CatalogFormat) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a catalog's format can express, so the checker compares only what both sides define.
public struct CatalogCapabilities: Hashable, Sendable {
    /// The input states subscription groups (group rules may run).
    public var expressesGroups: Bool
    /// Territories the format can price; nil = any. StoreKit: its storefront; Transporter tiers: US.
    public var priceableTerritories: Set<Territory>?
    /// A .storekit file: prices are for this storefront only (`storekit-single-storefront`).
    public var singleStorefront: Territory?

    /// The offer kinds the input carries (§5a.15): it holds a resource of that kind, or its `.fetch.json` says
    /// fetch asked for it. An offer of a kind not carried is never compared; of a carried kind, an absent one is
    /// missing.
    public var offerKinds: Set<Offer.Kind>
    /// The input carries App Store billing plans (StoreKit 5.0 `billingPlans`, ASC plan availabilities).
    public var carriesBillingPlans: Bool
    /// The input carries Play purchase options (the one-time product model).
    public var carriesPurchaseOptions: Bool

    /// Creates capabilities.
    public init(expressesGroups: Bool = false, priceableTerritories: Set<Territory>? = nil,
                singleStorefront: Territory? = nil, offerKinds: Set<Offer.Kind> = [],
                carriesBillingPlans: Bool = false, carriesPurchaseOptions: Bool = false) {
        self.expressesGroups = expressesGroups
        self.priceableTerritories = priceableTerritories
        self.singleStorefront = singleStorefront
        self.offerKinds = offerKinds
        self.carriesBillingPlans = carriesBillingPlans
        self.carriesPurchaseOptions = carriesPurchaseOptions
    }
}

/// A whole catalog, normalized: what one input (file or folder) says.
public struct Catalog: Hashable, Sendable {
    /// The path as the user gave it.
    public var path: String
    /// The format it was read as.
    public var format: CatalogFormat
    /// The app's bundle ID / package name, when stated.
    public var appID: String?
    /// Where `appID` is stated (`app.bundleId`, the App Store Connect app), when the format locates it.
    public var appIDLocation: SourceLocation?
    /// The territory `price:` refers to (config), default US.
    public var baseTerritory: Territory
    /// Subscription groups.
    public var groups: [SubscriptionGroup]
    /// Products in reading order; an ID may appear twice (that is a finding, not an error).
    public var products: [Product]
    /// What the format can express.
    public var capabilities: CatalogCapabilities
    /// Remarks a reader makes about what it assumed (e.g. the currency of a Play CSV home price).
    public var remarks: [String]
    /// Apple's price points the input holds (App Store Connect price-point pages); nil when it holds none.
    public var pricePoints: PricePointTable?
    /// A declared source of several apps (RevenueCat): its apps and offerings; nil for every other catalog.
    public var project: DeclaredProject?
    /// Play: each subscription's backward-compatible base plan (`legacyCompatible`), as its product ID, by the
    /// subscription's ID; a declared product named by the subscription alone matches it (DESIGN.md §4b).
    public var backwardCompatiblePlans: [ProductID: ProductID] = [:]

    /// Creates a catalog.
    public init(path: String, format: CatalogFormat, appID: String? = nil,
                baseTerritory: Territory = .unitedStates, groups: [SubscriptionGroup] = [],
                products: [Product] = [], capabilities: CatalogCapabilities = CatalogCapabilities(),
                remarks: [String] = []) {
        self.path = path
        self.format = format
        self.appID = appID
        self.baseTerritory = baseTerritory
        self.groups = groups
        self.products = products
        self.capabilities = capabilities
        self.remarks = remarks
    }

    /// The store this catalog describes; nil for the internal config.
    public var store: StoreKind? { format.store }

    /// The reference name of a group key.
    public func groupName(forKey key: String) -> String? {
        groups.first(where: { $0.key == key })?.name
    }
}
