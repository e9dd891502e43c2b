import CatalogCore
import Foundation

/// One pooled resource (a node of the link graph), known from a resource object or only from identifiers.
struct ASCNode {
    /// Where the resource object first seen starts (the record's location); nil while known only by identifier.
    var definition: MarkID?
    /// The first of its attributes in `ASCResourcePool.attributes`, or -1.
    var firstAttribute: Int32 = -1
}

/// A link between two nodes, seen from one of them.
struct ASCLink: Equatable {
    /// The relationship name (`prices`, `manualPrices`, the last path segment of `links.self`, …).
    let relationship: RelationshipID
    /// The node at the other end.
    let other: NodeID
    /// True when `other` is the child (this node names it), false when it is the parent.
    let isChild: Bool
}

/// Every resource of every document, pooled by `(type, id)`, with the links between them: what the catalog
/// builder reads and nothing else. Documents are added one at a time (`add(_:)`, in `ASCResourcePool+Documents`)
/// and dropped by the caller: of each the pool keeps the resources' identities, the attributes the builder reads
/// (`ASCAttributeName`), as typed values with their places, and the links. `finishReading()` ends the reading.
struct ASCResourcePool {
    private(set) var nodes: [ASCNode] = []
    /// Nodes in the order their resource objects were first seen (the catalog's reading order).
    private(set) var definitionOrder: [NodeID] = []
    private(set) var attributes: [ASCAttribute] = []
    /// Subscriptions whose `introductoryOffers` the input states (relationship `data`, possibly empty, or a
    /// `links.self` document): no offers there means "has none", not "unknown".
    private(set) var statedIntroductoryOffers: Set<NodeID> = []
    /// Availabilities whose `availableTerritories` the input states in full (relationship `data` that is not a
    /// page of a longer list, or a `links.self` document): only these limit where a product is sold.
    private(set) var statedAvailableTerritories: Set<NodeID> = []
    /// The offer relationships (`promotionalOffers`, `offerCodes`, `winBackOffers`) some resource states
    /// (relationship `data`, possibly empty, or a `links.self` document): the input carries that kind of offer.
    private(set) var statedOfferRelationships: Set<String> = []
    /// The first attribute two resource objects of one resource disagree about, if any.
    private(set) var disagreement: ASCDisagreement?
    /// For a resource object seen again, the text of one of its occurrences pooled in full (`isRepeat`): where
    /// it is in `repeatedTexts`.
    private var repeatedText: [NodeID: Range<Int>] = [:]
    private var repeatedTexts: [UInt8] = []
    /// Occurrences longer than this are pooled again in full; texts beyond `repeatedTextsLimit` are not kept.
    private static let repeatedTextLimit = 1024
    private static let repeatedTextsLimit = 4 << 20
    private(set) var marks = ASCMarks()
    private(set) var types = NameTable()
    private var relationships = NameTable()
    /// What each relationship, by `RelationshipID`, tells when a resource states it: compared once, when the name is
    /// interned, not for each of a million relationship objects.
    private var relationshipRoles: [RelationshipRole] = []
    /// The attributes read of each type, by `TypeID`.
    private var attributesOfType: [[ASCAttributeName]] = []
    private(set) var identities = ASCResourceIndex()
    /// The links while reading, in the order they were seen, repeats included (`finishReading()` keeps each
    /// once): a table of the links seen would be looked up at random once per link, a million times in a big
    /// snapshot, where most links are seen once.
    private var edges: [Edge] = []
    /// Types and relationships met so far by their names' bytes: most resources name theirs without a `String`.
    private var typeBytes = NameBytesCache()
    private var relationshipBytes = NameBytesCache()
    /// After reading: node `n`'s links are `links[linkStarts[n] ..< linkStarts[n + 1]]`, in the order seen.
    private var linkStarts: [Int32] = []
    private var links: [ASCLink] = []

    /// The relationships whose statement the pool records (`stateIntroductoryOffers`, `stateOffers`,
    /// `stateAvailableTerritories`).
    private enum RelationshipRole {
        case introductoryOffers, availableTerritories
        /// A relationship that lists a subscription's or an in-app purchase's offers (OpenAPI 4.4.1).
        case offers
        case other

