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
