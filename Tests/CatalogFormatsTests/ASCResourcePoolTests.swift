import CatalogCore
import Foundation
import Testing
@testable import CatalogFormats

/// The App Store Connect pool's typed pieces: marks turned into locations after a document is dropped, the
/// attributes it keeps, and links laid out by node.
@Suite struct ASCResourcePoolTests {
    @Test("marks agree with SourceText at every offset, in any order, on several lines and in any script")
    func marksAgreeWithSourceText() {
        // Long ASCII runs (counted eight bytes at once) between line feeds and multi-byte characters.
        let text = "{\"a\": \"café\",\n  \"b\": [\"😀\", 1],\r\n\n\"c\": \"ü\"}\n"
            + String(repeating: "abcdefghijklmnopqrstuvwxyz é\n0123456789abcdefgh😀", count: 3)
        let source = SourceText(path: "t.json", bytes: Data(text.utf8))
        var marks = ASCMarks()
        _ = marks.beginDocument(path: "t.json")
        let offsets = Array(-2...(text.utf8.count + 2)).reversed() + [7, 3, 7]
        let ids = offsets.map { marks.mark(offset: $0) }
        marks.finishDocument(source)
        for (offset, id) in zip(offsets, ids) {
            #expect(marks.location(of: id) == source.location(ofOffset: offset), "offset \(offset)")
        }
    }

