import Foundation
import JWTKit

/// A Google service account key file (JSON, as the Cloud console downloads it).
public struct GoogleServiceAccount: Sendable {
    /// `client_email`: the account, as the Play Console lists it under Users and permissions.
    public let clientEmail: String
    /// `private_key_id`: the JWT's `kid`.
    let privateKeyID: String?
    /// `token_uri`: where the signed assertion is exchanged for an access token.
    let tokenURI: URL
    let key: Insecure.RSA.PrivateKey

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
        let key: Insecure.RSA.PrivateKey
        do {
            key = try Insecure.RSA.PrivateKey(pem: try field("private_key"))
        } catch let error as FetchError {
            throw error
        } catch {
            throw FetchError.credentials(
                "the service account key file \(path): private_key is not a PEM RSA private key")
        }
        let account = GoogleServiceAccount(clientEmail: email, privateKeyID: object["private_key_id"] as? String,
                                           tokenURI: tokenURI, key: key)
        return (account, file.warning)
    }
}

/// The claims of a service account's token request (RFC 7523): the account, the scope, the token endpoint.
public struct GoogleAssertionClaims: JWTPayload {
    /// The service account's e-mail.
    public var iss: IssuerClaim
    /// The API scope asked for.
    public var scope: String
    /// The token endpoint (`token_uri`).
    public var aud: AudienceClaim
    /// When the assertion was signed.
    public var iat: IssuedAtClaim
    /// When it expires (an hour later).
    public var exp: ExpirationClaim

    /// Checks the expiry.
    public func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}

/// Exchanges an RS256 assertion for an OAuth access token at the key file's `token_uri`, and again when the
/// token has less than 5 minutes left.
actor GoogleAccessToken {
    /// The Play Developer API's scope.
    static let scope = "https://www.googleapis.com/auth/androidpublisher"
    private let account: GoogleServiceAccount
    private let session: APISession
    private let keys: JWTKeyCollection
    private var cache = CachedToken()
    private var exchange: Task<String, any Error>?

    init(account: GoogleServiceAccount, session: APISession) async {
        self.account = account
        self.session = session
        keys = await JWTKeyCollection().add(rsa: account.key, digestAlgorithm: .sha256,
                                            kid: account.privateKeyID.map { JWKIdentifier(string: $0) })
    }

    /// `Bearer <access token>`. Concurrent callers share one exchange.
    func authorization() async throws -> String {
        if let header = cache.header(at: Date()) { return header }
        if let exchange { return try await exchange.value }
        let task = Task { try await self.exchangeAssertion() }
        exchange = task
        defer { exchange = nil }
        return try await task.value
    }

    private func exchangeAssertion() async throws -> String {
        let now = Date()
        let claims = GoogleAssertionClaims(iss: IssuerClaim(value: account.clientEmail), scope: Self.scope,
                                           aud: AudienceClaim(value: account.tokenURI.absoluteString),
                                           iat: IssuedAtClaim(value: now),
                                           exp: ExpirationClaim(value: now.addingTimeInterval(3600)))
        var header = JWTHeader()
        header.typ = "JWT"
        let assertion: String
        do {
            assertion = try await keys.sign(claims, header: header)
        } catch {
            throw FetchError.credentials("cannot sign a token request with the service account \(account.clientEmail)")
        }
        var form = URLComponents()
        form.queryItems = [URLQueryItem(name: "grant_type", value: "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                           URLQueryItem(name: "assertion", value: assertion)]
        let request = HTTPRequest(method: "POST", url: account.tokenURI,
                                  headers: [(name: "Content-Type", value: "application/x-www-form-urlencoded")],
                                  body: Data((form.percentEncodedQuery ?? "").utf8))
        let response: HTTPResponse
        do {
            response = try await session.send(request)
        } catch let FetchError.rejected(_, status, detail) where status == 400 {
            // OAuth answers a bad or revoked key with 400 invalid_grant.
            throw FetchError.refused(store: "Google's token endpoint",
                                     credential: "the service account \(account.clientEmail)", status: status,
                                     advice: (detail.map { "\($0); " } ?? "")
                                         + "check that the key file is current and its key not deleted")
        }
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
              let token = object["access_token"] as? String, !token.isEmpty else {
            throw FetchError.malformed(request: "POST \(account.tokenURI.absoluteString)",
                                       reason: "the answer holds no access_token")
        }
        let lifetime = (object["expires_in"] as? NSNumber)?.doubleValue ?? 3600
        return cache.store(token, expires: now.addingTimeInterval(lifetime))
    }
}