        init(_ name: String) {
            switch name {
            case "introductoryOffers": self = .introductoryOffers
            case "availableTerritories": self = .availableTerritories
            case "promotionalOffers", "offerCodes", "winBackOffers": self = .offers
            default: self = .other
            }
        }
    }

    private struct Edge {
        let parent: NodeID
        let relationship: RelationshipID
        let child: NodeID
    }

    // MARK: Reading

    /// The interned type of a name; `inAppPurchasesV2` is `inAppPurchases`.
    mutating func type(named name: String) -> TypeID {
        let number = types.intern(name == "inAppPurchasesV2" ? "inAppPurchases" : name)
        if number == attributesOfType.count {
            attributesOfType.append(ASCAttributeName.read(ofType: types.names[number]))
        }
        return TypeID(number)
    }

    /// The interned type of a name given as UTF-8 bytes (`type(named:)`).
    mutating func type(utf8 name: UnsafeBufferPointer<UInt8>) -> TypeID {
        if let known = typeBytes.number(name) { return TypeID(known) }
        let type = type(named: String(decoding: name, as: UTF8.self))
        typeBytes.add(name, Int(type.index))
        return type
    }

    /// The interned relationship of a name given as UTF-8 bytes.
    mutating func relationship(utf8 name: UnsafeBufferPointer<UInt8>) -> RelationshipID {
        if let known = relationshipBytes.number(name) { return RelationshipID(known) }
        let relationship = relationship(named: String(decoding: name, as: UTF8.self))
        relationshipBytes.add(name, Int(relationship.index))
        return relationship
    }

    mutating func relationship(named name: String) -> RelationshipID {
        let number = relationships.intern(name)
        if number == relationshipRoles.count { relationshipRoles.append(RelationshipRole(name)) }
        return RelationshipID(number)
    }

    /// Brings into the cache where the nodes of `document`'s resources will be looked up
    /// (`ASCResourceIndex.prefetch`): the values of its `id` members.
    mutating func prefetchNodes(of document: JSONDocument) {
        identities.prefetch { document.forEachString(afterKey: "id", $0) }
    }

    /// The node of a resource, pooled on first use.
    mutating func node(type: TypeID, id: String) -> NodeID { pooled(identities.node(type: type, id: id)) }

    /// The node of a resource whose id is given as UTF-8 bytes, pooled on first use.
    mutating func node(type: TypeID, id: UnsafeBufferPointer<UInt8>) -> NodeID {
        pooled(identities.node(type: type, id: id))
    }

    private mutating func pooled(_ found: (node: NodeID, isNew: Bool)) -> NodeID {
        if found.isNew { nodes.appendGrowingFourfold(ASCNode()) }
        return found.node
    }

    /// Marks the node's resource object as seen at `offset` of the current document, if it is the first.
    mutating func define(_ node: NodeID, at offset: Int) {
        guard nodes[Int(node.index)].definition == nil else { return }
        nodes[Int(node.index)].definition = marks.mark(offset: offset)
        definitionOrder.appendGrowingFourfold(node)
    }

    /// Whether `value`, a resource object of `node`, repeats the very text of an occurrence of `node` pooled in
    /// full before: pooling it again would change nothing (the first value of each attribute is kept and a later
    /// equal one is no disagreement, each link is kept once), so it is not read again. A snapshot lists every
    /// territory in every page of prices and of availability, a third of its resource objects. The first
    /// occurrence is never a repeat; the text of the second is kept, if short, to compare the later ones with.
    mutating func isRepeat(at index: Int, of node: NodeID, in document: JSONDocument) -> Bool {
        guard nodes[Int(node.index)].definition != nil else { return false }
        return document.withTextAndSeparator(ofValueAt: index, limit: Self.repeatedTextLimit) { text in
            guard let text, let base = text.baseAddress else { return false }
            if let known = repeatedText[node] {
                return known.count == text.count && repeatedTexts.withUnsafeBufferPointer { kept in
                    kept.baseAddress.map { memcmp($0 + known.lowerBound, base, text.count) == 0 } ?? false
                }
            }
            if repeatedTexts.count + text.count <= Self.repeatedTextsLimit {
                repeatedText[node] = repeatedTexts.count ..< repeatedTexts.count + text.count
                repeatedTexts.append(contentsOf: text)
            }
            return false
        }
    }

