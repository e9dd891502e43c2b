import CatalogCore
import CatalogSnapshot
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// The `revenuecat` reader: a RevenueCat API v2 snapshot as a declared catalog of several apps (DESIGN.md §4b).
@Suite struct RevenueCatReaderTests {
    static func options() throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 6, day: 15)))
    }

    func read(_ folder: URL, displayPath: String) throws -> Catalog {
        try RevenueCatReader().read(folder: folder, listing: FileLoading.listing(of: folder).map(\.path),
                                    displayPath: displayPath, options: try Self.options())
    }

    func failure(_ folder: URL) throws -> CatalogReadError? {
        do {
            _ = try read(folder, displayPath: "rc")
            return nil
        } catch let error as CatalogReadError {
            return error
        }
    }

    /// A copy of the multi-app fixture with `change` applied to one page, in a scratch folder.
    func changed(_ page: String, _ change: (inout String) -> Void) throws -> URL {
        let folder = try Fixtures.temporaryFolder(suffix: "-rc")
        for name in ["apps.json", "products.json", "offerings.json", "entitlements.json"] {
            var text = try String(contentsOf: Fixtures.url("revenuecat/multi-app/\(name)"), encoding: .utf8)
            if name == page { change(&text) }
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    @Test func theDemoProjectReadsItsAppsProductsAndOfferings() throws {
        let catalog = try read(Fixtures.catalog("demo/revenuecat"), displayPath: "catalogs/demo/revenuecat")

        #expect(catalog.format == .revenuecat)
        let project = try #require(catalog.project)
        #expect(project.apps.map(\.id) == ["app8a9b0c1d", "app2f3e4d5c"])
        #expect(project.apps.map(\.appID) == ["com.trailmate.app", "com.trailmate.app"])
        #expect(project.apps.map(\.store) == [.appStore, .play])
        #expect(catalog.products.count == 13)
        let pro = try #require(catalog.products.first { $0.id.rawValue == "trailmate_plus:pro-yearly" })
        #expect(pro.kind == .autoRenewable)
        #expect(pro.period == SubscriptionPeriod(iso: "P1Y"))
        #expect(pro.introOffers?.map(\.summary) == ["free-trial P1W"])
        #expect(pro.referenceName == "Pro Yearly")
        #expect(pro.stores == [.play])
        #expect(pro.declaredApp == "app2f3e4d5c")
        #expect(pro.prices.isEmpty)
        let maps = catalog.products.filter { $0.id.rawValue == "com.trailmate.app.offline_maps" }
        #expect(maps.map(\.kind) == [.nonConsumable, .nonConsumable])
        #expect(project.offerings.map(\.lookupKey) == ["default", "store"])
        #expect(project.offerings.map(\.isCurrent) == [true, false])
        let annual = try #require(project.offerings.first?.packages.first)
        #expect(annual.lookupKey == "$rc_annual")
        // The web app's product is of a store catalogcheck does not read: not in the package, not in the catalog.
        #expect(annual.products.map(\.storeIdentifier.rawValue)
                == ["com.trailmate.app.pro.yearly", "trailmate_plus:pro-yearly"])
        #expect(catalog.remarks == [
            "RevenueCat project proj5e7a1d2c: 2 App Store and Play apps, 13 products, 3 entitlements, 2 offerings; "
                + "prices come from the stores and are not compared",
            "1 products of 1 apps of other stores (rc_billing) are not compared",
        ])
    }

    @Test func archivedProductsAreNotReadAndAPackageNamingOneSaysSo() throws {
        let catalog = try read(Fixtures.url("revenuecat/multi-app"), displayPath: "rc")

        #expect(catalog.products.map(\.id.rawValue)
                == ["com.example.pro.monthly", "com.example.mac.pro", "legacy_pro", "pro:monthly", "coins_100"])
        #expect(catalog.products.last?.kind == .consumable)
        let package = try #require(catalog.project?.offerings.first?.packages.first)
        #expect(package.products.map(\.storeIdentifier.rawValue)
                == ["com.example.pro.monthly", "legacy_pro", "com.example.old"])
        #expect(package.products.map(\.inProject) == [true, true, false])
        #expect(catalog.remarks.contains("1 archived products are not read"))
    }

    @Test("a page that is not what a snapshot holds stops the reading at it", arguments: [
        ("products.json", "\"type\": \"subscription\"", "\"type\": \"bundle\"",
         "\"bundle\" is not a RevenueCat product type"),
        ("products.json", "\"app_id\": \"appmac01\"", "\"app_id\": \"appnowhere\"",
         "the app appnowhere is not among the project's apps in the snapshot"),
        ("offerings.json", "\"is_current\": false", "\"is_current\": \"no\"", "expected true or false, found a string"),
        ("products.json", "\"url\": \"/v2/projects/projmulti01/products\"", "\"url\": \"/v2/projects/other01/products\"",
         "the page is of the project other01, the snapshot's other pages of projmulti01: one snapshot is one project"),
        ("apps.json", "\"url\": \"/v2/projects/projmulti01/apps\"", "\"url\": \"/v2/projects/projmulti01/customers\"",
         "is not a list this reader reads"),
        ("offerings.json", "\"object\": \"list\"", "\"object\": \"offering\"", "\"offering\" is not \"list\""),
    ])
    func damagedPages(page: String, find: String, replace: String, message: String) throws {
        let folder = try changed(page) { $0 = $0.replacingOccurrences(of: find, with: replace) }
        defer { try? FileManager.default.removeItem(at: folder) }

        let error = try #require(try failure(folder))

        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.path == "rc/\(page)")
    }

    /// Writes the manifest `fetch revenuecat` writes (`SnapshotManifest`, version 2) for the pages of `folder`,
    /// each recorded as the request of its list in the project `projmulti01`.
    func writeManifest(in folder: URL, store: SnapshotStore = .revenueCat) throws {
        var pages: [SnapshotManifest.Page] = []
        for name in ["apps", "products", "offerings", "entitlements"] where store == .revenueCat {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(name + ".json"))
            let request = "/v2/projects/projmulti01/\(name)?limit=100"
            pages.append(SnapshotManifest.Page(file: name + ".json", request: request, bytes: bytes))
        }
        let manifest = SnapshotManifest(store: store, subject: store == .revenueCat ? "projmulti01" : "com.example",
                                        fetchedAt: Date(timeIntervalSince1970: 0), fetchedBy: "catalogcheck test",
                                        kinds: [:], pages: pages)
        try manifest.encoded().write(to: folder.appendingPathComponent(SnapshotManifest.fileName))
    }

    @Test func aManifestOfAnotherStoreOrAListThatContinuesNowhereStops() throws {
        let other = try changed("") { _ in }
        defer { try? FileManager.default.removeItem(at: other) }
        try writeManifest(in: other, store: .play)
        let cut = try changed("products.json") {
            $0 = $0.replacingOccurrences(of: "\"next_page\": null,\n  \"object\": \"list\"",
                                         with: "\"next_page\": \"/v2/projects/projmulti01/products?starting_after=prodstripe01\",\n  \"object\": \"list\"")
        }
        defer { try? FileManager.default.removeItem(at: cut) }
        try writeManifest(in: cut)

        let otherError = try #require(try failure(other))
        let cutError = try #require(try failure(cut))

        #expect(otherError.message == "the snapshot manifest says this is a snapshot of Google Play "
                + "(\"store\": \"play\"), not of RevenueCat")
        #expect(otherError.location.path == "rc/.fetch.json")
        #expect(cutError.message == "next_page: the list continues after prodstripe01, and the snapshot holds no such "
                + "page: it is incomplete; fetch it again")
        #expect(cutError.location.path == "rc/products.json")
    }
}
