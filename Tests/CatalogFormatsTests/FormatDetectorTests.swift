import CatalogCore
@testable import CatalogFormats
import Foundation
import Testing
import TestSupport

@Suite("Format detection")
struct FormatDetectorTests {
    private func detect(_ url: URL) throws(CatalogReadError) -> CatalogFormat {
        try FormatDetector.detect(url, displayPath: url.lastPathComponent)
    }

    @Test("example catalogs and reader fixtures: by extension, by content, and folders", arguments: [
        ("catalogs/demo/products.yml", CatalogFormat.catalog),
        ("catalogs/demo/appstore.storekit", .storekit),
        ("catalogs/demo/asc", .ascJSON),
        ("catalogs/demo/metadata.xml", .appstoreXML),
        ("catalogs/demo/play", .playJSON),
        ("catalogs/demo/play-products.csv", .playCSV),
        ("catalogs/demo-drift/asc/subscription-groups.json", .ascJSON),
        ("catalogs/demo-drift/play/subscriptions.json", .playJSON),
        ("catalogs/demo-drift/play/onetimeproducts.json", .playJSON),
        ("Tests/Fixtures/config/valid/rich.json", .catalog),
        ("Tests/Fixtures/storekit/minimal-v1.storekit", .storekit),
        ("Tests/Fixtures/asc/documents-array.json", .ascJSON),
        ("Tests/Fixtures/asc/app-folder", .ascJSON),
        ("Tests/Fixtures/xml/no-namespace.xml", .appstoreXML),
        ("Tests/Fixtures/xml/subscription-group-software5.9.xml", .appstoreXML),
        ("Tests/Fixtures/plist/array.plist", .plist),
        ("Tests/Fixtures/play/api/inappproducts.json", .playJSON),
        ("Tests/Fixtures/play/api/offers.json", .playJSON),
        ("Tests/Fixtures/play/legacy-migrated-subscription.json", .playJSON),
        ("Tests/Fixtures/play/gpp", .playJSON),
        ("Tests/Fixtures/play/csv/seven-columns.csv", .playCSV),
    ])
    func repositoryFiles(path: String, format: CatalogFormat) throws {
        #expect(try detect(Fixtures.repositoryRoot.appendingPathComponent(path)) == format)
    }

    @Test("content decides where the extension does not: JSON shapes, XML roots, a YAML config")
    func sniffing() {
        #expect(FormatDetector.sniff(#"{"packageName": "com.example", "productId": "premium"}"#) == .playJSON)
        #expect(FormatDetector.sniff(#"{"data": {"type": "subscriptions", "id": "1"}}"#) == .ascJSON)
        #expect(FormatDetector.sniff(#"{"version": 1, "products": {}}"#) == .catalog)
        #expect(FormatDetector.sniff("<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array/></plist>") == .plist)
        #expect(FormatDetector.sniff("\u{FEFF}version: 1\nproducts: {}\n") == .catalog)
        #expect(FormatDetector.sniff("Product ID,Published State,Price\n") == .playCSV)
        #expect(FormatDetector.sniff(#"{"name": "something else"}"#) == nil)
        #expect(FormatDetector.sniff("<html></html>") == nil)
        // The marks are searched as bytes: at the very end, after a near miss, and not past the end.
        #expect(FormatDetector.sniff("<?xml version=\"1.0\"?>\n<pack<packag<package") == .appstoreXML)
        #expect(FormatDetector.sniff("<?xml version=\"1.0\"?>\n<packag") == nil)
        #expect(FormatDetector.sniff("<p") == nil)
        #expect(FormatDetector.sniff("product id,") == .playCSV)
        #expect(FormatDetector.sniff("PRODUCT ID") == nil)
    }

