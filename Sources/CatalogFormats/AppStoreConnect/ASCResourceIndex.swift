import Foundation

/// The identities of the pooled resources: each node's type, and its id as bytes in one buffer, with an
/// open-addressing table that finds a node by `(type, id)`. A large snapshot has a million resources; a `String`
/// and a dictionary entry each would cost several times the bytes of the ids themselves.
struct ASCResourceIndex {
    /// The type of each node.
    private(set) var types: [TypeID] = []
    /// Node `n`'s id is `idBytes[idStarts[n] ..< idStarts[n + 1]]` (UTF-8).
    private var idBytes: [UInt8] = []
    private var idStarts: [UInt32] = [0]
    /// Node index + 1 per slot, 0 when free; the count is a power of two, at most three quarters full.
    private var slots: [Int32] = Array(repeating: 0, count: 1024)

    var count: Int { types.count }

    func type(of node: NodeID) -> TypeID { types[Int(node.index)] }

    func id(of node: NodeID) -> String {
        String(decoding: idBytes[Int(idStarts[Int(node.index)]) ..< Int(idStarts[Int(node.index) + 1])], as: UTF8.self)
    }

    /// The node of `(type, id)`, and whether it is new.
    mutating func node(type: TypeID, id: String) -> (node: NodeID, isNew: Bool) {
        var id = id
        return id.withUTF8 { bytes in
            let mask = slots.count - 1
            var slot = Self.hash(type, bytes) & mask
            while slots[slot] != 0 {
                let known = NodeID(Int(slots[slot]) - 1)
                if types[Int(known.index)] == type, hasID(known, bytes) { return (known, false) }
                slot = (slot + 1) & mask
            }
            let node = NodeID(types.count)
            types.append(type)
            idBytes.append(contentsOf: bytes)
            idStarts.append(UInt32(truncatingIfNeeded: idBytes.count))
            slots[slot] = Int32(truncatingIfNeeded: types.count)
            if types.count * 4 > slots.count * 3 { grow() }
            return (node, true)
        }
    }

    /// Frees the lookup table once no more nodes are added; types and ids stay.
    mutating func finishAdding() { slots = [] }

    private func hasID(_ node: NodeID, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let range = idRange(node)
        guard range.count == bytes.count else { return false }
        guard let start = bytes.baseAddress else { return true }
        return idBytes.withUnsafeBufferPointer { stored in
            guard let base = stored.baseAddress else { return false }
            return memcmp(base + range.lowerBound, start, range.count) == 0
        }
    }

    private func idRange(_ node: NodeID) -> Range<Int> {
        Int(idStarts[Int(node.index)]) ..< Int(idStarts[Int(node.index) + 1])
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for index in types.indices {
            let node = NodeID(index)
            var slot = idBytes[idRange(node)].withUnsafeBufferPointer { Self.hash(types[index], $0) } & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: index + 1)
        }
    }

    /// FNV-1a over the type and the id's bytes.
    private static func hash(_ type: TypeID, _ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(UInt32(bitPattern: type.index))
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }
}
