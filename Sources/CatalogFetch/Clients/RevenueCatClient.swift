import Foundation

/// Fetches what the `revenuecat` reader reads of one RevenueCat project (DESIGN.md §4b), with RevenueCat's REST
/// API v2 (revenuecat.com/docs/api-v2; OpenAPI `api-v2.yaml`, `info.version` 2.0.0): every page of the project's
/// apps (`list-apps`), products (`list-products`), entitlements with their products (`list-entitlements`,
/// `expand=items.product`) and offerings with their packages and the packages' products (`list-offerings`,
/// `expand=items.package&expand=items.package.product`: an array parameter, sent the OpenAPI way), each answer
/// written unchanged. A list nested in an item (an offering's
/// packages, a package's products, an entitlement's products) whose `next_page` is set continues at its own
/// endpoint (`list-packages` with `expand=items.product`, `get-products-from-package`,
/// `get-products-from-entitlement`), until no list has more.
///
/// Authentication is `Authorization: Bearer <secret key>` ("API v1 keys will not work with REST API v2"); the
/// key is never printed or written: every store text shown passes through the session's redactor, which holds it.
/// The project configuration endpoints share one per-minute limit, which `RequestPacer` keeps to; a 429 or 5xx
/// is retried after `Retry-After` (at most 60 s, 5 times) by `APISession`, then the fetch stops and keeps its
/// pages for `--resume`.
public struct RevenueCatClient: Sendable {
    /// The real API's scheme and host.
    public static let apiHost = "https://api.revenuecat.com"
    /// Items per page: the API's default is 20 (`limit`, "optional, default is 20"); fewer pages spend fewer of
    /// the 60 requests a minute.
    static let pageSize = 100

    static let apps = ResourceKind(key: "apps", label: "apps")
    static let products = ResourceKind(key: "products", label: "products")
    static let entitlements = ResourceKind(key: "entitlements", label: "entitlements")
    static let offerings = ResourceKind(key: "offerings", label: "offerings")
    static let packages = ResourceKind(key: "offeringPackages", label: "more packages of offerings")
    static let packageProducts = ResourceKind(key: "packageProducts", label: "more products of packages")
    static let entitlementProducts = ResourceKind(key: "entitlementProducts", label: "more products of entitlements")

    let project: String
    let base: URL
    let session: APISession
    let authorization: String
    let progress: FetchProgress

    /// Creates a client for `project` at `base` (the real API's `apiHost`, or a test server) with the secret key.
    public init(apiKey: String, variable: String, project: String, base: URL, transport: any HTTPTransport,
                policy: RetryPolicy, progress: FetchProgress) {
        self.project = project
        self.base = base
        self.progress = progress
        authorization = "Bearer " + apiKey
        let redactor = SecretRedactor()
        redactor.add(apiKey)
        session = APISession(transport: PacedTransport(inner: transport, pacer: RequestPacer()), policy: policy,
                             progress: progress, redactor: redactor) {
            .refused(request: $0.request, store: "RevenueCat", credential: "the secret API key in $\(variable)",
                     status: $0.status, reason: $0.reason, advice: Self.advice(for: $0, project: project))
        }
    }

    /// What to check when RevenueCat refuses a request. Its error types (api-v2, "Error Handling"):
    /// `authentication_error` (401) "Authentication is not valid for the given API key", `authorization_error`
    /// (403) "The API key does not belong the project you specified"; each endpoint names the permission it
    /// requires (`project_configuration:apps:read`, …).
    static func advice(for refusal: StoreRefusal, project: String) -> String {
        if refusal.status == 401 || refusal.code == "authentication_error" {
            return "use a secret API key of version V2 (RevenueCat: Project settings > API keys > + New, version V2; "
                + "v1 keys do not work with API v2)"
        }
        return "check that the key belongs to the project \(project) and has the read permissions "
            + "project_configuration:apps:read, products:read, entitlements:read, offerings:read and packages:read"
    }

    /// Fetches every page into `writer`; returns the counts per kind.
    public func fetch(into writer: SnapshotWriter) async throws -> [KindTally] {
        let root = "/v2/projects/\(PathSegment.encoded(project))"
        let paging = Paging.revenueCat(base: base, apiHost: Self.apiHost)
        let limit = "limit=\(Self.pageSize)"
        var listings = [
            try Listing(Self.apps, "apps", base, root + "/apps?" + limit, paging: paging),
            try Listing(Self.products, "products", base, root + "/products?" + limit, paging: paging),
            try Listing(Self.entitlements, "entitlements", base, root + "/entitlements?\(limit)&expand=items.product",
                        paging: paging),
            try Listing(Self.offerings, "offerings", base,
                        root + "/offerings?\(limit)&expand=items.package&expand=items.package.product",
                        paging: paging),
        ]
        let authorization = self.authorization
        let pager = Pager(session: session, writer: writer, authorization: { authorization })
        var all: [ListingResult] = []
        var requested: Set<String> = []
        while !listings.isEmpty {
            let results = try await pager.runPhase(listings, progress: progress)
            all += results
            listings = try results.flatMap(\.continuations).compactMap { next in
                try continuation(next, root: root, requested: &requested)
            }
        }
        // Every kind asked for, also those with no page; a nested list's kind where one continued.
        let continued = [Self.packages, Self.packageProducts, Self.entitlementProducts].filter { kind in
            all.contains { $0.kind == kind }
        }
        return tallies(all, kinds: [Self.apps, Self.products, Self.entitlements, Self.offerings] + continued)
    }

    /// The listing that continues a nested list at its own endpoint, from its `next_page` (relative, or absolute
    /// on the API host): the path names the list, the query its `starting_after`. Nil for a continuation already
    /// asked for; another path is refused.
    private func continuation(_ next: String, root: String, requested: inout Set<String>) throws -> Listing? {
        guard let parts = URLComponents(string: next) else {
            throw FetchError.malformed(request: "GET \(root)", reason: "a nested next_page is not a URL")
        }
        let path = parts.percentEncodedPath
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let prefix = root.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count == prefix.count + 3, Array(segments.prefix(prefix.count)) == prefix else {
            throw FetchError.malformed(request: "GET \(root)", reason: "a nested next_page leads to "
                                       + "\(session.redactor.redact(path)), not to a list of this project")
        }
        let (parent, id, list) = (segments[prefix.count], segments[prefix.count + 1], segments[prefix.count + 2])
        let kind: ResourceKind
        var query = "limit=\(Self.pageSize)"
        switch (parent, list) {
        case ("offerings", "packages"):
            kind = Self.packages
            query += "&expand=items.product"
        case ("packages", "products"): kind = Self.packageProducts
        case ("entitlements", "products"): kind = Self.entitlementProducts
        default:
            throw FetchError.malformed(request: "GET \(root)", reason: "a nested next_page leads to "
                                       + "\(session.redactor.redact(path)), which fetch does not read")
        }
        let after = parts.queryItems?.first { $0.name == "starting_after" }?.value ?? ""
        guard !after.isEmpty else {
            throw FetchError.malformed(request: "GET \(root)", reason: "a nested next_page has no starting_after")
        }
        let target = path + "?" + query + "&starting_after=" + PathSegment.encoded(after)
        guard requested.insert(target).inserted else { return nil }
        let stem = "\(parent.dropLast())-\(id)-\(list)"
        return try Listing(kind, stem, base, target, paging: .revenueCat(base: base, apiHost: Self.apiHost))
    }
}
