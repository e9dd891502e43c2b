import Foundation

/// A dense index into one of the pool's tables, typed by the table so indices of different tables do not mix.
struct DenseID<Table>: Hashable {
    let index: Int32

    init(_ index: Int) { self.index = Int32(truncatingIfNeeded: index) }
}

enum NodeTable {}
enum TypeTable {}
enum RelationshipTable {}
enum DocumentTable {}
enum MarkTable {}

/// A pooled resource: its index in `ASCResourcePool.nodes`.
typealias NodeID = DenseID<NodeTable>
/// An interned resource type name (`subscriptions`, `territories`, …).
typealias TypeID = DenseID<TypeTable>
/// An interned relationship name (`manualPrices`, the last segment of a `links.self`, …).
typealias RelationshipID = DenseID<RelationshipTable>
/// A file read into the pool (whether it holds one document or an array of them): its index in `ASCMarks.paths`.
typealias DocumentID = DenseID<DocumentTable>
/// A place in the input that a location may be asked for (`ASCMarks`).
typealias MarkID = DenseID<MarkTable>

/// Interns names as dense integers: each distinct name is stored once, and records compare integers.
struct NameTable {
    private(set) var names: [String] = []
    private var numbers: [String: Int] = [:]

    /// The number of a name, if it has been interned.
    func number(_ name: String) -> Int? { numbers[name] }

    /// The number of a name, interning it on first use.
    mutating func intern(_ name: String) -> Int {
        if let known = numbers[name] { return known }
        numbers[name] = names.count
        names.append(name)
        return names.count - 1
    }
}

/// The numbers of the names met first, by their UTF-8 bytes: real input names a few dozen types and
/// relationships, each a million times, and a comparison of bytes costs less than a `String` and its hash. The
/// names' bytes are kept one after another in one array, so a lookup reads plain memory (an array of arrays cost
/// a reference count for each name it passed).
struct NameBytesCache {
    private var bytes: [UInt8] = []
    private var names: [(start: Int, count: Int, number: Int)] = []
    /// A crafted input with thousands of names looks the rest up by `String`.
    private static let limit = 64

    /// The number of a name's bytes, if cached.
    func number(_ name: UnsafeBufferPointer<UInt8>) -> Int? {
        bytes.withUnsafeBufferPointer { stored in
            names.withUnsafeBufferPointer { names in
                for known in names where known.count == name.count {
                    guard let base = stored.baseAddress, let other = name.baseAddress else { return known.number }
                    if memcmp(base + known.start, other, name.count) == 0 { return known.number }
                }
                return nil
            }
        }
    }

    mutating func add(_ name: UnsafeBufferPointer<UInt8>, _ number: Int) {
        guard names.count < Self.limit else { return }
        names.append((bytes.count, name.count, number))
        bytes.append(contentsOf: name)
    }
}
