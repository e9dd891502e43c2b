import Foundation

/// Whether bytes hold a byte string: each place of its first byte (`memchr`, vectorized) compared with it
/// (`memcmp`). Foundation's `contains` goes through CFString, and the byte search `[UInt8]` gets from
/// FoundationEssentials is generic: each costs 8 M instructions or more on a 64 KiB head (callgrind), this one a
/// few thousand.
enum ByteSearch {
    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ part: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = part.first, let needle = part.baseAddress else { return true }
        guard part.count <= bytes.count, let base = bytes.baseAddress else { return false }
        let last = bytes.count - part.count
        var start = 0
        while start <= last, let found = memchr(base + start, Int32(first), last - start + 1) {
            let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if memcmp(base + offset, needle, part.count) == 0 { return true }
            start = offset + 1
        }
        return false
    }

    static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ part: StaticString) -> Bool {
        contains(bytes, UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount))
    }
}
