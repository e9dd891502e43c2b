import CatalogCore
import CatalogFormats
import Foundation
import Testing
import TestSupport

/// Every reader proves its format from the content (DESIGN.md §2): given another format's file (detected or forced
/// with `--store-format`), it refuses it with a message naming the file, so a gate never compares the wrong thing.
@Suite("Readers refuse other formats' files")
struct WrongFormatTests {
    /// One input of each format: the demo catalogs, and the plist fixture (the demo has no plist).
    static let inputs: [CatalogFormat: String] = [
        .storekit: "catalogs/demo/appstore.storekit", .ascJSON: "catalogs/demo/asc", .playJSON: "catalogs/demo/play",
        .playCSV: "catalogs/demo/play-products.csv", .appstoreXML: "catalogs/demo/metadata.xml",
        .plist: "Tests/Fixtures/plist/array.plist", .catalog: "catalogs/demo/products.yml",
        .revenuecat: "catalogs/demo/revenuecat", .map: "catalogs/demo/server/catalogcheck.map.yml",
    ]

    /// Reads `path` (relative to the repository root, and named so) as `format`; the error, or nil when it reads.
    static func error(reading path: String, as format: CatalogFormat) throws -> CatalogReadError? {
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        do {
            _ = try CatalogLoader.reader(for: format).read(
                contentsOf: Fixtures.repositoryRoot.appendingPathComponent(path), displayPath: path, options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test("the table covers every reader against every other format's input")
    func coverage() {
        let pairs = Set(Self.refusals.map { "\($0.0.rawValue) <- \($0.1)" })
        let expected = Set(CatalogFormat.allCases.flatMap { format in
            CatalogFormat.allCases.filter { $0 != format }.compactMap { other in
                Self.inputs[other].map { "\(format.rawValue) <- \($0)" }
            }
        })
        #expect(expected.count == 72)
        #expect(expected.isSubset(of: pairs))
    }

    /// (reader, input, the whole error line). The catalog rows are the config validator's messages.
    static let refusals: [(CatalogFormat, String, String)] = [
        (.storekit, "catalogs/demo/asc",
         "catalogs/demo/asc: error: is a folder, not a StoreKit configuration file"),
        (.storekit, "catalogs/demo/play",
         "catalogs/demo/play: error: is a folder, not a StoreKit configuration file"),
        (.storekit, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: invalid JSON: unexpected 'P', expected a value"),
        (.storekit, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:1:1: error: invalid JSON: unexpected '<', expected a value"),
        (.storekit, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:1:1: error: invalid JSON: unexpected '<', expected a value"),
        (.storekit, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:1:1: error: invalid JSON: unexpected '#', expected a value"),
        (.ascJSON, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:1:1: error: the document is not an App Store Connect API response: it has no \"data\" and no \"errors\" (keys found: \"identifier\", \"nonRenewingSubscriptions\", \"products\", \"settings\", \"subscriptionGroups\", \"version\")"),
        (.ascJSON, "catalogs/demo/play",
         "catalogs/demo/play/onetimeproduct-offers.json:1:1: error: the document is not an App Store Connect API response: it has no \"data\" and no \"errors\" (keys found: \"oneTimeProductOffers\")"),
        (.ascJSON, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: invalid JSON: unexpected 'P', expected a value"),
        (.ascJSON, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:1:1: error: invalid JSON: unexpected '<', expected a value"),
        (.ascJSON, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:1:1: error: invalid JSON: unexpected '<', expected a value"),
        (.ascJSON, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:1:1: error: invalid JSON: unexpected '#', expected a value"),
        (.playJSON, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:1:1: error: not a Play Developer API catalog resource: expected a list response (\"subscriptions\", \"subscriptionOffers\", \"inappproduct\", \"oneTimeProducts\", \"oneTimeProductOffers\") or a single subscription, subscription offer, in-app product, one-time product or one-time offer; found keys \"identifier\", \"nonRenewingSubscriptions\", \"products\", \"settings\", \"subscriptionGroups\", \"version\""),
        (.playJSON, "catalogs/demo/asc",
         "catalogs/demo/asc/in-app-purchase-6450000000-iapPriceSchedule.json:1:1: error: not a Play Developer API catalog resource: expected a list response (\"subscriptions\", \"subscriptionOffers\", \"inappproduct\", \"oneTimeProducts\", \"oneTimeProductOffers\") or a single subscription, subscription offer, in-app product, one-time product or one-time offer; found keys \"data\", \"included\", \"links\""),
        (.playJSON, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: invalid JSON: unexpected 'P', expected a value"),
        (.playJSON, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:1:1: error: invalid JSON: unexpected '<', expected a value"),
        (.playJSON, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:1:1: error: invalid JSON: unexpected '<', expected a value"),
        (.playJSON, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:1:1: error: invalid JSON: unexpected '#', expected a value"),
        (.playCSV, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:1: error: not a Play Console products CSV: the header row has no \"Product ID\" column (found \"{\")"),
        (.playCSV, "catalogs/demo/asc",
         "catalogs/demo/asc: error: expected a CSV file, found a folder"),
        (.playCSV, "catalogs/demo/play",
         "catalogs/demo/play: error: expected a CSV file, found a folder"),
        (.playCSV, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:1: error: not a Play Console products CSV: the header row has no \"Product ID\" column (found \"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\")"),
        (.playCSV, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:1: error: not a Play Console products CSV: the header row has no \"Product ID\" column (found \"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\")"),
        (.playCSV, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:1: error: not a Play Console products CSV: the header row has no \"Product ID\" column (found \"# Trailmate's products: what the backend and the apps believe.\")"),
        (.appstoreXML, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:1:1: error: the file is not XML: no root element found"),
        (.appstoreXML, "catalogs/demo/asc",
         "catalogs/demo/asc: error: not a Transporter package: the folder holds no metadata.xml"),
        (.appstoreXML, "catalogs/demo/play",
         "catalogs/demo/play: error: not a Transporter package: the folder holds no metadata.xml"),
        (.appstoreXML, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: the file is not XML: no root element found"),
        (.appstoreXML, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:3:1: error: not a Transporter metadata.xml: the root element is <plist>, expected <package> (in namespace http://apple.com/itunes/importer, or none)"),
        (.appstoreXML, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:1:1: error: the file is not XML: no root element found"),
        (.plist, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:1:1: error: the file is not XML: no root element found"),
        (.plist, "catalogs/demo/asc",
         "catalogs/demo/asc: error: is a directory, not a file"),
        (.plist, "catalogs/demo/play",
         "catalogs/demo/play: error: is a directory, not a file"),
        (.plist, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: the file is not XML: no root element found"),
        (.plist, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:2:1: error: not an XML property list: the root element is <package>, expected <plist>"),
        (.plist, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:1:1: error: the file is not XML: no root element found"),
        (.catalog, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:230:15: error: version: a mapping is not supported; this is schema version 1 (write \"version: 1\")"),
        (.catalog, "catalogs/demo/asc",
         "catalogs/demo/asc: error: is a folder; the product config is one YAML or JSON file"),
        (.catalog, "catalogs/demo/play",
         "catalogs/demo/play: error: is a folder; the product config is one YAML or JSON file"),
        (.catalog, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: the config must be a mapping with the keys version, app, groups and products, not \"Product ID,Published State,Purchase Type,Auto Translate,Loca…\""),
        (.catalog, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:1:1: error: the config must be a mapping with the keys version, app, groups and products, not \"<?xml version=\\\"1.0\\\" encoding=\\\"UTF-8\\\"?> <package xmlns=\\\"http:…\""),
        (.catalog, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:1:1: error: the config must be a mapping with the keys version, app, groups and products, not \"<?xml version=\\\"1.0\\\" encoding=\\\"UTF-8\\\"?> <!DOCTYPE plist PUBLI…\""),
        (.storekit, "catalogs/demo/asc/subscription-groups.json",
         "catalogs/demo/asc/subscription-groups.json:1:1: error: not a StoreKit configuration: the top-level object has none of the arrays \"products\", \"nonRenewingSubscriptions\", \"subscriptionGroups\" (keys found: \"data\", \"included\", \"links\", \"meta\")"),
        (.storekit, "catalogs/demo/play/subscriptions.json",
         "catalogs/demo/play/subscriptions.json:1:1: error: not a StoreKit configuration: the top-level object has none of the arrays \"products\", \"nonRenewingSubscriptions\", \"subscriptionGroups\" (keys found: \"subscriptions\")"),
        (.ascJSON, "catalogs/demo/play/subscriptions.json",
         "catalogs/demo/play/subscriptions.json:1:1: error: the document is not an App Store Connect API response: it has no \"data\" and no \"errors\" (keys found: \"subscriptions\")"),
        (.playJSON, "catalogs/demo/asc/subscription-groups.json",
         "catalogs/demo/asc/subscription-groups.json:1:1: error: not a Play Developer API catalog resource: expected a list response (\"subscriptions\", \"subscriptionOffers\", \"inappproduct\", \"oneTimeProducts\", \"oneTimeProductOffers\") or a single subscription, subscription offer, in-app product, one-time product or one-time offer; found keys \"data\", \"included\", \"links\", \"meta\""),
        (.ascJSON, "Tests/Fixtures/asc/not-asc/empty-array.json",
         "Tests/Fixtures/asc/not-asc/empty-array.json:1:1: error: not an App Store Connect API response: the top level is an empty array, expected a JSON:API document (an object with \"data\") or an array of them"),
        (.playJSON, "Tests/Fixtures/play/not-play/empty-object.json",
         "Tests/Fixtures/play/not-play/empty-object.json:1:1: error: not a Play Developer API resource or list response: the object holds none of Play's keys (an empty list needs its \"kind\", e.g. \"androidpublisher#inappproductsListResponse\")"),
        // The declared-only formats of `--config FORMAT:PATH` (DESIGN.md §4b): every reader refuses theirs, and
        // theirs refuse every other input.
        (.appstoreXML, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat: error: not a Transporter package: the folder holds no metadata.xml"),
        (.appstoreXML, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:1:1: error: the file is not XML: no root element found"),
        (.storekit, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat: error: is a folder, not a StoreKit configuration file"),
        (.storekit, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:1:1: error: invalid JSON: unexpected '#', expected a value"),
        (.ascJSON, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat/.fetch.json:48:13: error: the snapshot manifest says this is a snapshot of RevenueCat (\"store\": \"revenuecat\"), not of App Store Connect"),
        (.ascJSON, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:1:1: error: invalid JSON: unexpected '#', expected a value"),
        (.playCSV, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat: error: expected a CSV file, found a folder"),
        (.playCSV, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:1: error: not a Play Console products CSV: the header row has no \"Product ID\" column (found \"# How catalogcheck reads the paywall the server sends (paywall.json) as the declared catalog:\")"),
        (.playJSON, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat/.fetch.json:48:13: error: the snapshot manifest says this is a snapshot of RevenueCat (\"store\": \"revenuecat\"), not of Google Play"),
        (.playJSON, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:1:1: error: invalid JSON: unexpected '#', expected a value"),
        (.plist, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat: error: is a directory, not a file"),
        (.plist, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:1:1: error: the file is not XML: no root element found"),
        (.catalog, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat: error: is a folder; the product config is one YAML or JSON file"),
        (.catalog, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml:6:1: error: source: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:7:11: error: products: \"$.paywall.plans[*]\" is not a mapping of product IDs to products\ncatalogs/demo/server/catalogcheck.map.yml:8:1: error: id: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:9:1: error: storeIds: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:10:1: error: type: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:11:1: error: name: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:12:1: error: period: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:13:1: error: group: unknown key; did you mean \"groups\"?\ncatalogs/demo/server/catalogcheck.map.yml:14:1: error: level: unknown key (allowed: $schema, $comment, version, app, groups, products)\ncatalogs/demo/server/catalogcheck.map.yml:15:1: error: price: unknown key (allowed: $schema, $comment, version, app, groups, products)"),
        (.revenuecat, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml: error: a RevenueCat project is the folder `fetch revenuecat` writes, not one file"),
        (.revenuecat, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit: error: a RevenueCat project is the folder `fetch revenuecat` writes, not one file"),
        (.revenuecat, "catalogs/demo/asc",
         "catalogs/demo/asc/in-app-purchase-6450000000-iapPriceSchedule.json:1:1: error: not a page of a RevenueCat API v2 list: a list object holds \"items\" (revenuecat.com/docs/api-v2, Pagination)"),
        (.revenuecat, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv: error: a RevenueCat project is the folder `fetch revenuecat` writes, not one file"),
        (.revenuecat, "catalogs/demo/play",
         "catalogs/demo/play/onetimeproduct-offers.json:1:1: error: not a page of a RevenueCat API v2 list: a list object holds \"items\" (revenuecat.com/docs/api-v2, Pagination)"),
        (.revenuecat, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist: error: a RevenueCat project is the folder `fetch revenuecat` writes, not one file"),
        (.revenuecat, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml: error: a RevenueCat project is the folder `fetch revenuecat` writes, not one file"),
        (.revenuecat, "catalogs/demo/server/catalogcheck.map.yml",
         "catalogs/demo/server/catalogcheck.map.yml: error: a RevenueCat project is the folder `fetch revenuecat` writes, not one file"),
        (.map, "catalogs/demo/metadata.xml",
         "catalogs/demo/metadata.xml:1:1: error: the mapping file must be a mapping with the keys version, source, products and id, not \"<?xml version=\\\"1.0\\\" encoding=\\\"UTF-8\\\"?> <package xmlns=\\\"http:…\""),
        (.map, "catalogs/demo/appstore.storekit",
         "catalogs/demo/appstore.storekit:230:15: error: version: a mapping is not supported; this is schema version 1 (write \"version: 1\")"),
        (.map, "catalogs/demo/asc",
         "catalogs/demo/asc: error: is a folder; the mapping file is one YAML or JSON file"),
        (.map, "catalogs/demo/play-products.csv",
         "catalogs/demo/play-products.csv:1:1: error: the mapping file must be a mapping with the keys version, source, products and id, not \"Product ID,Published State,Purchase Type,Auto Translate,Loca…\""),
        (.map, "catalogs/demo/play",
         "catalogs/demo/play: error: is a folder; the mapping file is one YAML or JSON file"),
        (.map, "Tests/Fixtures/plist/array.plist",
         "Tests/Fixtures/plist/array.plist:1:1: error: the mapping file must be a mapping with the keys version, source, products and id, not \"<?xml version=\\\"1.0\\\" encoding=\\\"UTF-8\\\"?> <!DOCTYPE plist PUBLI…\""),
        (.map, "catalogs/demo/products.yml",
         "catalogs/demo/products.yml:3:1: error: source: missing; name the JSON or YAML file that holds the products (relative to the mapping file)\ncatalogs/demo/products.yml:3:1: error: id: missing; a selector of each product's ID, such as $.productId\ncatalogs/demo/products.yml:4:1: error: app: unknown key (allowed: version, source, products, id, name, type, group, level, period, price, prices, familyShareable, storeIds)\ncatalogs/demo/products.yml:7:1: error: groups: unknown key; did you mean \"group\"?\ncatalogs/demo/products.yml:11:3: error: products: a mapping is not a string"),
        (.map, "catalogs/demo/revenuecat",
         "catalogs/demo/revenuecat: error: is a folder; the mapping file is one YAML or JSON file"),
    ]

    @Test("each reader refuses each other format's input with exit 2's message", arguments: refusals)
    func refuses(format: CatalogFormat, path: String, line: String) throws {
        // Act
        let error = try #require(try Self.error(reading: path, as: format), "\(format.rawValue) read \(path)")
        // Assert
        #expect(error.description == line)
    }

    @Test("and each reads its own input")
    func readsItsOwn() throws {
        for (format, path) in Self.inputs {
            #expect(try Self.error(reading: path, as: format) == nil, "\(format.rawValue) \(path)")
        }
    }

    @Test("a <package> of another vocabulary is not a Transporter metadata.xml")
    func foreignPackageRoot() throws {
        // Arrange: a NuGet .nuspec, whose root is also <package>.
        let nuspec = #"<?xml version="1.0"?>"# + "\n"
            + #"<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"><metadata/></package>"#
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        // Act
        let error = try #require(throws: CatalogReadError.self) {
            try AppStoreMetadataReader().read(data: Data(nuspec.utf8), displayPath: "Foo.nuspec", options: options)
        }
        // Assert
        #expect(error.description == "Foo.nuspec:2:1: error: not a Transporter metadata.xml: the root element is "
            + "<package> in namespace http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd, expected <package> "
            + "(in namespace http://apple.com/itunes/importer, or none)")
    }

    /// A JSON:API document is App Store Connect's only when it holds (or its `links.self` names) a resource of
    /// a catalog type; an empty list of an app's resources still names the app.
    @Test("asc-json needs a resource or links.self of App Store Connect's catalog types", arguments: [
        (#"{"data": []}"#, "no resource at all"),
        (#"{"data": null, "meta": {}}"#, "no resource at all"),
        (#"{"data": [{"type": "articles", "id": "1", "attributes": {"title": "JSON:API"}}]}"#,
         #"types found: "articles""#),
    ])
    func ascNeedsItsTypes(json: String, found: String) throws {
        // Arrange
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        // Act
        let error = try #require(throws: CatalogReadError.self) {
            try AppStoreConnectReader().read(data: Data(json.utf8), displayPath: "doc.json", options: options)
        }
        // Assert
        #expect(error.description == "doc.json: error: not an App Store Connect catalog: no resource or links.self "
            + "of subscriptionGroups, subscriptions, inAppPurchases, their prices or apps (\(found))")
    }

    @Test("an empty list of an app's in-app purchases is an empty App Store Connect catalog")
    func ascEmptyListOfAnApp() throws {
        // Arrange
        let json = #"{"data": [], "links": {"self": "https://api.appstoreconnect.apple.com/v1/apps/1/inAppPurchasesV2"}}"#
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        // Act
        let catalog = try AppStoreConnectReader().read(data: Data(json.utf8), displayPath: "iaps.json", options: options)
        // Assert
        #expect(catalog.products.isEmpty)
        #expect(catalog.format == .ascJSON)
    }

    @Test("a folder read as a Transporter package must hold metadata.xml")
    func transporterFolderWithoutMetadata() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder(suffix: ".itmsp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        // Act
        let error = try #require(throws: CatalogReadError.self) {
            try AppStoreMetadataReader().read(contentsOf: folder, displayPath: "App.itmsp", options: options)
        }
        // Assert
        #expect(error.description == "App.itmsp: error: not a Transporter package: the folder holds no metadata.xml")
    }
}
