import Foundation

/// RevenueCat's REST API v2, as its reference documents it (revenuecat.com/docs/api-v2; the OpenAPI document
/// `openapi-spec/api-v2.yaml` of RevenueCat/docs, `info.version` 2.0.0 — see
/// `Tests/Fixtures/fetch/revenuecat/SOURCES.md`), for the `fetch revenuecat` tests: a project read from a fixture
/// (`demo-project.json`: the API's objects, with packages and entitlements naming their products by ID) served
/// as the documented list endpoints.
///
/// - Authentication: `Authorization: Bearer <secret key>` ("Authorization type `Bearer` required in header";
///   "API v1 keys will not work with REST API v2"): no or another header → 401 `authentication_error`, a key of
///   another project → 403 `authorization_error` ("The API key does not belong the project you specified").
/// - Only the operations and query parameters of the table (`revenuecat-operations.tsv`, read off the document)
///   are answered; anything else is refused before this type sees it (`APISpecTable`, 400 `parameter_error`).
/// - Pagination ("Pagination"): `{"object": "list", "items": […], "next_page": …, "url": …}`, `limit` default
///   20, `starting_after` "the ID of the last item of the previous page"; `next_page` as the documented example
///   writes it (`/v2/projects/{id}/products?starting_after={last_id}`: no `limit`, no `expand`), absolute on the
///   API host when `absoluteNextPages`, and null (or absent, `omitsLastNextPage`) on the last page.
/// - Expandables (`x-expandable-fields`): `list-entitlements` `items.product`, `list-offerings` `items.package`
///   and `items.package.product`, `list-packages` `items.product`; a nested list shows `nestedPageSize` items
///   and its own `next_page` at its own endpoint.
/// - Rate limit ("Rate Limit"): the Project Configuration domain's requests per minute, counted per key;
///   `RevenueCat-Rate-Limit-Current-Usage` and `-Current-Limit` on every successful answer; past the limit 429
///   `rate_limit_error` with `Retry-After` and `backoff_ms`.
public final class RevenueCatFake: @unchecked Sendable {
    /// How the fake behaves.
    public struct Options: Sendable {
        /// The project's secret key (the key a test exports; a secret no output may contain).
        public var apiKey: String
        /// A valid key of another project: 403 `authorization_error`.
        public var otherProjectKey: String
        /// The most items a page holds, whatever `limit` asks (to make pages in tests).
        public var pageSize: Int
        /// Items a nested list shows before its `next_page`.
        public var nestedPageSize: Int
        /// Requests per minute (the Project Configuration domain's default: 60).
        public var rateLimit: Int
        /// `next_page` as an absolute URL on `https://api.revenuecat.com`.
        public var absoluteNextPages: Bool
        /// The last page leaves `next_page` out instead of writing null.
        public var omitsLastNextPage: Bool
        /// The fixture, under `Tests/Fixtures/fetch/revenuecat/`.
        public var fixture: String

        /// Creates options.
        public init(apiKey: String = "sk_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: ""),
                    otherProjectKey: String = "sk_other_" + UUID().uuidString.replacingOccurrences(of: "-", with: ""),
                    pageSize: Int = 100, nestedPageSize: Int = 20, rateLimit: Int = 60,
                    absoluteNextPages: Bool = false, omitsLastNextPage: Bool = false,
                    fixture: String = "demo-project.json") {
            self.apiKey = apiKey
            self.otherProjectKey = otherProjectKey
            self.pageSize = pageSize
            self.nestedPageSize = nestedPageSize
            self.rateLimit = rateLimit
            self.absoluteNextPages = absoluteNextPages
            self.omitsLastNextPage = omitsLastNextPage
            self.fixture = fixture
        }
    }

    /// An answer: status, headers, body.
    struct Answer {
        let status: Int
        var headers: [String: String] = [:]
        let body: Data
    }

    let options: Options
    private let project: [String: Any]
    private let projectID: String
    private let lock = NSLock()
    private var windowStart: Date?
    private var used = 0
    /// The most requests any one minute saw.
    private(set) var peakUsage = 0

    init(options: Options) throws {
        self.options = options
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/fetch/revenuecat")
        let data = try Data(contentsOf: root.appendingPathComponent(options.fixture))
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let id = object["project_id"] as? String else {
            throw CocoaError(.fileReadCorruptFile)
        }
        project = object
        projectID = id
    }

