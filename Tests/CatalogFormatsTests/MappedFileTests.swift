import CatalogCore
import Foundation
import TestSupport
import Testing
@testable import CatalogFormats

/// The resident KiB of the mapping that holds `data`'s bytes (`/proc/self/smaps`, Linux); nil when no mapping
/// starts where they do, or elsewhere.
private func residentKiB(of data: Data) throws -> Int? {
    #if os(Linux)
    let start = data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
    // Read to its end: the file's size is 0, and Foundation reads such a file only as far as its first read goes.
    let descriptor = try FileLoading.open(URL(fileURLWithPath: "/proc/self/smaps"), displayPath: "smaps")
    defer { close(descriptor) }
    let smaps = String(decoding: try FileLoading.read(descriptor, upTo: FileLoading.streamLimit, displayPath: "smaps",
                                                      whole: true), as: UTF8.self)
    var inMapping = false
    for line in smaps.split(separator: "\n") {
        if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
           let low = UInt(line[..<dash], radix: 16) {
            inMapping = low == start
        } else if inMapping, line.hasPrefix("Rss:") {
            return Int(line.split(separator: " ")[1])
        }
    }
    #endif
    return nil
}

/// Big files are mapped (`MappedFile`), and the readers give back the pages they have passed (`PassedPages`):
/// the pages leave the process, the bytes read the same again, memory that is not a mapping of ours is never
/// touched, and each reader of big files reads a mapped file value for value as it reads the same bytes in memory.
@Suite("Mapped files and the pages given back")
struct MappedFileTests {
    /// 8 MiB of a pattern that differs from page to page.
    private static let size = 8 << 20
    private static let pattern = pattern(count: size)

