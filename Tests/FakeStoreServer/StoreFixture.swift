import Foundation

/// The fake stores' responses, pre-rendered from the demo catalogs (`catalogs/demo/asc`, `catalogs/demo/play`)
/// and split into pages of `pageSize` items: API path → pages, each page the exact bytes served. A list that a
/// request may ask to `include=` related resources into also has those pages, under `path|include=a,b` (values
/// sorted): the in-app purchases with `inAppPurchaseAvailability` and `offerCodes`, subscriptions with
/// `introductoryOffers`, `planAvailabilities`, `promotionalOffers`, `offerCodes` and `winBackOffers` (linkage of at
/// most 50, as `limit[…]` allows, and `meta.paging`). Offer lists and each offer's prices are served as the demo
/// folder has them.
struct StoreFixture: Sendable {
    /// App Store Connect's host, which `links.self` / `links.next` name as the real API does.
    static let ascHost = "https://api.appstoreconnect.apple.com"

    let pages: [String: [Data]]

    /// Builds the pages; `empty` serves a store without products (App Store Connect `data: []`, Play `{}`).
    init(asc: URL, play: URL, app: String, package: String, pageSize: Int, empty: Bool) throws {
        var pages: [String: [Data]] = [:]
        let asc = try ASCDocuments(folder: asc)
        /// `query`: the request's `include=` (and its limits), which Apple's `links.next` carries along.
        func add(_ path: String, _ items: [[String: Any]], pool: [Key: [String: Any]] = [:], single: Bool = false,
                 query: String = "") throws {
            let include = query.split(separator: "&").first { $0.hasPrefix("include=") }.map { "|" + $0 } ?? ""
            pages[path + include] = try ASCDocuments.pages(path: path, query: query, items: items, pool: pool,
                                                           pageSize: pageSize, single: single)
        }
        try add("/v1/apps/\(app)", [ASCDocuments.app(app, bundleID: package)], single: true)
        if empty {
            try add("/v1/apps/\(app)/inAppPurchasesV2", [])
            try add("/v1/apps/\(app)/inAppPurchasesV2", [], query: "include=inAppPurchaseAvailability,offerCodes")
            try add("/v1/apps/\(app)/subscriptionGroups", [])
        } else {
            let iaps = try asc.list("in-app-purchases.json")
            try add("/v1/apps/\(app)/inAppPurchasesV2", iaps)
            let groupsDocument = try asc.document("subscription-groups.json")
            let groups = groupsDocument["data"] as? [[String: Any]] ?? []
            try add("/v1/apps/\(app)/subscriptionGroups", groups)
            let subscriptions = groupsDocument["included"] as? [[String: Any]] ?? []
            for group in groups {
                guard let id = group["id"] as? String else { continue }
                let members = subscriptions.filter {
                    (($0["relationships"] as? [String: Any])?["group"] as? [String: Any]).flatMap {
                        ($0["data"] as? [String: Any])?["id"] as? String } == id
                }
                try add("/v1/subscriptionGroups/\(id)/subscriptions", members)
                var included: [Key: [String: Any]] = [:]
                let withOffers = try members.map { subscription -> [String: Any] in
                    guard let sid = subscription["id"] as? String else { return subscription }
                    let prices = try asc.list("subscription-\(sid)-prices.json")
                    let plans = ASCDocuments.planAvailability(sid, territories: ASCDocuments.territories(of: prices))
                        .first?.1 ?? []
                    for plan in plans {
                        if let planID = plan["id"] as? String {
                            included[Key(type: "subscriptionPlanAvailabilities", id: planID)] = plan
                        }
                    }
                    var related = subscription
                    for relationship in ["introductoryOffers"] + ASCDocuments.offerRelationships {
                        let list = try asc.optionalList("subscription-\(sid)-\(relationship).json")
                        related = ASCDocuments.including(list, as: relationship, in: related, into: &included)
                    }
                    return ASCDocuments.relating(related, "planAvailabilities", [
                        "data": plans.map { ["type": $0["type"] ?? "", "id": $0["id"] ?? ""] },
                        "meta": ["paging": ["total": plans.count, "limit": 50]],
                    ])
                }
                try add("/v1/subscriptionGroups/\(id)/subscriptions", withOffers, pool: included,
                        query: "include=introductoryOffers,offerCodes,planAvailabilities,promotionalOffers,"
                            + "winBackOffers&limit%5BintroductoryOffers%5D=50&limit%5BofferCodes%5D=50"
                            + "&limit%5BplanAvailabilities%5D=50&limit%5BpromotionalOffers%5D=50"
                            + "&limit%5BwinBackOffers%5D=50")
                for subscription in subscriptions {
                    guard let sid = subscription["id"] as? String else { continue }
                    for relationship in ["prices", "introductoryOffers"] {
                        let document = try asc.document("subscription-\(sid)-\(relationship).json")
                        try add("/v1/subscriptions/\(sid)/\(relationship)", document["data"] as? [[String: Any]] ?? [],
                                pool: ASCDocuments.pool(document))
                    }
                    for relationship in ASCDocuments.offerRelationships {
                        try add("/v1/subscriptions/\(sid)/\(relationship)",
                                try asc.optionalList("subscription-\(sid)-\(relationship).json"))
                    }
                    let prices = try asc.list("subscription-\(sid)-prices.json")
                    for (path, items) in ASCDocuments.planAvailability(sid, territories: ASCDocuments.territories(of: prices)) {
                        try add(path, items)
                    }
                }
            }
            var availabilities: [Key: [String: Any]] = [:]
            var linked: [[String: Any]] = []
            for iap in iaps {
                linked.append(iap)
                guard let id = iap["id"] as? String else { continue }
                let document = try asc.document("in-app-purchase-\(id)-iapPriceSchedule.json")
                guard let schedule = document["data"] as? [String: Any], let scheduleID = schedule["id"] as? String
                else { continue }
                try add("/v2/inAppPurchases/\(id)/iapPriceSchedule", [schedule], single: true)
                let pool = ASCDocuments.pool(document)
                var rows: [[String: Any]] = []
                for relationship in ["manualPrices", "automaticPrices"] {
                    let ids = ((schedule["relationships"] as? [String: Any])?[relationship] as? [String: Any])
                        .flatMap { $0["data"] as? [[String: Any]] }?.compactMap { $0["id"] as? String } ?? []
                    let prices = ids.compactMap { pool[Key(type: "inAppPurchasePrices", id: $0)] }
                    try add("/v1/inAppPurchasePriceSchedules/\(scheduleID)/\(relationship)", prices, pool: pool)
                    rows += prices
                }
                let availability = ASCDocuments.iapAvailability(id, territories: ASCDocuments.territories(of: rows))
                try add(availability.path, [availability.resource], single: true)
                try add(availability.territoriesPath, availability.territories)
                availabilities[Key(type: "inAppPurchaseAvailabilities", id: availability.id)] = availability.resource
                let offerCodes = try asc.optionalList("in-app-purchase-\(id)-offerCodes.json")
                try add("/v2/inAppPurchases/\(id)/offerCodes", offerCodes)
                linked[linked.count - 1] = ASCDocuments.including(offerCodes, as: "offerCodes", in: ASCDocuments.relating(
                    iap, "inAppPurchaseAvailability", ["data": ["type": "inAppPurchaseAvailabilities", "id": availability.id]]),
                    into: &availabilities)
            }
            try add("/v1/apps/\(app)/inAppPurchasesV2", linked, pool: availabilities,
                    query: "include=inAppPurchaseAvailability,offerCodes&limit%5BofferCodes%5D=50")
            try Self.addPricePoints(asc, subscriptions: subscriptions.compactMap { $0["id"] as? String },
                               inAppPurchases: iaps.compactMap { $0["id"] as? String }, add: add)
            // Each offer's prices (`/v1/{offer type}/{id}/prices`), at the path their `links.self` names.
            for document in try asc.documents(named: { $0.hasSuffix("-prices.json") && $0.contains("offer") }) {
                guard let link = (document["links"] as? [String: Any])?["self"] as? String else { continue }
                try add(String(link.dropFirst(Self.ascHost.count)), document["data"] as? [[String: Any]] ?? [],
                        pool: ASCDocuments.pool(document))
            }
        }
        let root = "/androidpublisher/v3/applications/\(package)"
        let playLists: [(path: String, file: String, key: String, tokenKey: TokenStyle)] = [
            (root + "/subscriptions", "subscriptions.json", "subscriptions", .modern),
            (root + "/subscriptions/-/basePlans/-/offers", "subscription-offers.json", "subscriptionOffers", .modern),
            (root + "/inappproducts", "inappproducts.json", "inappproduct", .legacy),
            (root + "/oneTimeProducts", "onetimeproducts.json", "oneTimeProducts", .modern),
            (root + "/oneTimeProducts/-/purchaseOptions/-/offers", "onetimeproduct-offers.json", "oneTimeProductOffers",
             .modern),
        ]
        for list in playLists {
            let file = play.appendingPathComponent(list.file)
            var items: [Any] = []
            if !empty, let data = FileManager.default.contents(atPath: file.path) {
                let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                items = object?[list.key] as? [Any] ?? []
            }
            pages[list.path] = try Self.playPages(items, key: list.key, style: list.tokenKey, pageSize: pageSize)
        }
        self.pages = pages
    }

