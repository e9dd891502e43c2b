/// What a declared source of several apps states beyond its products (a RevenueCat project, DESIGN.md §4b): the
/// project's apps, each of one store, and its offerings, whose packages name the products a paywall shows. Each
/// store input is compared with the products of the app paired with it (`Catalog.declared(for:)`).
public struct DeclaredProject: Hashable, Sendable {
    /// The apps of the stores catalogcheck reads (App Store, Mac App Store, Play Store), in reading order.
    public var apps: [DeclaredApp]
    /// The offerings, in reading order.
    public var offerings: [DeclaredOffering]
    /// The app the user named (`revenuecat:DIR@APP_ID`): it pairs with every store input of its store.
    public var selectedApp: String?

    /// Creates a project.
    public init(apps: [DeclaredApp] = [], offerings: [DeclaredOffering] = [], selectedApp: String? = nil) {
        self.apps = apps
        self.offerings = offerings
        self.selectedApp = selectedApp
    }

    /// The apps of one store.
    public func apps(of store: StoreKind) -> [DeclaredApp] {
        apps.filter { $0.store == store }
    }
}

/// One app of a declared project.
public struct DeclaredApp: Hashable, Sendable {
    /// The source's ID of the app (RevenueCat `app1a2b3c4`).
    public var id: String
    /// Its name in the source.
    public var name: String
    /// The store it sells in.
    public var store: StoreKind
    /// Its bundle ID (App Store) or package name (Play), when the source states it.
    public var appID: String?
    /// Where the app is read.
    public var location: SourceLocation

    /// Creates an app.
    public init(id: String, name: String, store: StoreKind, appID: String?, location: SourceLocation) {
        self.id = id
        self.name = name
        self.store = store
        self.appID = appID
        self.location = location
    }

    /// `'Trailmate iOS' (app1a2b3c4, bundle ID com.trailmate.app)`.
    public var summary: String {
        let what = store == .play ? "package name" : "bundle ID"
        return "'\(name)' (\(id)" + (appID.map { ", \(what) \($0)" } ?? "") + ")"
    }
}

/// An offering: the set of packages a paywall shows.
public struct DeclaredOffering: Hashable, Sendable {
    /// The source's ID (`ofrng1a2b3c4`).
    public var id: String
    /// Its lookup key (`default`).
    public var lookupKey: String
    /// Whether it is the project's current offering (`is_current`).
    public var isCurrent: Bool
    /// Its packages, in reading order.
    public var packages: [DeclaredPackage]
    /// Where the offering is read.
    public var location: SourceLocation

    /// Creates an offering.
    public init(id: String, lookupKey: String, isCurrent: Bool, packages: [DeclaredPackage], location: SourceLocation) {
        self.id = id
        self.lookupKey = lookupKey
        self.isCurrent = isCurrent
        self.packages = packages
        self.location = location
    }
}

/// A package of an offering (`$rc_monthly`) and the products it offers, one per store app.
public struct DeclaredPackage: Hashable, Sendable {
    /// The source's ID (`pkge1a2b3c4`).
    public var id: String
    /// Its lookup key (`$rc_monthly`).
    public var lookupKey: String
    /// The products it names.
    public var products: [DeclaredPackageProduct]
    /// Where the package is read.
    public var location: SourceLocation

    /// Creates a package.
    public init(id: String, lookupKey: String, products: [DeclaredPackageProduct], location: SourceLocation) {
        self.id = id
        self.lookupKey = lookupKey
        self.products = products
        self.location = location
    }
}

/// A product a package names.
public struct DeclaredPackageProduct: Hashable, Sendable {
    /// The source's ID of the product (`prod1a2b3c4`).
    public var productID: String
    /// The store identifier, as the package's product states it (the catalog's product ID).
    public var storeIdentifier: ProductID
    /// The app the product belongs to.
    public var app: String
    /// Whether the project's product list holds it: a package may name a product the project no longer has
    /// (archived or deleted), `offering-product-not-in-project`.
    public var inProject: Bool
    /// Where the package names it.
    public var location: SourceLocation

    /// Creates a reference.
    public init(productID: String, storeIdentifier: ProductID, app: String, inProject: Bool,
                location: SourceLocation) {
        self.productID = productID
        self.storeIdentifier = storeIdentifier
        self.app = app
        self.inProject = inProject
        self.location = location
    }
}
