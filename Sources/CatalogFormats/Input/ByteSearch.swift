import Foundation

/// Whether bytes hold a byte string: each place of its first byte (`memchr`, vectorized) compared with it
/// (`memcmp`). Foundation's `contains` goes through CFString, and the byte search `[UInt8]` gets from
/// FoundationEssentials is generic: each costs 8 M instructions or more on a 64 KiB head (callgrind), this one a
/// few thousand.
enum ByteSearch {
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        firstOffset(of: part, in: bytes) != nil
    }

    /// The offset of the first place `part` is in `bytes`; 0 for an empty part, nil when it is nowhere.
    static func firstOffset(of part: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = part.first, let needle = part.baseAddress else { return 0 }
        guard part.count <= bytes.count, let base = bytes.baseAddress else { return nil }
        let last = bytes.count - part.count
        var start = 0
        while start <= last, let found = memchr(base + start, Int32(first), last - start + 1) {
            let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, needle, part.count) == 0 { return offset }
            start = offset + 1
        }
        return nil
    }

    /// The UTF-8 offset of the first place `part` is in `text` (the generic `firstRange(of:)` of the standard
    /// library allocates a searcher each time: 6 % of the time of a 10,000-purchase snapshot, run per page).
    static func firstOffset(of part: StaticString, in text: String) -> Int? {
        var text = text
        return text.withUTF8 { bytes in
            firstOffset(of: UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount), in: bytes)
        }
    }
}