    enum TokenStyle { case modern, legacy }

    /// Price points (`fetch appstore --price-points`), as OpenAPI 4.4.1 answers
    /// `GET /v1/subscriptions/{id}/pricePoints` (`SubscriptionPricePointsResponse`) and
    /// `GET /v2/inAppPurchases/{id}/pricePoints` (`InAppPurchasePricePointsResponse`) with `include=territory`:
    /// each territory's points with a `territory` relationship, the territories included with their `currency`.
    /// The points are the demo's own customer prices of that kind in each territory, products' and offers' (every
    /// one a real price point of the demo), served for every product of the kind. `filter[territory]` is not applied (the spec table
    /// checks its form; the tests check what was asked), so a filtered fetch gets every demo territory.
    private static func addPricePoints(
        _ asc: ASCDocuments, subscriptions: [String], inAppPurchases: [String],
        add: (String, [[String: Any]], [Key: [String: Any]], Bool, String) throws -> Void
    ) throws {
        func points(type: String, pointRelationships: [String], documents: [[String: Any]])
            -> ([[String: Any]], [Key: [String: Any]])
        {
            var seen: Set<String> = []
            var items: [[String: Any]] = []
            var pool: [Key: [String: Any]] = [:]
            for document in documents {
                let resources = ASCDocuments.pool(document)
                let rows = (document["data"] as? [[String: Any]] ?? []) + (document["included"] as? [[String: Any]] ?? [])
                for row in rows {
                    let relationships = row["relationships"] as? [String: Any] ?? [:]
                    guard let territory = ((relationships["territory"] as? [String: Any])?["data"] as? [String: Any])?["id"] as? String,
                          let pointID = pointRelationships.lazy.compactMap({
                              ((relationships[$0] as? [String: Any])?["data"] as? [String: Any])?["id"] as? String
                          }).first,
                          let point = resources[Key(type: type, id: pointID)],
                          let price = (point["attributes"] as? [String: Any])?["customerPrice"] as? String,
                          seen.insert("\(territory) \(price)").inserted else { continue }
                    items.append(["type": type, "id": "\(territory)-\(price)",
                                  "attributes": ["customerPrice": price],
                                  "relationships": ["territory": ["data": ["type": "territories", "id": territory]]]])
                    if let resource = resources[Key(type: "territories", id: territory)] {
                        pool[Key(type: "territories", id: territory)] = resource
                    }
                }
            }
            items.sort { ($0["id"] as? String ?? "") < ($1["id"] as? String ?? "") }
            return (items, pool)
        }
        let subscriptionPoints = points(
            type: "subscriptionPricePoints", pointRelationships: ["subscriptionPricePoint"],
            documents: try asc.documents(named: { !$0.hasPrefix("in-app-purchase") && $0.hasSuffix("-prices.json") }))
        for id in subscriptions {
            try add("/v1/subscriptions/\(id)/pricePoints", subscriptionPoints.0, subscriptionPoints.1, false,
                    "include=territory")
        }
        let iapPoints = points(
            type: "inAppPurchasePricePoints", pointRelationships: ["inAppPurchasePricePoint", "pricePoint"],
            documents: try asc.documents(named: {
                $0.hasPrefix("in-app-purchase-") && ($0.hasSuffix("iapPriceSchedule.json") || $0.hasSuffix("-prices.json"))
            }))
        for id in inAppPurchases {
            try add("/v2/inAppPurchases/\(id)/pricePoints", iapPoints.0, iapPoints.1, false, "include=territory")
        }
    }

