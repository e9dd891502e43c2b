import Foundation

/// Fetches what the `asc-json` reader reads for one app, every page (`links.next`), each response written
/// unchanged: the app's in-app purchases (`/v1/apps/{id}/inAppPurchasesV2`), their price schedules and manual
/// and automatic prices with price points and territories; the app's subscription groups, their
/// subscriptions, each subscription's prices (current and scheduled) with price points and territories, and its
/// introductory offers; the app itself (`bundleId`), each IAP price schedule's `baseTerritory`, and where each
/// product is sold (IAP `inAppPurchaseAvailability`, subscription `planAvailabilities`, each with its
/// `availableTerritories`). Availability is also the resources' `state`, which these responses carry. With offers
/// (DESIGN §2b, §4a): each subscription's promotional offers, offer codes and win-back offers and each in-app
/// purchase's offer codes, each offer's prices with price points and territories (a free trial's excepted: they
/// are no prices); the monthly billing plan's MONTHLY price rows come with the subscription's prices. Resources
/// are linked by each document's `links.self` (or the request `.fetch.json` records) and by relationship
/// linkage, as the reader expects (FORMATS.md).
///
/// Apple's hourly budget (`RequestBudget`) makes requests dear, so a related list is asked for with `include=`
/// wherever it fits the parent's page and the reader needs nothing more of it: each in-app purchase's
/// `inAppPurchaseAvailability` comes with the list of in-app purchases and each subscription's
/// `planAvailabilities` with the list of subscriptions (their territories still need their own lists:
/// `include=` would stop at 50 of 175), and a subscription whose included `introductoryOffers` linkage is empty
/// has none, so its offers list is not requested. The offer lists come the same way (`include=promotionalOffers,
/// offerCodes,winBackOffers` on the subscriptions, `include=offerCodes` on the in-app purchases), so offers cost
/// one request per priced offer and none per product. Each in-app purchase's
/// price schedule is asked for on its own, with `include=baseTerritory`: the in-app purchase list may include
/// the schedule (`include=iapPriceSchedule`) but not the schedule's base territory (OpenAPI 4.4.1 allows no
/// nested include there), so folding the schedule into the list would save no request.
public struct AppStoreConnectClient: Sendable {
    /// The real API's scheme and host.
    public static let apiHost = "https://api.appstoreconnect.apple.com"

    static let inAppPurchases = ResourceKind(key: "inAppPurchases", label: "in-app purchases")
    static let inAppPurchasePrices = ResourceKind(key: "inAppPurchasePrices", label: "in-app purchase prices")
    static let priceSchedules = ResourceKind(key: "inAppPurchasePriceSchedules",
                                             label: "in-app purchase price schedules")
    static let groups = ResourceKind(key: "subscriptionGroups", label: "subscription groups")
    static let subscriptions = ResourceKind(key: "subscriptions", label: "subscriptions")
    static let subscriptionPrices = ResourceKind(key: "subscriptionPrices", label: "subscription prices")
    static let introductoryOffers = ResourceKind(key: "subscriptionIntroductoryOffers", label: "introductory offers")
    static let apps = ResourceKind(key: "apps", label: "apps")
    static let inAppPurchaseAvailabilities = ResourceKind(key: "inAppPurchaseAvailabilities",
                                                          label: "in-app purchase availabilities")
    static let planAvailabilities = ResourceKind(key: "subscriptionPlanAvailabilities",
                                                 label: "subscription plan availabilities")
    static let availableTerritories = ResourceKind(key: "availableTerritories", label: "available territories")
    static let promotionalOffers = ResourceKind(key: "subscriptionPromotionalOffers", label: "promotional offers")
    static let subscriptionOfferCodes = ResourceKind(key: "subscriptionOfferCodes", label: "subscription offer codes")
    static let winBackOffers = ResourceKind(key: "winBackOffers", label: "win-back offers")
    static let iapOfferCodes = ResourceKind(key: "inAppPurchaseOfferCodes", label: "in-app purchase offer codes")
    static let iapOfferPrices = ResourceKind(key: "inAppPurchaseOfferPrices", label: "in-app purchase offer prices")
    static let subscriptionOfferPrices = ResourceKind(key: "subscriptionOfferPrices",
                                                      label: "subscription offer prices")
    static let subscriptionPricePoints = ResourceKind(key: "subscriptionPricePoints",
                                                      label: "subscription price points")
    static let iapPricePoints = ResourceKind(key: "inAppPurchasePricePoints", label: "in-app purchase price points")

