import Foundation

/// Fetches what the `play-json` reader reads for one package, every page, each response written unchanged:
/// `monetization.subscriptions` (base plans and regional prices), their offers (`subscriptions/-/basePlans/-/
/// offers`: every offer of the app), the legacy `inappproducts`, and `monetization.onetimeproducts` with their
/// purchase options. Google answers an empty list with `{}`; that page is written too.
public struct PlayClient: Sendable {
    /// The real API's scheme and host.
    public static let apiHost = "https://androidpublisher.googleapis.com"

    static let subscriptions = ResourceKind(key: "subscriptions", label: "subscriptions")
    static let offers = ResourceKind(key: "subscriptionOffers", label: "subscription offers")
    static let inAppProducts = ResourceKind(key: "inappproducts", label: "in-app products (legacy)")
    static let oneTimeProducts = ResourceKind(key: "oneTimeProducts", label: "one-time products")

    let packageName: String
    let base: URL
    let session: APISession
    let token: GoogleAccessToken
    let progress: FetchProgress

    /// Creates a client for `packageName` at `base` (the real API's `apiHost`, or a test server).
    public init(account: GoogleServiceAccount, packageName: String, base: URL, transport: any HTTPTransport,
                policy: RetryPolicy, progress: FetchProgress) async {
        self.packageName = packageName
        self.base = base
        self.progress = progress
        let session = APISession(transport: transport, policy: policy, progress: progress) { status in
            .refused(store: "Google Play", credential: "the service account \(account.clientEmail)", status: status,
                     advice: """
                        check that the Play Console lists it under Users and permissions with access to \(packageName) \
                        ("View app information" and "View financial data") and that the Play Developer API is enabled
                        """)
        }
        self.session = session
        token = await GoogleAccessToken(account: account, session: session)
    }

    /// Fetches every page into `writer`; returns the counts per kind.
    public func fetch(into writer: SnapshotWriter) async throws -> [KindTally] {
        let token = self.token
        let root = "/androidpublisher/v3/applications/\(AppStoreConnectClient.segment(packageName))"
        let listings = [
            try Listing(Self.subscriptions, "subscriptions", base, root + "/subscriptions?pageSize=1000",
                        paging: .google(listKey: "subscriptions", parameter: "pageToken")),
            try Listing(Self.offers, "subscription-offers", base,
                        root + "/subscriptions/-/basePlans/-/offers?pageSize=1000",
                        paging: .google(listKey: "subscriptionOffers", parameter: "pageToken")),
            try Listing(Self.inAppProducts, "inappproducts", base, root + "/inappproducts",
                        paging: .google(listKey: "inappproduct", parameter: "token")),
            try Listing(Self.oneTimeProducts, "onetimeproducts", base, root + "/oneTimeProducts?pageSize=1000",
                        paging: .google(listKey: "oneTimeProducts", parameter: "pageToken")),
        ]
        let pager = Pager(session: session, writer: writer, authorization: { try await token.authorization() })
        let results = try await pager.runPhase(listings, progress: progress)
        return tallies(results, kinds: listings.map(\.kind))
    }
}
