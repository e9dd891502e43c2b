import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

private typealias Location = CatalogCore.SourceLocation

/// Transporter `metadata.xml` (`appstore-xml`): products, groups, tiers, intervals, hostile and malformed input.
@Suite struct AppStoreMetadataReaderTests {
    static let asOf = CalendarDate(year: 2026, month: 6, day: 15)

    func read(_ fixture: String, asOf: CalendarDate? = AppStoreMetadataReaderTests.asOf) throws -> Catalog {
        let date = try #require(asOf)
        return try AppStoreMetadataReader().read(
            contentsOf: Fixtures.url(fixture), displayPath: fixture, options: ReadOptions(asOf: date))
    }

    func readError(_ fixture: String) throws -> CatalogReadError {
        let date = try #require(AppStoreMetadataReaderTests.asOf)
        do {
            let catalog = try AppStoreMetadataReader().read(
                contentsOf: Fixtures.url(fixture), displayPath: fixture, options: ReadOptions(asOf: date))
            Issue.record("expected an error, read \(catalog.products.count) products")
            throw CancellationError()
        } catch let error as CatalogReadError {
            return error
        }
    }

    static func usd(_ amount: String) throws -> Money {
        Money(amount: try #require(Money.parseAmount(amount)), currency: try #require(CurrencyCode("USD")))
    }

    fileprivate static func usPrice(_ amount: String, _ location: Location) throws -> [Territory: Price] {
        [.unitedStates: Price(territory: .unitedStates, money: try usd(amount), location: location)]
    }

    @Test func lookupMetadataSoftware54() throws {
        let path = "xml/lookup-software5.4.xml"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        let catalog = try read(path)
        #expect(catalog.path == path)
        #expect(catalog.format == .appstoreXML)
        #expect(catalog.groups == [])
        #expect(catalog.remarks == [])
        #expect(catalog.capabilities == CatalogCapabilities(expressesGroups: true, priceableTerritories: [.unitedStates]))
        #expect(catalog.products == [
            Product(
                id: ProductID("com.example.app.unlock"), kind: .nonConsumable, referenceName: "Unlock everything",
                prices: try Self.usPrice("4.99", at(32, 37)), clearedForSale: true, location: at(22, 17),
                fieldLocations: [.id: at(23, 21), .name: at(24, 21), .type: at(25, 21), .clearedForSale: at(28, 29),
                                 .price: at(32, 37)]),
            Product(
                id: ProductID("com.example.app.coins.100"), kind: .consumable, referenceName: "100 coins",
                prices: try Self.usPrice("0.99", at(57, 37)), clearedForSale: false, location: at(47, 17),
                fieldLocations: [.id: at(48, 21), .name: at(49, 21), .type: at(50, 21), .clearedForSale: at(53, 29),
                                 .price: at(57, 37)]),
        ])
    }

    @Test func familySoftware50() throws {
        let path = "xml/family-software5.0.xml"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        let catalog = try read(path)
        #expect(catalog.groups == [SubscriptionGroup(key: "Example Pro", name: "Example Pro", location: at(9, 9))])
        #expect(catalog.products == [
            Product(
                id: ProductID("com.example.app.pro.monthly"), kind: .autoRenewable, referenceName: "Pro monthly",
                groupKey: "Example Pro", period: SubscriptionPeriod(count: 1, unit: .month),
                prices: try Self.usPrice("1.99", at(27, 17)), clearedForSale: true, location: at(18, 11),
                fieldLocations: [.id: at(19, 13), .name: at(20, 13), .period: at(21, 13), .type: at(23, 13),
                                 .clearedForSale: at(26, 17), .price: at(27, 17), .group: at(9, 9)]),
            // No reference_name in the family form: nil, never invented.
            Product(
                id: ProductID("com.example.app.pro.yearly"), kind: .autoRenewable, groupKey: "Example Pro",
                period: SubscriptionPeriod(count: 1, unit: .year), prices: try Self.usPrice("9.99", at(39, 17)),
                clearedForSale: true, location: at(31, 11),
                fieldLocations: [.id: at(32, 13), .period: at(33, 13), .type: at(35, 13),
                                 .clearedForSale: at(38, 17), .price: at(39, 17), .group: at(9, 9)]),
            // Tier 0 is free: a price of 0 USD.
            Product(
                id: ProductID("com.example.app.pass.week"), kind: .nonRenewing, referenceName: "Week pass",
                prices: try Self.usPrice("0", at(51, 15)), clearedForSale: true, location: at(44, 9),
                fieldLocations: [.id: at(45, 11), .name: at(46, 11), .type: at(47, 11), .clearedForSale: at(50, 15),
                                 .price: at(51, 15)]),
        ])
        // Formats without offers, levels or family sharing leave them nil.
        #expect(catalog.products.allSatisfy { $0.introOffers == nil && $0.level == nil && $0.familyShareable == nil })
    }

    @Test func subscriptionGroupSoftware59() throws {
        let path = "xml/subscription-group-software5.9.xml"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        let catalog = try read(path)
        #expect(catalog.groups == [
            SubscriptionGroup(key: "Example Plus", name: "Example Plus", location: at(8, 17)),
            SubscriptionGroup(key: "Example Family", name: "Example Family", location: at(31, 17)),
        ])
        #expect(catalog.products == [
            Product(
                id: ProductID("com.example.app.plus.weekly"), kind: .autoRenewable, referenceName: "Plus weekly",
                groupKey: "Example Plus", period: SubscriptionPeriod(count: 1, unit: .week), clearedForSale: true,
                location: at(15, 21),
                fieldLocations: [.id: at(16, 25), .name: at(17, 25), .type: at(18, 25), .period: at(19, 25),
                                 .clearedForSale: at(20, 25), .group: at(8, 17)]),
            Product(
                id: ProductID("com.example.app.plus.quarterly"), kind: .autoRenewable, referenceName: "Plus quarterly",
                groupKey: "Example Plus", period: SubscriptionPeriod(count: 3, unit: .month), clearedForSale: false,
                location: at(23, 21),
                fieldLocations: [.id: at(24, 25), .name: at(25, 25), .type: at(26, 25), .period: at(27, 25),
                                 .clearedForSale: at(28, 25), .group: at(8, 17)]),
            Product(
                id: ProductID("com.example.app.family.yearly"), kind: .autoRenewable, referenceName: "Family yearly",
                groupKey: "Example Family", period: SubscriptionPeriod(count: 1, unit: .year), clearedForSale: true,
                location: at(32, 21),
                fieldLocations: [.id: at(33, 25), .name: at(34, 25), .type: at(35, 25), .period: at(36, 25),
                                 .clearedForSale: at(37, 25), .group: at(31, 17)]),
            // free-subscription has no canonical kind: read without a type, with a remark.
            Product(
                id: ProductID("com.example.app.magazine"), referenceName: "Free magazine", location: at(40, 17),
                fieldLocations: [.id: at(41, 21), .name: at(42, 21), .type: at(43, 21)]),
        ])
        #expect(catalog.remarks.count == 1)
        #expect(catalog.remarks.first?.hasPrefix("\(path):43:21: <type>free-subscription</type>") == true)
    }

    @Test func intervalsAsOf() throws {
        let path = "xml/intervals.xml"
        func at(_ line: Int, _ column: Int) -> Location { Location(path: path, line: line, column: column) }
        let catalog = try read(path)
        let byID = Dictionary(catalog.products.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(catalog.products.count == 5)

        // Past interval dropped, current one (2026-01-01 ..< 2026-09-01) priced, future one scheduled.
        let pcf = try #require(byID["com.example.intervals.past-current-future"])
        #expect(pcf.prices == (try Self.usPrice("2.99", at(21, 19))))
        #expect(pcf.uncomparedPrices == [UncomparedPrice(label: "scheduled", territory: .unitedStates,
                                                         amount: try Self.usd("4.99"),
                                                         startDate: CalendarDate(year: 2026, month: 9, day: 1))])
        #expect(pcf.fieldLocations[.price] == at(21, 19))
        #expect(pcf.location == at(7, 9))

        // No start date: always applies.
        let noStart = try #require(byID["com.example.intervals.no-start"])
        #expect(noStart.prices == (try Self.usPrice("1.99", at(38, 19))))
        #expect(noStart.uncomparedPrices == [])

        // Three intervals apply (no start, starts today, started 2024): the latest start wins; start ≤ as-of.
        let latest = try #require(byID["com.example.intervals.latest-start-wins"])
        #expect(latest.prices == (try Self.usPrice("9.99", at(55, 19))))

        // end_date is exclusive: an interval ending on the as-of day no longer applies → no price.
        let ended = try #require(byID["com.example.intervals.ended"])
        #expect(ended.prices == [:])
        #expect(ended.uncomparedPrices == [])
        #expect(ended.fieldLocations[.price] == nil)

        // Only future intervals: no current price, both scheduled (sorted).
        let future = try #require(byID["com.example.intervals.future-only"])
        #expect(future.prices == [:])
        #expect(future.uncomparedPrices == [
            UncomparedPrice(label: "scheduled", territory: .unitedStates, amount: try Self.usd("1.99"),
                            startDate: CalendarDate(year: 2027, month: 1, day: 1)),
            UncomparedPrice(label: "scheduled", territory: .unitedStates, amount: try Self.usd("2.99"),
                            startDate: CalendarDate(year: 2027, month: 2, day: 1)),
        ])
    }

    @Test func intervalsFollowAsOf() throws {
        let catalog = try read("xml/intervals.xml", asOf: CalendarDate(year: 2025, month: 3, day: 1))
        let product = try #require(catalog.products.first)
        #expect(product.prices[.unitedStates]?.money == (try Self.usd("0.99")))
        #expect(product.uncomparedPrices.map(\.startDate) == [
            CalendarDate(year: 2026, month: 1, day: 1), CalendarDate(year: 2026, month: 9, day: 1),
        ])
    }

    @Test func noNamespaceAndForeignElements() throws {
        let path = "xml/no-namespace.xml"
        let catalog = try read(path)
        #expect(catalog.products.map(\.id.rawValue) == ["com.example.plain", "com.example.plain.two"])
        #expect(catalog.products.map(\.kind) == [.consumable, .nonConsumable])
        // Several elements on one line still get their own columns.
        #expect(catalog.products[0].location == Location(path: path, line: 6, column: 9))
        #expect(catalog.products[0].fieldLocations[.id] == Location(path: path, line: 6, column: 26))
        #expect(catalog.products[0].fieldLocations[.type] == Location(path: path, line: 6, column: 68))
        #expect(catalog.products[0].prices[.unitedStates]?.money == (try Self.usd("0.99")))
    }

    @Test func packageFolderReadsItsMetadataXML() throws {
        let folder = try Fixtures.transporterPackage(with: "xml/lookup-software5.4.xml")
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try AppStoreMetadataReader().read(
            contentsOf: folder, displayPath: "app.itmsp",
            options: ReadOptions(asOf: try #require(Self.asOf)))
        #expect(catalog.path == "app.itmsp")
        #expect(catalog.products.first?.location == Location(path: "app.itmsp/metadata.xml", line: 22, column: 17))
    }

    // MARK: - Hostile input (DESIGN.md §5a 14)

    @Test func externalEntitiesAreNeverLoaded() throws {
        let path = "malformed/xml-xxe-local-file.xml"
        let marker = try String(contentsOf: Fixtures.url("malformed/xml-xxe-marker.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(marker.hasPrefix("CATALOGCHECK-XXE-MARKER"))
        let catalog = try read(path)
        let product = try #require(catalog.products.first)
        #expect(catalog.products.count == 1)
        // Declared entities expand to nothing, internal or external.
        #expect(product.id == ProductID("com.example.xxe"))
        #expect(product.referenceName == "Name")
        #expect(product.groupKey == "Group")
        #expect(catalog.groups.map(\.name) == ["Group"])
        let everything = "\(catalog)"
        #expect(!everything.contains(marker))
        #expect(!everything.contains("root:"))
        #expect(!everything.contains("internal entity text"))
    }

    @Test func billionLaughsReadsWithoutExpanding() throws {
        let catalog = try read("malformed/xml-billion-laughs.xml")
        #expect(catalog.products.map(\.id) == [ProductID("com.example.laughs")])
        #expect(catalog.products.first?.groupKey == "Laughs")
        #expect(catalog.groups.map(\.name) == ["Laughs"])
        #expect(!"\(catalog)".contains("lol"))
    }

    /// `levels` nested entity declarations, one a line: `e0` is `x`, each next one ten references to the one
    /// before.
    static func nestedDeclarations(levels: Int) -> String {
        var declarations = ["<!ENTITY e0 \"x\">"]
        for level in 1...levels {
            declarations.append("<!ENTITY e\(level) \"\(String(repeating: "&e\(level - 1);", count: 10))\">")
        }
        return declarations.joined(separator: "\n")
    }

    @Test("nested entity declarations read and expand to nothing", arguments: [4, 20])
    func nestedEntities(levels: Int) throws {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE package [
            \(Self.nestedDeclarations(levels: levels))
            ]>
            <package xmlns="http://apple.com/itunes/importer" version="software5.4">
              <software><software_metadata><in_app_purchases>
                <subscription_group name="Premium&e\(levels);">
                  <in_app_purchase>
                    <product_id>com.example.nested&e\(levels);.monthly</product_id>
                    <reference_name>Monthly &e\(levels);</reference_name>
                    <type>auto-renewable</type>
                    <duration>1 Month</duration>
                  </in_app_purchase>
                </subscription_group>
                <in_app_purchase>
                  <product_id>com.example.nested.coins</product_id>
                  <reference_name>&e\(levels);Coins</reference_name>
                  <type>consumable</type>
                </in_app_purchase>
              </in_app_purchases></software_metadata></software>
            </package>
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nested-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("metadata.xml")
        try Data(document.utf8).write(to: url)
        let catalog = try AppStoreMetadataReader().read(
            contentsOf: url, displayPath: "metadata.xml", options: ReadOptions(asOf: try #require(Self.asOf)))
        #expect(catalog.products.map(\.id) == [ProductID("com.example.nested.monthly"),
                                               ProductID("com.example.nested.coins")])
        #expect(catalog.products.map(\.referenceName) == ["Monthly", "Coins"])
        #expect(catalog.products.map(\.groupKey) == ["Premium", nil])
        #expect(catalog.products.first?.period == SubscriptionPeriod(count: 1, unit: .month))
        #expect(catalog.products.first?.location == Location(path: "metadata.xml", line: levels + 8, column: 7))
    }

    @Test("UTF-16 with nested entity declarations reads as UTF-8 does, from memory",
          arguments: [(4, false), (4, true), (20, false)])
    func nestedEntitiesInUTF16(levels: Int, bigEndian: Bool) throws {
        let document = """
            <?xml version="1.0" encoding="UTF-16"?>
            <!DOCTYPE package [
            \(Self.nestedDeclarations(levels: levels))
            ]>
            <package xmlns="http://apple.com/itunes/importer" version="software5.4">
              <in_app_purchase>
                <product_id>com.example.nested&e\(levels);.coins</product_id>
                <reference_name>&e\(levels);Coins</reference_name>
              </in_app_purchase>
            </package>
            """
        let data = XMLSAXParserTests.utf16(document, bigEndian: bigEndian)
        let catalog = try AppStoreMetadataReader().read(data: data, displayPath: "metadata.xml",
                                                        options: ReadOptions(asOf: try #require(Self.asOf)))
        #expect(catalog.products.map(\.id) == [ProductID("com.example.nested.coins")])
        #expect(catalog.products.map(\.referenceName) == ["Coins"])
        #expect(catalog.products.first?.location == Location(path: "metadata.xml", line: levels + 6, column: 3))
        #expect(catalog.products.first?.fieldLocations[.id] == Location(path: "metadata.xml", line: levels + 7,
                                                                        column: 5))
    }

    // MARK: - Malformed input

    @Test func truncated() throws {
        let error = try readError("malformed/xml-truncated.xml")
        #expect(error.location == Location(path: "malformed/xml-truncated.xml", line: 9, column: 1))
        #expect(error.message == "unexpected end of file inside <reference_name>: the document is truncated")
    }

    @Test func empty() throws {
        let error = try readError("malformed/xml-empty.xml")
        #expect(error.location == Location(path: "malformed/xml-empty.xml", line: 1, column: 1))
        #expect(error.message == "the file is empty")
    }

    @Test func binaryGarbage() throws {
        let error = try readError("malformed/xml-binary.xml")
        #expect(error.location.path == "malformed/xml-binary.xml")
        #expect(error.location.line == 1)
        #expect(error.message.contains("not XML"))
    }

    @Test func tierOutsideTheTable() throws {
        let error = try readError("malformed/xml-bad-tier.xml")
        #expect(error.location == Location(path: "malformed/xml-bad-tier.xml", line: 13, column: 15))
        #expect(error.message == "<wholesale_price_tier> \"999\" is not a legacy App Store price tier")
    }

    @Test("each <duration> is read as written, when its text repeats and when it differs by a space")
    func repeatedDurations() throws {
        // Arrange: five subscriptions; the builder reads each distinct duration text once.
        let durations = ["1 Month", "7 Days", "1 Month", " 1 Month ", "ONE_YEAR"]
        let purchases = durations.enumerated().map { index, duration in
            "<in_app_purchase><product_id>com.example.s\(index)</product_id><type>auto-renewable</type>"
                + "<duration>\(duration)</duration></in_app_purchase>"
        }
        let document = "<package xmlns=\"http://apple.com/itunes/importer\">\n" + purchases.joined(separator: "\n")
            + "\n</package>\n"

        // Act
        let catalog = try AppStoreMetadataReader().read(data: Data(document.utf8), displayPath: "metadata.xml",
                                                        options: ReadOptions(asOf: try #require(Self.asOf)))

        // Assert
        let month = SubscriptionPeriod(count: 1, unit: .month)
        #expect(catalog.products.map(\.period) == [
            month, SubscriptionPeriod(count: 7, unit: .day), month, month, SubscriptionPeriod(count: 1, unit: .year),
        ])
    }

    @Test func missingFile() throws {
        let error = try readError("xml/does-not-exist.xml")
        #expect(error.location == Location(path: "xml/does-not-exist.xml"))
        #expect(error.message == "the file does not exist")
    }

    /// Invalid content, each written to a temporary file: the message and the line of the offending element.
    @Test(arguments: [
        ("<plist version=\"1.0\"><array/></plist>", 1, "not a Transporter metadata.xml: the root element is <plist>"),
        (iap("<type>bundle</type>"), 4, "<type> \"bundle\" is not an in-app purchase type"),
        (iap("<duration>1 Fortnight</duration>"), 4, "<duration> \"1 Fortnight\" is not a subscription duration"),
        (iap("<products><product><cleared_for_sale>yes</cleared_for_sale></product></products>"), 4,
         "<cleared_for_sale> \"yes\" is not true or false"),
        (iap("<products><product><wholesale_price_tier>1.5</wholesale_price_tier></product></products>"), 4,
         "<wholesale_price_tier> \"1.5\" is not a price tier number"),
        (iap("<product_id>again</product_id>"), 4, "<product_id> appears twice in one <in_app_purchase>"),
        ("<package xmlns=\"http://apple.com/itunes/importer\">\n<in_app_purchase>\n<type>consumable</type>\n"
            + "</in_app_purchase></package>", 2, "<in_app_purchase> has no <product_id>"),
        (iap("<products><product><intervals><interval><start_date>2026-13-01</start_date>"
            + "<wholesale_price_tier>1</wholesale_price_tier></interval></intervals></product></products>"), 4,
         "<start_date> \"2026-13-01\" is not a date (YYYY-MM-DD)"),
        (iap("<products><product><intervals><interval><start_date>2026-01-01</start_date></interval></intervals>"
            + "</product></products>"), 4, "<interval> has no <wholesale_price_tier>"),
        (iap("<products><product><wholesale_price_tier>1</wholesale_price_tier><intervals/></product></products>"),
         4, "a <product> has both <wholesale_price_tier> and <intervals>"),
        (iap("<products><product/><product/></products>"), 4, "more than one <product> in <products>"),
        (iap("<product_id_x/><reference_name>a<b/></reference_name>"), 4,
         "<reference_name> must hold text only, found <b>"),
        ("<package>\n<subscription_group>\n</subscription_group></package>", 2,
         "<subscription_group> has no name attribute"),
        (iap("<in_app_purchase/>"), 4, "an <in_app_purchase> inside another <in_app_purchase>"),
        ("<package>\n<in_app_purchase>\n<product_id>a</product_id>\n</in_app_purchas></package>", 4,
         "Opening and ending tag mismatch"),
    ])
    func invalidContent(document: String, line: Int, message: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID().uuidString).xml")
        try Data(document.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        do {
            _ = try AppStoreMetadataReader().read(contentsOf: file, displayPath: "metadata.xml",
                                                  options: ReadOptions(asOf: try #require(Self.asOf)))
            Issue.record("expected an error for \(document)")
        } catch let error as CatalogReadError {
            #expect(error.location.path == "metadata.xml")
            #expect(error.location.line == line)
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    // MARK: - Real-world files

    @Test(.enabled(if: RealWorld.isAvailable)) func realWorldAppleParty() throws {
        let path = "apple/37iOS_AppleParty_iap_metadata.xml"
        let catalog = try AppStoreMetadataReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                        options: ReadOptions(asOf: try #require(Self.asOf)))
        #expect(catalog.products.map(\.id.rawValue) == [
            "com.app.1usd", "com.app.3usd", "every_movie_in_the_world_plus_1month", "com.app.6usd",
        ])
        #expect(catalog.products.map(\.kind) == [.consumable, .nonConsumable, .autoRenewable, .nonRenewing])
        #expect(catalog.groups.map(\.name) == ["订阅群组参考名称"])
        let subscription = catalog.products[2]
        #expect(subscription.groupKey == "订阅群组参考名称")
        #expect(subscription.period == SubscriptionPeriod(count: 1, unit: .month))
        #expect(subscription.clearedForSale == true)
        #expect(subscription.prices == [:])
        #expect(subscription.referenceName == "参考名称")
        #expect(subscription.location == Location(path: path, line: 70, column: 21))
        #expect(catalog.products[0].referenceName == "1ud（2~64 个字符）")
        #expect(catalog.products[0].prices[.unitedStates]?.money == (try Self.usd("2.99")))
        #expect(catalog.products[3].prices[.unitedStates]?.money == (try Self.usd("48.99")))
        #expect(catalog.products[0].location == Location(path: path, line: 8, column: 17))
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func realWorldTransporterGenerator() throws {
        let path = "apple/colinhumber_itunes_transporter_generator_README_extracted_metadata.xml"
        let catalog = try AppStoreMetadataReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                        options: ReadOptions(asOf: try #require(Self.asOf)))
        #expect(catalog.products.map(\.id.rawValue) == [
            "com.samplecompany.applicationname.six_month_subscription",
            "com.samplecompany.applicationname.one_year_subscription",
            "com.samplecompany.applicationname.one_hundred_dollars",
            "com.samplecompany.applicationname.new_level",
            "com.samplecompany.applicationname.another_level",
        ])
        #expect(catalog.groups.map(\.name) == ["Sample Product Group"])
        #expect(catalog.products.map(\.groupKey) == ["Sample Product Group", "Sample Product Group", nil, nil, nil])
        #expect(catalog.products.map(\.period) == [
            SubscriptionPeriod(count: 6, unit: .month), SubscriptionPeriod(count: 1, unit: .year), nil, nil, nil,
        ])
        #expect(catalog.products[0].referenceName == nil)
        #expect(catalog.products[0].prices[.unitedStates]?.money == (try Self.usd("4.99")))
        #expect(catalog.products[1].prices[.unitedStates]?.money == (try Self.usd("8.99")))
        // Game Center achievements also have <reference_name>; only in-app purchases are read.
        #expect(catalog.products[2].referenceName == "100 dollars")
        // Intervals 2013-03-01 (open) and 2013-08-14 (open) are current: tier 2.
        #expect(catalog.products[3].prices[.unitedStates]?.money == (try Self.usd("1.99")))
        #expect(catalog.products[4].prices[.unitedStates]?.money == (try Self.usd("1.99")))
        #expect(catalog.products.allSatisfy { $0.uncomparedPrices.isEmpty && $0.clearedForSale == true })
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func realWorldLookupMetadata() throws {
        let path = "apple/minsOne_minsOne.github.io_lookupMetadata_extracted_metadata.xml"
        let catalog = try AppStoreMetadataReader().read(contentsOf: RealWorld.url(path), displayPath: path,
                                                        options: ReadOptions(asOf: try #require(Self.asOf)))
        #expect(catalog.products.map(\.id.rawValue) == ["kr.ss.inapp2", "inapp1"])
        #expect(catalog.products.map(\.referenceName) == ["inapp2", "kr.aaa.inapp1"])
        #expect(catalog.products.map(\.kind) == [.nonConsumable, .consumable])
        #expect(catalog.groups == [])
        #expect(catalog.products.allSatisfy { $0.prices[.unitedStates]?.money == (try? Self.usd("0.99")) })
        // The second in-app purchase is indented with a tab: a column counts it as one character.
        #expect(catalog.products[1].location == Location(path: path, line: 47, column: 5))
        #expect(catalog.products[0].location == Location(path: path, line: 22, column: 17))
    }
}

/// A minimal document with one in-app purchase whose product ID is on line 3 and `extra` on line 4.
private func iap(_ extra: String) -> String {
    "<package xmlns=\"http://apple.com/itunes/importer\">\n<in_app_purchase>\n<product_id>com.example.a</product_id>\n"
        + extra + "\n</in_app_purchase>\n</package>\n"
}
