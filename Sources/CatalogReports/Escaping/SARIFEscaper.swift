/// Text for SARIF 2.1.0 beyond what JSON encoding does: plain-text messages, where `[text](n)` is an embedded
/// link to a location (§3.11.6), and artifact URIs (RFC 3986 URI references).
public enum SARIFEscaper {
    /// A plain-text message: literal square brackets (and a backslash right before one) are escaped with a
    /// backslash, so catalog text cannot forge a link; control characters become visible `\u{…}` escapes, so
    /// a viewer that prints messages cannot be recolored and one message stays one line.
    public static func message(_ text: String) -> String {
        // Visible escapes (`\u{1B}`) hold no bracket, so making controls visible first changes nothing below.
        let visible = ControlCharacters.makeVisible(text)
        guard visible.unicodeScalars.contains(where: { $0 == "[" || $0 == "]" }) else { return visible }
        var result = ""
        var backslashes = 0
        for scalar in visible.unicodeScalars {
            if scalar == "[" || scalar == "]" {
                // n literal backslashes before a literal bracket: 2n, then the escaped bracket.
                result += String(repeating: "\\", count: backslashes) + "\\"
            }
            backslashes = scalar == "\\" ? backslashes + 1 : 0
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// A path as a URI path: each segment percent-encoded as UTF-8 (everything but RFC 3986's unreserved
    /// characters), the `/` between segments kept. A `:` is encoded too, so a relative reference never reads
    /// as a scheme.
    public static func uriPath(_ path: String) -> String {
        var result = ""
        result.reserveCapacity(path.utf8.count)
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return result
    }
}
