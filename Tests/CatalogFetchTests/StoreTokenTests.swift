@testable import CatalogFetch
import Crypto
import FakeStoreServer
import Foundation
import JWTKit
import Testing
import TestSupport

/// A clock a test moves by hand.
private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    init(_ start: Date) { current = start }

    var now: Date { lock.withLock { current } }

    func set(_ date: Date) { lock.withLock { current = date } }
}

/// Answers the token endpoint with an access token and keeps every request body.
private final class TokenEndpoint: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var bodies: [String] = []

    func send(_ request: HTTPRequest, timeout: Duration) async throws(TransportFailure) -> HTTPResponse {
        lock.withLock { bodies.append(String(decoding: request.body ?? Data(), as: UTF8.self)) }
        return HTTPResponse(status: 200, body: Data(#"{"access_token":"ya29.test-token","expires_in":3599}"#.utf8))
    }
}

/// One base64url part of a JWT (RFC 7515 §2: `-` and `_`, no padding) as bytes.
private func decoded(_ piece: Substring) -> Data? {
    var text = piece.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    return Data(base64Encoded: text)
}

/// A JWT's header and payload as JSON text.
private func parts(of token: String) -> (header: String, payload: String) {
    let pieces = token.split(separator: ".").map { String(decoding: decoded($0) ?? Data(), as: UTF8.self) }
    return (pieces.first ?? "", pieces.count > 1 ? pieces[1] : "")
}

/// A JWT's third part, the signature, as bytes.
private func signatureBytes(of token: String) -> Data? {
    let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
    return pieces.count == 3 ? decoded(pieces[2]) : nil
}

/// `text` as a JSON string literal, as `JSONSerialization` writes it into the key file.
private func jsonLiteral(_ text: String) throws -> String {
    let data = try JSONSerialization.data(withJSONObject: [text])
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
}

private func object(_ json: String) -> [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]) ?? [:]
}

/// The tokens fetch signs, held against Apple's "Generating Tokens for API Requests" and Google's "Using
/// OAuth 2.0 for Server to Server Applications" (the fake server's rules quote both).
struct StoreTokenTests {
    /// 2026-05-28T20:26:40.75Z: a clock reading with a fraction, which a JWT must not carry.
    static let start = Date(timeIntervalSince1970: 1_780_000_000.75)

    private func appStoreToken(_ credentials: TestCredentials, clock: TestClock) async throws -> AppStoreConnectToken {
        let folder = try Fixtures.temporaryFolder(suffix: "-token")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try credentials.writeASCKey(in: folder)
        let loaded = try AppStoreConnectCredentials.load(keyID: credentials.keyID, issuerID: credentials.issuerID,
                                                         privateKeyPath: path)
        return await AppStoreConnectToken(credentials: loaded.credentials, redactor: SecretRedactor(),
                                          now: { clock.now })
    }

    @Test func theAppStoreTokenHasApplesAudienceWholeSecondsAndAFifteenMinuteLifetime() async throws {
        let credentials = try TestCredentials()
        let token = try await appStoreToken(credentials, clock: TestClock(Self.start))

        let header = try await token.authorization()

        #expect(header.hasPrefix("Bearer "))
        let jwt = String(header.dropFirst("Bearer ".count))
        let (head, payload) = parts(of: jwt)
        #expect(object(head) as? [String: String] == ["alg": "ES256", "kid": "FAKEKEY123", "typ": "JWT"])
        let claims = object(payload)
        #expect(claims.count == 4)
        #expect(claims["iss"] as? String == credentials.issuerID)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        // Whole seconds in the JSON text itself: no fraction, no exponent.
        #expect(payload.contains(#""iat":1780000000"#) && !payload.contains("1780000000."), "\(payload)")
        #expect(payload.contains(#""exp":1780000900"#) && !payload.contains("1780000900."), "\(payload)")
        #expect(await FakeStoreServer.appleRuleBroken(by: jwt, credentials: credentials, now: Self.start) == nil)
        // RFC 7518 §3.4: ES256's signature is R and S, 32 bytes each, not a DER sequence (70 to 72 bytes).
        #expect(signatureBytes(of: jwt)?.count == 64)
    }