    /// Issue #25 item 5: a JSON config whose products hold `purchaseOptions` (or `subscriptions`, `sku`) was
    /// taken for a Play catalog, since detection looked for those names anywhere in the first bytes.
    @Test("a JSON config is told by its structure, whatever keys its products hold")
    func configByStructure() {
        let withPurchaseOptions = #"""
            {"version": 1, "products": {"coins": {"type": "consumable", "purchaseOptions": {"rent": {"rent": "P30D"}}}}}
            """#
        let configKeysOnly = #"{"version": 1, "app": {"bundleId": "com.example"}, "groups": {"subscriptions": {}}}"#

        #expect(FormatDetector.sniff(withPurchaseOptions) == .catalog)
        #expect(FormatDetector.sniff(configKeysOnly) == .catalog)
        // A StoreKit file's `products` is an array and its `version` an object; a Play resource has neither.
        #expect(FormatDetector.sniff(#"{"products": [], "settings": {}, "subscriptionGroups": [], "version": {"major": 4}}"#) == .storekit)
        #expect(FormatDetector.sniff(#"{"version": 1, "purchaseOptions": [], "productId": "x"}"#) == .playJSON)
        #expect(JSONTopLevel.members(of: #"{"a": {"b": [1, "}"]}, "c": "d", "e"#)
                == [.init(key: "a", value: "{"), .init(key: "c", value: "\"")])
        #expect(JSONTopLevel.members(of: "[1]") == nil)
        // Escapes inside strings, a key that is not ASCII, a byte order mark and white space between the tokens,
        // a value that starts with a character of two bytes, and a string cut short.
        let text = "\u{FEFF} {\r\n\"a\\\"b\" :\t\"x\\\"}\", \"prix€\": ٣, \"c\": [\"]\", {}], \"d\": \"cut"
        let expected: [JSONTopLevel.Member] = [.init(key: "a\"b", value: "\""), .init(key: "prix€", value: "٣"),
                                               .init(key: "c", value: "["), .init(key: "d", value: "\"")]
        #expect(JSONTopLevel.members(of: text) == expected)
        #expect(JSONTopLevel.isProductConfig([.init(key: "version", value: "٣")]))
        #expect(JSONTopLevel.members(of: "{\"a\": 1,") == [.init(key: "a", value: "1")])
        #expect(JSONTopLevel.members(of: " ") == nil)
    }

    @Test("a Transporter package folder is detected by its metadata.xml")
    func transporterPackage() throws {
        let folder = try Fixtures.transporterPackage(with: "xml/lookup-software5.4.xml")
        defer { try? FileManager.default.removeItem(at: folder) }

        #expect(try detect(folder) == .appstoreXML)
    }

    @Test("undetectable inputs and missing files are errors naming the path")
    func undetectable() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.txt")
        try Data("just some notes\n".utf8).write(to: text)

        let file = #expect(throws: CatalogReadError.self) { try detect(text) }
        let plainFolder = #expect(throws: CatalogReadError.self) { try detect(folder) }
        let missing = #expect(throws: CatalogReadError.self) { try detect(folder.appendingPathComponent("missing.json")) }

        #expect(file?.description.hasPrefix("notes.txt: error: cannot tell the format of this file") == true)
        #expect(plainFolder?.message.hasPrefix("cannot tell the format of this folder") == true)
        #expect(missing?.description == "missing.json: error: the file does not exist")
    }

    @Test(.enabled(if: RealWorld.isAvailable), arguments: [
        ("google/Triple-T_gradle-play-publisher_subscription.json", CatalogFormat.playJSON),
        ("google/Triple-T_gradle-play-publisher_product.json", .playJSON),
        ("google/RiddhRam_Martian-Frontier_GooglePlayProductCatalog.csv", .playCSV),
        ("apple/apple-docs_GET-v1-subscriptions-id-prices_example_response.json", .ascJSON),
        ("apple/37iOS_AppleParty_iap_metadata.xml", .appstoreXML),
        ("apple/cntrump_SKDemo_Products.storekit", .storekit),
    ])
    func realWorldFiles(path: String, format: CatalogFormat) throws {
        #expect(try detect(RealWorld.url(path)) == format)
    }

    @Test("a listed path's folder, lowercased name and extension read on its bytes as by its characters")
    func listedNames() {
        let paths = [
            "page-00001.json", "asc/page-00001.json", "a/b/C.JSON", "metadata.xml", "x/metadata.xml", ".json", "a.json.",
            "a..json", "json", "", "/", "a/", "products/p.json", "a.b.c.yml", "x.map.yml", "store.storekit", "P.Plist",
            "dir.d/file", "a\r\n.json", "é.json", "x\u{0600}.json", "a/\u{0600}.json", "d\u{0301}/e.csv", "中/文.yaml",
            ".\u{0301}json", "a.\u{0301}json",
        ]
        for path in paths {
            let bytes = FormatDetector.listedName(path)
            let characters = FormatDetector.listedNameByCharacters(path)
            #expect(bytes.slash == characters.slash && bytes.folder == characters.folder
                        && bytes.lowered == characters.lowered && bytes.fileExtension == characters.fileExtension,
                    "\(path.debugDescription)")
        }
        let page = FormatDetector.listedName("asc/Page-00001.JSON")
        #expect(page.folder == "asc" && page.lowered == "page-00001.json" && page.fileExtension == "json")
        #expect(FormatDetector.listedName("a.json.").fileExtension == "json")
        #expect(FormatDetector.listedName(".json").fileExtension == "")
        // A prepend character joins the dot after it into one character: no extension, whatever the bytes say.
        #expect(FormatDetector.listedName("x\u{0600}.json").fileExtension == "")
    }
}
