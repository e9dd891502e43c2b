import Foundation

/// The identities of the pooled resources: each node's type, and its id as bytes in one buffer, with an
/// open-addressing table that finds a node by `(type, id)`. A large snapshot has a million resources; a `String`
/// and a dictionary entry each would cost several times the bytes of the ids themselves.
struct ASCResourceIndex {
    /// Node `n`'s type, and where its id starts in `idBytes`; one more entry at the end holds where the next id
    /// would start. A lookup that finds a node reads its type and its id's bounds from one place in memory (in a
    /// table of a million nodes each array read is a cache miss).
    private struct Entry {
        var idStart: UInt32
        var type: TypeID
    }

    /// Node `n`'s id is `idBytes[entries[n].idStart ..< entries[n + 1].idStart]` (UTF-8).
    private var entries = [Entry(idStart: 0, type: TypeID(0))]
    private var idBytes: [UInt8] = []
    private var slots = ASCHashSlots()

    var count: Int { entries.count - 1 }

    func type(of node: NodeID) -> TypeID { entries[Int(node.index)].type }

    func id(of node: NodeID) -> String {
        let index = Int(node.index)
        return String(decoding: idBytes[Int(entries[index].idStart) ..< Int(entries[index + 1].idStart)], as: UTF8.self)
    }

    /// Calls `body` with the UTF-8 bytes of `node`'s id.
    func withID<Result>(of node: NodeID, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let index = Int(node.index)
        let range = Int(entries[index].idStart) ..< Int(entries[index + 1].idStart)
        return idBytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// The node of `(type, id)`, and whether it is new.
    mutating func node(type: TypeID, id: String) -> (node: NodeID, isNew: Bool) {
        var id = id
        return id.withUTF8 { node(type: type, id: $0) }
    }

    /// The node of `(type, id)` (the id's UTF-8 bytes), and whether it is new.
    mutating func node(type: TypeID, id bytes: UnsafeBufferPointer<UInt8>) -> (node: NodeID, isNew: Bool) {
        let hash = Self.hash(type, bytes)
        let found = slots.find(hash: hash) { isNode($0, type: type, id: bytes) }
        if let known = found.index { return (NodeID(known), false) }
        let node = count
        entries[node].type = type
        idBytes.appendGrowingFourfold(contentsOf: bytes)
        entries.appendGrowingFourfold(Entry(idStart: UInt32(truncatingIfNeeded: idBytes.count), type: TypeID(0)))
        slots.insert(node, hash: hash, at: found.slot)
        return (NodeID(node), true)
    }

    /// Frees the lookup table once no more nodes are added; types and ids stay.
    mutating func finishAdding() { slots = ASCHashSlots(capacity: 0) }

    private func isNode(_ node: Int, type: TypeID, id bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        entries.withUnsafeBufferPointer { entries in
            let entry = entries[node]
            guard entry.type == type else { return false }
            let start = Int(entry.idStart)
            guard Int(entries[node + 1].idStart) - start == bytes.count else { return false }
            guard let key = bytes.baseAddress else { return true }
            return idBytes.withUnsafeBufferPointer { stored in
                guard let base = stored.baseAddress else { return false }
                return memcmp(base + start, key, bytes.count) == 0
            }
        }
    }

    /// The type and the id's bytes mixed eight bytes at a time (the ids of prices and price points are base64
    /// of 60 to 120 bytes, looked up a million times in a big snapshot: a byte at a time cost more than the
    /// lookup), then avalanched (MurmurHash3's 64-bit finalizer) so that the low bits, which pick the slot, depend
    /// on every byte.
    static func hash(_ type: TypeID, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        var hash = (0xCBF2_9CE4_8422_2325 ^ UInt64(UInt32(bitPattern: type.index))) &* multiplier
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

/// An open-addressing table of dense indices (linear probing) for the pool's lookups: a slot holds an index + 1
/// (0 when free) beside the low 32 bits of its key's hash, so a probe that misses seldom reads a key, and growing
/// reads none. The slot count is a power of two, at most three quarters full.
struct ASCHashSlots {
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
}

extension Array {
    /// Appends to one of the pool's arrays, which grow to hundreds of megabytes in a big snapshot: grown by
    /// Swift's doubling, each would be copied again and again, and those copies' fresh pages were half the
    /// reading's page faults. Grown fourfold, a third as much is copied; the room not yet used is address
    /// space, not memory.
    mutating func appendGrowingFourfold(_ element: Element) {
        if count == capacity { reserveCapacity(Swift.max(64, count &* 4)) }
        append(element)
    }

    /// Appends `elements`, growing fourfold when they do not fit (`appendGrowingFourfold(_:)`).
    mutating func appendGrowingFourfold(contentsOf elements: UnsafeBufferPointer<Element>) {
        if count + elements.count > capacity { reserveCapacity(Swift.max(64, (count + elements.count) &* 4)) }
        append(contentsOf: elements)
    }
}