    @Test func aKeyFileOfAnotherKindIsRefusedNamingTheFile() throws {
        let credentials = try TestCredentials()
        let folder = try Fixtures.temporaryFolder(suffix: "-token")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rsaPath = folder.appendingPathComponent("rsa.p8").path
        let p384Path = folder.appendingPathComponent("p384.p8").path
        try Data(credentials.googlePrivateKeyPEM.utf8).write(to: URL(fileURLWithPath: rsaPath))
        try Data(P384.Signing.PrivateKey().pemRepresentation.utf8).write(to: URL(fileURLWithPath: p384Path))
        let servicePath = try credentials.writeServiceAccount(in: folder,
                                                              tokenURI: "https://oauth2.googleapis.com/token")
        let service = try String(contentsOfFile: servicePath, encoding: .utf8)
        try Data(service.replacingOccurrences(of: try jsonLiteral(credentials.googlePrivateKeyPEM),
                                              with: try jsonLiteral(credentials.ascPrivateKeyPEM)).utf8)
            .write(to: URL(fileURLWithPath: servicePath))

        for path in [rsaPath, p384Path] {
            #expect(throws: FetchError.credentials("""
                the private key file \(path) does not hold a PEM EC P-256 private key \
                (the AuthKey_KEY.p8 App Store Connect lets you download once)
                """)) {
                _ = try AppStoreConnectCredentials.load(keyID: "KEY", issuerID: "issuer", privateKeyPath: path)
            }
        }
        #expect(throws: FetchError.credentials(
            "the service account key file \(servicePath): private_key is not a PEM RSA private key")) {
            _ = try GoogleServiceAccount.load(path: servicePath)
        }
    }

    @Test func aClockUpToFiveMinutesFastStillMakesATokenApplesClockAccepts() async throws {
        let credentials = try TestCredentials()
        let token = try await appStoreToken(credentials, clock: TestClock(Self.start.addingTimeInterval(299)))
        let jwt = String(try await token.authorization().dropFirst("Bearer ".count))

        // Apple's clock is 299 s behind ours: exp is 15 min + 299 s into its future, under 20 minutes.
        #expect(await FakeStoreServer.appleRuleBroken(by: jwt, credentials: credentials, now: Self.start) == nil)
        // A clock 301 s fast is more than a 15-minute token absorbs under Apple's 20-minute ceiling.
        #expect(await FakeStoreServer.appleRuleBroken(by: jwt, credentials: credentials,
                                                      now: Self.start.addingTimeInterval(-2))
            == "exp more than 20 minutes into the future")
    }

    @Test func theAppStoreTokenIsRenewedWhenLessThanFiveMinutesAreLeft() async throws {
        let credentials = try TestCredentials()
        let clock = TestClock(Self.start)
        let token = try await appStoreToken(credentials, clock: clock)

        let first = try await token.authorization()
        clock.set(Self.start.addingTimeInterval(599))   // 5 min 1 s left (exp at 900 s, whole seconds)
        let stillFirst = try await token.authorization()
        clock.set(Self.start.addingTimeInterval(600))   // 5 min left: renewed
        let second = try await token.authorization()

        #expect(stillFirst == first)
        #expect(second != first)
        let payload = parts(of: String(second.dropFirst("Bearer ".count))).payload
        #expect(payload.contains(#""iat":1780000600"#) && payload.contains(#""exp":1780001500"#), "\(payload)")
    }

    @Test func theServiceAccountAssertionIsWhatGoogleDocuments() async throws {
        let credentials = try TestCredentials()
        let folder = try Fixtures.temporaryFolder(suffix: "-token")
        defer { try? FileManager.default.removeItem(at: folder) }
        // A token_uri that URL parsing would not keep character for character: the audience is the file's text.
        let tokenURI = "https://oauth2.googleapis.com:443/token"
        let path = try credentials.writeServiceAccount(in: folder, tokenURI: tokenURI)
        let account = try GoogleServiceAccount.load(path: path).account
        let endpoint = TokenEndpoint()
        let session = APISession(transport: endpoint, policy: RetryPolicy(),
                                 progress: FetchProgress(quiet: true, isTerminal: false) { _ in },
                                 refusal: { .refused(request: $0.request, store: "Google", credential: "the account",
                                                     status: $0.status, reason: $0.reason, advice: "check it") })
        let token = await GoogleAccessToken(account: account, session: session, now: { Self.start })

        #expect(try await token.authorization() == "Bearer ya29.test-token")

        #expect(endpoint.bodies.count == 1)
        var form = URLComponents()
        form.percentEncodedQuery = endpoint.bodies.first
        let fields = Dictionary((form.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 })
        #expect(fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer")
        let assertion = fields["assertion"] ?? ""
        let (head, payload) = parts(of: assertion)
        #expect(object(head)["alg"] as? String == "RS256")
        #expect(object(head)["typ"] as? String == "JWT")
        let claims = object(payload)
        #expect(claims["aud"] as? String == tokenURI)
        #expect(claims["iss"] as? String == credentials.clientEmail)
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher")
        #expect(payload.contains(#""iat":1780000000"#) && !payload.contains("1780000000."), "\(payload)")
        #expect(payload.contains(#""exp":1780003600"#) && !payload.contains("1780003600."), "\(payload)")
        #expect(await FakeStoreServer.googleRuleBroken(by: assertion, credentials: credentials, tokenURI: tokenURI,
                                                       now: Self.start) == nil)
        // Every credential of the exchange is known to the redactor.
        #expect(session.redactor.redact("a \(assertion) b ya29.test-token") == "a [redacted] b [redacted]")
    }

    /// Claims as a hand-made token states them, `iat`/`exp` as given (a fraction stays a fraction).
    private struct HandMadeClaims: JWTPayload {
        var iss: String
        var scope: String?
        var aud: String
        var iat: Double
        var exp: Double

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    @Test func theFakeServerRefusesWhatApplesDocumentationRefuses() async throws {
        let credentials = try TestCredentials()
        let keys = await JWTKeyCollection().add(ecdsa: try ES256PrivateKey(pem: credentials.ascPrivateKeyPEM),
                                                kid: JWKIdentifier(string: credentials.keyID))
        let now = Self.start.timeIntervalSince1970.rounded(.down)
        func verdict(aud: String = "appstoreconnect-v1", iat: Double = now, exp: Double = now + 900) async throws
            -> String?
        {
            var header = JWTHeader()
            header.typ = "JWT"
            let token = try await keys.sign(HandMadeClaims(iss: credentials.issuerID, aud: aud, iat: iat, exp: exp),
                                            kid: JWKIdentifier(string: credentials.keyID), header: header)
            return await FakeStoreServer.appleRuleBroken(by: token, credentials: credentials, now: Self.start)
        }

        #expect(try await verdict() == nil)
        #expect(try await verdict(aud: "appstore-connect-v1") == "aud is not appstoreconnect-v1: appstore-connect-v1")
        #expect(try await verdict(iat: now + 0.5) == "iat is not whole seconds")
        #expect(try await verdict(exp: now + 1201) == "exp more than 20 minutes into the future")
        #expect(try await verdict(exp: now) == "expired")
    }

    @Test func theFakeTokenEndpointRefusesWhatGooglesDocumentationRefuses() async throws {
        let credentials = try TestCredentials()
        let keys = await JWTKeyCollection().add(rsa: try Insecure.RSA.PrivateKey(pem: credentials.googlePrivateKeyPEM),
                                                digestAlgorithm: .sha256)
        let tokenURI = "https://oauth2.googleapis.com/token"
        let now = Self.start.timeIntervalSince1970.rounded(.down)
        func verdict(aud: String = tokenURI, iat: Double = now, exp: Double = now + 3600) async throws -> String? {
            var header = JWTHeader()
            header.typ = "JWT"
            let assertion = try await keys.sign(
                HandMadeClaims(iss: credentials.clientEmail, scope: "https://www.googleapis.com/auth/androidpublisher",
                               aud: aud, iat: iat, exp: exp), header: header)
            return await FakeStoreServer.googleRuleBroken(by: assertion, credentials: credentials, tokenURI: tokenURI,
                                                          now: Self.start)
        }

        #expect(try await verdict() == nil)
        #expect(try await verdict(aud: "https://oauth2.googleapis.com/token/")
            == "aud is not the token_uri: https://oauth2.googleapis.com/token/")
        #expect(try await verdict(iat: now + 0.25) == "iat is not whole seconds")
        #expect(try await verdict(exp: now + 3601) == "longer than 1 hour")
    }
}
