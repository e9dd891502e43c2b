import _CryptoExtras
import Foundation
import JWTKit

/// Credentials generated for one test run, never committed: an App Store Connect key pair (ES256) and a Google
/// service account key pair (RS256), with the private halves written to files as the stores hand them out
/// (`AuthKey_<id>.p8`, a service account JSON whose `token_uri` points at the fake server).
public struct TestCredentials: Sendable {
    /// The App Store Connect key ID.
    public let keyID = "FAKEKEY123"
    /// The App Store Connect issuer ID.
    public let issuerID = "69a6de70-03db-47e3-e053-5b8c7c11a4d1"
    /// The service account.
    public let clientEmail = "catalogcheck@fake-project.iam.gserviceaccount.com"
    /// The `.p8` private key's PEM text (a secret: must never show up in output).
    public let ascPrivateKeyPEM: String
    /// The public half the server verifies with.
    let ascPublicKey: ES256PublicKey
    /// The service account's private key PEM text (a secret).
    public let googlePrivateKeyPEM: String
    /// The public half the token endpoint verifies with.
    let googlePublicKey: JWTKit.Insecure.RSA.PublicKey

    /// Generates both key pairs.
    public init() throws {
        let ecKey = ES256PrivateKey()
        ascPrivateKeyPEM = ecKey.pemRepresentation
        ascPublicKey = ecKey.publicKey
        let rsaKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        googlePrivateKeyPEM = rsaKey.pkcs8PEMRepresentation
        googlePublicKey = try JWTKit.Insecure.RSA.PublicKey(pem: rsaKey.publicKey.pemRepresentation)
    }

    /// Writes `AuthKey_<keyID>.p8` into `folder` with `mode`; returns its path.
    public func writeASCKey(in folder: URL, mode: Int = 0o600) throws -> String {
        let path = folder.appendingPathComponent("AuthKey_\(keyID).p8").path
        try write(ascPrivateKeyPEM, to: path, mode: mode)
        return path
    }

    /// Writes a service account key file whose `token_uri` is `tokenURI` into `folder`; returns its path.
    public func writeServiceAccount(in folder: URL, tokenURI: String, mode: Int = 0o600) throws -> String {
        let object: [String: String] = [
            "type": "service_account", "project_id": "fake-project", "private_key_id": "fakekeyid0001",
            "private_key": googlePrivateKeyPEM, "client_email": clientEmail, "client_id": "100000000000000000001",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": tokenURI,
        ]
        let path = folder.appendingPathComponent("service-account.json").path
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
        try write(String(decoding: data, as: UTF8.self), to: path, mode: mode)
        return path
    }

    private func write(_ text: String, to path: String, mode: Int) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
    }
}
