import Foundation

/// An open-addressing table of dense indices (linear probing), for lookups of keys kept elsewhere (the App Store
/// Connect pool's resources, a YAML mapping's keys): a slot holds an index + 1 (0 when free) beside the low 32 bits
/// of its key's hash, so a probe that misses seldom reads a key, and growing reads none. The slot count is a power
/// of two, at most three quarters full.
struct HashSlots {
    private var slots: [UInt64]
    private var count = 0

    init(capacity: Int = 1024) {
        slots = Array(repeating: 0, count: capacity)
    }

    /// The stored index whose key has `hash` and `matches`, else nil and the free slot to insert it at.
    func find(hash: Int, matches: (Int) -> Bool) -> (index: Int?, slot: Int) {
        let tag = UInt64(UInt32(truncatingIfNeeded: hash))
        let mask = slots.count - 1
        var slot = Int(tag) & mask
        while true {
            let word = slots[slot]
            if word == 0 { return (nil, slot) }
            if word & 0xFFFF_FFFF == tag, matches(Int(word >> 32) - 1) { return (Int(word >> 32) - 1, slot) }
            slot = (slot + 1) & mask
        }
    }

    /// Reads the slot where a lookup of each of `hashes` starts, and returns the slots' words combined: the caller
    /// keeps the result, so that the reads are done. A lookup in a table bigger than the cache waits for its
    /// slot's memory, and the next lookup cannot start before it ends; these reads depend on nothing but the
    /// hashes, so the processor overlaps their waits, and the lookups after find their slots in the cache.
    func readFirstSlots(of hashes: [Int]) -> UInt64 {
        guard !slots.isEmpty else { return 0 }  // A table of no slots (one whose adding is finished).
        let mask = slots.count - 1
        return slots.withUnsafeBufferPointer { slots in
            var sum: UInt64 = 0
            for hash in hashes { sum ^= slots[Int(UInt32(truncatingIfNeeded: hash)) & mask] }
            return sum
        }
    }

    /// Stores `index` at the free slot `find` returned for `hash`.
    mutating func insert(_ index: Int, hash: Int, at slot: Int) {
        slots[slot] = UInt64(index + 1) << 32 | UInt64(UInt32(truncatingIfNeeded: hash))
        count += 1
        if count * 4 > slots.count * 3 { grow() }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for word in old where word != 0 {
            var slot = Int(word & 0xFFFF_FFFF) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = word
        }
    }

    /// Bytes mixed eight bytes at a time, after `seed` (the ids of prices and price points are base64 of 60 to 120
    /// bytes, looked up a million times in a big snapshot: a byte at a time cost more than the lookup), then
    /// avalanched (MurmurHash3's 64-bit finalizer) so that the low bits, which pick the slot, depend
    /// on every byte.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64 = 0) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = (0xCBF2_9CE4_8422_2325 ^ seed) &* multiplier
        hash ^= UInt64(bytes.count) &* 0xFF51_AFD7_ED55_8CCD
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            var offset = 0
            while offset + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                hash = (hash ^ word) &* multiplier
                hash ^= hash >> 29
                offset += 8
            }
            if offset < bytes.count {
                // The last eight bytes (overlapping the words before) when there are as many; else one by one.
                var tail: UInt64 = 0
                if bytes.count >= 8 {
                    tail = raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
                } else {
                    for index in 0..<bytes.count { tail = tail << 8 | UInt64(base[index]) }
                }
                hash = (hash ^ tail) &* multiplier
            }
        }
        hash ^= hash >> 33
        hash = hash &* 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        hash = hash &* 0xC4CE_B9FE_1A85_EC53
        hash ^= hash >> 33
        return Int(truncatingIfNeeded: hash)
    }
}
