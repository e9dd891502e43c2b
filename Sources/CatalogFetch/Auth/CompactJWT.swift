import Crypto
import _CryptoExtras
import Foundation

/// A JSON Web Token signed by one of the stores' two algorithms, in JWS compact serialization: RFC 7515 §7.1,
/// `BASE64URL(header) "." BASE64URL(claims) "." BASE64URL(signature)`, the signature over the ASCII of the first
/// two parts and the dot (§5.1), base64url without padding (§2). swift-crypto signs; this only lays the token out,
/// so the release binary needs no JWT library (jwt-kit and the swift-certificates it brings took 90 s of CPU in each
/// clean release build). The fake stores in the tests verify each token with jwt-kit, an implementation of its own.
enum CompactJWT {
    /// How a token is signed.
    enum Signer: Sendable {
        /// ES256, App Store Connect's only algorithm ("All JWTs for App Store Connect API must be signed with
        /// ES256 encryption", Apple, "Generating Tokens for API Requests"). RFC 7518 §3.4: the signature is R and S
        /// as 32-byte big-endian octet sequences, concatenated (64 bytes), not DER: `rawRepresentation`.
        case es256(P256.Signing.PrivateKey)
        /// RS256 (RSASSA-PKCS1-v1_5 with SHA-256, RFC 7518 §3.3), what Google's service accounts sign with
        /// ("Service accounts rely on the RSA SHA-256 algorithm", Google, "Using OAuth 2.0 for Server to Server
        /// Applications").
        case rs256(_RSA.Signing.PrivateKey)

        var algorithm: String {
            switch self {
            case .es256: "ES256"
            case .rs256: "RS256"
            }
        }
    }

    /// A claim's value: a JSON string, or a JSON integer (the stores' times are whole seconds since the epoch).
    enum Value: Encodable {
        case string(String)
        case integer(Int64)

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let text): try container.encode(text)
            case .integer(let number): try container.encode(number)
            }
        }
    }

    /// The signed token. The header holds `alg`, `kid` when given, and `typ: JWT`; both objects are written with
    /// sorted keys, so the same claims give the same text.
    static func sign(_ claims: [String: Value], keyID: String?, with signer: Signer) throws -> String {
        var header: [String: Value] = ["alg": .string(signer.algorithm), "typ": .string("JWT")]
        if let keyID { header["kid"] = .string(keyID) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let signingInput = try base64URL(encoder.encode(header)) + "." + base64URL(encoder.encode(claims))
        let data = Data(signingInput.utf8)
        let signature: Data
        switch signer {
        case .es256(let key):
            signature = try key.signature(for: data).rawRepresentation
        case .rs256(let key):
            signature = try key.signature(for: data, padding: .insecurePKCS1v1_5).rawRepresentation
        }
        return signingInput + "." + base64URL(signature)
    }

    /// RFC 7515 §2: base64 with `-` and `_` for `+` and `/`, no `=` padding.
    static func base64URL(_ data: Data) -> String {
        var text = data.base64EncodedString()
        text = text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }
}
