import Foundation

/// Fetches what the `asc-json` reader reads for one app, every page (`links.next`), each response written
/// unchanged: the app's in-app purchases (`/v1/apps/{id}/inAppPurchasesV2`), their price schedules and manual
/// and automatic prices with price points and territories; the app's subscription groups, their
/// subscriptions, each subscription's prices (current and scheduled) with price points and territories, and its
/// introductory offers. Availability is the resources' `state`, which these responses carry. Resources are
/// linked by each document's `links.self` and by relationship linkage, as the reader expects (FORMATS.md).
///
/// Apple's hourly budget (`RequestBudget`) makes requests dear, so a related list is asked for with `include=`
/// wherever it fits the parent's page and the reader needs nothing more of it: each in-app purchase's price
/// schedule comes with the list of in-app purchases (no request per in-app purchase), and a subscription whose
/// included `introductoryOffers` linkage is empty has none, so its offers list is not requested.
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

    let appID: String
    let base: URL
    let session: APISession
    let token: AppStoreConnectToken
    let progress: FetchProgress
    let budget: RequestBudget

    /// Creates a client for `appID` at `base` (the real API's `apiHost`, or a test server).
    public init(credentials: AppStoreConnectCredentials, appID: String, base: URL, transport: any HTTPTransport,
                policy: RetryPolicy, progress: FetchProgress) async {
        self.appID = appID
        self.base = base
        self.progress = progress
        let budget = RequestBudget(progress: progress)
        self.budget = budget
        session = APISession(transport: MeteredTransport(inner: transport, budget: budget), policy: policy,
                             progress: progress) { status in
            .refused(store: "App Store Connect", credential: "the API key \(credentials.keyID)", status: status,
                     advice: status == 403
                        ? "check that the key's role may read in-app purchases (App Manager or Admin) and that "
                            + "\(appID) is the app's Apple ID"
                        : "check the key ID, issuer ID and that the key is not revoked")
        }
        token = await AppStoreConnectToken(credentials: credentials)
    }

    /// Fetches every page into `writer`; returns the counts per kind.
    public func fetch(into writer: SnapshotWriter) async throws -> [KindTally] {
        let token = self.token
        var pager = Pager(session: session, writer: writer, authorization: { try await token.authorization() })
        pager.budget = budget
        let app = Self.segment(appID)
        let first = try await pager.runPhase([
            try listing(Self.inAppPurchases, "in-app-purchases",
                        "/v1/apps/\(app)/inAppPurchasesV2?include=iapPriceSchedule&limit=200"),
            try listing(Self.groups, "subscription-groups", "/v1/apps/\(app)/subscriptionGroups?limit=200"),
        ], progress: progress)

        var second: [Listing] = []
        for group in ids(of: Self.groups, in: first) {
            second.append(try listing(Self.subscriptions, "subscription-group-\(group)-subscriptions",
                                      "/v1/subscriptionGroups/\(group)/subscriptions"
                                        + "?include=introductoryOffers&limit=200&limit%5BintroductoryOffers%5D=50"))
        }
        // The schedules came with the in-app purchases (`include=iapPriceSchedule`); an in-app purchase whose page
        // carries no linkage for it at all (the include not honored) has its schedule asked for on its own.
        var schedules: [String] = []
        for result in first where result.kind == Self.inAppPurchases {
            for id in result.ids {
                if let linked = result.related[id]?["iapPriceSchedule"] {
                    schedules += linked
                } else {
                    second.append(try listing(Self.priceSchedules, "in-app-purchase-\(Self.segment(id))-iapPriceSchedule",
                                              "/v2/inAppPurchases/\(Self.segment(id))/iapPriceSchedule"))
                }
            }
        }
        let secondResults = try await pager.runPhase(second, progress: progress)
        schedules += secondResults.filter { $0.kind == Self.priceSchedules }.flatMap(\.ids)

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
        for schedule in schedules.map(Self.segment) {
            for relationship in ["manualPrices", "automaticPrices"] {
                third.append(try listing(
                    Self.inAppPurchasePrices, "in-app-purchase-price-schedule-\(schedule)-\(relationship)",
                    "/v1/inAppPurchasePriceSchedules/\(schedule)/\(relationship)"
                        + "?include=inAppPurchasePricePoint,territory&limit=200"))
            }
        }
        let thirdResults = try await pager.runPhase(third, progress: progress)
        let asked = second.contains { $0.kind == Self.priceSchedules } ? [Self.priceSchedules] : []
        return tallies(first + secondResults + thirdResults, kinds: [Self.inAppPurchases] + asked + [
            Self.inAppPurchasePrices, Self.groups, Self.subscriptions, Self.subscriptionPrices, Self.introductoryOffers,
        ])
    }

    /// The IDs a phase found of `kind`, each as one URL path segment.
    private func ids(of kind: ResourceKind, in results: [ListingResult]) -> [String] {
        results.filter { $0.kind == kind }.flatMap(\.ids).map(Self.segment)
    }

    private func listing(_ kind: ResourceKind, _ stem: String, _ pathAndQuery: String) throws -> Listing {
        try Listing(kind, stem, base, pathAndQuery, paging: .jsonAPI(base: base))
    }

    /// An ID as one URL path segment.
    static func segment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
