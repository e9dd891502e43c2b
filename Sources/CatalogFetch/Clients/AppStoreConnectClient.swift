import Foundation

/// Fetches what the `asc-json` reader reads for one app, every page (`links.next`), each response written
/// unchanged: the app's in-app purchases (`/v1/apps/{id}/inAppPurchasesV2`), their price schedules and manual
/// and automatic prices with price points and territories; the app's subscription groups, their
/// subscriptions, each subscription's prices (current and scheduled) with price points and territories, and its
/// introductory offers. Availability is the resources' `state`, which these responses carry. Resources are
/// linked by each document's `links.self`, as the reader expects (FORMATS.md).
public struct AppStoreConnectClient: Sendable {
    /// The real API's scheme and host.
    public static let apiHost = "https://api.appstoreconnect.apple.com"

    static let inAppPurchases = ResourceKind(key: "inAppPurchases", label: "in-app purchases")
    static let priceSchedules = ResourceKind(key: "inAppPurchasePriceSchedules", label: "in-app purchase price schedules")
    static let inAppPurchasePrices = ResourceKind(key: "inAppPurchasePrices", label: "in-app purchase prices")
    static let groups = ResourceKind(key: "subscriptionGroups", label: "subscription groups")
    static let subscriptions = ResourceKind(key: "subscriptions", label: "subscriptions")
    static let subscriptionPrices = ResourceKind(key: "subscriptionPrices", label: "subscription prices")
    static let introductoryOffers = ResourceKind(key: "subscriptionIntroductoryOffers", label: "introductory offers")

    let appID: String
    let base: URL
    let session: APISession
    let token: AppStoreConnectToken
    let progress: FetchProgress

    /// Creates a client for `appID` at `base` (the real API's `apiHost`, or a test server).
    public init(credentials: AppStoreConnectCredentials, appID: String, base: URL, transport: any HTTPTransport,
                policy: RetryPolicy, progress: FetchProgress) async {
        self.appID = appID
        self.base = base
        self.progress = progress
        session = APISession(transport: transport, policy: policy, progress: progress) { status in
            .refused(store: "App Store Connect", credential: "the API key \(credentials.keyID)", status: status,
                     advice: status == 403
                        ? "check that the key's role may read the app's in-app purchases (App Manager or Admin) and that \(appID) is the app's Apple ID"
                        : "check the key ID, issuer ID and that the key is not revoked")
        }
        token = await AppStoreConnectToken(credentials: credentials)
    }

    /// Fetches every page into `writer`; returns the counts per kind.
    public func fetch(into writer: SnapshotWriter) async throws -> [KindTally] {
        let token = self.token
        let pager = Pager(session: session, writer: writer, authorization: { try await token.authorization() })
        let paging = Paging.jsonAPI(base: base)
        let app = Self.segment(appID)
        let first = try await pager.runPhase([
            try Listing(Self.inAppPurchases, "in-app-purchases", base, "/v1/apps/\(app)/inAppPurchasesV2?limit=200", paging: paging),
            try Listing(Self.groups, "subscription-groups", base, "/v1/apps/\(app)/subscriptionGroups?limit=200", paging: paging),
        ], progress: progress)
        let iapIDs = first.filter { $0.kind == Self.inAppPurchases }.flatMap(\.ids)
        let groupIDs = first.filter { $0.kind == Self.groups }.flatMap(\.ids)

        var secondListings: [Listing] = []
        for group in groupIDs {
            let id = Self.segment(group)
            secondListings.append(try Listing(Self.subscriptions, "subscription-group-\(id)-subscriptions", base, "/v1/subscriptionGroups/\(id)/subscriptions?limit=200", paging: paging))
        }
        for iap in iapIDs {
            let id = Self.segment(iap)
            secondListings.append(try Listing(Self.priceSchedules, "in-app-purchase-\(id)-iapPriceSchedule", base, "/v2/inAppPurchases/\(id)/iapPriceSchedule", paging: paging))
        }
        let second = try await pager.runPhase(secondListings, progress: progress)

        var thirdListings: [Listing] = []
        for subscription in second.filter({ $0.kind == Self.subscriptions }).flatMap(\.ids) {
            let id = Self.segment(subscription)
            thirdListings.append(try Listing(Self.subscriptionPrices, "subscription-\(id)-prices", base, "/v1/subscriptions/\(id)/prices?include=subscriptionPricePoint,territory&limit=200", paging: paging))
            thirdListings.append(try Listing(Self.introductoryOffers, "subscription-\(id)-introductoryOffers", base, "/v1/subscriptions/\(id)/introductoryOffers?include=territory,subscriptionPricePoint&limit=200", paging: paging))
        }
        for schedule in second.filter({ $0.kind == Self.priceSchedules }).flatMap(\.ids) {
            let id = Self.segment(schedule)
            for relationship in ["manualPrices", "automaticPrices"] {
                thirdListings.append(try Listing(Self.inAppPurchasePrices, "in-app-purchase-price-schedule-\(id)-\(relationship)", base, "/v1/inAppPurchasePriceSchedules/\(id)/\(relationship)?include=inAppPurchasePricePoint,territory&limit=200", paging: paging))
            }
        }
        let third = try await pager.runPhase(thirdListings, progress: progress)
        return tallies(first + second + third, kinds: [
            Self.inAppPurchases, Self.priceSchedules, Self.inAppPurchasePrices, Self.groups, Self.subscriptions,
            Self.subscriptionPrices, Self.introductoryOffers,
        ])
    }

    /// An ID as one URL path segment.
    static func segment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