    /// The kinds `--price-points` adds, for the help text.
    public static let pricePointKinds: [ResourceKind] = [subscriptionPricePoints, iapPricePoints]

    /// Which territories' price points `fetch appstore --price-points` asks for (DESIGN.md §2b).
    public enum PricePointSelection: Sendable, Equatable {
        /// Where the app's products are sold (their availabilities' territories).
        case available
        /// Every territory: no `filter[territory]`.
        case all
        /// These territories, as App Store Connect's IDs (ISO 3166-1 alpha-3, `USA`).
        case territories([String])
    }

    /// Every kind a fetch lists, in the order a reader meets them (the app, in-app purchases, subscriptions): the
    /// one list `fetch appstore --help` names, so the help cannot fall behind what is fetched.
    public static let kinds: [ResourceKind] = [
        apps, inAppPurchases, inAppPurchaseAvailabilities, priceSchedules, inAppPurchasePrices, availableTerritories,
        iapOfferCodes, iapOfferPrices, groups, subscriptions, planAvailabilities, subscriptionPrices,
        introductoryOffers, promotionalOffers, subscriptionOfferCodes, winBackOffers, subscriptionOfferPrices,
    ]

    /// A subscription's offer lists (DESIGN §2b "With offers"): the relationship of `Subscription` that lists
    /// them (OpenAPI 4.4.1 `GET /v1/subscriptions/{id}/promotionalOffers`, `…/offerCodes`, `…/winBackOffers`),
    /// their kind, the resource type and the page-file stem of their prices.
    static let subscriptionOfferLists: [(relationship: String, kind: ResourceKind, type: String, stem: String)] = [
        ("promotionalOffers", promotionalOffers, "subscriptionPromotionalOffers", "subscription-promotional-offer"),
        ("offerCodes", subscriptionOfferCodes, "subscriptionOfferCodes", "subscription-offer-code"),
        ("winBackOffers", winBackOffers, "winBackOffers", "win-back-offer"),
    ]

    let appID: String
    let base: URL
    let session: APISession
    let token: AppStoreConnectToken
    let progress: FetchProgress
    let budget: RequestBudget
    /// The price points to fetch; nil: none.
    let pricePoints: PricePointSelection?

    /// Creates a client for `appID` at `base` (the real API's `apiHost`, or a test server).
    public init(credentials: AppStoreConnectCredentials, appID: String, base: URL, transport: any HTTPTransport,
                policy: RetryPolicy, progress: FetchProgress, pricePoints: PricePointSelection? = nil) async {
        self.appID = appID
        self.pricePoints = pricePoints
        self.base = base
        self.progress = progress
        let budget = RequestBudget(progress: progress)
        self.budget = budget
        let redactor = SecretRedactor()
        var session = APISession(transport: MeteredTransport(inner: transport, budget: budget), policy: policy,
                                 progress: progress, redactor: redactor) { Self.refused($0, keyID: credentials.keyID,
                                                                                        appID: appID) }
        session.rateLimits = budget
        self.session = session
        token = await AppStoreConnectToken(credentials: credentials, redactor: redactor)
    }

    /// Apple's code for a team whose agreement is not in effect. Apple's answer, as quoted in Apple Developer
    /// Forums thread 700371: `"status": "403", "code": "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED",
    /// "title": "A required agreement is missing or has expired.", "detail": "This request requires an in-effect
    /// agreement that has not been signed or has expired."`, its `links.see` pointing at `/agreements` (now the
    /// Business section of App Store Connect). Apple, "Parsing the Error Response Code": the `code` is "a stable,
    /// machine-readable value indicating the exact type of error", so it alone decides.
    static let agreementsCode = "FORBIDDEN.REQUIRED_AGREEMENTS_MISSING_OR_EXPIRED"

    /// What App Store Connect's refusal means: an agreement not in effect is the team's, never the key's
    /// (`agreementMissing`); any other 401/403 refuses the key, saying what to check.
    static func refused(_ refusal: StoreRefusal, keyID: String, appID: String) -> FetchError {
        if refusal.status == 403, refusal.code == agreementsCode {
            return .agreementMissing(request: refusal.request, detail: refusal.reason)
        }
        return .refused(request: refusal.request, store: "App Store Connect", credential: "the API key \(keyID)",
                        status: refusal.status, reason: refusal.reason, advice: advice(for: refusal, appID: appID))
    }

