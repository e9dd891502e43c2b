import CatalogCore
import CatalogFormats
import Foundation
import TestSupport
import Testing

/// A folder is stat'ed and listed once, at resolution (DESIGN.md §2, "inputs are resolved once"): the loader hands
/// the listing to the folder readers, which read the files it names and never list the folder again. Observed by
/// a listing that differs from the disk.
@Suite("Folders listed once")
struct FolderListingTests {
    private static func options() throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
    }

    private static func ids(_ catalog: Catalog) -> [String] {
        catalog.products.map(\.id.rawValue).sorted()
    }

    /// App Store Connect's subscription groups document alone: three subscriptions, no in-app purchase.
    private static let ascSubscriptions = ["com.example.basic.weekly", "com.example.premium.monthly",
                                           "com.example.premium.yearly"]
    /// Play's subscriptions list alone: one product per base plan, no one-time product.
    private static let playSubscriptions = ["premium:four-weeks", "premium:installments-12", "premium:monthly",
                                            "premium:prepaid-month", "pro.tier:annual"]

    @Test("the loader reads a folder as resolution listed it: a file added afterwards is not read", arguments: [
        (CatalogFormat.ascJSON, "asc/app-folder/01-subscription-groups.json", "asc/app-folder/05-in-app-purchases.json",
         ascSubscriptions),
        (CatalogFormat.playJSON, "play/api/subscriptions.json", "play/api/inappproducts.json", playSubscriptions),
    ])
    func loaderHandsOverTheListing(format: CatalogFormat, listed: String, addedLater: String,
                                   expected: [String]) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.copyItem(at: Fixtures.url(listed), to: folder.appendingPathComponent("a.json"))
        let input = try InputSource(origin: .path(folder.path), format: format).resolve(as: .store)
        try manager.copyItem(at: Fixtures.url(addedLater), to: folder.appendingPathComponent("b.json"))

        let catalog = try CatalogLoader(options: Self.options()).load(input)

        #expect(input.listing == ["a.json"])
        #expect(Self.ids(catalog) == expected)
    }

    @Test("a folder reader reads the files its listing names, not the folder's", arguments: [
        (CatalogFormat.ascJSON, "asc/app-folder", "01-subscription-groups.json", ascSubscriptions),
        (CatalogFormat.playJSON, "play/api", "subscriptions.json", playSubscriptions),
    ])
    func readerUsesTheListingGiven(format: CatalogFormat, folder: String, listed: String,
                                   expected: [String]) throws {
        let reader = CatalogLoader.reader(for: format)

        let catalog = try reader.read(folder: Fixtures.url(folder), listing: [listed], displayPath: folder,
                                      options: Self.options())

        #expect(Self.ids(catalog) == expected)
        #expect(catalog.path == folder)
    }

    @Test("a listing without .json files is refused as an empty folder is, naming the folder")
    func listingWithoutDocuments() throws {
        let reader = AppStoreConnectReader()

        let error = try #require(throws: CatalogReadError.self) {
            try reader.read(folder: Fixtures.url("asc/app-folder"), listing: ["notes.txt"], displayPath: "asc",
                            options: Self.options())
        }

        #expect(error.description == "asc: error: the folder holds no .json files")
    }
}
