import Crypto
import Foundation

/// SHA-256 (FIPS 180-4), one shot over bytes in memory: what the snapshot manifest records of each page, so that
/// a reader can tell a page from the one `fetch` wrote. One definition serves the writer (`fetch`), `--resume` and
/// the readers alike. swift-crypto's `SHA256` (BoringSSL, hardware SHA instructions where the CPU has them) is
/// already linked into the binary through jwt-kit; a hand-written digest was four times slower, which at App Store
/// Connect's scale (a 170 MB snapshot) costs seconds on every read.
public enum SnapshotDigest {
    /// The digest of `bytes` as 64 lowercase hexadecimal digits.
    public static func sha256(of bytes: UnsafeRawBufferPointer) -> String {
        var text = [UInt8]()
        text.reserveCapacity(64)
        let digits = Array("0123456789abcdef".utf8)
        for byte in SHA256.hash(data: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The SHA-256 of `data`, 64 lowercase hexadecimal digits.
    public static func sha256(of data: Data) -> String {
        data.withUnsafeBytes { sha256(of: $0) }
    }
}