    /// What to check when App Store Connect refuses the key. Its 401 is `NOT_AUTHORIZED` ("Provide a properly
    /// configured and signed bearer token, and make sure that it has not expired"); a 403 is the key's role.
    static func advice(for refusal: StoreRefusal, appID: String) -> String {
        if refusal.status == 401 {
            return "check the key ID, issuer ID, that the key is not revoked and that this machine's clock is right"
        }
        return "check that the key's role may read in-app purchases (App Manager or Admin) and that \(appID) is "
            + "the app's Apple ID"
    }

    /// Fetches every page into `writer`; returns the counts per kind.
    public func fetch(into writer: SnapshotWriter) async throws -> [KindTally] {
        let token = self.token
        var pager = Pager(session: session, writer: writer, authorization: { try await token.authorization() })
        pager.budget = budget
        let app = Self.segment(appID)
        let first = try await pager.runPhase([
            try listing(Self.inAppPurchases, "in-app-purchases",
                        "/v1/apps/\(app)/inAppPurchasesV2?include=inAppPurchaseAvailability,offerCodes&limit=200"
                            + "&limit%5BofferCodes%5D=50"),
            try listing(Self.groups, "subscription-groups", "/v1/apps/\(app)/subscriptionGroups?limit=200"),
            try appListing(app),
        ], progress: progress)

        var second: [Listing] = []
        for group in ids(of: Self.groups, in: first) {
            second.append(try listing(Self.subscriptions, "subscription-group-\(group)-subscriptions",
                                      "/v1/subscriptionGroups/\(group)/subscriptions"
                                        + "?include=introductoryOffers,offerCodes,planAvailabilities,"
                                        + "promotionalOffers,winBackOffers&limit=200"
                                        + "&limit%5BintroductoryOffers%5D=50&limit%5BofferCodes%5D=50"
                                        + "&limit%5BplanAvailabilities%5D=50&limit%5BpromotionalOffers%5D=50"
                                        + "&limit%5BwinBackOffers%5D=50"))
        }
        var offers = OfferTally()
        // Each in-app purchase's availability came with the list (`include=inAppPurchaseAvailability`); one whose
        // page carries no linkage for it at all (the include not honored) has it asked for on its own.
        var availabilities: [String] = []
        for result in first where result.kind == Self.inAppPurchases {
            for id in result.ids {
                let iap = Self.segment(id)
                second.append(try listing(Self.priceSchedules, "in-app-purchase-\(iap)-iapPriceSchedule",
                                          "/v2/inAppPurchases/\(iap)/iapPriceSchedule?include=baseTerritory"))
                if let linked = result.related[id]?["inAppPurchaseAvailability"] {
                    availabilities += linked
                } else {
                    second.append(try iapAvailabilityListing(iap))
                }
                second += try offerListings(Self.iapOfferCodes, type: "inAppPurchaseOfferCodes",
                                            stem: "in-app-purchase-offer-code", linked: result.related[id]?["offerCodes"],
                                            list: "/v2/inAppPurchases/\(iap)/offerCodes", listStem: "in-app-purchase-\(iap)",
                                            freeTrials: result.freeTrials, tally: &offers)
            }
        }
        let secondResults = try await pager.runPhase(second, progress: progress)
        availabilities += secondResults.filter { $0.kind == Self.inAppPurchaseAvailabilities }.flatMap(\.ids)

        var third: [Listing] = []
        for result in secondResults where result.kind == Self.subscriptions {
            for id in result.ids {
                let subscription = Self.segment(id)
                let path = "/v1/subscriptions/\(subscription)"
                third.append(try listing(Self.subscriptionPrices, "subscription-\(subscription)-prices",
                                         path + "/prices?include=subscriptionPricePoint,territory&limit=200"))
                // An included linkage `[]` states that there is none (it fits the page: at most 50 are included).
                guard result.related[id]?["introductoryOffers"] != [] else { continue }
                third.append(try listing(Self.introductoryOffers, "subscription-\(subscription)-introductoryOffers",
                                         path + "/introductoryOffers?include=territory,subscriptionPricePoint&limit=200"))
            }
        }
        for result in secondResults where result.kind == Self.subscriptions {
            for id in result.ids {
                let subscription = Self.segment(id)
                for list in Self.subscriptionOfferLists {
                    third += try offerListings(list.kind, type: list.type, stem: list.stem,
                                               linked: result.related[id]?[list.relationship],
                                               list: "/v1/subscriptions/\(subscription)/\(list.relationship)",
                                               listStem: "subscription-\(subscription)", freeTrials: result.freeTrials,
                                               tally: &offers)
                }
            }
        }
        // In-app purchase offer codes asked for on their own (the linkage missing or a full 50): their prices.
        third += try offerPriceListings(after: secondResults)
        for schedule in ids(of: Self.priceSchedules, in: secondResults) {
            for relationship in ["manualPrices", "automaticPrices"] {
                third.append(try listing(
                    Self.inAppPurchasePrices, "in-app-purchase-price-schedule-\(schedule)-\(relationship)",
                    "/v1/inAppPurchasePriceSchedules/\(schedule)/\(relationship)"
                        + "?include=inAppPurchasePricePoint,territory&\(Self.inAppPurchasePriceFields)&limit=200"))
            }
        }
        let plans = try planAvailabilities(after: secondResults, asking: &third)
        let thirdResults = try await pager.runPhase(third, progress: progress)
        let fourthResults = try await pager.runPhase(
            try territoryListings(iapAvailabilities: availabilities,
                                  plans: plans + ids(of: Self.planAvailabilities, in: thirdResults))
                + offerPriceListings(after: thirdResults),
            progress: progress)
        // A kind that came only with its parents' lists (`include=`) has no count of its own.
        let iapKinds = second.contains { $0.kind == Self.inAppPurchaseAvailabilities }
            ? [Self.inAppPurchaseAvailabilities] : []
        let pointResults = try await pager.runPhase(
            try pricePointListings(subscription: ids(of: Self.subscriptions, in: secondResults).first,
                                   inAppPurchase: ids(of: Self.inAppPurchases, in: first).first,
                                   available: ids(of: Self.availableTerritories, in: fourthResults)),
            progress: progress)
        let all = first + secondResults + thirdResults + fourthResults + pointResults
        // Plan availabilities and the offer kinds are listed also when they came with their parents' lists, and
        // when the store has none: `.fetch.json` says fetch asked for them, so the reader takes an absent offer
        // or billing plan as missing, not unknown (DESIGN §5a.15).
        let planIDs = Set(plans + ids(of: Self.planAvailabilities, in: thirdResults))
        let planTally = KindTally(kind: Self.planAvailabilities,
                                  pages: all.filter { $0.kind == Self.planAvailabilities }.reduce(0) { $0 + $1.pages },
                                  resources: planIDs.count)
        return tallies(all, kinds: [
            Self.apps, Self.inAppPurchases, Self.priceSchedules, Self.inAppPurchasePrices,
        ] + iapKinds + [
            Self.groups, Self.subscriptions, Self.subscriptionPrices, Self.introductoryOffers,
        ]) + [planTally] + offers.tallies(all)
            + tallies(all, kinds: [Self.iapOfferPrices, Self.subscriptionOfferPrices, Self.availableTerritories])
            + tallies(all, kinds: pricePoints == nil ? [] : Self.pricePointKinds)
    }

