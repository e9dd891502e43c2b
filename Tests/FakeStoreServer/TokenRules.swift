import Foundation
import JWTKit

/// A JWT taken apart without trusting it: its header and payload as JSON text and objects. The numbers are read
/// from the text, so that a fractional `iat` (`1764000000.25`) is told from a whole one.
struct RawJWT {
    let header: [String: Any]
    let payload: [String: Any]
    let payloadText: String

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.decode(parts[0]), let payload = Self.decode(parts[1]),
              let headerObject = try? JSONSerialization.jsonObject(with: header) as? [String: Any],
              let payloadObject = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        self.header = headerObject
        self.payload = payloadObject
        payloadText = String(decoding: payload, as: UTF8.self)
    }

    /// A header field or payload claim as a string.
    func string(_ name: String, inHeader: Bool = false) -> String? {
        (inHeader ? header : payload)[name] as? String
    }

    /// A claim that is a JSON number without fraction or exponent ("seconds since the epoch"); nil otherwise.
    func wholeSeconds(_ name: String) -> Int? {
        guard let key = payloadText.range(of: "\"\(name)\"") else { return nil }
        var rest = payloadText[key.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        guard rest.first == ":" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " || $0 == "\n" || $0 == "\t" }
        let literal = rest.prefix { "0123456789-+.eE".contains($0) }
        return Int(literal)
    }

    /// `aud`, a string or a one-element array (RFC 7519 §4.1.3 allows both).
    var audience: String? {
        if let text = payload["aud"] as? String { return text }
        if let list = payload["aud"] as? [String], list.count == 1 { return list[0] }
        return nil
    }

    private static func decode(_ part: Substring) -> Data? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: text)
    }
}

/// Only the signature is JWTKit's to check; every claim is checked by the rules below, from the raw JSON.
private struct AnyClaims: JWTPayload {
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Apple's rules for an App Store Connect API token, as "Generating Tokens for API Requests" writes them:
/// - header: `alg` "ES256" ("All JWTs for App Store Connect API must be signed with ES256 encryption"), `kid`
///   "Your private key ID from App Store Connect, for example, 2X9R4HXF34", `typ` "JWT";
/// - payload: `iss` "Your issuer ID from the API Keys page in App Store Connect"; `iat` "The token's creation
///   time, in UNIX epoch time, for example, 1528407600"; `exp` "The token's expiration time in Unix epoch time.
///   Tokens that expire more than 20 minutes into the future are not valid"; `aud` "appstoreconnect-v1".
/// "Into the future" is measured on Apple's clock: the server's `now`.
enum AppleTokenRules {
    /// The first rule `token` breaks, in a few words; nil when Apple would accept it.
    static func brokenRule(_ token: String, keys: JWTKeyCollection, credentials: TestCredentials,
                           now: Date) async -> String? {
        guard let jwt = RawJWT(token) else { return "not a JWT" }
        guard jwt.string("alg", inHeader: true) == "ES256" else { return "alg is not ES256" }
        guard jwt.string("kid", inHeader: true) == credentials.keyID else { return "kid is not the key ID" }
        guard jwt.string("typ", inHeader: true) == "JWT" else { return "typ is not JWT" }
        guard (try? await keys.verify(token, as: AnyClaims.self)) != nil else { return "bad signature" }
        guard jwt.string("iss") == credentials.issuerID else { return "iss is not the issuer ID" }
        guard jwt.audience == "appstoreconnect-v1" else {
            return "aud is not appstoreconnect-v1: \(jwt.payload["aud"] ?? "none")"
        }
        guard let issued = jwt.wholeSeconds("iat") else { return "iat is not whole seconds" }
        guard let expires = jwt.wholeSeconds("exp") else { return "exp is not whole seconds" }
        let clock = Int(now.timeIntervalSince1970.rounded(.down))
        guard expires > clock else { return "expired" }
        guard expires <= clock + 20 * 60 else { return "exp more than 20 minutes into the future" }
        guard issued <= expires else { return "iat after exp" }
        return nil
    }
}

/// Google's rules for a service account's token request, as "Using OAuth 2.0 for Server to Server
/// Applications" writes them:
/// - header `{"alg":"RS256","typ":"JWT"}` ("Service accounts rely on the RSA SHA-256 algorithm and the JWT
///   token format");
/// - `iss` "The email address of the service account"; `scope` "A space-delimited list of the permissions that
///   the application requests"; `aud` "A descriptor of the intended target of the assertion. When making an
///   access token request this value is always https://oauth2.googleapis.com/token" — the key file's
///   `token_uri`, here this server's `/token`; `exp` "The expiration time of the assertion, specified as
///   seconds since 00:00:00 UTC, January 1, 1970. This value has a maximum of 1 hour after the issued time";
///   `iat` "The time the assertion was issued, specified as seconds since 00:00:00 UTC, January 1, 1970".
/// A time outside the window is refused with Google's `invalid_grant` "Invalid JWT: Token must be a
/// short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT
/// claim." (Google's token endpoint's words, as users quote them).
enum GoogleAssertionRules {
    static let timeframe = "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable "
        + "timeframe. Check your iat and exp values in the JWT claim."

