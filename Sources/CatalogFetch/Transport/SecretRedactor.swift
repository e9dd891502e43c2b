import Foundation

/// Every credential of one run — each JWT signed, each assertion, each access token received, the key
/// material read — so that a store's error text is shown only with all of them replaced by `[redacted]`
/// (DESIGN.md §2b). A store may quote the request's `Authorization` header back (Play: "Invalid request for
/// token Bearer ya29.…"), so cutting the text short is no protection: whatever the length of the secret or of
/// the text, the secret itself is replaced, before the text is bounded for the terminal.
public final class SecretRedactor: @unchecked Sendable {
    /// What a secret becomes.
    public static let mark = "[redacted]"
    /// The longest store explanation shown, in characters, after redaction: a reason, not a page.
    static let maxLength = 1_000
    /// Shorter strings are not registered: they could match ordinary words (a PEM's last line may be `Zg==`).
    static let minSecretLength = 8

    private let lock = NSLock()
    private var secrets: Set<String> = []

    /// Creates an empty registry.
    public init() {}

    /// Registers a token (JWT, assertion, access token), with its percent-encoded form where that differs.
    public func add(_ secret: String) {
        var forms = [secret]
        if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
            forms.append(encoded)
        }
        lock.withLock {
            for form in forms where form.count >= Self.minSecretLength { secrets.insert(form) }
        }
    }

    /// Registers key material: the PEM text whole, its base64 body joined, and each body line (a store or a
    /// proxy quoting a key would quote it line by line or joined).
    public func addKeyMaterial(pem: String) {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("-----") }
        add(pem)
        add(lines.joined())
        for line in lines { add(line) }
    }

    /// `text` with every registered secret replaced by `[redacted]` (longest first, so a secret that holds
    /// another goes whole), then bounded to `maxLength` characters without cutting a mark in two.
    public func redact(_ text: String) -> String {
        let known = lock.withLock { secrets.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 } }
        var result = text
        for secret in known where result.contains(secret) {
            result = result.replacingOccurrences(of: secret, with: Self.mark)
        }
        guard result.count > Self.maxLength else { return result }
        var cut = result.index(result.startIndex, offsetBy: Self.maxLength)
        // A mark straddling the cut is left out whole.
        for mark in result.ranges(of: Self.mark) where mark.lowerBound < cut && cut < mark.upperBound {
            cut = mark.lowerBound
        }
        return String(result[..<cut]) + "…"
    }
}
