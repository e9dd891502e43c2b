import Foundation

/// One list request of a store API and the kind of resources it returns; `stem` names its page files.
struct Listing: Sendable {
    let kind: ResourceKind
    let stem: String
    let url: URL
    let paging: Paging
    /// For a listing the store may decline as a matter of course: given the error of its first page, a remark
    /// to show instead (the listing then has no pages), or nil when the error stands.
    let remarkInstead: (@Sendable (FetchError) -> String?)?

    /// The listing at `base` + `pathAndQuery`. A path segment that is empty, `.` or `..` (also percent-encoded)
    /// is refused: servers and proxies resolve dot segments (RFC 3986 §5.2.4), so an ID of `..` from a store
    /// answer would turn `/v1/subscriptionGroups/{id}/subscriptions` into another resource's path.
    init(_ kind: ResourceKind, _ stem: String, _ base: URL, _ pathAndQuery: String, paging: Paging,
         remarkInstead: (@Sendable (FetchError) -> String?)? = nil) throws {
        guard let url = URL(string: base.absoluteString + pathAndQuery) else {
            throw FetchError.malformed(request: "GET \(pathAndQuery)", reason: "not a valid URL")
        }
        let path = pathAndQuery.prefix { $0 != "?" && $0 != "#" }
        if let bad = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            .first(where: { !PathSegment.isAllowed(String($0).removingPercentEncoding ?? String($0)) })
        {
            throw FetchError.malformed(request: "GET \(base.absoluteString)\(pathAndQuery)",
                                       reason: "the path segment '\(bad)' cannot name a resource")
        }
        self.kind = kind
        self.stem = stem
        self.url = url
        self.paging = paging
        self.remarkInstead = remarkInstead
    }
}

/// What one listing got: its pages and resources, the IDs of the resources in its `data`, and for each of
/// them the relationships whose linkage (`data`) the page carries — present when the request asked for them
/// with `include=` — as the related IDs.
struct ListingResult: Sendable {
    let kind: ResourceKind
    let pages: Int
    let resources: Int
    let ids: [String]
    var related: [String: [String: [String]]] = [:]
    /// The offers in the pages (`data` or `included`) whose `offerMode` is FREE_TRIAL, as `type/id`: a free
    /// trial's price rows are no prices, so they are not asked for.
    var freeTrials: Set<String> = []
    /// Set when the request budget stopped the listing before its last page.
    var stopped = false
    /// Why the listing has no pages, when the store declined it as a matter of course.
    var remark: String? = nil
    /// RevenueCat: the `next_page` of every list nested in the items (an offering's packages, a package's
    /// products), which continue at their own endpoints.
    var continuations: [String] = []
}

/// How a store API says there is a next page.
enum Paging: Sendable {
    /// JSON:API `links.next`: an absolute URL whose path and query are requested from `base`, so a page never
    /// sends the token to a host other than the API's.
    case jsonAPI(base: URL)
    /// Google: the list sits under `listKey`; the next page is the same request with `parameter` set to
    /// `nextPageToken` (or legacy `tokenPagination.nextPageToken`).
    case google(listKey: String, parameter: String)
    /// RevenueCat API v2 (revenuecat.com/docs/api-v2, "Pagination"): `{"object": "list", "items": […],
    /// "next_page": …}`; `next_page` is an absolute or relative URL of the same list, absent or null at the end.
    /// The next request is the listing's own with `next_page`'s query over it (its `starting_after`): the
    /// documented `next_page` example carries no `limit` or `expand`, which the later pages need as the first did.
    case revenueCat(base: URL, apiHost: String)
}

/// Requests every page of a listing and writes each one, unchanged, to the snapshot. A page the snapshot already
/// holds from an earlier run of the same fetch (`--resume`) is read from there, never requested again; with a
/// `budget`, each request first takes room in App Store Connect's hourly budget.
struct Pager: Sendable {
    let session: APISession
    let writer: SnapshotWriter
    let authorization: @Sendable () async throws -> String
    var budget: RequestBudget?

    /// The most requests in flight at once.
    static let concurrency = 4

