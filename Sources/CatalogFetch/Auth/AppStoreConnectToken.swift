import Crypto
import Foundation

/// An App Store Connect API key: key ID, issuer ID and the `.p8` private key (ES256).
public struct AppStoreConnectCredentials: Sendable {
    /// The key ID (`kid`), shown in App Store Connect next to the key.
    public let keyID: String
    /// The team's issuer ID (`iss`).
    public let issuerID: String
    let key: P256.Signing.PrivateKey
    /// The key file's text, so that a store's error text quoting it is redacted.
    let pem: String

    /// Reads the private key file; the second value is a warning when the file is readable by others.
    public static func load(keyID: String, issuerID: String, privateKeyPath: String)
        throws(FetchError) -> (credentials: AppStoreConnectCredentials, warning: String?)
    {
        let file = try KeyFile.read(privateKeyPath, what: "private key file")
        let key: P256.Signing.PrivateKey
        do {
            // The .p8 file is a PKCS #8 PEM ("-----BEGIN PRIVATE KEY-----"); swift-crypto reads it and SEC 1's
            // "EC PRIVATE KEY", and refuses a key of another curve.
            key = try P256.Signing.PrivateKey(pemRepresentation: file.text)
        } catch {
            throw FetchError.credentials("""
                the private key file \(privateKeyPath) does not hold a PEM EC P-256 private key \
                (the AuthKey_\(keyID).p8 App Store Connect lets you download once)
                """)
        }
        return (AppStoreConnectCredentials(keyID: keyID, issuerID: issuerID, key: key, pem: file.text), file.warning)
    }
}

/// The claims App Store Connect asks for. Apple, "Generating Tokens for API Requests" (App Store Connect API),
/// the payload table: `iss` "Your issuer ID from the API Keys page in App Store Connect"; `iat` "The token's
/// creation time, in UNIX epoch time, for example, 1528407600"; `exp` "The token's expiration time in Unix
/// epoch time. Tokens that expire more than 20 minutes into the future are not valid"; `aud`
/// `appstoreconnect-v1` (no hyphen between "store" and "connect"). Whole seconds, as the example shows.
enum AppStoreConnectClaims {
    /// Apple's audience for every App Store Connect API token.
    static let audience = "appstoreconnect-v1"

    /// The claims of a token issued at `issued` that expires at `expires` (both whole seconds).
    static func claims(issuer: String, issued: Date, expires: Date) -> [String: CompactJWT.Value] {
        ["iss": .string(issuer), "iat": .integer(epochSeconds(issued)), "exp": .integer(epochSeconds(expires)),
         "aud": .string(audience)]
    }
}

/// A bearer header and when its token expires; a new one is made when less than 5 minutes are left.
struct CachedToken {
    /// A token is renewed when less than this is left, so no request (with its retries) outlives it.
    static let renewMargin: TimeInterval = 5 * 60
    private var current: (header: String, expires: Date)?

    /// The header, while it has more than `renewMargin` left at `now`.
    func header(at now: Date) -> String? {
        guard let current, current.expires.timeIntervalSince(now) > Self.renewMargin else { return nil }
        return current.header
    }

    /// Keeps `Bearer <token>` until `expires`; returns the header.
    mutating func store(_ token: String, expires: Date) -> String {
        current = ("Bearer " + token, expires)
        return "Bearer " + token
    }
}

/// `date` cut to whole seconds: JWT times are "seconds since the epoch" in both stores' documentation.
func wholeSeconds(_ date: Date) -> Date {
    Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
}

/// `date`'s whole seconds since the epoch, as a JWT's `iat` and `exp` hold them (RFC 7519 §2, NumericDate).
func epochSeconds(_ date: Date) -> Int64 {
    Int64(date.timeIntervalSince1970.rounded(.down))
}

/// Signs App Store Connect JWTs (ES256, `kid` header, 15-minute lifetime) and signs a new one when the current
/// one has less than 5 minutes left, so a long fetch never sends an expired token.
actor AppStoreConnectToken {
    /// 15 minutes: under Apple's 20-minute ceiling, which Apple measures against its own clock, so a token
    /// from a machine whose clock runs a few minutes fast still passes (at exactly 20 minutes, 1 s fast fails).
    static let lifetime: TimeInterval = 15 * 60
    private let credentials: AppStoreConnectCredentials
    private let redactor: SecretRedactor
    private let now: @Sendable () -> Date
    private var cache = CachedToken()

    init(credentials: AppStoreConnectCredentials, redactor: SecretRedactor,
         now: @escaping @Sendable () -> Date = { Date() }) async {
        self.credentials = credentials
        self.redactor = redactor
        self.now = now
        redactor.addKeyMaterial(pem: credentials.pem)
    }

    /// `Bearer <JWT>`.
    func authorization() async throws -> String {
        let issued = wholeSeconds(now())
        if let header = cache.header(at: issued) { return header }
        let expires = issued.addingTimeInterval(Self.lifetime)
        let claims = AppStoreConnectClaims.claims(issuer: credentials.issuerID, issued: issued, expires: expires)
        let token: String
        do {
            token = try CompactJWT.sign(claims, keyID: credentials.keyID, with: .es256(credentials.key))
        } catch {
            throw FetchError.credentials("cannot sign an App Store Connect token with the key \(credentials.keyID)")
        }
        redactor.add(token)
        return cache.store(token, expires: expires)
    }
}
