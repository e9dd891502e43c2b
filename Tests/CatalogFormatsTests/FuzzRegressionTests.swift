import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// Every reproducer `scripts/fuzz` found, kept under `Tests/Fixtures/fuzz/<target>/`, read the way that fuzz
/// target reads its input (Fuzz/Sources/<target>/Fuzz.swift): each must give a clean `CatalogReadError`.
/// (Leaks only show under the sanitizers: `scripts/fuzz TARGET` replays these files as seeds.)
@Suite("Fuzz reproducers")
struct FuzzRegressionTests {
    /// `target/file` for every reproducer.
    static let reproducers: [String] = Fixtures.files(in: "fuzz").flatMap { target in
        Fixtures.files(in: "fuzz/\(target)").map { "\(target)/\($0)" }
    }

    /// Reads a reproducer as its fuzz target does, with the same options.
    static func read(target: String, url: URL) throws {
        let asOf = try #require(CalendarDate(year: 2026, month: 11, day: 22))
        let options = ReadOptions(asOf: asOf, playCurrency: CurrencyCode("USD"))
        let data = try Data(contentsOf: url)
        switch target {
        case "json": _ = try ProductConfigReader().read(data: data, displayPath: "products.json")
        case "yaml": _ = try ProductConfigReader().read(data: data, displayPath: "products.yml")
        case "rules": _ = try RulesFileReader().read(data: data, displayPath: ".catalogcheck.yml")
        case "baseline": _ = try BaselineReader().read(data: data, displayPath: "catalogcheck-baseline.json")
        case "storekit":
            _ = try StoreKitConfigReader().read(data: data, displayPath: "Products.storekit", options: options)
        case "asc": _ = try AppStoreConnectReader().read(data: data, displayPath: "asc.json", options: options)
        case "xml": _ = try AppStoreMetadataReader().read(data: data, displayPath: "metadata.xml", options: options)
        case "csv": _ = try PlayCSVReader().read(contentsOf: url, displayPath: "products.csv", options: options)
        case "plist": _ = try PlistReader().read(data: data, displayPath: "Products.plist", options: options)
        case "play-json": _ = try PlayJSONReader().read(contentsOf: url, displayPath: "products.json", options: options)
        default: Issue.record("unknown fuzz target folder \(target)")
        }
    }

    @Test("each reproducer is a clean read error", arguments: reproducers)
    func reproducer(_ name: String) throws {
        let target = String(name.prefix { $0 != "/" })
        #expect(throws: CatalogReadError.self) {
            try Self.read(target: target, url: Fixtures.url("fuzz/\(name)"))
        }
    }

    @Test("a key that is an alias, a list or a mapping is refused", arguments: [
        ("x: [*a : v]", "x[0]: a key must be a plain string, not an alias"),
        ("*a : v", "the config: a key must be a plain string, not an alias"),
        ("x:\n  [*a]: v", "x: a key must be a plain string, not a list"),
        ("? {k: *a}\n: v", "the config: a key must be a plain string, not a mapping"),
    ])
    func complexKeys(_ yaml: String, _ expected: String) throws {
        let error = #expect(throws: CatalogReadError.self) {
            try ProductConfigReader().read(data: Data(("a: &a [1]\n" + yaml).utf8), displayPath: "products.yml")
        }
        #expect(error?.message == expected)
    }

    @Test("an alias as a value, and \"*\" in text, still read")
    func aliasValuesStillRead() throws {
        let yaml = "a: &a [1]\nb: *a\nc: \"*not an alias*\"\n"
        #expect(throws: Never.self) { try ConfigNode.parseYAML(Data(yaml.utf8), path: "products.yml") }
    }

    @Test("the reproducers are found")
    func found() {
        #expect(Self.reproducers.contains("csv/empty-file-leak.csv"))
    }

    @Test("an empty regular file reads as no bytes, without Foundation's read (whose buffer leaked)")
    func emptyFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = folder.appendingPathComponent("empty.csv")
        try Data().write(to: empty)
        #expect(try FileLoading.data(at: empty, displayPath: "empty.csv").isEmpty)
        let error = #expect(throws: CatalogReadError.self) {
            try FileLoading.data(at: folder.appendingPathComponent("missing.csv"), displayPath: "missing.csv")
        }
        #expect(error?.message == "the file does not exist")
        #expect(throws: CatalogReadError.self) { try Self.read(target: "csv", url: empty) }
    }
}