    @Test("a request or links.self names the parent, the relationship and nothing else")
    func parentOfPath() {
        func parent(_ text: String) -> String? {
            ASCResourcePool.parent(ofPath: text).map { "\($0.type) \($0.id) \($0.relationship)" }
        }
        #expect(parent("https://api.appstoreconnect.apple.com/v1/subscriptions/6450000001/prices?limit=200")
                == "subscriptions 6450000001 prices")
        #expect(parent("/v2/inAppPurchases/64500/relationships/iapPriceSchedule#top") == "inAppPurchases 64500 iapPriceSchedule")
        #expect(parent("/v1/subscriptionGroups/g%2F1/subscriptions") == "subscriptionGroups g/1 subscriptions")
        #expect(parent("/v1/apps/1/a%zzb") == "apps 1 a%zzb")  // not percent-encoding: kept as written
        #expect(parent("//v1//apps///1/inAppPurchasesV2") == "apps 1 inAppPurchasesV2")
        #expect(parent("http://host:8080/v1/apps/1/inAppPurchasesV2") == "apps 1 inAppPurchasesV2")
        #expect(parent("héllo://h/v1/apps/1/inAppPurchasesV2") == "apps 1 inAppPurchasesV2")
        #expect(parent("x:/y://h/v1/apps/2/prices") == "apps 2 prices")
        #expect(parent("https://api.appstoreconnect.apple.com") == nil)
        #expect(parent("/v1/apps/1") == nil)
        #expect(parent("/vx/apps/1/inAppPurchasesV2") == nil)
        #expect(parent("/v/apps/1/inAppPurchasesV2") == nil)
        #expect(parent("/v1/apps/1/other/inAppPurchasesV2") == nil)
        #expect(parent("/v1/apps/1/inAppPurchasesV2/more/segments") == nil)
    }

    @Test("marks of each document name its path")
    func marksNameTheirDocument() {
        var marks = ASCMarks()
        _ = marks.beginDocument(path: "a.json")
        let first = marks.mark(offset: 1)
        marks.finishDocument(SourceText(path: "a.json", bytes: Data("{}".utf8)))
        _ = marks.beginDocument(path: "unmarked.json")
        marks.finishDocument(SourceText(path: "unmarked.json", bytes: Data("[]".utf8)))
        _ = marks.beginDocument(path: "b.json")
        let second = marks.mark(offset: 2)
        marks.finishDocument(SourceText(path: "b.json", bytes: Data("\n\n{}".utf8)))
        #expect(marks.location(of: first) == SourceLocation(path: "a.json", line: 1, column: 2))
        #expect(marks.location(of: second) == SourceLocation(path: "b.json", line: 3, column: 1))
    }

    @Test("one resource in two documents that disagree about an attribute is an error naming both places")
    func disagreeingDocumentsAreAnError() throws {
        var pool = ASCResourcePool()
        try pool.add(JSONDocument(data: Data("""
            {"data": {"type": "subscriptionPrices", "id": "p1", "attributes": {"manual": false}}}
            """.utf8), path: "1.json"))
        let second = try JSONDocument(data: Data("""
            {"data": {"type": "subscriptionPrices", "id": "p1", "attributes": {"manual": true}}}
            """.utf8), path: "2.json")
        let error = try #require(throws: CatalogReadError.self) { try pool.add(second) }
        #expect(error.description == "2.json:1:78: error: subscriptionPrices \"p1\" attributes.manual is true here "
            + "and false at 1.json:1:78: one resource in two places that disagree is a damaged input")
    }

    /// A document of one territory resource (in a list, followed by another resource), as `fetch` pages list them.
    private static func territoryPage(_ territory: String, _ currency: String, next: String = "CAN") -> Data {
        Data("""
            {"data": [{"type": "territories", "id": "\(territory)", "attributes": {"currency": "\(currency)"}},
                      {"type": "territories", "id": "\(next)", "attributes": {"currency": "CAD"}}]}
            """.utf8)
    }

    @Test("a resource repeated word for word is pooled once; one that then differs is still an error")
    func repeatedResources() throws {
        // Arrange: the territory in three pages alike (the third is not read again), then in a fourth that differs.
        var pool = ASCResourcePool()
        for page in 1...3 {
            try pool.add(JSONDocument(data: Self.territoryPage("USA", "USD"), path: "\(page).json"))
        }
        let differing = try JSONDocument(data: Self.territoryPage("USA", "EUR"), path: "4.json")

        // Act
        let error = try #require(throws: CatalogReadError.self) { try pool.add(differing) }

        // Assert
        #expect(error.description == "4.json:1:75: error: territories \"USA\" attributes.currency is \"EUR\" here "
            + "and \"USD\" at 1.json:1:75: one resource in two places that disagree is a damaged input")
        #expect(pool.nodes.count == 2)
        #expect(pool.attributes.count == 2)
        #expect(pool.definitionOrder.map { pool.id(of: $0) } == ["USA", "CAN"])
    }

    @Test("a resource repeated with other links keeps the links of every occurrence")
    func repeatedResourceWithOtherLinks() throws {
        // Arrange: a schedule twice alike, then once more with another price.
        func page(_ prices: [String]) -> Data {
            let data = prices.map { #"{"type": "inAppPurchasePrices", "id": "\#($0)"}"# }.joined(separator: ", ")
            return Data("""
                {"data": [{"type": "inAppPurchasePriceSchedules", "id": "s",
                           "relationships": {"manualPrices": {"data": [\(data)]}}},
                          {"type": "territories", "id": "USA"}]}
                """.utf8)
        }
        var pool = ASCResourcePool()

        // Act
        for (number, prices) in [["a"], ["a"], ["a"], ["b"]].enumerated() {
            try pool.add(JSONDocument(data: page(prices), path: "\(number).json"))
        }
        pool.finishReading()

        // Assert
        let schedule = try #require(pool.definitionOrder.first)
        let prices = try #require(pool.type("inAppPurchasePrices"))
        #expect(pool.linked(schedule, type: prices).map { pool.id(of: $0.other) } == ["a", "b"])
    }

    @Test("the pool keeps the attributes the builder reads: the first non-null value of each, typed or described")
    func keepsTypedAttributes() throws {
        var pool = ASCResourcePool()
        try pool.add(JSONDocument(data: Data("""
            {"data": {"type": "subscriptionPrices", "id": "p1",
                      "attributes": {"startDate": null, "manual": "yes", "preserved": false}}}
            """.utf8), path: "1.json"))
        try pool.add(JSONDocument(data: Data("""
            {"data": {"type": "subscriptionPrices", "id": "p1",
                      "attributes": {"startDate": "2025-01-01", "manual": "yes", "planType": "UPFRONT"}}}
            """.utf8), path: "2.json"))
        pool.finishReading()
        let node = try #require(pool.definitionOrder.first)
        #expect(pool.nodes.count == 1)
        #expect(pool.attributes.count == 4)
        guard case .string("2025-01-01") = pool.attribute(node, .startDate)?.value else {
            Issue.record("startDate is the second document's")
            return
        }
        guard case .mismatch(found: "the string \"yes\"") = pool.attribute(node, .manual)?.value else {
            Issue.record("manual is the first document's string, described")
            return
        }
        let planType = try #require(pool.attribute(node, .planType))
        #expect(pool.marks.location(of: planType.mark) == SourceLocation(path: "2.json", line: 2, column: 82))
        #expect(pool.location(of: node) == SourceLocation(path: "1.json", line: 1, column: 10))
    }

    @Test("links are kept once, at both ends, in the order they were seen")
    func linksInOrder() throws {
        var pool = ASCResourcePool()
        try pool.add(JSONDocument(data: Data("""
            {"data": [{"type": "inAppPurchasePriceSchedules", "id": "s",
                       "relationships": {"manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "b"},
                                                                   {"type": "inAppPurchasePrices", "id": "a"},
                                                                   {"type": "inAppPurchasePrices", "id": "b"}]},
                                         "baseTerritory": {"data": {"type": "territories", "id": "USA"}}}}],
             "links": {"self": "https://api.appstoreconnect.apple.com/v1/inAppPurchasesV2/9/iapPriceSchedule"}}
            """.utf8), path: "s.json"))
        pool.finishReading()
        let schedule = try #require(pool.definitionOrder.first)
        let prices = try #require(pool.type("inAppPurchasePrices"))
        let ids = pool.linked(schedule, type: prices).map { pool.id(of: $0.other) }
        #expect(ids == ["b", "a"])
        let purchases = try #require(pool.type("inAppPurchases"))
        let parent = try #require(pool.linked(schedule, type: purchases).first)
        #expect(!parent.isChild)
        #expect(pool.id(of: parent.other) == "9")
        #expect(pool.linked(parent.other, type: pool.type("inAppPurchasePriceSchedules")).map(\.other) == [schedule])
    }

    @Test("the resource index finds each (type, id) once, across growth, and tells types apart")
    func resourceIndex() {
        var index = ASCResourceIndex()
        let prices = TypeID(0)
        let points = TypeID(1)
        let ids = (0..<5_000).map { "price-\($0)-é" }
        let nodes = ids.map { index.node(type: prices, id: $0) }
        #expect(nodes.allSatisfy { $0.isNew })
        #expect(ids.map { index.node(type: prices, id: $0).node } == nodes.map(\.node))
        let point = index.node(type: points, id: ids[7])
        #expect(point.isNew)
        #expect(index.count == 5_001)
        #expect(index.id(of: nodes[4_321].node) == "price-4321-é")
        #expect(index.type(of: point.node) == points)
    }

    @Test("the resource index finds every (type, id) again after growing, tells new from known, keeps types and ids")
    func indexGrows() {
        var index = ASCResourceIndex()
        let types = [TypeID(0), TypeID(1), TypeID(2)]
        // 3 × 2,000 ids: the table starts with 1,024 slots, so it grows several times; the same id under
        // another type is another node.
        var nodes: [String: NodeID] = [:]
        for number in 0..<2000 {
            for type in types {
                let (node, isNew) = index.node(type: type, id: "id-\(number)")
                #expect(isNew)
                nodes["\(type.index)/\(number)"] = node
            }
        }
        for number in stride(from: 1999, through: 0, by: -7) {
            for type in types {
                let (node, isNew) = index.node(type: type, id: "id-\(number)")
                #expect(!isNew)
                #expect(node == nodes["\(type.index)/\(number)"])
            }
        }
        #expect(index.count == 6000)
        let wrong = nodes.filter { key, node in
            let parts = key.split(separator: "/")
            return index.type(of: node).index != Int32(parts[0]) || index.id(of: node) != "id-\(parts[1])"
        }
        #expect(wrong.isEmpty, "nodes whose type or id changed: \(wrong.keys.sorted().prefix(3))")
    }

    @Test("a node's links seen again are dropped, the first of each kept in order, however many the node has")
    func repeatsRemoved() {
        func link(_ other: Int, _ relationship: Int = 0, child: Bool = true) -> ASCLink {
            ASCLink(relationship: RelationshipID(relationship), other: NodeID(other), isChild: child)
        }
        // Node 0: a few links (compared with each other); node 1: none; node 2: 40 rows and their repeats (a
        // set); node 3: the same other node under two relationships and in both directions, all kept.
        let rows = (10..<50).map { link($0) }
        var links = [link(5), link(6), link(5), link(7), link(6)]
            + rows + rows.reversed() + [link(99)] + rows
            + [link(8, 0), link(8, 1), link(8, 0, child: false), link(8, 1)]
        let starts: [Int32] = [0, 5, 5, Int32(5 + 121), Int32(5 + 121 + 4)]
        let kept = ASCResourcePool.removeRepeats(&links, starts: starts)
        #expect(kept == [0, 3, 3, 44, 47])
        #expect(links[0..<3] == [link(5), link(6), link(7)])
        #expect(Array(links[3..<44]) == rows + [link(99)])
        #expect(links[44...] == [link(8, 0), link(8, 1), link(8, 0, child: false)])
    }

    @Test("a relationship that lists one resource many times links it once")
    func manyRepeatsInOneDocument() throws {
        let rows = (0..<30).map { "{\"type\": \"inAppPurchasePrices\", \"id\": \"r\($0 % 20)\"}" }
        var pool = ASCResourcePool()
        try pool.add(JSONDocument(data: Data("""
            {"data": {"type": "inAppPurchasePriceSchedules", "id": "s",
                      "relationships": {"manualPrices": {"data": [\(rows.joined(separator: ", "))]}}}}
            """.utf8), path: "s.json"))
        pool.finishReading()
        let schedule = try #require(pool.definitionOrder.first)
        let ids = pool.linked(schedule, type: pool.type("inAppPurchasePrices")).map { pool.id(of: $0.other) }
        #expect(ids == (0..<20).map { "r\($0)" })
    }

    @Test("ids of every length, and ids one byte apart at any place, are told apart and found again")
    func idsOfEveryLength() {
        var index = ASCResourceIndex()
        var ids: [String] = []
        for length in 0...26 {
            let base = String(repeating: "a", count: length)
            ids.append(base)
            for place in 0..<length {
                var bytes = Array(base.utf8)
                bytes[place] = UInt8(ascii: "b")
                ids.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        let nodes = ids.map { index.node(type: TypeID(0), id: $0) }
        #expect(nodes.allSatisfy { $0.isNew })
        #expect(ids.map { index.node(type: TypeID(0), id: $0).node } == nodes.map(\.node))
        #expect(nodes.map { index.id(of: $0.node) } == ids)
        // Every byte moves the hash (it picks the slot): no two of these ids share one.
        let hashes = ids.map { id in
            var id = id
            return id.withUTF8 { ASCResourceIndex.hash(TypeID(0), $0) }
        }
        #expect(Set(hashes).count == ids.count)
    }

    @Test("one id under thousands of types spreads over the table; the first types' ids hash as the prefetch does")
    func oneIDUnderManyTypes() {
        // Arrange: 5,000 types name the id "x" (a crafted input: on one probe sequence, pooling them was quadratic).
        var index = ASCResourceIndex()
        let types = (0..<5_000).map { TypeID($0) }
        let shared = Int(ASCResourceIndex.typesSharingSeeds)
        var id = "x"
        let hashes = id.withUTF8 { bytes in types.map { ASCResourceIndex.hash($0, bytes) } }

        // Act
        let nodes = types.map { index.node(type: $0, id: "x") }

        // Assert: the first types share the id's own hash, every later one has its own.
        #expect(Set(hashes[..<shared]).count == 1)
        #expect(Set(hashes[shared...]).count == types.count - shared)
        #expect(!hashes[shared...].contains(hashes[0]))
        #expect(nodes.allSatisfy { $0.isNew })
        #expect(types.map { index.node(type: $0, id: "x").node } == nodes.map(\.node))
        #expect(index.type(of: nodes[4_321].node) == TypeID(4_321))
    }

    @Test("an id under several of the first types is a node for each, whichever type comes first")
    func oneIDUnderSeveralTypes() {
        var index = ASCResourceIndex()
        let purchases = TypeID(0)
        let schedules = TypeID(1)
        let purchase = index.node(type: purchases, id: "6450000000")
        let schedule = index.node(type: schedules, id: "6450000000")
        let scheduleFirst = index.node(type: schedules, id: "6450000001")
        let purchaseAfter = index.node(type: purchases, id: "6450000001")
        #expect([purchase, schedule, scheduleFirst, purchaseAfter].map(\.isNew) == [true, true, true, true])
        #expect(index.node(type: schedules, id: "6450000000").node == schedule.node)
        #expect(index.node(type: purchases, id: "6450000000").node == purchase.node)
        #expect(index.node(type: purchases, id: "6450000001").node == purchaseAfter.node)
        #expect(index.type(of: scheduleFirst.node) == schedules)
        #expect(index.count == 4)
    }

    @Test("prefetching a document's ids finds nothing new, and the lookups after it find what they found before")
    func prefetchChangesNoLookup() throws {
        // 3,000 ids grow the table (1,024 slots) while the ids are read; the prefetch reads the ids of a
        // document that names known and new ones, more than `prefetchLimit` of them.
        var index = ASCResourceIndex()
        let known = (0..<3_000).map { index.node(type: TypeID(0), id: "p-\($0)").node }
        let named = (2_000..<(3_000 + ASCResourceIndex.prefetchLimit)).map { "{\"type\": \"t\", \"id\": \"p-\($0)\"}" }
        let document = try JSONDocument(data: Data("[\(named.joined(separator: ","))]".utf8), path: "p.json")
        var passed = 0
        index.prefetch { forEach in document.forEachString(afterKey: "id") { passed += 1; return forEach($0) } }
        #expect(passed == ASCResourceIndex.prefetchLimit)
        #expect(index.count == 3_000)
        #expect((0..<3_000).map { index.node(type: TypeID(0), id: "p-\($0)").node } == known)
        #expect(index.node(type: TypeID(0), id: "p-3000").isNew)
        // Once no more nodes are added, the table is gone; a prefetch reads nothing and the ids stay.
        index.finishAdding()
        index.prefetch { forEach in document.forEachString(afterKey: "id", forEach) }
        #expect(index.id(of: known[2_999]) == "p-2999")
    }

    @Test("the pool's arrays keep every element appended, growing their room fourfold when full")
    func growingFourfold() {
        var numbers: [Int] = []
        var bytes: [UInt8] = []
        var rooms: Set<Int> = []
        for number in 0..<10_000 {
            numbers.appendGrowingFourfold(number)
            rooms.insert(numbers.capacity)
            let chunk = [UInt8](repeating: UInt8(number % 251), count: number % 7)
            chunk.withUnsafeBufferPointer { bytes.appendGrowingFourfold(contentsOf: $0) }
        }

        // Built in a loop: the same as one `flatMap` in the expectation, which took the type checker seven seconds.
        var expectedBytes: [UInt8] = []
        for number in 0..<10_000 {
            expectedBytes += [UInt8](repeating: UInt8(number % 251), count: number % 7)
        }
        #expect(numbers == Array(0..<10_000))
        #expect(bytes == expectedBytes)
        // Room for 64, then four times what was held each time it ran out: 64, 256, 1,024, 4,096, 16,384 (the
        // allocator may round each up a little).
        #expect(rooms.count == 5)
        #expect(rooms.sorted().enumerated().allSatisfy { index, room in room >= 64 << (2 * index) })
        #expect(numbers.capacity < 2 * 16_384)
    }

    @Test("the name cache finds each name's number by its bytes, tells apart names of one length, stops at 64")
    func nameBytesCache() {
        var cache = NameBytesCache()
        let names = ["", "type", "typf", "types", "manualPrices", "automaticPrices"] + (0..<70).map { "n\($0)" }
        for (number, name) in names.enumerated() {
            Array(name.utf8).withUnsafeBufferPointer { cache.add($0, number * 10) }
        }
        func number(_ name: String) -> Int? { Array(name.utf8).withUnsafeBufferPointer { cache.number($0) } }

        #expect(number("") == 0)
        #expect(number("type") == 10)
        #expect(number("typf") == 20)
        #expect(number("types") == 30)
        #expect(number("automaticPrices") == 50)
        #expect(number("typ") == nil)
        #expect(number("tyqe") == nil)
        #expect(number("n57") == 630)
        // The first 64 names are cached; a crafted input's others are looked up by `String`.
        #expect(number("n58") == nil)
    }

    @Test("the relationships that state offers, introductory offers and available territories are recorded")
    func statedRelationships() {
        var pool = ASCResourcePool()
        let node = pool.node(type: pool.type(named: "subscriptions"), id: "1")
        for name in ["prices", "introductoryOffers", "offerCodes", "winBackOffers", "availableTerritoriesX"] {
            let relationship = pool.relationship(named: name)
            pool.stateIntroductoryOffers(node, relationship: relationship)
            pool.stateOffers(relationship: relationship)
            pool.stateAvailableTerritories(node, relationship: relationship)
        }
        let other = pool.node(type: pool.type(named: "subscriptionAvailabilities"), id: "2")
        pool.stateAvailableTerritories(other, relationship: pool.relationship(named: "availableTerritories"))
        // Interned once, recorded again.
        pool.stateOffers(relationship: pool.relationship(named: "offerCodes"))

        #expect(pool.statedIntroductoryOffers == [node])
        #expect(pool.statedOfferRelationships == ["offerCodes", "winBackOffers"])
        #expect(pool.statedAvailableTerritories == [other])
    }
}
