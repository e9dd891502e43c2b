import CatalogCore
@testable import CatalogFormats
import CatalogSnapshot
import Foundation
import Testing
import TestSupport

/// A folder `fetch` wrote is read as exactly that snapshot or not at all (DESIGN.md §2b, issue 25): a manifest
/// that is damaged, of another store or version, or that names a page missing or changed, and a file it does not
/// name, stop the read at the manifest (or the file); a snapshot whose pages are all empty lists is an empty
/// catalog of its store. On a copy of `asc/offers/fetched-without-offers` (two pages, manifest version 2).
@Suite("Snapshot folders")
struct SnapshotFolderTests {
    static let fixture = "asc/offers/fetched-without-offers"
    static let iaps = "in-app-purchases-0001.json"
    static let subscriptions = "subscription-group-20000201-subscriptions-0001.json"

    /// A copy of the fixture snapshot, which the test may damage; removed after.
    private func withCopy(_ body: (URL) throws -> Void) throws {
        let folder = try Fixtures.temporaryFolder().appendingPathComponent("asc")
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        try FileManager.default.copyItem(at: Fixtures.url(Self.fixture), to: folder)
        try body(folder)
    }

    private func load(_ folder: URL, format: CatalogFormat? = nil) throws -> Catalog {
        try CatalogLoader(options: ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22))))
            .load(folder.path, format: format)
    }

    private func loadError(_ folder: URL, format: CatalogFormat? = nil) throws -> CatalogReadError {
        try #require(throws: CatalogReadError.self) { try load(folder, format: format) }
    }

    private func edit(_ folder: URL, _ name: String, _ change: (String) -> String) throws {
        let url = folder.appendingPathComponent(name)
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    private func manifest(_ folder: URL) -> String {
        folder.path + "/.fetch.json"
    }

    @Test func theIntactSnapshotReadsWithWhatItsManifestSays() throws {
        try withCopy { folder in
            let catalog = try load(folder)
            #expect(catalog.format == .ascJSON)
            #expect(catalog.capabilities.offerKinds == [.promotional, .offerCode, .winBack])
            #expect(catalog.products.map(\.id.rawValue).sorted() == ["com.example.coins", "com.example.pro.yearly"])
        }
    }

    @Test func aTruncatedManifestExits2AtTheManifest() throws {
        try withCopy { folder in
            try edit(folder, ".fetch.json") { String($0.prefix(200)) }

            let error = try loadError(folder)

            #expect(error.location.path == manifest(folder))
            #expect(error.location.line == 9)
            #expect(error.message.hasPrefix("damaged snapshot manifest: invalid JSON: "), "\(error.message)")
            #expect(error.message.hasSuffix("; fetch the snapshot again"), "\(error.message)")
        }
    }

    @Test func anEmptyArrayAsManifestExits2() throws {
        try withCopy { folder in
            try edit(folder, ".fetch.json") { _ in "[]" }

            let error = try loadError(folder, format: .ascJSON)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 1, column: 1))
            #expect(error.message
                == "damaged snapshot manifest: expected an object, found an array; fetch the snapshot again")
        }
    }

    @Test func aValueOfTheWrongTypeExits2AtTheValue() throws {
        try withCopy { folder in
            try edit(folder, ".fetch.json") { $0.replacingOccurrences(of: #""subject" : "1""#, with: #""subject" : 7"#) }

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 49, column: 15))
            #expect(error.message == "damaged snapshot manifest: subject: expected a string, found the number 7; "
                + "fetch the snapshot again")
        }
    }

    @Test func aManifestOfTheFirstVersionIsNamedAsSuch() throws {
        try withCopy { folder in
            try edit(folder, ".fetch.json") { _ in #"{"version": 1, "store": "appstore", "app": "1", "requests": []}"# }

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 1, column: 13))
            #expect(error.message == "the snapshot manifest is of version 1, not of version 2, which this "
                + "catalogcheck reads (and which records each page's SHA-256); fetch the snapshot again with this "
                + "catalogcheck")
        }
    }

    @Test func aMissingPageExits2AtItsRecord() throws {
        try withCopy { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent(Self.subscriptions))

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 41, column: 5))
            #expect(error.message == """
                the snapshot manifest names the page "\(Self.subscriptions)", which is not in the folder (or is not \
                a regular file): the snapshot is incomplete; fetch it again
                """)
        }
    }

    /// A page replaced by a symbolic link (here to a copy of its own bytes) is no page fetch wrote.
    @Test func aPageThatIsASymbolicLinkIsMissing() throws {
        try withCopy { folder in
            let outside = folder.deletingLastPathComponent().appendingPathComponent("outside.json")
            try FileManager.default.moveItem(at: folder.appendingPathComponent(Self.iaps), to: outside)
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(Self.iaps),
                                                       withDestinationURL: outside)

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 35, column: 5))
            #expect(error.message.hasPrefix("the snapshot manifest names the page \"\(Self.iaps)\", which is not in"))
        }
    }

    @Test func aChangedPageExits2AtItsRecord() throws {
        try withCopy { folder in
            try edit(folder, Self.iaps) { $0 + " " }
            let actual = SnapshotDigest.sha256(of: try Data(contentsOf: folder.appendingPathComponent(Self.iaps)))

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 35, column: 5))
            #expect(error.message == """
                the page "\(Self.iaps)" is not the one fetch wrote: its bytes' SHA-256 is \(actual), the manifest \
                records c9025806913ff0188a5da7dc14c87d4393cf14184d25b1a6db9e11100d47ab44; the snapshot was changed \
                after fetch, so it is not read; fetch it again
                """)
        }
    }

    /// Changing the manifest's store does not make another store's pages readable: their requests say whose
    /// they are.
    @Test func aStoreChangedInTheManifestExits2AtThePagesRequest() throws {
        try withCopy { folder in
            try edit(folder, ".fetch.json") { $0.replacingOccurrences(of: #""appstore""#, with: #""play""#) }

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: manifest(folder), line: 37, column: 16))
            #expect(error.message == """
                damaged snapshot manifest: pages[0].path: "/v1/apps/1/inAppPurchasesV2" is not a request of Google \
                Play's API (/androidpublisher/…); fetch the snapshot again
                """)
        }
    }

    @Test func aSnapshotOfTheOtherStoreExits2AtTheStore() throws {
        // Arrange: a Play snapshot (an app without products), read as App Store Connect's.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("subscriptions-0001.json"))
        try SnapshotFolders.writeManifest(in: folder, store: .play, subject: "com.example.app")
        let text = try String(contentsOfFile: manifest(folder), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.contains(#""store" : "play""#) })

        // Act
        let error = try loadError(folder, format: .ascJSON)

        // Assert
        #expect(error.location == SourceLocation(path: manifest(folder), line: line + 1, column: 13))
        #expect(error.message == #"the snapshot manifest says this is a snapshot of Google Play ("store": "play"), "#
            + "not of App Store Connect")
    }

    /// fetch replaces the whole folder on the next fetch, so a file in it that fetch did not write is refused,
    /// whatever its kind, rather than read or passed over.
    @Test(arguments: ["notes.json", "README.md", "extra/more.json"])
    func aFileTheManifestDoesNotNameExits2AtTheFile(name: String) throws {
        try withCopy { folder in
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try Data(#"{"data": []}"#.utf8).write(to: url)

            let error = try loadError(folder)

            #expect(error.location == SourceLocation(path: folder.path + "/" + name))
            #expect(error.message.hasPrefix("not a page of this snapshot: its .fetch.json does not name it."))
        }
    }

    @Test func aSnapshotOfAStoreThisVersionDoesNotKnowIsNamed() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{}".utf8).write(to: folder.appendingPathComponent("offerings-0001.json"))
        try SnapshotFolders.writeManifest(in: folder, store: SnapshotStore(rawValue: "galaxy"))

        let error = try loadError(folder)

        #expect(error.location == SourceLocation(path: folder.path))
        #expect(error.message == #"a snapshot of the store "galaxy", which this version of catalogcheck cannot read"#)
    }

    // MARK: - Empty stores

    /// `fetch play` of an app with no products on the new one-time-product model: every list is `{}` (Google's
    /// empty list) and the legacy `inappproducts` list has no page (Play's 403 "migrate"), so nothing in the pages
    /// is a mark of Play's; the manifest says what the folder is.
    @Test func aPlaySnapshotOfEmptyListsIsAnEmptyPlayCatalog() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for stem in ["subscriptions", "subscription-offers", "onetimeproducts", "onetimeproduct-offers"] {
            try Data("{\n\n}".utf8).write(to: folder.appendingPathComponent(stem + "-0001.json"))
        }
        try SnapshotFolders.writeManifest(in: folder, store: .play, subject: "com.example.app", kinds: [
            "subscriptions": .init(pages: 1, resources: 0), "subscriptionOffers": .init(pages: 1, resources: 0),
            "inappproducts": .init(pages: 0, resources: 0), "oneTimeProducts": .init(pages: 1, resources: 0),
            "oneTimeProductOffers": .init(pages: 1, resources: 0),
        ])

        let catalog = try load(folder)

        #expect(catalog.format == .playJSON)
        #expect(catalog.products.isEmpty)
        #expect(catalog.capabilities.offerKinds == [.play])
        // The same pages without the manifest are no catalog at all: nothing says whose they are.
        try FileManager.default.removeItem(atPath: manifest(folder))
        #expect(throws: CatalogReadError.self) { try load(folder, format: .playJSON) }
    }

    @Test func anAppStoreSnapshotOfEmptyListsIsAnEmptyAppStoreCatalog() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"data": [], "links": {"self": "https://api.appstoreconnect.apple.com/v1/apps/1/inAppPurchasesV2"}}"#
            .utf8).write(to: folder.appendingPathComponent("in-app-purchases-0001.json"))
        try Data(#"{"data": [], "links": {"self": "https://api.appstoreconnect.apple.com/v1/apps/1/subscriptionGroups"}}"#
            .utf8).write(to: folder.appendingPathComponent("subscription-groups-0001.json"))
        try SnapshotFolders.writeManifest(in: folder, store: .appStore, kinds: [
            "inAppPurchases": .init(pages: 1, resources: 0), "subscriptionGroups": .init(pages: 1, resources: 0),
        ], requests: ["in-app-purchases-0001.json": "/v1/apps/1/inAppPurchasesV2",
                      "subscription-groups-0001.json": "/v1/apps/1/subscriptionGroups"])

        let catalog = try load(folder)

        #expect(catalog.format == .ascJSON)
        #expect(catalog.products.isEmpty)
    }
}