    // MARK: Price points (DESIGN.md §2b `--price-points`, §2c "Price points")

    /// The price points of one subscription and one in-app purchase, for the selected territories:
    /// `GET /v1/subscriptions/{id}/pricePoints` (`subscriptions_pricePoints_getToManyRelated`) and
    /// `GET /v2/inAppPurchases/{id}/pricePoints` (`inAppPurchasesV2_pricePoints_getToManyRelated`), OpenAPI 4.4.1.
    /// Both take `filter[territory]` as a comma-separated list (`style: form, explode: false`) and `limit` up to
    /// 8000, so the territories go into one request and a page holds about ten territories' points (Apple has
    /// about 800 subscription and 900 in-app purchase points per territory): every territory of the App Store
    /// costs about 40 requests of the hourly budget, not 5 pages × 175 territories × 2 kinds. The points of a
    /// territory are the same for every product of a kind (their IDs differ), so one product of each kind
    /// stands for all. A kind the app has no product of is not asked for.
    private func pricePointListings(subscription: String?, inAppPurchase: String?, available: [String]) throws
        -> [Listing]
    {
        guard let pricePoints else { return [] }
        var filter = ""
        switch pricePoints {
        case .all: break
        case .available:
            guard !available.isEmpty else { return [] }
            filter = "filter%5Bterritory%5D=" + Set(available).sorted().map(Self.segment).joined(separator: ",") + "&"
        case .territories(let territories):
            filter = "filter%5Bterritory%5D=" + territories.map(Self.segment).joined(separator: ",") + "&"
        }
        var listings: [Listing] = []
        if let subscription {
            listings.append(try listing(
                Self.subscriptionPricePoints, "subscription-\(subscription)-pricePoints",
                "/v1/subscriptions/\(subscription)/pricePoints?\(filter)include=territory"
                    + "&fields%5BsubscriptionPricePoints%5D=customerPrice,territory&fields%5Bterritories%5D=currency"
                    + "&limit=8000"))
        }
        if let inAppPurchase {
            listings.append(try listing(
                Self.iapPricePoints, "in-app-purchase-\(inAppPurchase)-pricePoints",
                "/v2/inAppPurchases/\(inAppPurchase)/pricePoints?\(filter)include=territory"
                    + "&fields%5BinAppPurchasePricePoints%5D=customerPrice,territory&fields%5Bterritories%5D=currency"
                    + "&limit=8000"))
        }
        return listings
    }

