import _CryptoExtras
import Foundation

/// A Google service account key file (JSON, as the Cloud console downloads it).
public struct GoogleServiceAccount: Sendable {
    /// `client_email`: the account, as the Play Console lists it under Users and permissions.
    public let clientEmail: String
    /// `private_key_id`: the JWT's `kid`.
    let privateKeyID: String?
    /// `token_uri`: where the signed assertion is exchanged for an access token.
    let tokenURI: URL
    /// `token_uri` as the key file writes it: the assertion's audience, character for character.
    let tokenURIText: String
    let key: _RSA.Signing.PrivateKey
    /// `private_key`'s PEM text, so that a store's error text quoting it is redacted.
    let pem: String

    /// Reads the key file; the second value is a warning when the file is readable by others.
    public static func load(path: String) throws(FetchError) -> (account: GoogleServiceAccount, warning: String?) {
        let file = try KeyFile.read(path, what: "service account key file")
        guard let object = try? JSONSerialization.jsonObject(with: Data(file.text.utf8)) as? [String: Any] else {
            throw FetchError.credentials("the service account key file \(path) is not a JSON object")
        }
        func field(_ name: String) throws(FetchError) -> String {
            guard let value = object[name] as? String, !value.isEmpty else {
                throw FetchError.credentials("the service account key file \(path) has no \"\(name)\"")
            }
            return value
        }
        guard (object["type"] as? String) == "service_account" else {
            throw FetchError.credentials("""
                the key file \(path) is not a service account key ("type": "service_account"); \
                create a JSON key for a service account in the Google Cloud console
                """)
        }
        let email = try field("client_email")
        let tokenText = try field("token_uri")
        guard let tokenURI = URL(string: tokenText), KeyFile.isTrusted(tokenURI) else {
            throw FetchError.credentials(
                "the service account key file \(path): token_uri \(tokenText) is not an https URL")
        }
        let key: _RSA.Signing.PrivateKey
        let pem = try field("private_key")
        do {
            // The key file's `private_key` is a PKCS #8 PEM ("-----BEGIN PRIVATE KEY-----"); swift-crypto reads it
            // and PKCS #1's "RSA PRIVATE KEY", and refuses a key under 2,048 bits.
            key = try _RSA.Signing.PrivateKey(pemRepresentation: pem)
        } catch {
            throw FetchError.credentials(
                "the service account key file \(path): private_key is not a PEM RSA private key")
        }
        let account = GoogleServiceAccount(clientEmail: email, privateKeyID: object["private_key_id"] as? String,
                                           tokenURI: tokenURI, tokenURIText: tokenText, key: key, pem: pem)
        return (account, file.warning)
    }
}

/// The claims of a service account's token request (RFC 7523). Google, "Using OAuth 2.0 for Server to Server
/// Applications", "Forming the JWT claim set": `iss` "The email address of the service account"; `scope` "A
/// space-delimited list of the permissions that the application requests"; `aud` "A descriptor of the intended
/// target of the assertion. When making an access token request this value is always
/// https://oauth2.googleapis.com/token" (the key file's `token_uri`); `exp` "The expiration time of the
/// assertion, specified as seconds since 00:00:00 UTC, January 1, 1970. This value has a maximum of 1 hour
/// after the issued time"; `iat` "The time the assertion was issued, specified as seconds since 00:00:00 UTC,
/// January 1, 1970". The header is `{"alg":"RS256","typ":"JWT"}` ("Service accounts rely on the RSA SHA-256
/// algorithm and the JWT token format").
enum GoogleAssertionClaims {
    /// The claims of an assertion by `account` for `scope`, issued at `issued` (whole seconds), valid `lifetime`.
    static func claims(account: GoogleServiceAccount, scope: String, issued: Date, lifetime: TimeInterval)
        -> [String: CompactJWT.Value]
    {
        ["iss": .string(account.clientEmail), "scope": .string(scope), "aud": .string(account.tokenURIText),
         "iat": .integer(epochSeconds(issued)), "exp": .integer(epochSeconds(issued.addingTimeInterval(lifetime)))]
    }
}

/// Exchanges an RS256 assertion for an OAuth access token at the key file's `token_uri`, and again when the
/// token has less than 5 minutes left.
actor GoogleAccessToken {
    /// The Play Developer API's scope.
    static let scope = "https://www.googleapis.com/auth/androidpublisher"
    /// An assertion's lifetime: Google's maximum.
    static let assertionLifetime: TimeInterval = 3600
    private let account: GoogleServiceAccount
    private let session: APISession
    private let now: @Sendable () -> Date
    private var cache = CachedToken()
    private var exchange: Task<String, any Error>?

    init(account: GoogleServiceAccount, session: APISession, now: @escaping @Sendable () -> Date = { Date() }) async {
        self.account = account
        self.session = session
        self.now = now
        session.redactor.addKeyMaterial(pem: account.pem)
    }

    /// `Bearer <access token>`. Concurrent callers share one exchange.
    func authorization() async throws -> String {
        if let header = cache.header(at: now()) { return header }
        if let exchange { return try await exchange.value }
        let task = Task { try await self.exchangeAssertion() }
        exchange = task
        defer { exchange = nil }
        return try await task.value
    }

    private func exchangeAssertion() async throws -> String {
        let now = wholeSeconds(self.now())
        let claims = GoogleAssertionClaims.claims(account: account, scope: Self.scope, issued: now,
                                                  lifetime: Self.assertionLifetime)
        let assertion: String
        do {
            assertion = try CompactJWT.sign(claims, keyID: account.privateKeyID, with: .rs256(account.key))
        } catch {
            throw FetchError.credentials("cannot sign a token request with the service account \(account.clientEmail)")
        }
        session.redactor.add(assertion)
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "grant_type", value: "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                           URLQueryItem(name: "assertion", value: assertion)]
        let request = HTTPRequest(method: "POST", url: account.tokenURI,
                                  headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                                  body: Data((form.percentEncodedQuery ?? "").utf8))
        let response: HTTPResponse
        do {
            response = try await session.send(request)
        } catch let FetchError.rejected(request, status, detail) where status == 400 {
            // OAuth answers a bad or revoked key, or an assertion outside its time window, with 400 invalid_grant.
            throw FetchError.refused(request: request, store: "Google's token endpoint",
                                     credential: "the service account \(account.clientEmail)", status: status,
                                     reason: detail,
                                     advice: "check that the key file is current, its key not deleted, and that "
                                         + "this machine's clock is right")
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let token = object["access_token"] as? String, !token.isEmpty else {
            throw FetchError.malformed(request: "POST \(account.tokenURI.absoluteString)",
                                       reason: "the answer holds no access_token")
        }
        session.redactor.add(token)
        let lifetime = (object["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        return cache.store(token, expires: now.addingTimeInterval(lifetime))
    }
}