    /// `count` bytes of the pattern, in memory of their own.
    private static func pattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 12) })
    }

    /// A file `big.bin` of `bytes` in a new folder; the folder is removed by the caller.
    private static func file(_ bytes: Data) throws -> (folder: URL, file: URL) {
        let folder = try Fixtures.temporaryFolder(suffix: "-mapped")
        let file = folder.appendingPathComponent("big.bin")
        try bytes.write(to: file)
        return (folder, file)
    }

    #if os(Linux)
    /// Whether `data` reads as `expected`: the comparison reads every byte of it.
    private static func readsAs(_ data: Data, _ expected: Data) -> Bool {
        data == expected
    }

    @Test("a big file is mapped, its pages given back leave the process, and its bytes read the same again")
    func pagesGivenBack() throws {
        let (folder, file) = try Self.file(Self.pattern)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try FileLoading.parsingData(at: file, displayPath: "big.bin")
        #expect(Self.readsAs(data, Self.pattern))
        let touched = try #require(try residentKiB(of: data))

        data.withUnsafeBytes { MappedFile.release($0, from: 0, upTo: $0.count) }
        let released = try #require(try residentKiB(of: data))
        let readAgain = Self.readsAs(data, Self.pattern)

        #expect(touched == Self.size >> 10)
        #expect(released == 0)
        #expect(readAgain)
    }

    @Test("a reader's passed pages go a mebibyte at a time, only those behind it, whole pages only")
    func passedPages() throws {
        let (folder, file) = try Self.file(Self.pattern)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = try FileLoading.parsingData(at: file, displayPath: "big.bin")
        var residents: [Int] = []

        _ = Self.readsAs(data, Self.pattern)
        var pages = PassedPages(releasingAll: data)
        residents.append(try #require(try residentKiB(of: data)))
        _ = Self.readsAs(data, Self.pattern)
        residents.append(try #require(try residentKiB(of: data)))
        pages.passed(512 << 10)  // Less than a mebibyte on: nothing yet.
        residents.append(try #require(try residentKiB(of: data)))
        pages.passed((3 << 20) + 100)  // The pages before 3 MiB + 100 bytes: 3 MiB.
        residents.append(try #require(try residentKiB(of: data)))
        pages.passed((3 << 20) + 200)  // On from there by less than a mebibyte: nothing.
        residents.append(try #require(try residentKiB(of: data)))
        pages.passed(Self.size)  // The end: every page.
        residents.append(try #require(try residentKiB(of: data)))

        // The pages behind the reader go; a page ahead may go too (a file's huge page mapped whole is given back
        // whole), which costs a fault, not a byte.
        #expect(residents[0] == 0)
        #expect(residents[1] == 8192)
        #expect(residents[2] == 8192)
        #expect(residents[3] <= 8192 - 3072)
        #expect(residents[4] == residents[3])
        #expect(residents[5] == 0)
        #expect(Self.readsAs(data, Self.pattern))
    }
    #endif

    @Test("bytes in memory and a small file read are never given back")
    func heapUntouched() throws {
        let (folder, file) = try Self.file(Self.pattern(count: FileLoading.readLimit))
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each in memory of its own, compared with a pattern made afresh: given back, their pages would read as
        // zeros. `inMemory` starts at a page (allocated so), so a page of it could be given back whole.
        var aligned: UnsafeMutableRawPointer?
        #expect(posix_memalign(&aligned, 1 << 16, Self.size) == 0)
        let start = try #require(aligned)
        Self.pattern.copyBytes(to: start.assumingMemoryBound(to: UInt8.self), count: Self.size)
        let inMemory = Data(bytesNoCopy: start, count: Self.size, deallocator: .free)
        let read = try FileLoading.parsingData(at: file, displayPath: "big.bin")

        inMemory.withUnsafeBytes { MappedFile.release($0, from: 0, upTo: $0.count) }
        read.withUnsafeBytes { MappedFile.release($0, from: 0, upTo: $0.count) }
        var pages = PassedPages(releasingAll: inMemory)
        pages.passed(inMemory.count)

        // Compared apart: a failed `#expect` of two collections works out their difference, too slow at 8 MiB.
        let keptInMemory = inMemory == Self.pattern(count: Self.size)
        let keptRead = read == Self.pattern(count: FileLoading.readLimit)

        #expect(keptInMemory)
        #expect(keptRead)
    }
}

/// Each reader that gives back the pages of a big file it has passed reads it value for value as it reads the same
/// bytes in memory, and leaves little of it resident: of a file of more than 8 MiB, less than 4 MiB (the last
/// mebibyte it passed, and a huge page of the file's that the kernel may map whole).
@Suite("Readers of big mapped files")
struct MappedReadingTests {
    private static var options: ReadOptions {
        get throws { ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22))) }
    }
    private static let territories = ["AT", "AU", "BE", "BR", "CA", "CH", "DE", "ES", "FR", "GB", "IN", "IT", "JP",
                                      "MX", "NL", "NO", "PL", "SE", "TR", "US"]

    /// A YAML config of `count` consumables, each priced in every territory of `territories`.
    private static func yamlConfig(count: Int) -> String {
        var text = "version: 1\napp:\n  bundleId: com.example.big\n  baseTerritory: US\nproducts:\n"
        for index in 0..<count {
            text += "  com.example.big.p\(index):\n    type: consumable\n    name: Product \(index)\n    prices:\n"
            for (offset, territory) in territories.enumerated() {
                text += "      \(territory): \(index % 90 + offset).99 USD\n"
            }
        }
        return text
    }

    /// The same config as JSON, pretty-printed so that its locations have lines.
    private static func jsonConfig(count: Int) -> String {
        var products: [String] = []
        for index in 0..<count {
            let prices = territories.enumerated().map { offset, territory in
                "\"\(territory)\": \"\(index % 90 + offset).99 USD\""
            }
            products.append("    \"com.example.big.p\(index)\": {\n      \"type\": \"consumable\",\n"
                            + "      \"name\": \"Product \(index)\",\n      \"prices\": {\n        "
                            + prices.joined(separator: ",\n        ") + "\n      }\n    }")
        }
        return "{\n  \"version\": 1,\n  \"app\": {\"bundleId\": \"com.example.big\", \"baseTerritory\": \"US\"},\n"
            + "  \"products\": {\n" + products.joined(separator: ",\n") + "\n  }\n}\n"
    }

    /// A fixture's JSON with the elements of its top-level list (`list`, or the top-level array) repeated until
    /// the text is twice `FileLoading.readLimit`, each copy's `productId` (when it has one) made its own.
    private static func repeated(_ relativePath: String, list: String?) throws -> Data {
        let fixture = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.url(relativePath)))
        let container: Any? = if let list { (fixture as? [String: Any])?[list] } else { fixture }
        let elements = try #require(container as? [Any])
        let one = try JSONSerialization.data(withJSONObject: elements, options: [.sortedKeys])
        let copies = 2 * FileLoading.readLimit / one.count + 1
        var all: [Any] = []
        for copy in 0..<copies {
            for case var element as [String: Any] in elements {
                if let id = element["productId"] as? String { element["productId"] = "\(id)-\(copy)" }
                all.append(element)
            }
        }
        let top: Any = list.map { [$0: all] } ?? all
        return try JSONSerialization.data(withJSONObject: top, options: [.prettyPrinted, .sortedKeys])
    }

    /// `read` of the bytes of a file mapped from `name` and of the same bytes in memory, and the KiB of the file
    /// still resident after the mapped reading (nil where that cannot be told).
    private static func readBoth<Value: Equatable>(
        _ bytes: Data, name: String, _ read: (Data, String) throws -> Value
    ) throws -> (mapped: Value, inMemory: Value, residentKiB: Int?) {
        let folder = try Fixtures.temporaryFolder(suffix: "-mapped-reading")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        try bytes.write(to: file)
        let mapped = try FileLoading.parsingData(at: file, displayPath: name)
        #expect(bytes.count > 2 * FileLoading.readLimit)

        let fromMapping = try read(mapped, name)
        let resident = try residentKiB(of: mapped)
        let fromMemory = try read(Data(bytes), name)

        return (fromMapping, fromMemory, resident)
    }

    @Test("a YAML config and the same config as JSON", arguments: ["products.yml", "products.json"])
    func config(name: String) throws {
        let text = name.hasSuffix(".yml") ? Self.yamlConfig(count: 18_000) : Self.jsonConfig(count: 13_000)

        let (mapped, inMemory, resident) = try Self.readBoth(Data(text.utf8), name: name) { data, path in
            try ProductConfigReader().read(data: data, displayPath: path)
        }

        #expect(mapped == inMemory)
        #expect(mapped.products.count == (name.hasSuffix(".yml") ? 18_000 : 13_000))
        #expect(mapped.products.last?.prices.count == Self.territories.count)
        #if os(Linux)
        let kib = try #require(resident)
        #expect(kib < 4096)
        #endif
    }

    @Test("a Play list response read in parts")
    func playList() throws {
        let bytes = try Self.repeated("play/api/subscriptions.json", list: "subscriptions")

        let (mapped, inMemory, resident) = try Self.readBoth(bytes, name: "subscriptions.json") { data, path in
            var builder = PlayCatalogBuilder()
            try builder.add(fileBytes: data, path: path)
            return builder.finish(path: path)
        }

        #expect(mapped == inMemory)
        #expect(mapped.products.count > 1_000)
        #if os(Linux)
        let kib = try #require(resident)
        #expect(kib < 4096)
        #endif
    }

    @Test("an App Store Connect export, an array of documents")
    func ascExport() throws {
        let bytes = try Self.repeated("asc/documents-array.json", list: nil)

        let (mapped, inMemory, resident) = try Self.readBoth(bytes, name: "asc.json") { data, path in
            try AppStoreConnectReader().read(data: data, displayPath: path, options: try Self.options)
        }

        #expect(mapped == inMemory)
        #expect(!mapped.products.isEmpty)
        #if os(Linux)
        let kib = try #require(resident)
        #expect(kib < 4096)
        #endif
    }
}
