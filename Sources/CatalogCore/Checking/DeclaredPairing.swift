/// Which app of a declared project a store input is compared with (DESIGN.md §4b, "Pinned for RevenueCat"), and
/// the declared products that comparison sees. One decision in one place: `ProductMatching` (so `check`, `report`
/// and `diff`) reads the view, and the loader asks `app(for:)` first to stop a run whose pairing is ambiguous.
///
/// - The app the user named (`revenuecat:DIR@APP_ID`) pairs with every store input of its store.
/// - Else the app of the store input's store whose bundle ID or package name is the store input's app.
/// - Else, when the store input does not name its app (a `.storekit` file, a Play CSV), the project's one app of
///   that store; with several, the pairing is ambiguous and the run stops, listing them.
public enum DeclaredPairing {
    /// Why a store input pairs with no app.
    public struct Problem: Error, Hashable, Sendable {
        /// What is wrong and what to do, naming the apps.
        public let message: String

        /// Creates a problem.
        public init(message: String) {
            self.message = message
        }
    }

    /// The app `store` pairs with in `project`.
    public static func app(in project: DeclaredProject, for store: Catalog) -> Result<DeclaredApp, Problem> {
        guard let kind = store.store else {
            return .failure(Problem(message: "\(store.path) is not a store catalog"))
        }
        let candidates = project.apps(of: kind)
        let storeName = kind == .play ? "Google Play" : "App Store"
        if let selected = project.selectedApp, let app = candidates.first(where: { $0.id == selected }) {
            return .success(app)
        }
        guard !candidates.isEmpty else {
            let others = project.apps.map(\.summary).joined(separator: ", ")
            return .failure(Problem(message: "the project has no \(storeName) app to compare \(store.path) with"
                                    + (others.isEmpty ? "" : " (its apps: \(others))")))
        }
        if let appID = store.appID {
            if let app = candidates.first(where: { $0.appID == appID }) { return .success(app) }
            let what = kind == .play ? "package name" : "bundle ID"
            return .failure(Problem(message: "no \(storeName) app of the project has the \(what) \(appID) of "
                                    + "\(store.path) (its \(storeName) apps: "
                                    + candidates.map(\.summary).joined(separator: ", ")
                                    + "); name one with revenuecat:DIR@APP_ID"))
        }
        if candidates.count == 1, let only = candidates.first { return .success(only) }
        return .failure(Problem(message: "\(store.path) does not say which app it is, and the project has "
                                + "\(candidates.count) \(storeName) apps: "
                                + candidates.map(\.summary).joined(separator: ", ")
                                + "; name one with revenuecat:DIR@APP_ID"))
    }
}

extension Catalog {
    /// The declared products a store input is compared with: for a declared project (RevenueCat), the products of
    /// the app paired with the store (`DeclaredPairing`), a Play subscription named without `:basePlanId` (set up
    /// before February 2023) mapped to the store's backward-compatible base plan, or its only one; any other
    /// catalog as it is. A pairing that fails (the loader stops such a check before it runs; `diff` does not)
    /// keeps every product of the store's kind, so nothing is silently left out.
    public func declared(for store: Catalog) -> Catalog {
        guard let project, let kind = store.store else { return self }
        var view = self
        switch DeclaredPairing.app(in: project, for: store) {
        case .success(let app):
            view.products = products.filter { $0.declaredApp == app.id }
            view.appID = app.appID
            view.appIDLocation = app.location
        case .failure:
            view.products = products.filter { $0.stores?.contains(kind) ?? true }
        }
        if kind == .play {
            // Linear: the store's base plans by subscription once, then one look-up per declared product.
            var plans: [String: Set<ProductID>] = [:]
            var exact: Set<ProductID> = []
            for product in store.products {
                exact.insert(product.id)
                guard let colon = product.id.rawValue.firstIndex(of: ":") else { continue }
                plans[String(product.id.rawValue[..<colon]), default: []].insert(product.id)
            }
            for index in view.products.indices {
                let id = view.products[index].id
                guard view.products[index].storeIDs[.play] == nil, !id.rawValue.contains(":"),
                      !exact.contains(id), plans[id.rawValue] != nil else { continue }
                let only = plans[id.rawValue].flatMap { $0.count == 1 ? $0.first : nil }
                if let plan = store.backwardCompatiblePlans[id] ?? only {
                    view.products[index].storeIDs[.play] = plan
                }
            }
        }
        return view
    }
}
