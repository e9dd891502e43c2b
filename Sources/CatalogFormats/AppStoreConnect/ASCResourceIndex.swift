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
    private var slots = HashSlots()
    /// The hashes of the ids `prefetch` was given (kept for its memory), and what its reads returned, kept so
    /// that the reads are done.
    private var upcoming: [Int] = []
    private var prefetched: UInt64 = 0
    static let prefetchLimit = 4096

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
    mutating func finishAdding() { slots = HashSlots(capacity: 0) }

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

    /// The id's bytes hashed (`HashSlots.hash`), with the type as the seed only from the `typesSharingSeeds`-th
    /// type on. The first types' ids are hashed alone, so that `prefetch` finds their slots without knowing their
    /// types (the benchmark's snapshot of 2,000 products names 14); one id under several of them (an in-app
    /// purchase and its price schedule) is several nodes on one probe sequence, at most `typesSharingSeeds` long.
    /// Every later type seeds its own: a crafted input naming one id under thousands of types spreads over the
    /// table (one sequence of them all made the pooling quadratic: 40,000 such resources took 0.69 s, 20,000 took
    /// 0.23 s).
    static func hash(_ type: TypeID, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        HashSlots.hash(bytes, seed: type.index < typesSharingSeeds ? 0 : UInt64(UInt32(bitPattern: type.index)))
    }

    static let typesSharingSeeds: Int32 = 32

    /// Brings into the cache the slots where the lookups of the ids `forEachID` passes will start (the ids of a
    /// document about to be pooled, hashed as the first types' are). A snapshot of 2,000 products has 1.6 million
    /// nodes, whose slots take 32 MB: lookups were a sixth of the pooling core's time (perf), four fifths of it
    /// waiting for the memory of each new id's first slot; read together (`HashSlots.readFirstSlots`) those waits
    /// overlap. `forEachID` stops when its closure returns false: after `prefetchLimit` ids, whose slots' cache
    /// lines (64 bytes each) stay in a core's cache until the lookups come; a page `fetch` writes has about 600.
    mutating func prefetch(ids forEachID: ((UnsafeBufferPointer<UInt8>) -> Bool) -> Void) {
        upcoming.removeAll(keepingCapacity: true)
        forEachID {
            upcoming.append(Self.hash(TypeID(0), $0))
            return upcoming.count < Self.prefetchLimit
        }
        prefetched ^= slots.readFirstSlots(of: upcoming)
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
