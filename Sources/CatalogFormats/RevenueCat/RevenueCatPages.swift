import CatalogCore
import Foundation

/// The pages of a RevenueCat API v2 snapshot (`fetch revenuecat`), parsed: each page is a list object
/// (`{"object": "list", "items": […], "next_page": …, "url": …}`, revenuecat.com/docs/api-v2 "Pagination") of one
/// list endpoint, told by the request `.fetch.json` records for it, else by the page's own `url`:
///
/// - `/v2/projects/{project_id}/apps`, `/products`, `/entitlements` (`expand=items.product`), `/offerings`
///   (`expand=items.package.product`);
/// - the continuations of lists nested in those items: `/offerings/{offering_id}/packages`,
///   `/packages/{package_id}/products`, `/entitlements/{entitlement_id}/products`.
///
/// Every page of one snapshot belongs to one project. A page whose `next_page` the snapshot does not continue
/// (its `starting_after` requested for the same list) is a damaged snapshot, never a smaller project.
struct RevenueCatPages {
    /// Which list a page belongs to.
    enum List: Hashable {
        case apps, products, entitlements, offerings
        /// The packages of an offering, after those the offering's own `packages` list holds.
        case offeringPackages(String)
        /// The products of a package, after those the package's own `products` list holds.
        case packageProducts(String)
        /// The products of an entitlement, after those its own `products` list holds.
        case entitlementProducts(String)
    }

    /// One page: its list, its items and the JSON it was read from.
    struct Page {
        let list: List
        let items: [JSONNode]
        let context: JSONAccess
    }

    /// The pages, in listing order.
    private(set) var pages: [Page] = []
    /// The project every page is of.
    private(set) var project: String?

    /// Reads every `.json` page of the folder (as listed) through `JSONFolder`: in a snapshot the manifest
    /// (`SnapshotManifest`, store `revenuecat`) is verified against the pages and says which request each answered.
    init(folder url: URL, listing: [String], displayPath: String) throws(CatalogReadError) {
        let folder = try JSONFolder(url: url, listing: listing, displayPath: displayPath, store: .revenueCat) { name in
            name.lowercased().hasSuffix(".json")
        }
        var continued: [List: Set<String>] = [:]
        var continuations: [(list: List, after: String, page: JSONNode, context: JSONAccess)] = []
        var pages: [Page] = []
        var project: String?
        try folder.forEachDocument { document, record throws(CatalogReadError) in
            let context = JSONAccess(document: document)
            let root = JSONNode(root: document.root)
            guard document.root.members != nil, let items = try context.objects("items", in: root) else {
                throw CatalogReadError("not a page of a RevenueCat API v2 list: a list object holds \"items\" "
                                       + "(revenuecat.com/docs/api-v2, Pagination)", at: context.location(of: root))
            }
            if let object = try context.string("object", in: root), object.text != "list" {
                throw context.error("\"\(object.text)\" is not \"list\"", at: object.node)
            }
            let ownURL = try context.string("url", in: root)?.text
            guard let request = record?.request ?? ownURL else {
                throw CatalogReadError("the page says neither in .fetch.json nor in its \"url\" which list it is",
                                       at: context.location(of: root))
            }
            let (pageProject, list) = try Self.list(of: request, at: context.location(of: root))
            if let known = project, known != pageProject {
                throw CatalogReadError("the page is of the project \(pageProject), the snapshot's other pages of "
                                       + "\(known): one snapshot is one project", at: context.location(of: root))
            }
            project = pageProject
            if let after = Self.startingAfter(request) { continued[list, default: []].insert(after) }
            if let next = try context.string("next_page", in: root), let after = Self.startingAfter(next.text) {
                continuations.append((list, after, next.node, context))
            }
            // Lists nested in the items continue at their own endpoint (`next_page` non-null).
            for item in items {
                for nested in try Self.nestedLists(in: item, of: list, context: context) {
                    guard let next = try context.string("next_page", in: nested.node),
                          let after = Self.startingAfter(next.text) else { continue }
                    continuations.append((nested.list, after, next.node, context))
                }
            }
            pages.append(Page(list: list, items: items, context: context))
        }
        self.pages = pages
        self.project = project
        // Only a manifest says which request each page answered; without one the pages are taken as they are.
        if folder.manifest != nil {
            for continuation in continuations where !(continued[continuation.list]?.contains(continuation.after) ?? false) {
                throw continuation.context.error(
                    "the list continues after \(continuation.after), and the snapshot holds no such page: it is "
                        + "incomplete; fetch it again", at: continuation.page)
            }
        }
    }

    /// The lists nested in an item of `list` (each a list object with its own `next_page`): an offering's
    /// packages and each of their products, a package's products, an entitlement's products.
    static func nestedLists(in item: JSONNode, of list: List,
                            context: JSONAccess) throws(CatalogReadError) -> [(list: List, node: JSONNode)] {
        guard let id = try context.string("id", in: item)?.text else { return [] }
        switch list {
        case .offerings:
            guard let packages = try context.object("packages", in: item) else { return [] }
            var found: [(list: List, node: JSONNode)] = [(.offeringPackages(id), packages)]
            for package in try context.objects("items", in: packages) ?? [] {
                found += try nestedLists(in: package, of: .offeringPackages(id), context: context)
            }
            return found
        case .offeringPackages:
            return try context.object("products", in: item).map { [(.packageProducts(id), $0)] } ?? []
        case .entitlements:
            return try context.object("products", in: item).map { [(.entitlementProducts(id), $0)] } ?? []
        case .apps, .products, .packageProducts, .entitlementProducts:
            return []
        }
    }

    /// The project and list a request path (or a page's `url`) names; anything else is not a page this reader
    /// knows.
    static func list(of request: String, at location: SourceLocation) throws(CatalogReadError) -> (String, List) {
        var path = request.prefix { $0 != "?" }
        if let scheme = path.range(of: "://") {
            path = path[scheme.upperBound...].drop { $0 != "/" }
        }
        let parts = path.split(separator: "/").map(String.init)
        guard parts.count >= 4, parts[0] == "v2", parts[1] == "projects" else {
            throw CatalogReadError("\"\(request)\" is not a RevenueCat API v2 project list (/v2/projects/{id}/…)",
                                   at: location)
        }
        let project = parts[2]
        switch Array(parts.dropFirst(3)) {
        case ["apps"]: return (project, .apps)
        case ["products"]: return (project, .products)
        case ["entitlements"]: return (project, .entitlements)
        case ["offerings"]: return (project, .offerings)
        case let rest where rest.count == 3 && rest[0] == "offerings" && rest[2] == "packages":
            return (project, .offeringPackages(rest[1]))
        case let rest where rest.count == 3 && rest[0] == "packages" && rest[2] == "products":
            return (project, .packageProducts(rest[1]))
        case let rest where rest.count == 3 && rest[0] == "entitlements" && rest[2] == "products":
            return (project, .entitlementProducts(rest[1]))
        default:
            throw CatalogReadError("\"\(request)\" is not a list this reader reads (apps, products, entitlements, "
                                   + "offerings and their nested lists)", at: location)
        }
    }

    /// The `starting_after` cursor of a page URL (absolute or relative), or nil.
    static func startingAfter(_ url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.first == "starting_after", parts.count == 2 {
                return String(parts[1]).removingPercentEncoding ?? String(parts[1])
            }
        }
        return nil
    }
}
