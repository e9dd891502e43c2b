import Foundation
import JWTKit

/// An App Store Connect API key: key ID, issuer ID and the `.p8` private key (ES256).
public struct AppStoreConnectCredentials: Sendable {
    /// The key ID (`kid`), shown in App Store Connect next to the key.
    public let keyID: String
    /// The team's issuer ID (`iss`).
    public let issuerID: String
    let key: ES256PrivateKey

    /// Reads the private key file; the second value is a warning when the file is readable by others.
    public static func load(keyID: String, issuerID: String, privateKeyPath: String)
        throws(FetchError) -> (credentials: AppStoreConnectCredentials, warning: String?)
    {
        let file = try KeyFile.read(privateKeyPath, what: "private key file")
        let key: ES256PrivateKey
        do {
            key = try ES256PrivateKey(pem: file.text)
        } catch {
            throw FetchError.credentials("""
                the private key file \(privateKeyPath) does not hold a PEM EC P-256 private key \
                (the AuthKey_\(keyID).p8 App Store Connect lets you download once)
                """)
        }
        return (AppStoreConnectCredentials(keyID: keyID, issuerID: issuerID, key: key), file.warning)
    }
}

/// The claims App Store Connect asks for: issuer ID, issued-at, expiry, audience `appstore-connect-v1`.
public struct AppStoreConnectClaims: JWTPayload {
    /// The issuer ID.
    public var iss: IssuerClaim
    /// When the token was signed.
    public var iat: IssuedAtClaim
    /// When it expires (at most 20 minutes later).
    public var exp: ExpirationClaim
    /// `appstore-connect-v1`.
    public var aud: AudienceClaim

    /// Checks the expiry.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// A bearer header and when its token expires; a new one is made when less than 5 minutes are left.
struct CachedToken {
    private var current: (header: String, expires: Date)?

    /// The header, while it has more than 5 minutes left at `now`.
    func header(at now: Date) -> String? {
        guard let current, current.expires.timeIntervalSince(now) > 5 * 60 else { return nil }
        return current.header
    }

    /// Keeps `Bearer <token>` until `expires`; returns the header.
    mutating func store(_ token: String, expires: Date) -> String {
        current = ("Bearer " + token, expires)
        return "Bearer " + token
    }
}

/// Signs App Store Connect JWTs (ES256, `kid` header, 20-minute lifetime) and signs a new one when the current
/// one has less than 5 minutes left, so a long fetch never sends an expired token.
actor AppStoreConnectToken {
    /// Apple's longest accepted lifetime.
    static let lifetime: TimeInterval = 20 * 60
    private let credentials: AppStoreConnectCredentials
    private let keys: JWTKeyCollection
    private var cache = CachedToken()

    init(credentials: AppStoreConnectCredentials) async {
        self.credentials = credentials
        keys = await JWTKeyCollection().add(ecdsa: credentials.key, kid: JWKIdentifier(string: credentials.keyID))
    }

    /// `Bearer <JWT>`.
    func authorization() async throws -> String {
        let now = Date()
        if let header = cache.header(at: now) { return header }
        let expires = now.addingTimeInterval(Self.lifetime)
        let claims = AppStoreConnectClaims(iss: IssuerClaim(value: credentials.issuerID),
                                           iat: IssuedAtClaim(value: now), exp: ExpirationClaim(value: expires),
                                           aud: AudienceClaim(value: "appstore-connect-v1"))
        var header = JWTHeader()
        header.typ = "JWT"
        let token: String
        do {
            token = try await keys.sign(claims, kid: JWKIdentifier(string: credentials.keyID), header: header)
        } catch {
            throw FetchError.credentials("cannot sign an App Store Connect token with the key \(credentials.keyID)")
        }
        return cache.store(token, expires: expires)
    }
}