    /// The first rule `assertion` breaks and Google's description; nil when Google would accept it.
    static func brokenRule(_ assertion: String, keys: JWTKeyCollection, clientEmail: String, tokenURI: String,
                           now: Date) async -> (rule: String, description: String)? {
        guard let jwt = RawJWT(assertion) else { return ("not a JWT", "Invalid JWT Signature.") }
        guard jwt.string("alg", inHeader: true) == "RS256", jwt.string("typ", inHeader: true) == "JWT" else {
            return ("header is not RS256 JWT", "Invalid JWT Signature.")
        }
        guard (try? await keys.verify(assertion, as: AnyClaims.self)) != nil else {
            return ("bad signature", "Invalid JWT Signature.")
        }
        guard jwt.string("iss") == clientEmail else { return ("iss is not the service account", "Invalid JWT Signature.") }
        guard jwt.string("scope") == "https://www.googleapis.com/auth/androidpublisher" else {
            return ("scope is not androidpublisher", "Invalid OAuth scope or ID token audience provided.")
        }
        guard jwt.audience == tokenURI else {
            return ("aud is not the token_uri: \(jwt.payload["aud"] ?? "none")", "Invalid JWT: Failed audience check.")
        }
        guard let issued = jwt.wholeSeconds("iat") else { return ("iat is not whole seconds", timeframe) }
        guard let expires = jwt.wholeSeconds("exp") else { return ("exp is not whole seconds", timeframe) }
        let clock = Int(now.timeIntervalSince1970.rounded(.down))
        guard expires - issued <= 3600, issued <= expires else { return ("longer than 1 hour", timeframe) }
        guard expires > clock else { return ("expired", timeframe) }
        return nil
    }
}

extension FakeStoreServer {
    /// The first of Apple's documented rules `token` breaks for `credentials` on a server whose clock reads
    /// `now`; nil when Apple would accept it. For tests of the client's tokens without a server.
    public static func appleRuleBroken(by token: String, credentials: TestCredentials, now: Date) async -> String? {
        let keys = await JWTKeyCollection()
            .add(ecdsa: credentials.ascPublicKey, kid: JWKIdentifier(string: credentials.keyID))
        return await AppleTokenRules.brokenRule(token, keys: keys, credentials: credentials, now: now)
    }

    /// The first of Google's documented rules `assertion` breaks for `credentials` at `tokenURI` on a server
    /// whose clock reads `now`; nil when Google would accept it.
    public static func googleRuleBroken(by assertion: String, credentials: TestCredentials, tokenURI: String,
                                        now: Date) async -> String? {
        let keys = await JWTKeyCollection().add(rsa: credentials.googlePublicKey, digestAlgorithm: .sha256)
        return await GoogleAssertionRules.brokenRule(assertion, keys: keys, clientEmail: credentials.clientEmail,
                                                     tokenURI: tokenURI, now: now)?.rule
    }
}
