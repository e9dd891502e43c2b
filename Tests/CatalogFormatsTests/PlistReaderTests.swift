import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// Bundled product lists (`plist`): array, dictionary and wrapped forms; binary and malformed property lists.
@Suite struct PlistReaderTests {
    typealias Location = CatalogCore.SourceLocation

    static func options() throws -> ReadOptions {
        ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 6, day: 15)))
    }

    func read(_ fixture: String) throws -> Catalog {
        try PlistReader().read(contentsOf: Fixtures.url(fixture), displayPath: fixture, options: try Self.options())
    }

    func readFailure(contentsOf url: URL, displayPath: String) throws -> CatalogReadError? {
        let options = try Self.options()
        do {
            _ = try PlistReader().read(contentsOf: url, displayPath: displayPath, options: options)
            return nil
        } catch {
            return error
        }
    }

    func readFailure(_ fixture: String) throws -> CatalogReadError? {
        try readFailure(contentsOf: Fixtures.url(fixture), displayPath: fixture)
    }

    /// Reads a property list whose root `<dict>` / `<array>` body is `body`, starting on line 4.
    func readFailure(body: String) throws -> CatalogReadError? {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            \(body)
            </plist>
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID().uuidString).plist")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try readFailure(contentsOf: file, displayPath: "Products.plist")
    }

    @Test func arrayOfProductIDs() throws {
        let path = "plist/array.plist"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        let catalog = try read(path)
        #expect(catalog.path == path)
        #expect(catalog.format == .plist)
        #expect(catalog.groups == [])
        #expect(catalog.capabilities == CatalogCapabilities(expressesGroups: false, priceableTerritories: []))
        #expect(catalog.products == [
            Product(id: ProductID("com.example.app.coins.small"), location: at(5, 2), fieldLocations: [.id: at(5, 2)]),
            Product(id: ProductID("com.example.app.unlock"), location: at(6, 2), fieldLocations: [.id: at(6, 2)]),
            Product(id: ProductID("com.example.app.pro.monthly"), location: at(7, 2), fieldLocations: [.id: at(7, 2)]),
        ])
    }

    @Test func dictionaryOfProducts() throws {
        let path = "plist/dict.plist"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        let catalog = try read(path)
        let usd = try #require(CurrencyCode("USD"))
        let amount = try #require(Money.parseAmount("0.99"))
        #expect(catalog.products == [
            // A price names no territory: kept as an uncompared default price.
            Product(id: ProductID("com.example.app.coins.small"), kind: .consumable,
                    uncomparedPrices: [UncomparedPrice(label: "default", amount: Money(amount: amount, currency: usd))],
                    location: at(5, 2), fieldLocations: [.id: at(5, 2), .type: at(8, 3), .price: at(10, 3)]),
            // Without a currency the amount stays raw text.
            Product(id: ProductID("com.example.app.unlock"), kind: .nonConsumable, referenceName: "Unlock everything",
                    uncomparedPrices: [UncomparedPrice(label: "default", rawAmount: "4.99")],
                    location: at(14, 2),
                    fieldLocations: [.id: at(14, 2), .type: at(17, 3), .price: at(19, 3), .name: at(21, 3)]),
            Product(id: ProductID("com.example.app.pro.monthly"), kind: .autoRenewable, location: at(23, 2),
                    fieldLocations: [.id: at(23, 2), .type: at(26, 3)]),
            Product(id: ProductID("com.example.app.pass.week"), kind: .nonRenewing, location: at(28, 2),
                    fieldLocations: [.id: at(28, 2), .type: at(31, 3)]),
            Product(id: ProductID("com.example.app.legacy"), location: at(33, 2), fieldLocations: [.id: at(33, 2)]),
            Product(id: ProductID("com.example.app.named"), location: at(35, 2), fieldLocations: [.id: at(35, 2)]),
        ])
        #expect(catalog.capabilities.priceableTerritories == [])
        #expect(catalog.products.allSatisfy { $0.prices.isEmpty && $0.introOffers == nil && $0.groupKey == nil })
    }

    @Test func dictionaryWithAProductListKey() throws {
        let path = "plist/products-key.plist"
        let catalog = try read(path)
        #expect(catalog.products.map(\.id.rawValue) == ["com.example.app.coins.small", "com.example.app.unlock"])
        #expect(catalog.products.map(\.location) == [
            Location(path: path, line: 9, column: 3), Location(path: path, line: 10, column: 3),
        ])
    }

    /// FORMATS.md's third layout: `Products` IDs, and `Subscriptions` sections whose IDs are auto-renewable in
    /// their `Group`. Read whole: before, only the `Products` half was read (2 of 5 products).
    @Test func productsAndSubscriptionsLayoutIsReadWhole() throws {
        // Arrange
        let path = "plist/products-and-subscriptions.plist"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        // Act
        let catalog = try read(path)
        // Assert
        #expect(catalog.groups == [
            SubscriptionGroup(key: "Premium", name: "Premium", location: at(14, 4)),
            SubscriptionGroup(key: "Family", name: "Family", location: at(23, 4)),
        ])
        #expect(catalog.capabilities == CatalogCapabilities(expressesGroups: true, priceableTerritories: []))
        func subscription(_ id: String, _ group: String, _ line: Int, groupLine: Int) -> Product {
            Product(id: ProductID(id), kind: .autoRenewable, groupKey: group, location: at(line, 5),
                    fieldLocations: [.id: at(line, 5), .group: at(groupLine, 4)])
        }
        #expect(catalog.products == [
            Product(id: ProductID("com.example.app.coins.small"), location: at(7, 3), fieldLocations: [.id: at(7, 3)]),
            Product(id: ProductID("com.example.app.unlock"), location: at(8, 3), fieldLocations: [.id: at(8, 3)]),
            subscription("com.example.app.premium.monthly", "Premium", 17, groupLine: 14),
            subscription("com.example.app.premium.yearly", "Premium", 18, groupLine: 14),
            subscription("com.example.app.family.yearly", "Family", 26, groupLine: 23),
        ])
    }

    /// A list with none of the layouts, or a layout that would be read in part, is an error (exit 2).
    @Test(arguments: [
        ("plist/not-a-layout/unknown-section.plist", 9, 2,
         "\"Consumables\": a product list with a Products or Subscriptions section holds only those (and numbers "
            + "or dates such as a version); <array> here could hold product IDs that would go unread"),
        ("plist/not-a-layout/subscription-without-group.plist", 7, 3, "Subscriptions[0]: the section has no Group"),
    ])
    func refusesWhatNoLayoutReadsWhole(path: String, line: Int, column: Int, message: String) throws {
        // Act
        let error = try #require(try readFailure(path))
        // Assert
        #expect(error.location == Location(path: path, line: line, column: column))
        #expect(error.message == message)
    }

    @Test(arguments: [
        ("<dict>\n<key>Products</key><array/>\n<key>Extra</key><string>a</string>\n</dict>", 6,
         "\"Extra\": a product list with a Products or Subscriptions section holds only those (and numbers or dates "
            + "such as a version); <string> here could hold product IDs that would go unread"),
        ("<dict>\n<key>Subscriptions</key>\n<dict/>\n</dict>", 6,
         "Subscriptions: expected an <array> of <dict>s with Group and Products, found <dict>"),
        ("<dict>\n<key>Subscriptions</key><array>\n<string>a</string></array>\n</dict>", 6,
         "Subscriptions[0]: expected a <dict> with Group and Products, found <string>"),
        ("<dict>\n<key>Subscriptions</key><array><dict><key>Group</key><string>G</string>\n</dict></array>\n</dict>",
         5, "Subscriptions[0]: the section has no Products"),
        ("<dict>\n<key>Subscriptions</key><array><dict>\n<key>Level</key><integer>1</integer></dict></array>\n</dict>",
         6, "Subscriptions[0]: \"Level\" is not Group or Products"),
        ("<dict>\n<key>Subscriptions</key><array><dict><key>Group</key>\n<string> </string></dict></array>\n</dict>",
         6, "Subscriptions[0].Group: expected the group's name in a <string>, found an empty one"),
        ("<dict>\n<key>Subscriptions</key><array><dict><key>Group</key><string>G</string><key>Products</key>\n"
            + "<string>a</string></dict></array>\n</dict>", 6,
         "Subscriptions[0].Products: expected an <array> of product IDs, found <string>"),
    ])
    func invalidSections(body: String, line: Int, message: String) throws {
        let error = try #require(try readFailure(body: body))
        #expect(error.location.line == line, "\(error)")
        #expect(error.message == message)
    }

    /// The dictionary layout takes any value beside an ID (FORMATS.md "ID → any value"); only a `<dict>` is read
    /// for attributes.
    @Test func dictionaryValuesOfAnyKindListTheirKey() throws {
        // Arrange
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><false/><key>b</key><integer>3</integer><key>c</key><array/>\
            <key>d</key><date>2026-01-01T00:00:00Z</date></dict></plist>
            """
        // Act
        let catalog = try PlistReader().read(data: Data(document.utf8), displayPath: "Products.plist",
                                             options: try Self.options())
        // Assert
        #expect(catalog.products.map(\.id.rawValue) == ["a", "b", "c", "d"])
        #expect(catalog.products.allSatisfy { $0.kind == nil && $0.groupKey == nil })
        #expect(catalog.capabilities.expressesGroups == false)
    }

    @Test(arguments: [
        ("Consumable", ProductKind.consumable), ("non-consumable", .nonConsumable), ("NON_CONSUMABLE", .nonConsumable),
        ("NonRenewingSubscription", .nonRenewing), ("auto-renewable", .autoRenewable), ("AutoRenewable", .autoRenewable),
    ])
    func typeSpellings(spelling: String, kind: ProductKind) throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><dict><key>type</key><string>\(spelling)</string></dict></dict></plist>
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID().uuidString).plist")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalog = try PlistReader().read(contentsOf: file, displayPath: "Products.plist", options: try Self.options())
        #expect(catalog.products.map(\.kind) == [kind])
    }

    @Test func duplicateKeysAreDuplicateProductsNotErrors() throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><true/><key>a</key><true/></dict></plist>
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID().uuidString).plist")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let catalog = try PlistReader().read(contentsOf: file, displayPath: "Products.plist", options: try Self.options())
        #expect(catalog.products.map(\.id.rawValue) == ["a", "a"])
    }

    @Test func readsFromMemoryAsFromAFile() throws {
        let path = "plist/array.plist"
        let data = try Data(contentsOf: Fixtures.url(path))
        let fromMemory = try PlistReader().read(data: data, displayPath: path, options: try Self.options())
        #expect(fromMemory == (try read(path)))
        let binary = #expect(throws: CatalogReadError.self) {
            try PlistReader().read(data: Data("bplist00".utf8), displayPath: "b.plist", options: try Self.options())
        }
        #expect(binary?.location == Location(path: "b.plist", line: 1, column: 1))
    }

    // MARK: - Malformed

    @Test func binaryPropertyList() throws {
        let error = try #require(try readFailure("malformed/plist-binary.plist"))
        #expect(error.location == Location(path: "malformed/plist-binary.plist", line: 1, column: 1))
        #expect(error.message.hasPrefix("binary property lists are not supported; convert with `plutil -convert xml1"))
    }

    @Test func truncated() throws {
        let error = try #require(try readFailure("malformed/plist-truncated.plist"))
        #expect(error.location == Location(path: "malformed/plist-truncated.plist", line: 7, column: 1))
        #expect(error.message == "unexpected end of file inside <string>: the document is truncated")
    }

    @Test func wrongRoot() throws {
        let error = try #require(try readFailure("malformed/plist-wrong-root.plist"))
        #expect(error.location == Location(path: "malformed/plist-wrong-root.plist", line: 4, column: 1))
        #expect(error.message
            == "the property list's root must be an <array> of product IDs or a <dict> of products, found <string>")
    }

    @Test func notAPropertyList() throws {
        let error = try #require(try readFailure("xml/lookup-software5.4.xml"))
        #expect(error.location == Location(path: "xml/lookup-software5.4.xml", line: 2, column: 1))
        #expect(error.message == "not an XML property list: the root element is <package>, expected <plist>")
    }

    @Test(arguments: [
        ("<array>\n<string>a</string>\n<dict/>\n</array>", 6, "[1]: expected a <string> product ID, found <dict>"),
        ("<dict>\n<key>a</key><dict><key>type</key>\n<string>bundle</string></dict>\n</dict>", 6,
         "a.type: \"bundle\" is not a product type"),
        ("<dict>\n<key>a</key><dict><key>price</key>\n<string>9,99 EUR</string></dict>\n</dict>", 6,
         "a.price: \"9,99 EUR\" is not a price"),
        ("<dict>\n<key>a</key><dict><key>price</key>\n<string>0.99 XXQ</string></dict>\n</dict>", 6,
         "a.price: \"0.99 XXQ\" is not a price"),
        ("<dict>\n<key>a</key><dict><key>type</key><string>consumable</string>\n<key>type</key><string>consumable</string>"
            + "</dict>\n</dict>", 6, "a.type appears twice"),
        ("<dict>\n<key>Products</key>\n<string>a</string>\n</dict>", 6,
         "Products: expected an <array> of product IDs or a <dict> of products, found <string>"),
        ("<dict>\n<key>a</key>\n</dict>", 5, "<key>a</key> has no value"),
        ("<dict>\n<string>a</string>\n</dict>", 5, "expected <key> in <dict>, found <string>"),
        ("<array>\n<string>   </string>\n</array>", 5, "[0]: the product ID is empty"),
        ("<array>\n<thing/>\n</array>", 5, "<thing> is not a property list element"),
        ("<array>\nloose text\n</array>", 5, "unexpected text \"loose text\""),
        ("<array/>\n<array/>", 5, "<plist> must hold exactly one value"),
        ("", 3, "the property list is empty"),
    ])
    func invalidContent(body: String, line: Int, message: String) throws {
        let error = try #require(try readFailure(body: body))
        #expect(error.location.path == "Products.plist")
        #expect(error.location.line == line, "\(error)")
        #expect(error.message.contains(message), "\(error.message)")
    }
}