    // MARK: Offers (DESIGN.md §2b "With offers", §4a)

    /// The offers of each kind that came included with their parents' lists (`include=`), by ID.
    struct OfferTally {
        var found: [String: Set<String>] = [:]

        /// The kinds asked for, each counted: pages of their own lists, offers from linkage and lists.
        func tallies(_ results: [ListingResult]) -> [KindTally] {
            AppStoreConnectClient.offerKinds.map { kind in
                let own = results.filter { $0.kind == kind }
                return KindTally(kind: kind, pages: own.reduce(0) { $0 + $1.pages },
                                 resources: found[kind.key, default: []].union(own.flatMap(\.ids)).count)
            }
        }
    }

    /// For one product's offers of one kind: when the product's page carries their linkage (`include=`) and it
    /// fits (fewer than 50, `limit[…]`), the prices of each offer that is not a free trial; otherwise the list of
    /// them on its own (`list`, `limit=200`), whose offers' prices follow in the next phase.
    private func offerListings(_ kind: ResourceKind, type: String, stem: String, linked: [String]?, list: String,
                               listStem: String, freeTrials: Set<String>, tally: inout OfferTally) throws
        -> [Listing]
    {
        guard let linked, linked.count < 50 else {
            let relationship = list.split(separator: "/").last.map(String.init) ?? ""
            return [try listing(kind, "\(listStem)-\(relationship)", list + "?limit=200")]
        }
        tally.found[kind.key, default: []].formUnion(linked)
        return try linked.filter { !freeTrials.contains(type + "/" + $0) }.map {
            try offerPriceListing(type: type, stem: stem, id: $0)
        }
    }

    /// The prices of the offers that lists asked for on their own (in `results`) returned.
    private func offerPriceListings(after results: [ListingResult]) throws -> [Listing] {
        var listings: [Listing] = []
        for result in results where Self.offerKinds.contains(result.kind) {
            guard let (type, stem) = Self.priceTarget(of: result.kind) else { continue }
            for id in result.ids where !result.freeTrials.contains(type + "/" + id) {
                listings.append(try offerPriceListing(type: type, stem: stem, id: id))
            }
        }
        return listings
    }

    /// The offer kinds that have lists of their own.
    static var offerKinds: [ResourceKind] { subscriptionOfferLists.map(\.kind) + [iapOfferCodes] }

    /// The resource type and price-file stem of an offer kind.
    static func priceTarget(of kind: ResourceKind) -> (type: String, stem: String)? {
        if kind == iapOfferCodes { return ("inAppPurchaseOfferCodes", "in-app-purchase-offer-code") }
        return subscriptionOfferLists.first { $0.kind == kind }.map { ($0.type, $0.stem) }
    }

    /// One offer's prices with their price points and territories, one page (an offer has at most one price per
    /// territory; the App Store has 175): `GET /v1/subscriptionPromotionalOffers/{id}/prices`,
    /// `/v1/subscriptionOfferCodes/{id}/prices`, `/v1/winBackOffers/{id}/prices` (`include=subscriptionPricePoint,
    /// territory`) and `/v1/inAppPurchaseOfferCodes/{id}/prices` (`include=pricePoint,territory`), OpenAPI 4.4.1.
    private func offerPriceListing(type: String, stem: String, id: String) throws -> Listing {
        let iap = type == "inAppPurchaseOfferCodes"
        let offer = Self.segment(id)
        return try listing(iap ? Self.iapOfferPrices : Self.subscriptionOfferPrices, "\(stem)-\(offer)-prices",
                           "/v1/\(type)/\(offer)/prices?include=\(iap ? "pricePoint" : "subscriptionPricePoint"),"
                            + "territory&limit=200")
    }