    /// Pools the attributes the builder reads of one `attributes` object: a name's first non-null value. The same
    /// resource in several documents is one record (DESIGN.md §5a.5); a later non-null value that differs from
    /// the first is a damaged input, noted (the first such) for `add(_:)` to throw once both places are known.
    mutating func addAttributes(ofObjectAt object: Int, in document: JSONDocument, to node: NodeID) {
        for name in attributesOfType[Int(identities.type(of: node).index)] {
            guard let index = document.member(named: name.rawValue, of: object),
                  document.kind(at: index) != .null else { continue }
            let value = document.value(at: index)
            if let earlier = attribute(node, name) {
                let later = ASCAttributeValue(value, as: name)
                if disagreement == nil, later != earlier.value {
                    disagreement = ASCDisagreement(node: node, name: name, earlier: earlier,
                                                   later: later, laterMark: marks.mark(offset: value.offset))
                }
                continue
            }
            attributes.appendGrowingFourfold(ASCAttribute(value: ASCAttributeValue(value, as: name), name: name,
                                                          mark: marks.mark(offset: value.offset),
                                                          next: nodes[Int(node.index)].firstAttribute))
            nodes[Int(node.index)].firstAttribute = Int32(attributes.count - 1)
        }
    }

    mutating func stateIntroductoryOffers(_ node: NodeID, relationship: RelationshipID) {
        if relationshipRoles[Int(relationship.index)] == .introductoryOffers {
            statedIntroductoryOffers.insert(node)
        }
    }

    /// Records that the input states some resource's offers of one kind when `relationship` names them.
    mutating func stateOffers(relationship: RelationshipID) {
        if case .offers = relationshipRoles[Int(relationship.index)] {
            statedOfferRelationships.insert(relationships.names[Int(relationship.index)])
        }
    }

    /// Records that the input states `node`'s available territories when `relationship` is them.
    mutating func stateAvailableTerritories(_ node: NodeID, relationship: RelationshipID) {
        if relationshipRoles[Int(relationship.index)] == .availableTerritories {
            statedAvailableTerritories.insert(node)
        }
    }

    mutating func link(_ parent: NodeID, _ relationship: RelationshipID, _ child: NodeID) {
        guard parent != child else { return }
        edges.appendGrowingFourfold(Edge(parent: parent, relationship: relationship, child: child))
    }

    mutating func beginDocument(path: String) -> DocumentID { marks.beginDocument(path: path) }

    mutating func finishDocument(_ source: SourceText) { marks.finishDocument(source) }

    /// Ends the reading: the links are laid out by node (each node's in the order they were first seen, each
    /// once), and what only reading needs is dropped. A territory's own links are left out: the builder goes from
    /// rows, price points and offers to territories, never from a territory, which would hold a link to each of
    /// them.
    mutating func finishReading() {
        identities.finishAdding()
        repeatedText = [:]
        repeatedTexts = []
        typeBytes = NameBytesCache()
        relationshipBytes = NameBytesCache()
        let territories = type("territories")
        func laysOut(_ node: NodeID) -> Bool { identities.type(of: node) != territories }
        var starts = [Int32](repeating: 0, count: nodes.count + 1)
        for edge in edges {
            if laysOut(edge.parent) { starts[Int(edge.parent.index) + 1] += 1 }
            if laysOut(edge.child) { starts[Int(edge.child.index) + 1] += 1 }
        }
        for node in nodes.indices { starts[node + 1] += starts[node] }
        var next = starts
        var laidOut = [ASCLink](repeating: ASCLink(relationship: RelationshipID(0), other: NodeID(0), isChild: true),
                                count: Int(starts[nodes.count]))
        for edge in edges {
            if laysOut(edge.parent) {
                laidOut[Int(next[Int(edge.parent.index)])] = ASCLink(relationship: edge.relationship,
                                                                      other: edge.child, isChild: true)
                next[Int(edge.parent.index)] += 1
            }
            if laysOut(edge.child) {
                laidOut[Int(next[Int(edge.child.index)])] = ASCLink(relationship: edge.relationship,
                                                                     other: edge.parent, isChild: false)
                next[Int(edge.child.index)] += 1
            }
        }
        edges = []
        linkStarts = Self.removeRepeats(&laidOut, starts: starts)
        links = laidOut
    }

