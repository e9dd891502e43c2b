import Foundation

/// Fetches what the `play-json` reader reads for one package, every page, each response written unchanged:
/// `monetization.subscriptions` (base plans and regional prices), their offers (`subscriptions/-/basePlans/-/
/// offers`: every offer of the app), the legacy `inappproducts`, `monetization.onetimeproducts` with their
/// purchase options, and their offers (`oneTimeProducts/-/purchaseOptions/-/offers`: every one-time offer of the
/// app). Google answers an empty list with `{}`; that page is written too. An app on the new
/// one-time-product model gets 403 "Please migrate to the new publishing API" for `inappproducts`: a remark,
/// and the fetch goes on.
public struct PlayClient: Sendable {
    /// The real API's scheme and host.
    public static let apiHost = "https://androidpublisher.googleapis.com"

    static let subscriptions = ResourceKind(key: "subscriptions", label: "subscriptions")
    static let offers = ResourceKind(key: "subscriptionOffers", label: "subscription offers")
    static let inAppProducts = ResourceKind(key: "inappproducts", label: "in-app products (legacy)")
    static let oneTimeProducts = ResourceKind(key: "oneTimeProducts", label: "one-time products")
    static let oneTimeOffers = ResourceKind(key: "oneTimeProductOffers", label: "one-time offers")

    /// Every kind a fetch lists: the one list `fetch play --help` names.
    public static let kinds: [ResourceKind] = [subscriptions, offers, inAppProducts, oneTimeProducts, oneTimeOffers]

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
        let session = APISession(transport: transport, policy: policy, progress: progress) {
            .refused(request: $0.request, store: "Google Play",
                     credential: "the service account \(account.clientEmail)", status: $0.status, reason: $0.reason,
                     advice: Self.advice(for: $0, packageName: packageName))
        }
        self.session = session
        token = await GoogleAccessToken(account: account, session: session)
    }

    /// What Play answers the legacy `inappproducts` list with for an app on the new one-time-product model:
    /// HTTP 403, `PERMISSION_DENIED`, "Please migrate to the new publishing API." (as quoted in
    /// Triple-T/gradle-play-publisher#1174). Such an app's one-time products come from
    /// `monetization.onetimeproducts`, so this is a remark, not a refused credential.
    static let migrateReason = "Please migrate to the new publishing API"

    /// The remark for the legacy list, when `error` is Play's migrate answer; nil for any other error.
    static func migrated(_ error: FetchError) -> String? {
        guard case let .refused(_, _, _, 403, reason?, _) = error, reason.hasPrefix(migrateReason) else { return nil }
        return "Google Play answered the legacy inappproducts list with HTTP 403 \"\(migrateReason).\": this app's "
            + "one-time products are on the new model and come from monetization.onetimeproducts"
    }

    /// What to check when Play refuses a request. Google answers a token it does not accept with 401
    /// `UNAUTHENTICATED` ("Request had invalid authentication credentials."), an API not enabled in the key's
    /// Cloud project with 403 ("… has not been used in project … before or it is disabled"), and an account
    /// without access to the app with 403 `PERMISSION_DENIED` ("The caller does not have permission") or 401
    /// `permissionDenied` ("The current user has insufficient permissions to perform the requested operation.").
    /// Google, "Getting Started" (developers.google.com/android-publisher/getting_started) names the three places
    /// the advice points at: "Enable the Google Play Developer API for your Google Cloud Project", and "Set up a
    /// service account with appropriate Google Play Console permissions" (Play Console, Users and permissions,
    /// invite the service account's email address).
    static func advice(for refusal: StoreRefusal, packageName: String) -> String {
        let reason = refusal.reason ?? ""
        if refusal.code == "SERVICE_DISABLED" || refusal.code == "accessNotConfigured"
            || reason.contains("has not been used in project") {
            return "enable the Google Play Android Developer API in the service account's Google Cloud project"
        }
        if refusal.code == "UNAUTHENTICATED" {
            return "the access token was not accepted: check that the key file is current, its key not deleted and "
                + "the service account not disabled"
        }
        return """
            check that the Play Console lists it under Users and permissions with access to \(packageName) \
            ("View app information" and "View financial data") and that the Play Developer API is enabled
            """
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
                        paging: .google(listKey: "inappproduct", parameter: "token"), remarkInstead: Self.migrated),
            try Listing(Self.oneTimeProducts, "onetimeproducts", base, root + "/oneTimeProducts?pageSize=1000",
                        paging: .google(listKey: "oneTimeProducts", parameter: "pageToken")),
            // `monetization.onetimeproducts.purchaseOptions.offers.list` (discovery revision 20261026): productId
            // "May be specified as '-' to read all offers under an app", purchaseOptionId "Must be specified as '-'
            // if product_id is specified as '-'"; pageSize "The maximum value is 1000". One request per 1,000 offers.
            try Listing(Self.oneTimeOffers, "onetimeproduct-offers", base,
                        root + "/oneTimeProducts/-/purchaseOptions/-/offers?pageSize=1000",
                        paging: .google(listKey: "oneTimeProductOffers", parameter: "pageToken")),
        ]
        let pager = Pager(session: session, writer: writer, authorization: { try await token.authorization() })
        let results = try await pager.runPhase(listings, progress: progress)
        return tallies(results, kinds: listings.map(\.kind))
    }
}