    /// Google's list pages: `{key: [...], nextPageToken}` (legacy: `tokenPagination.nextPageToken`); an empty
    /// list is `{}` (legacy: `{"kind": …}`), as Google answers it.
    static func playPages(_ items: [Any], key: String, style: TokenStyle, pageSize: Int) throws -> [Data] {
        let chunks = stride(from: 0, to: max(items.count, 1), by: pageSize).map {
            Array(items[min($0, items.count)..<min($0 + pageSize, items.count)])
        }
        return try chunks.enumerated().map { index, chunk in
            var object: [String: Any] = [:]
            if style == .legacy { object["kind"] = "androidpublisher#inappproductsListResponse" }
            if !chunk.isEmpty { object[key] = chunk }
            if index + 1 < chunks.count {
                let token = "page-\(index + 1)"
                if style == .legacy { object["tokenPagination"] = ["nextPageToken": token] } else { object["nextPageToken"] = token }
            }
            return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        }
    }
}

/// The App Store Connect resources fetch asks for beyond the demo documents: the app, and where each product is
/// sold, shaped as the OpenAPI document 4.4.1 (`/work/shared/schemas/app_store_connect_api-4.4.1.json.gz`) has
/// them: `App` (`bundleId`), `InAppPurchaseAvailability`, `SubscriptionPlanAvailability` (`planType` UPFRONT) and
/// `Territory`. Each product is sold exactly where the demo prices it, so a fetched snapshot checks like the demo.
extension ASCDocuments {
    static func app(_ id: String, bundleID: String) -> [String: Any] {
        ["type": "apps", "id": id, "attributes": ["name": "Trailmate", "bundleId": bundleID, "sku": "TRAILMATE",
                                                  "primaryLocale": "en-US"],
         "links": ["self": StoreFixture.ascHost + "/v1/apps/\(id)"]]
    }