    /// Drops from each node's links (`links[starts[n] ..< starts[n + 1]]`) every link it has earlier, compacting
    /// them in place in their order; returns the new starts. A node's few links are compared with each other; a
    /// node with many (a price schedule's rows) keeps a set of those it has, so the cost stays linear.
    static func removeRepeats(_ links: inout [ASCLink], starts: [Int32]) -> [Int32] {
        var kept = starts
        var write = 0
        var seen = Set<UInt64>()
        for node in 0..<(starts.count - 1) {
            let first = write
            kept[node] = Int32(truncatingIfNeeded: first)
            let range = Int(starts[node]) ..< Int(starts[node + 1])
            if range.count <= 16 {
                for index in range {
                    let link = links[index]
                    guard !links[first..<write].contains(link) else { continue }
                    links[write] = link
                    write += 1
                }
            } else {
                seen.removeAll(keepingCapacity: true)
                for index in range {
                    let link = links[index]
                    // Node and relationship numbers are below 2³¹ (`DenseID`).
                    let key = UInt64(UInt32(bitPattern: link.other.index)) << 32
                        | UInt64(UInt32(bitPattern: link.relationship.index)) << 1 | (link.isChild ? 1 : 0)
                    guard seen.insert(key).inserted else { continue }
                    links[write] = link
                    write += 1
                }
            }
        }
        kept[starts.count - 1] = Int32(truncatingIfNeeded: write)
        links.removeLast(links.count - write)
        return kept
    }

    // MARK: Queries (after reading)

    subscript(node: NodeID) -> ASCNode { nodes[Int(node.index)] }

    /// The type of a name, if the input uses it.
    func type(_ name: String) -> TypeID? { types.number(name).map(TypeID.init) }

    /// The relationship of a name, if the input uses it.
    func relationship(_ name: String) -> RelationshipID? { relationships.number(name).map(RelationshipID.init) }

    func typeName(of node: NodeID) -> String { types.names[Int(identities.type(of: node).index)] }

    func id(of node: NodeID) -> String { identities.id(of: node) }

    /// Calls `body` with the UTF-8 bytes of `node`'s id, making no `String`.
    func withID<Result>(of node: NodeID, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        identities.withID(of: node, body)
    }

    /// The nodes linked to `node` (either direction) of one type, in the order the links were seen.
    func linked(_ node: NodeID, type: TypeID?) -> [ASCLink] {
        guard let type else { return [] }
        return links[linkRange(node)].filter { identities.type(of: $0.other) == type }
    }

    /// The first node linked to `node` of one type.
    func firstLinked(_ node: NodeID, type: TypeID?) -> NodeID? {
        guard let type else { return nil }
        return links[linkRange(node)].first { identities.type(of: $0.other) == type }?.other
    }

    private func linkRange(_ node: NodeID) -> Range<Int> {
        Int(linkStarts[Int(node.index)]) ..< Int(linkStarts[Int(node.index) + 1])
    }

    /// The attribute of a name, if the input states it (non-null).
    func attribute(_ node: NodeID, _ name: ASCAttributeName) -> ASCAttribute? {
        var position = self[node].firstAttribute
        while position >= 0 {
            let attribute = attributes[Int(position)]
            if attribute.name == name { return attribute }
            position = attribute.next
        }
        return nil
    }

    /// Whether the input holds the resource object itself (not only identifiers naming it).
    func isDefined(_ node: NodeID) -> Bool { self[node].definition != nil }

    /// Where a node's resource object starts; the first document when it is known only by identifier.
    func location(of node: NodeID) -> SourceLocation {
        guard let definition = self[node].definition else { return SourceLocation(path: marks.paths.first ?? "") }
        return marks.location(of: definition)
    }
}

/// Two resource objects of one resource (one `type` and `id`) that give one attribute two values.
struct ASCDisagreement {
    let node: NodeID
    let name: ASCAttributeName
    let earlier: ASCAttribute
    let later: ASCAttributeValue
    let laterMark: MarkID
}