    // MARK: Dates, availability and the app (DESIGN.md §2b "What App Store Connect fetch reads")

    /// IAP price rows with their dates asked for explicitly (FORMATS.md "Current ASC price": rows without them
    /// are otherwise dated from their IDs). `GET /v1/inAppPurchasePriceSchedules/{id}/manualPrices` and
    /// `…/automaticPrices` accept exactly these `fields[inAppPurchasePrices]` values (OpenAPI 4.4.1); the
    /// relationships stay in the list so `include=` still resolves.
    static let inAppPurchasePriceFields =
        "fields%5BinAppPurchasePrices%5D=startDate,endDate,manual,inAppPurchasePricePoint,territory"

    /// `GET /v1/apps/{id}` (`apps_getInstance`) for the app's bundle ID (`app-mismatch`).
    private func appListing(_ app: String) throws -> Listing {
        try listing(Self.apps, "app", "/v1/apps/\(app)?fields%5Bapps%5D=bundleId,name")
    }

    /// `GET /v2/inAppPurchases/{id}/inAppPurchaseAvailability` (`inAppPurchasesV2_inAppPurchaseAvailability_
    /// getToOneRelated`); its territories come from their own list, whole (`include=` stops at 50 of 175).
    private func iapAvailabilityListing(_ iap: String) throws -> Listing {
        try listing(Self.inAppPurchaseAvailabilities, "in-app-purchase-\(iap)-inAppPurchaseAvailability",
                    "/v2/inAppPurchases/\(iap)/inAppPurchaseAvailability")
    }

    /// Each subscription's plan availabilities (API 4.4; `subscriptionAvailability` is deprecated): they come
    /// with the list of subscriptions (`include=planAvailabilities`, at most 50 each; a subscription has one per
    /// plan type). A subscription whose page carries no linkage for them, or a full 50, has them asked for on its
    /// own, whole: `GET /v1/subscriptions/{id}/planAvailabilities` (`subscriptions_planAvailabilities_
    /// getToManyRelated`), appended to `listings`. Returns the IDs the linkage gave.
    private func planAvailabilities(after results: [ListingResult], asking listings: inout [Listing]) throws
        -> [String]
    {
        var plans: [String] = []
        for result in results where result.kind == Self.subscriptions {
            for id in result.ids {
                if let linked = result.related[id]?["planAvailabilities"], linked.count < 50 {
                    plans += linked
                    continue
                }
                let subscription = Self.segment(id)
                listings.append(try listing(Self.planAvailabilities, "subscription-\(subscription)-planAvailabilities",
                                            "/v1/subscriptions/\(subscription)/planAvailabilities?limit=200"))
            }
        }
        return plans
    }

    /// Every availability's `availableTerritories`, whole: `GET /v1/inAppPurchaseAvailabilities/{id}/
    /// availableTerritories` and `GET /v1/subscriptionPlanAvailabilities/{id}/availableTerritories` (limit ≤ 200;
    /// the App Store has 175 storefronts, so one page).
    private func territoryListings(iapAvailabilities: [String], plans: [String]) throws -> [Listing] {
        var listings: [Listing] = []
        for availability in iapAvailabilities.map(Self.segment) {
            listings.append(try listing(
                Self.availableTerritories, "in-app-purchase-availability-\(availability)-availableTerritories",
                "/v1/inAppPurchaseAvailabilities/\(availability)/availableTerritories?limit=200"))
        }
        for plan in plans.map(Self.segment) {
            listings.append(try listing(
                Self.availableTerritories, "subscription-plan-availability-\(plan)-availableTerritories",
                "/v1/subscriptionPlanAvailabilities/\(plan)/availableTerritories?limit=200"))
        }
        return listings
    }

    /// The IDs a phase found of `kind`, each as one URL path segment.
    private func ids(of kind: ResourceKind, in results: [ListingResult]) -> [String] {
        results.filter { $0.kind == kind }.flatMap(\.ids).map(Self.segment)
    }

    private func listing(_ kind: ResourceKind, _ stem: String, _ pathAndQuery: String) throws -> Listing {
        try Listing(kind, stem, base, pathAndQuery, paging: .jsonAPI(base: base))
    }

    /// An ID as one URL path segment, percent-encoded down to the unreserved characters (`PathSegment`; the
    /// pager has already refused `.`, `..` and empty IDs, and `Listing` refuses such a segment from anywhere).
    static func segment(_ id: String) -> String {
        PathSegment.encoded(id)
    }
}
