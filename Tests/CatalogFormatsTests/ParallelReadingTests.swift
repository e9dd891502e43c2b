import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// Reading on the second core (`ReadAhead`, `CatalogLoader.load(config:stores:)` of resolved inputs) and folder listing
/// (`FileLoading.listing`): what comes out, and which error, must be what a reading in order gives.
@Suite("Reading on two cores")
struct ParallelReadingTests {
    private static func options() throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
    }

    @Test("values come back in index order, whatever the lookahead")
    func inOrder() throws {
        for lookahead in [1, 2, 4, 16] {
            let reader = ReadAhead(count: 10, lookahead: lookahead) { index throws(CatalogReadError) in index * index }
            defer { reader.finish() }
            var values: [Int] = []
            for _ in 0..<10 { values.append(try #require(try reader.next())) }
            #expect(values == [0, 1, 4, 9, 16, 25, 36, 49, 64, 81])
            #expect(try reader.next() == nil)
        }
    }

    @Test("a long stream comes through whole and in order while either side in turn is the slower",
          arguments: [1, 2, 3, 4, 16])
    func longStream(lookahead: Int) throws {
        // The producer is woken once half the values ready are taken, the caller once a first value is ready: a
        // lost wake-up would stop the stream. The caller reads on a thread of its own, so that a stopped stream
        // fails here after a minute (`finish()` then ends the production, and the read) instead of hanging.
        let reader = ReadAhead(count: 20_000, lookahead: lookahead) { index throws(CatalogReadError) in
            if index % 1_000 < 10 { usleep(200) }
            return index
        }
        final class Taken: @unchecked Sendable {
            var values: [Int] = []
        }
        let taken = Taken()
        let done = DispatchSemaphore(value: 0)
        Thread {
            while let value = try? reader.next() {
                taken.values.append(value)
                if value % 1_000 >= 500, value % 1_000 < 510 { usleep(200) }
            }
            done.signal()
        }.start()

        let intime = done.wait(timeout: .now() + 60) == .success
        reader.finish()
        if !intime { done.wait() }
        let whole = taken.values == Array(0..<20_000)  // Compared apart: a failure would print 20,000 values.

        #expect(intime)
        #expect(whole, "\(taken.values.count) values came")
    }

    @Test("a folder's files up to the limit come parsed, bigger ones as their bytes, in listing order")
    func folderFilesParsedOrAsBytes() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = Data(#"{"x": 1}"#.utf8)
        let big = Data(#"{"y": [1, 2, 3]}"#.utf8)
        try small.write(to: folder.appendingPathComponent("a.json"))
        try big.write(to: folder.appendingPathComponent("b.json"))
        let files = try JSONFolder(url: folder, listing: ["a.json", "b.json"], displayPath: "f", store: .play) { _ in true }
        var seen: [String] = []

        try files.forEachFile(parsingUpTo: small.count) { file, page throws(CatalogReadError) in
            #expect(page == nil)
            switch file {
            case .parsed(let document): seen.append("parsed \(document.path) x=\(document.root["x"]?.numberText ?? "-")")
            case .bytes(let data, let path): seen.append("bytes \(path) \(data == big)")
            }
        }

        #expect(seen == ["parsed f/a.json x=1", "bytes f/b.json true"])
    }

    @Test("a Play file read in parts gives the catalog of the file read whole", arguments: [
        "play/api/subscriptions.json", "play/api/offers.json", "play/api/inappproducts.json",
        "play/api/onetimeproducts.json",
    ])
    func playInPartsAsWhole(relativePath: String) throws {
        let data = try Data(contentsOf: Fixtures.url(relativePath))
        var whole = PlayCatalogBuilder()
        var inParts = PlayCatalogBuilder()

        try whole.add(JSONDocument(data: data, path: relativePath))
        try inParts.add(fileBytes: data, path: relativePath)

        #expect(!whole.products.isEmpty || !whole.offers.isEmpty)
        #expect(inParts.finish(path: relativePath) == whole.finish(path: relativePath))
    }

    @Test("a producer's values come in the order emitted, then its error, then nothing is read further")
    func streamedValuesThenError() throws {
        let reader = ReadAhead<String>(lookahead: 2) { emit throws(CatalogReadError) in
            for word in ["a", "b", "c"] {
                guard emit(word) else { return }
            }
            throw CatalogReadError("after c", at: SourceLocation(path: "s.json"))
        }
        defer { reader.finish() }

        let first = try reader.next()
        let second = try reader.next()
        let third = try reader.next()

        #expect([first, second, third] == ["a", "b", "c"])
        #expect(throws: CatalogReadError("after c", at: SourceLocation(path: "s.json"))) { try reader.next() }
    }

    @Test("a failing input's error is thrown at its turn, after the values before it")
    func errorAtItsTurn() throws {
        let reader = ReadAhead(count: 5) { index throws(CatalogReadError) -> Int in
            if index == 2 { throw CatalogReadError("input 2 is bad", at: SourceLocation(path: "two.json", line: 3)) }
            return index
        }
        defer { reader.finish() }
        #expect(try reader.next() == 0)
        #expect(try reader.next() == 1)
        #expect(throws: CatalogReadError("input 2 is bad", at: SourceLocation(path: "two.json", line: 3))) {
            try reader.next()
        }
    }

    @Test("finish stops the thread early: inputs past the lookahead are never read")
    func finishStops() throws {
        let counter = Counter()
        let reader = ReadAhead(count: 1000, lookahead: 2) { index throws(CatalogReadError) -> Int in
            counter.increment()
            return index
        }
        #expect(try reader.next() == 0)
        reader.finish()
        // One handed over, at most two ahead of it, and the one being parsed when the thread saw the stop.
        #expect(counter.value <= 4)
    }

    @Test("values handed back are freed on the reading thread, once it has ended at once")
    func retiredValuesFreedThere() throws {
        let freed = FreeLog()
        let producer = FreeLog()
        let reader = ReadAhead<Freed>(count: 6, lookahead: 1) { index throws(CatalogReadError) in
            producer.note(index)
            return Freed(index, log: freed)
        }
        var last: Freed?
        while let value = try reader.next() {
            if value.index == 5 { last = value } else { reader.retire(consume value) }
        }
        // Value k is handed back before value k + 1 is taken, so the thread frees it when it hands over k + 1 or
        // k + 2, or when it ends. next() gave nil: the thread has ended, so the last value is freed at once, here.
        let here = pthread_self()
        let final = try #require(last)
        last = nil
        reader.retire(consume final)
        let producerThread = try #require(producer.threads[5])
        #expect((0..<4).allSatisfy { freed.threads[$0] == producerThread })
        #expect(freed.threads[5] == here)
        reader.finish()
        #expect(freed.threads.count == 6)
    }

    @Test("once finish returns, the producer and every value handed back are freed")
    func nothingOutlivesFinish() throws {
        let freed = FreeLog()
        let reader = ReadAhead<Freed>(lookahead: 4) { [held = Freed(100, log: freed)] emit throws(CatalogReadError) in
            for index in 0..<3 where !emit(Freed(index + held.index - 100, log: freed)) { return }
        }
        while let value = try reader.next() {
            reader.retire(consume value)
        }
        reader.finish()
        // The fuzzers' leak check runs right after a read: a file's bytes still held by the thread read as a leak.
        #expect(freed.threads.keys.sorted() == [0, 1, 2, 100])
    }

    @Test("check's reading gives the config and the stores of a reading in order, format given or detected",
          arguments: [("demo/asc", CatalogFormat.ascJSON), ("demo/asc", nil), ("demo/play", nil),
                      ("demo/play-products.csv", nil), ("demo/metadata.xml", nil)])
    func sameAsInOrder(store relativePath: String, format: CatalogFormat?) throws {
        let config = Fixtures.catalog("demo/products.yml").path
        let store = Fixtures.catalog(relativePath).path
        let loader = CatalogLoader(options: try Self.options())

        let (parallelConfig, parallelStores) = try loader.load(
            config: InputSource(config).resolve(as: .config),
            stores: [InputSource(origin: .path(store), format: format).resolve(as: .store)])

        let inOrderConfig = try loader.load(config, format: .catalog)
        let inOrderStore = try loader.readingStores(against: inOrderConfig).load(store, format: format)
        #expect(parallelConfig == inOrderConfig)
        #expect(parallelStores == [inOrderStore])
    }

    @Test("when the config and a store are both broken, the config's error is the one thrown")
    func configErrorFirst() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("products.yml")
        try Data("version: 1\nproducts: [\n".utf8).write(to: config)
        let store = folder.appendingPathComponent("asc")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try Data("{\"data\": [".utf8).write(to: store.appendingPathComponent("broken.json"))
        let loader = CatalogLoader(options: try Self.options())

        for format in [CatalogFormat.ascJSON, nil] {
            let error = #expect(throws: CatalogReadError.self) {
                try loader.load(config: InputSource(config.path).resolve(as: .config),
                                stores: [InputSource(origin: .path(store.path), format: format).resolve(as: .store)])
            }

            #expect(error?.location.path == config.path)
        }
    }

    @Test("a folder lists its regular files recursively, sorted, hidden ones and symbolic links left out")
    func folderListing() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for name in ["b.json", "A.JSON", "notes.txt", ".hidden.json", "sub/c.json", ".git/d.json", "sub/deeper/e.Json"] {
            let url = folder.appendingPathComponent(name)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: url)
        }
        try manager.createSymbolicLink(at: folder.appendingPathComponent("link.json"),
                                       withDestinationURL: folder.appendingPathComponent("b.json"))
        try manager.createSymbolicLink(at: folder.appendingPathComponent("linked-folder"),
                                       withDestinationURL: folder.appendingPathComponent("sub"))

        let listing = FileLoading.listing(of: folder)

        #expect(listing.map(\.path) == ["A.JSON", "b.json", "notes.txt", "sub/c.json", "sub/deeper/e.Json"])
    }
}

/// A count shared with a `ReadAhead` thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func increment() {
        lock.withLock { count += 1 }
    }
}

/// Which thread did something to each of a few numbered values.
private final class FreeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var byValue: [Int: pthread_t] = [:]

    var threads: [Int: pthread_t] { lock.withLock { byValue } }

    func note(_ value: Int) {
        lock.withLock { byValue[value] = pthread_self() }
    }
}

/// A value that notes the thread it is freed on.
private final class Freed: Sendable {
    let index: Int
    let log: FreeLog

    init(_ index: Int, log: FreeLog) {
        self.index = index
        self.log = log
    }

    deinit { log.note(index) }
}