    /// The alpha-3 territory IDs the price rows name, sorted.
    static func territories(of rows: [[String: Any]]) -> [String] {
        Set(rows.compactMap {
            (($0["relationships"] as? [String: Any])?["territory"] as? [String: Any])
                .flatMap { ($0["data"] as? [String: Any])?["id"] as? String }
        }).sorted()
    }

    static func territoryResources(_ ids: [String]) -> [[String: Any]] {
        ids.map { ["type": "territories", "id": $0] }
    }

    /// `GET /v2/inAppPurchases/{id}/inAppPurchaseAvailability` and its `availableTerritories` list.
    static func iapAvailability(_ iap: String, territories: [String])
        -> (id: String, path: String, resource: [String: Any], territoriesPath: String, territories: [[String: Any]])
    {
        let id = "availability-\(iap)"
        let territoriesPath = "/v1/inAppPurchaseAvailabilities/\(id)/availableTerritories"
        let resource: [String: Any] = [
            "type": "inAppPurchaseAvailabilities", "id": id, "attributes": ["availableInNewTerritories": false],
            "relationships": ["availableTerritories": ["links": ["related": StoreFixture.ascHost + territoriesPath]]],
        ]
        return (id, "/v2/inAppPurchases/\(iap)/inAppPurchaseAvailability", resource, territoriesPath,
                territoryResources(territories))
    }

    /// `GET /v1/subscriptions/{id}/planAvailabilities` (one UPFRONT plan) and the plan's `availableTerritories`.
    static func planAvailability(_ subscription: String, territories: [String]) -> [(String, [[String: Any]])] {
        let id = "plan-availability-\(subscription)-upfront"
        let territoriesPath = "/v1/subscriptionPlanAvailabilities/\(id)/availableTerritories"
        let plan: [String: Any] = [
            "type": "subscriptionPlanAvailabilities", "id": id,
            "attributes": ["availableInNewTerritories": false, "planType": "UPFRONT"],
            "relationships": ["availableTerritories": ["links": ["related": StoreFixture.ascHost + territoriesPath]]],
        ]
        return [("/v1/subscriptions/\(subscription)/planAvailabilities", [plan]),
                (territoriesPath, territoryResources(territories))]
    }
}

/// A JSON:API resource identity.
struct Key: Hashable {
    let type: String
    let id: String
}

/// The demo App Store Connect documents.
struct ASCDocuments {
    let folder: URL

    init(folder: URL) throws {
        self.folder = folder
    }