    /// The most requests one minute saw.
    var peak: Int { lock.withLock { peakUsage } }

    /// Checks the key, as every endpoint does before anything else; nil when it is this project's.
    func refusal(authorization: String?) -> Answer? {
        guard let authorization, authorization.hasPrefix("Bearer ") else {
            return error(401, "authentication_error", "Authentication is not valid for the given API key. The "
                         + "Authorization header must be 'Bearer <api_key>'.")
        }
        let key = String(authorization.dropFirst(7))
        if key == options.otherProjectKey {
            return error(403, "authorization_error", "The API key does not belong to the project you specified.")
        }
        guard key == options.apiKey else {
            return error(401, "authentication_error", "Authentication is not valid for the given API key.")
        }
        return nil
    }

    /// Counts a request against the minute; the 429 past the limit.
    func meter() -> Answer? {
        let now = Date()
        let (count, wait) = lock.withLock { () -> (Int, Int) in
            if let start = windowStart, now.timeIntervalSince(start) < 60 {
                used += 1
            } else {
                windowStart = now
                used = 1
            }
            peakUsage = max(peakUsage, min(used, options.rateLimit))
            let left = 60 - now.timeIntervalSince(windowStart ?? now)
            return (used, Int(left.rounded(.up)))
        }
        guard count > options.rateLimit else { return nil }
        var answer = error(429, "rate_limit_error", "Rate limit exceeded", retryable: true, backoff: wait * 1000)
        answer.headers["Retry-After"] = String(wait)
        return answer
    }

    /// The rate-limit headers of a successful answer.
    func rateHeaders() -> [String: String] {
        lock.withLock {
            ["RevenueCat-Rate-Limit-Current-Usage": String(used),
             "RevenueCat-Rate-Limit-Current-Limit": String(options.rateLimit)]
        }
    }

    /// Answers an authorized `GET path?query` the table allows.
    func answer(path: String, query: [(name: String, value: String)]) -> Answer {
        let segments = path.split(separator: "/").map(String.init)
        guard segments.count >= 4, segments[0] == "v2", segments[1] == "projects" else {
            return error(404, "resource_missing", "No such resource.")
        }
        guard segments[2] == projectID else {
            return error(403, "authorization_error", "The API key does not belong to the project you specified.")
        }
        let expand = Set(query.filter { $0.name == "expand" }.map(\.value))
        let after = query.first { $0.name == "starting_after" }?.value
        let limit = query.first { $0.name == "limit" }.flatMap { Int($0.value) } ?? 20
        let base = "/v2/projects/\(projectID)"
        let list = "/" + segments.dropFirst(3).joined(separator: "/")
        let items: [[String: Any]]
        switch Array(segments.dropFirst(3)) {
        case ["apps"]:
            items = objects("apps")
        case ["products"]:
            let app = query.first { $0.name == "app_id" }?.value
            items = objects("products").filter { app == nil || $0["app_id"] as? String == app }
        case ["entitlements"]:
            items = objects("entitlements").map { entitlement in
                var shown = entitlement.filter { $0.key != "product_ids" }
                if expand.contains("items.product") {
                    let id = entitlement["id"] as? String ?? ""
                    shown["products"] = nested(products(ids: entitlement["product_ids"]),
                                               url: "\(base)/entitlements/\(id)/products")
                }
                return shown
            }
        case ["offerings"]:
            items = objects("offerings").map { offering in
                var shown = offering.filter { $0.key != "packages" }
                if expand.contains("items.package") || expand.contains("items.package.product") {
                    let id = offering["id"] as? String ?? ""
                    let packages = (offering["packages"] as? [[String: Any]] ?? []).map {
                        package($0, withProducts: expand.contains("items.package.product"))
                    }
                    shown["packages"] = nested(packages, url: "\(base)/offerings/\(id)/packages")
                }
                return shown
            }
        case let rest where rest.count == 3 && rest[0] == "offerings" && rest[2] == "packages":
            guard let offering = objects("offerings").first(where: { $0["id"] as? String == rest[1] }) else {
                return error(404, "resource_missing", "Offering \(rest[1]) not found.")
            }
            items = (offering["packages"] as? [[String: Any]] ?? []).map {
                package($0, withProducts: expand.contains("items.product"))
            }
        case let rest where rest.count == 3 && rest[0] == "packages" && rest[2] == "products":
            let packages = objects("offerings").flatMap { $0["packages"] as? [[String: Any]] ?? [] }
            guard let package = packages.first(where: { $0["id"] as? String == rest[1] }) else {
                return error(404, "resource_missing", "Package \(rest[1]) not found.")
            }
            items = associations(package)
        case let rest where rest.count == 3 && rest[0] == "entitlements" && rest[2] == "products":
            guard let entitlement = objects("entitlements").first(where: { $0["id"] as? String == rest[1] }) else {
                return error(404, "resource_missing", "Entitlement \(rest[1]) not found.")
            }
            items = products(ids: entitlement["product_ids"])
        default:
            return error(404, "resource_missing", "No such resource.")
        }
        var start = 0
        if let after {
            guard let index = items.firstIndex(where: { Self.id(of: $0) == after }) else {
                return error(400, "parameter_error", "starting_after: no object \(after) in this list",
                             param: "starting_after")
            }
            start = index + 1
        }
        let count = min(limit, options.pageSize)
        let page = Array(items.dropFirst(start).prefix(count))
        var body: [String: Any] = ["object": "list", "items": page, "url": base + list]
        if start + page.count < items.count, let last = page.last.map(Self.id(of:)) {
            body["next_page"] = nextPage(base + list, after: last)
        } else if !options.omitsLastNextPage {
            body["next_page"] = NSNull()
        }
        return Answer(status: 200, headers: rateHeaders(), body: Self.encode(body))
    }

