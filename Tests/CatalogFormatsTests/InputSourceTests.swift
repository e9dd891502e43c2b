import CatalogCore
@testable import CatalogFormats
import Foundation
import TestSupport
import Testing

/// `InputSource`: every spelling parsed without touching the disk, then resolved once into one input (kind,
/// format, listing, identity) before any reader runs.
@Suite("Input sources")
struct InputSourceTests {
    @Test("every spelling parses into its origin, its format and the name output gives it", arguments: [
        ("products.yml", InputSource(origin: .path("products.yml")), "products.yml"),
        ("storekit:x.json", InputSource(origin: .path("x.json"), format: .storekit), "x.json"),
        ("git:HEAD:catalogs/products.yml", InputSource(origin: .git(revision: "HEAD", path: "catalogs/products.yml")),
         "git:HEAD:catalogs/products.yml"),
        ("asc-json:git:origin/main:asc", InputSource(origin: .git(revision: "origin/main", path: "asc"), format: .ascJSON),
         "git:origin/main:asc"),
        ("-", InputSource(origin: .standardInput), "-"),
        ("play-csv:-", InputSource(origin: .standardInput, format: .playCSV), "-"),
        ("C:/odd:name.yml", InputSource(origin: .path("C:/odd:name.yml")), "C:/odd:name.yml"),
        ("git:no-second-colon", InputSource(origin: .path("git:no-second-colon")), "git:no-second-colon"),
    ])
    func parsing(argument: String, expected: InputSource, displayPath: String) {
        let source = InputSource(argument)

        #expect(source == expected)
        #expect(source.displayPath == displayPath)
    }

    @Test("a file resolves to its kind, its detected format and its identity")
    func file() throws {
        let path = Fixtures.catalog("demo/appstore.storekit").path

        let input = try InputSource(path).resolve(as: .store)

        #expect(input.kind == .file)
        #expect(try input.readableFormat() == .storekit)
        #expect(input.identity == FileIdentity.of(path: path))
        #expect(input.files == [try #require(FileIdentity.of(path: path))])
        #expect(input.listing == [])
    }

    @Test("a folder resolves to its listing, read once, and the one format it holds")
    func folder() throws {
        let input = try InputSource(Fixtures.url("play/gpp").path).resolve(as: .store)

        #expect(input.kind == .folder)
        #expect(try input.readableFormat() == .playJSON)
        #expect(input.listing == ["products/premium_unlock.json", "subscriptions/vip.json",
                                  "subscriptions/vip.metadata.json"])
        #expect(input.files.count == 4)
    }

    @Test("a folder of several formats keeps why it cannot be read, thrown when it is read")
    func severalFormats() throws {
        let input = try InputSource("catalogs/demo-drift").resolve(as: .catalog)

        let error = #expect(throws: CatalogReadError.self) { try input.readableFormat() }
        #expect(error?.description == "catalogs/demo-drift: error: holds catalogs of several formats: "
                + "appstore.storekit (storekit), asc/ (asc-json), metadata.xml (appstore-xml), play-products.csv "
                + "(play-csv), play/ (play-json), products.previous.yml (catalog), products.yml (catalog), revenuecat/ "
                + "(revenuecat); a folder is read as one catalog, name one of them")
    }

    @Test("a product config is refused as a store, detected or named, and read as a config")
    func configAsStore() throws {
        let path = Fixtures.catalog("demo/products.yml").path

        let detected = try InputSource(path).resolve(as: .store)
        let named = try InputSource("catalog:" + path).resolve(as: .store)
        let config = try InputSource(path).resolve(as: .config)
        // A format named for the config is the user's statement (`--config FORMAT:PATH`, DESIGN.md §4b): the
        // StoreKit reader then refuses the file, never a silent switch to the config reader.
        let namedConfig = try InputSource("storekit:" + path).resolve(as: .config)

        for input in [detected, named] {
            let error = #expect(throws: CatalogReadError.self) { try input.readableFormat() }
            #expect(error?.message == "a product config, not a store catalog; compare two configs with `diff`")
        }
        #expect(try config.readableFormat() == .catalog)
        #expect(try namedConfig.readableFormat() == .storekit)
    }

    @Test("one file has one identity through ./, .., a symbolic link and a hard link")
    func identity() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("a.storekit")
        try FileManager.default.copyItem(at: Fixtures.catalog("demo/appstore.storekit"), to: file)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link.storekit"),
                                                   withDestinationURL: file)
        try FileManager.default.linkItem(at: file, to: folder.appendingPathComponent("hard.storekit"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"),
                                                withIntermediateDirectories: false)

        let spellings = ["a.storekit", "link.storekit", "hard.storekit", "sub/../a.storekit"]
            .map { folder.path + "/" + $0 }
        let identities = try spellings.map { try InputSource($0).resolve(as: .store).identity }

        #expect(Set(identities).count == 1)
        #expect(identities.first == FileIdentity.of(path: file.path))
    }

    @Test("a missing path is thrown at resolution, naming the path as spelled")
    func missing() throws {
        let error = #expect(throws: CatalogReadError.self) {
            try InputSource("storekit:nowhere/none.storekit").resolve(as: .store)
        }
        #expect(error?.description == "nowhere/none.storekit: error: the file does not exist")
    }

    @Test("check's reading of resolved inputs gives what reading each input on its own gives")
    func loadResolved() throws {
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        let loader = CatalogLoader(options: options)
        let config = try InputSource(Fixtures.catalog("demo/products.yml").path).resolve(as: .config)
        let stores = try ["demo/asc", "demo/play", "demo/metadata.xml"].map {
            try InputSource(Fixtures.catalog($0).path).resolve(as: .store)
        }

        let (configCatalog, storeCatalogs) = try loader.load(config: config, stores: stores)

        #expect(configCatalog == (try loader.load(Fixtures.catalog("demo/products.yml").path, format: .catalog)))
        #expect(storeCatalogs.map(\.format) == [.ascJSON, .playJSON, .appstoreXML])
        #expect(storeCatalogs[1] == (try loader.load(Fixtures.catalog("demo/play").path)))
    }
}