    func document(_ name: String) throws -> [String: Any] {
        let data = try Data(contentsOf: folder.appendingPathComponent(name))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    func list(_ name: String) throws -> [[String: Any]] {
        try document(name)["data"] as? [[String: Any]] ?? []
    }

    /// A list the demo folder may not have (a product without offers of a kind): empty then.
    func optionalList(_ name: String) throws -> [[String: Any]] {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) ? try list(name) : []
    }

    /// Every document whose file name `matches`, in name order.
    func documents(named matches: (String) -> Bool) throws -> [[String: Any]] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter(matches).sorted().map(document)
    }

    /// A subscription's offer relationships (OpenAPI 4.4.1 `Subscription`), which fetch asks to `include=`.
    static let offerRelationships = ["offerCodes", "promotionalOffers", "winBackOffers"]

    /// `resource` with the linkage `include=` adds for `relationship` (at most 50, `meta.paging` the whole count),
    /// the related resources added to `pool` for the page's `included`.
    static func including(_ list: [[String: Any]], as relationship: String, in resource: [String: Any],
                          into pool: inout [Key: [String: Any]]) -> [String: Any] {
        let shown = Array(list.prefix(50))
        for item in shown {
            if let type = item["type"] as? String, let id = item["id"] as? String { pool[Key(type: type, id: id)] = item }
        }
        return relating(resource, relationship, [
            "data": shown.map { ["type": $0["type"] ?? "", "id": $0["id"] ?? ""] },
            "meta": ["paging": ["total": list.count, "limit": 50]],
        ])
    }

    /// `resource` with its relationship `name` set to `value` (linkage that `include=` adds).
    static func relating(_ resource: [String: Any], _ name: String, _ value: [String: Any]) -> [String: Any] {
        var resource = resource
        var relationships = resource["relationships"] as? [String: Any] ?? [:]
        relationships[name] = value
        resource["relationships"] = relationships
        return resource
    }

    /// A document's `included` resources by identity.
    static func pool(_ document: [String: Any]) -> [Key: [String: Any]] {
        var pool: [Key: [String: Any]] = [:]
        for resource in document["included"] as? [[String: Any]] ?? [] {
            if let type = resource["type"] as? String, let id = resource["id"] as? String {
                pool[Key(type: type, id: id)] = resource
            }
        }
        return pool
    }

    /// JSON:API pages for `path`: `data`, the `included` resources the page's items point to, `links.self`,
    /// `links.next` (`?cursor=N`, on the real API host, as Apple sends it) and `meta.paging`.
    static func pages(path: String, query: String, items: [[String: Any]], pool: [Key: [String: Any]], pageSize: Int,
                      single: Bool) throws -> [Data] {
        if single, let item = items.first {
            let object: [String: Any] = ["data": item, "links": ["self": StoreFixture.ascHost + path]]
            return [try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])]
        }
        let starts = Array(stride(from: 0, to: max(items.count, 1), by: pageSize))
        return try starts.enumerated().map { index, start in
            let chunk = Array(items[min(start, items.count)..<min(start + pageSize, items.count)])
            var included: [[String: Any]] = []
            var seen: Set<Key> = []
            for item in chunk {
                // In the relationships' name order, so every server serves the same bytes.
                let relationships = item["relationships"] as? [String: Any] ?? [:]
                for case let relationship as [String: Any] in relationships.keys.sorted().compactMap({ relationships[$0] }) {
                    let targets = relationship["data"] as? [[String: Any]]
                        ?? (relationship["data"] as? [String: Any]).map { [$0] } ?? []
                    for target in targets {
                        guard let type = target["type"] as? String, let id = target["id"] as? String,
                              let resource = pool[Key(type: type, id: id)],
                              seen.insert(Key(type: type, id: id)).inserted else { continue }
                        included.append(resource)
                    }
                }
            }
            let carried = query.isEmpty ? "" : query + "&"
            let selfLink = StoreFixture.ascHost + path + (start == 0 ? (query.isEmpty ? "" : "?" + query)
                                                                      : "?\(carried)cursor=\(start)")
            var links: [String: Any] = ["self": selfLink]
            if index + 1 < starts.count {
                links["next"] = StoreFixture.ascHost + path + "?\(carried)cursor=\(starts[index + 1])&limit=\(pageSize)"
            }
            var object: [String: Any] = [
                "data": chunk, "links": links, "meta": ["paging": ["total": items.count, "limit": pageSize]],
            ]
            if !pool.isEmpty { object["included"] = included }
            return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        }
    }
}