    /// An item's ID: its own, or its product's (package products are `{product, eligibility_criteria}`).
    private static func id(of item: [String: Any]) -> String {
        (item["id"] as? String) ?? ((item["product"] as? [String: Any])?["id"] as? String) ?? ""
    }

    private func nextPage(_ list: String, after: String) -> String {
        let relative = list + "?starting_after=" + (after.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? after)
        return options.absoluteNextPages ? "https://api.revenuecat.com" + relative : relative
    }

    /// A nested list (an expanded member): the first `nestedPageSize` items and the `next_page` of its endpoint.
    private func nested(_ items: [[String: Any]], url: String) -> [String: Any] {
        let page = Array(items.prefix(options.nestedPageSize))
        var list: [String: Any] = ["object": "list", "items": page, "url": url, "next_page": NSNull()]
        if page.count < items.count, let last = page.last.map(Self.id(of:)) {
            list["next_page"] = nextPage(url, after: last)
        }
        return list
    }

    private func package(_ package: [String: Any], withProducts: Bool) -> [String: Any] {
        var shown = package.filter { $0.key != "products" }
        if withProducts {
            shown["products"] = nested(associations(package),
                                       url: "/v2/projects/\(projectID)/packages/\(package["id"] as? String ?? "")/products")
        }
        return shown
    }

    /// A package's products as `PackageProductAssociation`s, archived ones included (a package may still name
    /// a product the project's list no longer has).
    private func associations(_ package: [String: Any]) -> [[String: Any]] {
        (package["products"] as? [[String: Any]] ?? []).compactMap { reference in
            guard let id = reference["product_id"] as? String, let product = product(id) else { return nil }
            return ["product": product, "eligibility_criteria": reference["eligibility_criteria"] ?? "all"]
        }
    }

    private func products(ids: Any?) -> [[String: Any]] {
        (ids as? [String] ?? []).compactMap(product)
    }

    private func product(_ id: String) -> [String: Any]? {
        (objects("products") + objects("archived_products")).first { $0["id"] as? String == id }
    }

    private func objects(_ key: String) -> [[String: Any]] {
        project[key] as? [[String: Any]] ?? []
    }

    /// An error body as the reference's `Error` schema has it.
    func error(_ status: Int, _ type: String, _ message: String, retryable: Bool = false, backoff: Int? = nil,
               param: String? = nil) -> Answer {
        var body: [String: Any] = ["object": "error", "type": type, "message": message, "retryable": retryable,
                                   "doc_url": "https://errors.rev.cat/" + type.replacingOccurrences(of: "_", with: "-")]
        if let backoff { body["backoff_ms"] = backoff }
        if let param { body["param"] = param }
        return Answer(status: status, body: Self.encode(body))
    }

    private static func encode(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys,
                                                                      .withoutEscapingSlashes])) ?? Data()
    }
}