    /// Requests every page of `listing`. A spent request budget ends the listing without an error (`stopped`):
    /// the phase lets the requests in flight finish and keeps their pages, then stops.
    func run(_ listing: Listing) async throws -> ListingResult {
        var url: URL? = listing.url
        var seen: Set<URL> = []
        var pages = 0
        var resources = 0
        var ids: [String] = []
        var related: [String: [String: [String]]] = [:]
        var freeTrials: Set<String> = []
        var continuations: [String] = []
        while let current = url {
            seen.insert(current)
            let name = "GET \(current.absoluteString)"
            let pathAndQuery = Self.pathAndQuery(of: current)
            pages += 1
            let object: [String: Any]
            if let body = writer.savedPage(for: pathAndQuery),
               let saved = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
                object = saved
            } else {
                let body: Data
                do {
                    body = try await fetchPage(current)
                } catch FetchError.budgetSpent {
                    return ListingResult(kind: listing.kind, pages: pages - 1, resources: resources, ids: ids,
                                         related: related, freeTrials: freeTrials, stopped: true)
                } catch let error as FetchError {
                    guard pages == 1, let remark = listing.remarkInstead?(error) else { throw error }
                    budget?.listingDone()
                    return ListingResult(kind: listing.kind, pages: 0, resources: 0, ids: [], remark: remark)
                }
                guard let fresh = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                    throw FetchError.malformed(request: name, reason: "the answer is not a JSON object")
                }
                object = fresh
                try writer.write(body, stem: listing.stem, page: pages, request: pathAndQuery)
            }
            let page = try read(object, listing: listing, url: current, request: name)
            resources += page.resources
            ids += page.ids
            related.merge(page.related) { $1 }
            freeTrials.formUnion(Self.freeTrials(in: object))
            if case .revenueCat = listing.paging { continuations += Self.nestedNextPages(in: object["items"]) }
            url = page.next
            if let next = url, seen.contains(next) {
                throw FetchError.malformed(request: name, reason: "the next page link repeats an earlier page")
            }
        }
        budget?.listingDone()
        return ListingResult(kind: listing.kind, pages: pages, resources: resources, ids: ids, related: related,
                             freeTrials: freeTrials, continuations: continuations)
    }

    /// The `next_page` of every list object (`"object": "list"`) nested in `value`, depth first, in document order.
    static func nestedNextPages(in value: Any?) -> [String] {
        var found: [String] = []
        var stack: [Any] = value.map { [$0] } ?? []
        while let next = stack.popLast() {
            if let array = next as? [Any] {
                stack += array.reversed()
            } else if let object = next as? [String: Any] {
                if object["object"] as? String == "list", let page = object["next_page"] as? String, !page.isEmpty {
                    found.append(page)
                }
                stack += object.keys.sorted().reversed().compactMap { object[$0] }
            }
        }
        return found
    }

    /// The `type/id` of every resource in a JSON:API page (`data` and `included`) whose `attributes.offerMode`
    /// is FREE_TRIAL.
    static func freeTrials(in object: [String: Any]) -> Set<String> {
        var items = object["included"] as? [[String: Any]] ?? []
        switch object["data"] {
        case let array as [[String: Any]]: items += array
        case let single as [String: Any]: items.append(single)
        default: break
        }
        var found: Set<String> = []
        for item in items where (item["attributes"] as? [String: Any])?["offerMode"] as? String == "FREE_TRIAL" {
            if let type = item["type"] as? String, let id = item["id"] as? String { found.insert(type + "/" + id) }
        }
        return found
    }

    /// One page's body from the store, within the budget.
    private func fetchPage(_ url: URL) async throws -> Data {
        try budget?.reserve()
        defer { budget?.release() }
        let request = HTTPRequest(url: url, headers: [(name: "Accept", value: "application/json")])
        return try await session.send(request, authorization: authorization).body
    }

    /// What a page's request is recorded as: the path and query as sent (percent-encoded), no scheme or host.
    static func pathAndQuery(of url: URL) -> String {
        let parts = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = parts?.percentEncodedPath ?? url.path
        return parts?.percentEncodedQuery.map { path + "?" + $0 } ?? path
    }

    /// Runs listings, at most `concurrency` at a time, and reports each kind they cover once all are done.
    func runPhase(_ listings: [Listing], progress: FetchProgress) async throws -> [ListingResult] {
        budget?.startPhase(listings: listings.count)
        let results = try await mapConcurrently(listings, limit: Self.concurrency, progress: progress) {
            try await run($0)
        }
        if results.contains(where: \.stopped), let stop = budget?.stop() { throw stop }
        var kinds: [ResourceKind] = []
        for listing in listings where !kinds.contains(listing.kind) { kinds.append(listing.kind) }
        for tally in tallies(results, kinds: kinds) { progress.finished(tally) }
        for remark in results.compactMap(\.remark) { progress.remark(remark) }
        return results
    }

    private func read(_ object: [String: Any], listing: Listing, url: URL, request: String) throws
        -> (resources: Int, ids: [String], related: [String: [String: [String]]], next: URL?)
    {
        switch listing.paging {
        case let .jsonAPI(base):
            let items: [[String: Any]]
            switch object["data"] {
            case let array as [[String: Any]]: items = array
            case let single as [String: Any]: items = [single]
            default: items = []
            }
            try Self.checkIDs(items, in: "data", request: request)
            try Self.checkIDs(object["included"] as? [[String: Any]] ?? [], in: "included", request: request)
            let ids = items.compactMap { $0["id"] as? String }
            var related: [String: [String: [String]]] = [:]
            for item in items {
                guard let id = item["id"] as? String,
                      let relationships = item["relationships"] as? [String: Any] else { continue }
                for case let (name, relationship as [String: Any]) in relationships {
                    switch relationship["data"] {
                    case let many as [[String: Any]]: related[id, default: [:]][name] = many.compactMap { $0["id"] as? String }
                    case let one as [String: Any]: related[id, default: [:]][name] = [one["id"] as? String].compactMap { $0 }
                    case is NSNull: related[id, default: [:]][name] = []
                    default: break
                    }
                }
            }
            guard let links = object["links"] as? [String: Any], let next = links["next"] as? String else {
                return (items.count, ids, related, nil)
            }
            return (items.count, ids, related, try Self.nextPage(next, of: listing, base: base, request: request,
                                                                 redact: session.redactor.redact))
        case let .revenueCat(base, apiHost):
            guard let items = object["items"] as? [Any] else {
                throw FetchError.malformed(request: request, reason: "the answer is not a RevenueCat list (no items)")
            }
            let ids = items.compactMap { ($0 as? [String: Any])?["id"] as? String }
            guard let next = object["next_page"] as? String, !next.isEmpty else { return (items.count, ids, [:], nil) }
            return (items.count, ids, [:], try Self.revenueCatNext(next, of: listing, base: base, apiHost: apiHost,
                                                                   request: request, redact: session.redactor.redact))
        case let .google(listKey, parameter):
            let count = (object[listKey] as? [Any])?.count ?? 0
            let token = (object["nextPageToken"] as? String)
                ?? ((object["tokenPagination"] as? [String: Any])?["nextPageToken"] as? String)
            guard let token, !token.isEmpty else { return (count, [], [:], nil) }
            return (count, [], [:], Self.setting(parameter, to: token, in: url))
        }
    }

    /// A JSON:API resource's `id` becomes a path segment of the next requests: `.`, `..` and empty are refused
    /// (percent-encoding cannot make them safe; see `Listing.init`), naming the page and the item.
    private static func checkIDs(_ items: [[String: Any]], in member: String, request: String) throws {
        for (index, item) in items.enumerated() {
            guard let id = item["id"] as? String, !PathSegment.isAllowed(id) else { continue }
            throw FetchError.malformed(request: request, reason: """
                \(member)[\(index)] has the id '\(id)', which cannot name a resource in a request path
                """)
        }
    }

    /// The URL to request for `links.next`: only on the API host (the `base` requests go to, or the real API's
    /// `https://api.appstoreconnect.apple.com`, which a test server's links may name) and only the listing's
    /// own path, never another host, scheme or resource (the request carries the bearer token). Requested at
    /// `base`. The link's host and path are the store's text, shown only through `redact` (a server could echo
    /// the bearer token into a link).
    private static func nextPage(_ next: String, of listing: Listing, base: URL, request: String,
                                 redact: (String) -> String) throws -> URL {
        guard let parts = URLComponents(string: next), let host = parts.host, let scheme = parts.scheme,
              var rebased = URLComponents(url: base, resolvingAgainstBaseURL: false) else {
            throw FetchError.malformed(request: request, reason: "links.next is not an absolute URL")
        }
        let origin = Origin(scheme: scheme, host: host, port: parts.port)
        let api = Origin(base)
        guard origin == api || origin == Origin(URL(string: AppStoreConnectClient.apiHost)) else {
            throw FetchError.malformed(request: request, reason: """
                links.next leads to \(redact(origin.description)), not to the API host \
                \(api.map(\.description) ?? base.absoluteString); it is not requested
                """)
        }
        guard parts.percentEncodedPath == URLComponents(url: listing.url, resolvingAgainstBaseURL: false)?
            .percentEncodedPath
        else {
            throw FetchError.malformed(request: request, reason: """
                links.next leads to the path \(redact(parts.percentEncodedPath)), not to the next page of this list; \
                it is not requested
                """)
        }
        rebased.percentEncodedPath = parts.percentEncodedPath
        rebased.percentEncodedQuery = parts.percentEncodedQuery
        guard let url = rebased.url else {
            throw FetchError.malformed(request: request, reason: "links.next is not an absolute URL")
        }
        return url
    }

    /// The request for a RevenueCat `next_page` (absolute on the API host, or relative): the same path as the
    /// listing's, requested at `base` with the listing's query and `next_page`'s parameters over it. Another host
    /// or path is refused (the request carries the secret key); the link is shown only through `redact`.
    static func revenueCatNext(_ next: String, of listing: Listing, base: URL, apiHost: String, request: String,
                               redact: (String) -> String) throws -> URL {
        guard let parts = URLComponents(string: next) else {
            throw FetchError.malformed(request: request, reason: "next_page is not a URL")
        }
        if parts.host != nil || parts.scheme != nil {
            let origin = Origin(scheme: parts.scheme ?? "", host: parts.host ?? "", port: parts.port)
            guard origin == Origin(base) || origin == Origin(URL(string: apiHost)) else {
                throw FetchError.malformed(request: request, reason: """
                    next_page leads to \(redact(origin.description)), not to the API host; it is not requested
                    """)
            }
        }
        guard var rebased = URLComponents(url: listing.url, resolvingAgainstBaseURL: false) else {
            throw FetchError.malformed(request: request, reason: "next_page is not a URL")
        }
        guard parts.percentEncodedPath == rebased.percentEncodedPath else {
            throw FetchError.malformed(request: request, reason: """
                next_page leads to the path \(redact(parts.percentEncodedPath)), not to the next page of this list; \
                it is not requested
                """)
        }
        let given = (parts.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
        let names = Set(given.map { $0.prefix { $0 != "=" } })
        let kept = (rebased.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
            .filter { !names.contains($0.prefix { $0 != "=" }) }
        rebased.percentEncodedQuery = (kept + given).joined(separator: "&")
        guard let url = rebased.url else {
            throw FetchError.malformed(request: request, reason: "next_page is not a URL")
        }
        return url
    }

    /// `url` with `name=value` set in its query; the value (a store's page token) is percent-encoded down to
    /// RFC 3986's unreserved characters, so a `+`, `&` or `=` in it stays part of the token.
    static func setting(_ name: String, to value: String, in url: URL) -> URL? {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        var items = (parts.percentEncodedQuery ?? "").split(separator: "&").map(String.init)
            .filter { !$0.hasPrefix(name + "=") && $0 != name }
        items.append(name + "=" + PathSegment.encoded(value))
        parts.percentEncodedQuery = items.joined(separator: "&")
        return parts.url
    }
}

/// A URL's `scheme://host[:port]`, the port left out when it is the scheme's default.
struct Origin: Equatable, CustomStringConvertible {
    let scheme: String
    let host: String
    let port: Int?

    init(scheme: String, host: String, port: Int?) {
        self.scheme = scheme.lowercased()
        self.host = host.lowercased()
        self.port = port == (self.scheme == "https" ? 443 : self.scheme == "http" ? 80 : nil) ? nil : port
    }

    init?(_ url: URL?) {
        guard let url, let scheme = url.scheme, let host = url.host else { return nil }
        self.init(scheme: scheme, host: host, port: url.port)
    }

    var description: String {
        "\(scheme)://\(host)" + (port.map { ":\($0)" } ?? "")
    }
}

/// Server data (IDs) and user input (app ID, package name) as one URL path segment.
enum PathSegment {
    /// RFC 3986 §2.3 unreserved characters: everything else is percent-encoded, `/ ? # ; % +` included.
    static let unreserved = CharacterSet(charactersIn:
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// Whether `value` can be a segment at all: not empty, `.` or `..`, which a server resolves as a step in
    /// the path, not as a name (RFC 3986 §5.2.4), encoded or not.
    static func isAllowed(_ value: String) -> Bool {
        !value.isEmpty && value != "." && value != ".."
    }

    /// `value` percent-encoded as one segment (or one query value).
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }
}

/// Runs `body` on every item, at most `limit` at a time, and returns the results in the items' order.
func mapConcurrently<Item: Sendable, Result: Sendable>(
    _ items: [Item], limit: Int, progress: FetchProgress,
    _ body: @escaping @Sendable (Item) async throws -> Result
) async throws -> [Result] {
    progress.startPhase(jobs: items.count)
    return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        var results = [Result?](repeating: nil, count: items.count)
        var next = 0
        while next < min(limit, items.count) {
            let index = next
            group.addTask { (index, try await body(items[index])) }
            next += 1
        }
        while let (index, result) = try await group.next() {
            results[index] = result
            progress.jobDone()
            if next < items.count {
                let index = next
                group.addTask { (index, try await body(items[index])) }
                next += 1
            }
        }
        return results.compactMap { $0 }
    }
}

/// Sums listing results per kind, in the order of `kinds`.
func tallies(_ results: [ListingResult], kinds: [ResourceKind]) -> [KindTally] {
    kinds.map { kind in
        let mine = results.filter { $0.kind == kind }
        return KindTally(kind: kind, pages: mine.reduce(0) { $0 + $1.pages },
                         resources: mine.reduce(0) { $0 + $1.resources })
    }
}
