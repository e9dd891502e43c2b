import CatalogCore
import CatalogFormats
import Foundation
import Testing
import TestSupport

@Suite("PlayCSVReader")
struct PlayCSVReaderTests {
    private let reader = PlayCSVReader()
    private static let header = "Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,"
        + "Auto Fill Prices,Price,Pricing Template ID"

    private func read(_ relative: String, playCurrency: String? = nil) throws -> Catalog {
        try reader.read(contentsOf: Fixtures.url(relative), displayPath: relative,
                        options: try PlayTest.options(playCurrency: playCurrency))
    }

    /// Reads text through the in-memory entry point (the fuzz target's), which the file entry point calls.
    private func read(text: String, playCurrency: String? = nil) throws -> Catalog {
        try reader.read(data: Data(text.utf8), displayPath: "products.csv",
                        options: try PlayTest.options(playCurrency: playCurrency))
    }

    private func error(text: String) throws -> CatalogReadError {
        try #require(throws: CatalogReadError.self) { try read(text: text) }
    }

    private func location(_ path: String, _ line: Int) -> CatalogCore.SourceLocation {
        SourceLocation(path: path, line: line)
    }

    // MARK: - Column layouts

    @Test func fileAndBytesEntryPointsReadTheSameCatalog() throws {
        // Arrange
        let path = "play/csv/seven-columns.csv"
        let data = try Data(contentsOf: Fixtures.url(path))
        // Act
        let fromFile = try read(path)
        let fromBytes = try reader.read(data: data, displayPath: path, options: try PlayTest.options())
        // Assert
        #expect(fromBytes.products == fromFile.products)
        #expect(fromBytes.remarks == fromFile.remarks)
        #expect(fromBytes.products.count == 3)
    }

    @Test func sevenColumnsWithCountryPricePairs() throws {
        let path = "play/csv/seven-columns.csv"
        let catalog = try read(path)
        #expect(catalog.format == .playCSV)
        #expect(catalog.path == path)
        #expect(catalog.appID == nil)
        #expect(catalog.groups.isEmpty)
        #expect(catalog.capabilities.expressesGroups == false)
        #expect(catalog.remarks.isEmpty)
        #expect(catalog.products.map(\.id.rawValue) == [
            "com.example.coins.small", "com.example.coins.large", "com.example.unlock",
        ])
        let us = try PlayTest.territory("US")
        #expect(catalog.products.first == Product(
            id: ProductID("com.example.coins.small"),
            kind: .oneTime,
            prices: [us: Price(territory: us, money: try PlayTest.money("0.99", "USD"), location: location(path, 2))],
            clearedForSale: true,
            location: location(path, 2)))
        #expect(PlayTest.priceTexts(catalog.products[1]) == ["US": "4.99 USD", "GB": "4.49 GBP", "DE": "4.99 EUR"])
        #expect(catalog.products[1].location == location(path, 3))
        #expect(PlayTest.priceTexts(catalog.products[2]) == ["US": "2.99 USD", "JP": "480 JPY"])
        #expect(catalog.products.map(\.clearedForSale) == [true, true, false])
        #expect(catalog.products.allSatisfy { $0.kind == .oneTime && $0.referenceName == nil && $0.introOffers == nil })
    }

    @Test func eightColumnsWithHomeCurrencyPricesAndNoCurrency() throws {
        let path = "play/csv/eight-columns.csv"
        let catalog = try read(path)
        #expect(catalog.products.map(\.id.rawValue) == ["few_coins", "many_coins", "templated"])
        #expect(catalog.products.allSatisfy { $0.prices.isEmpty })
        #expect(catalog.products.map { $0.uncomparedPrices.map(\.summary) } == [
            ["home-currency 1.99"], ["home-currency 24.99"], [],
        ])
        #expect(catalog.products.first?.uncomparedPrices == [UncomparedPrice(label: "home-currency", rawAmount: "1.99")])
        #expect(catalog.products.map(\.location.line) == [2, 3, 4])
        #expect(catalog.remarks == [
            "2 auto-filled prices are not compared: with Auto Fill Prices true, Price is one amount in the "
            + "merchant's home currency, not a price for a country",
        ])
    }

    @Test func homeCurrencyPricesTakeTheGivenPlayCurrency() throws {
        let catalog = try read("play/csv/eight-columns.csv", playCurrency: "GBP")
        #expect(catalog.products.first?.uncomparedPrices == [
            UncomparedPrice(label: "home-currency", amount: try PlayTest.money("1.99", "GBP")),
        ])
        #expect(catalog.products.first?.prices.isEmpty == true)  // never compared (DESIGN §5a item 8)
        #expect(catalog.remarks == [
            "2 auto-filled prices are not compared: with Auto Fill Prices true, Price is one amount in the "
            + "merchant's home currency, not a price for a country",
        ])
    }

    @Test func twelveColumns() throws {
        let catalog = try read("play/csv/twelve-columns.csv")
        #expect(catalog.products.map(\.id.rawValue) == ["season_pass", "soundtrack"])
        #expect(PlayTest.priceTexts(catalog.products.first) == ["US": "9.99 USD", "KR": "13000 KRW"])
        #expect(catalog.products.last?.uncomparedPrices.map(\.summary) == ["home-currency 2.99"])
    }

    // MARK: - Quirks

    @Test func crlfUpperCaseBooleansAndIDsEndingInADot() throws {
        let path = "play/csv/crlf-uppercase.csv"
        let catalog = try read(path)
        #expect(catalog.products.map(\.id.rawValue) == ["gems70k.", "crates800.", "bundle.1"])
        #expect(catalog.products.map(\.clearedForSale) == [true, false, true])
        #expect(catalog.products.map(\.location) == [location(path, 2), location(path, 3), location(path, 4)])
        #expect(catalog.products[0].uncomparedPrices.map(\.summary) == ["home-currency 6.99"])
        #expect(PlayTest.priceTexts(catalog.products[1]) == ["US": "34.99 USD", "CA": "44.99 CAD"])
        #expect(catalog.products[2].uncomparedPrices.map(\.summary) == ["home-currency 59.99"])
    }

    @Test func quotedFieldsEscapedSemicolonsAndRecordsSpanningLines() throws {
        let path = "play/csv/escapes-and-multiline.csv"
        let catalog = try read(path)
        #expect(catalog.products.map(\.id.rawValue) == ["semi_colon", "quoted_id", "after_blank_line"])
        // The quoted record spans lines 3–4 and a blank line follows: the next record starts on line 6.
        #expect(catalog.products.map(\.location.line) == [2, 3, 6])
        #expect(PlayTest.priceTexts(catalog.products[0]) == ["US": "1.99 USD"])
        #expect(PlayTest.priceTexts(catalog.products[1]) == ["US": "2.99 USD"])
        #expect(PlayTest.priceTexts(catalog.products[2]) == ["FR": "3.49 EUR"])
    }

    @Test func microsAboveInt32() throws {
        let catalog = try read("play/csv/large-micros.csv", playCurrency: "KRW")
        #expect(PlayTest.priceTexts(catalog.products.first) == ["KR": "25000 KRW", "JP": "3000 JPY", "US": "99.99 USD"])
        #expect(catalog.products.last?.uncomparedPrices == [
            UncomparedPrice(label: "home-currency", amount: try PlayTest.money("3000", "KRW")),
        ])
    }

    @Test func headerNamesMatchIgnoringCaseSpacesAndOrder() throws {
        let catalog = try read(text: """
        \u{FEFF}price , PRODUCT ID,locale;title;description,auto fill prices,Published State,Something New
        US;1990000,coins,en-US;Coins;Coins,false,PUBLISHED,whatever
        """)
        #expect(catalog.products.map(\.id.rawValue) == ["coins"])
        #expect(PlayTest.priceTexts(catalog.products.first) == ["US": "1.99 USD"])
        #expect(catalog.products.first?.clearedForSale == true)
    }

    @Test func trailingEmptyColumnsAndBlankLinesAreTolerated() throws {
        let catalog = try read(text: """
        Product ID,Published State,Auto Fill Prices,Price,
        a,published,false,US;990000,
        b,published,false,US;990000,,

        c,unpublished,false,US;990000
        ,,,,

        """)
        #expect(catalog.products.map(\.id.rawValue) == ["a", "b", "c"])
        #expect(catalog.products.map(\.location.line) == [2, 3, 5])
    }

    @Test func autoFillInferredWhenTheColumnIsEmptyOrMissing() throws {
        let catalog = try read(text: """
        Product ID,Price
        pairs,US; 990000
        single,990000
        none,
        """)
        #expect(PlayTest.priceTexts(catalog.products[0]) == ["US": "0.99 USD"])
        #expect(catalog.products[1].uncomparedPrices.map(\.summary) == ["home-currency 0.99"])
        #expect(catalog.products[2].prices.isEmpty && catalog.products[2].uncomparedPrices.isEmpty)
        #expect(catalog.products.allSatisfy { $0.clearedForSale == nil })
    }

    @Test func headerOnlyGivesNoProducts() throws {
        let catalog = try read(text: Self.header + "\n")
        #expect(catalog.products.isEmpty)
        #expect(catalog.remarks.isEmpty)
    }

    // MARK: - Errors

    @Test(arguments: [
        ("x,published,managed_by_android,false,en_US;X;X,true,990000", 2,
         "malformed CSV: the row has 7 fields, the header has 8 columns"),
        ("x,published,managed_by_android,false,en_US;X;X,true,990000,,extra", 2,
         #"malformed CSV: the row has 9 fields, the header has 8 columns (extra value "extra")"#),
        ("x,published,managed_by_android,false,en_US;X;X,true,6.99,", 2,
         #"Price: "6.99" is not an amount in micros (a whole number of millionths)"#),
        ("x,published,managed_by_android,false,en_US;X;X,true,99999999999999999999,", 2,
         #"Price: "99999999999999999999" is too large for an amount in micros"#),
        ("x,published,managed_by_android,false,en_US;X;X,true,US;990000,", 2,
         #"Price: "US;990000" is not an amount in micros (a whole number of millionths) (with Auto Fill Prices true, Price is one amount in micros)"#),
        ("x,published,managed_by_android,false,en_US;X;X,false,US;990000;GB,", 2,
         #"Price "US;990000;GB": with Auto Fill Prices false, Price is COUNTRY; micros pairs"#),
        ("x,published,managed_by_android,false,en_US;X;X,false,990000,", 2,
         #"Price "990000": with Auto Fill Prices false, Price is COUNTRY; micros pairs"#),
        ("x,published,managed_by_android,false,en_US;X;X,false,XX;990000,", 2,
         #"Price "XX;990000": "XX" is not an ISO 3166-1 alpha-2 country code"#),
        ("x,published,managed_by_android,false,en_US;X;X,false,US;990000;US;890000,", 2,
         #"Price "US;990000;US;890000": "US" is priced twice"#),
        ("x,published,managed_by_android,false,en_US;X;X,false,US;-990000,", 2,
         #"Price: "-990000" is not an amount in micros"#),
        ("x,published,managed_by_android,false,en_US;X;X,yes,990000,", 2,
         #"Auto Fill Prices "yes": expected true or false"#),
        ("x,published,managed_by_android,no,en_US;X;X,true,990000,", 2,
         #"Auto Translate "no": expected true or false"#),
        ("\"x\"y,published,managed_by_android,false,en_US;X;X,true,990000,", 2,
         "malformed CSV: text after the closing quote of a quoted field"),
        (",published,managed_by_android,false,en_US;X;X,true,990000,", 2,
         #"Product ID "": a product ID is required"#),
        ("\n\nx.y-z,published,managed_by_android,false,en_US;X;X,true,990000,", 4,
         #"Product ID "x.y-z": not a valid Play product ID"#),
        ("_x,published,managed_by_android,false,en_US;X;X,true,990000,", 2,
         #"Product ID "_x": not a valid Play product ID"#),
    ])
    func badRowIsAnErrorAtItsLine(row: String, line: Int, message: String) throws {
        let error = try error(text: Self.header + "\n" + row + "\n")
        #expect(error.location.path == "products.csv")
        #expect(error.location.line == line)
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test func emptyFileIsAnError() throws {
        let empty = try error(text: "")
        #expect(empty.description == #"products.csv:1: error: the file is empty: expected a header row starting with "Product ID""#)
        let blank = try error(text: "\n\n")
        #expect(blank.message.hasPrefix("the file is empty"))
    }

    @Test func duplicateHeaderIsAnError() throws {
        let error = try error(text: "Product ID,Price,price\nx,990000,990000\n")
        #expect(error.description == #"products.csv:1: error: the header names the column "Price" twice"#)
    }

    @Test func invalidUTF8IsAnError() throws {
        let url = try PlayTest.temporaryFile("latin1.csv", "")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try Data(Array((Self.header + "\ncaf").utf8) + [0xE9] + Array(",published\n".utf8)).write(to: url)
        let error = try #require(throws: CatalogReadError.self) {
            try reader.read(contentsOf: url, displayPath: "latin1.csv", options: try PlayTest.options())
        }
        #expect(error.description == "latin1.csv:2:4: error: the file is not UTF-8 text (byte 0xE9); save the file as UTF-8")
    }

    @Test func folderIsAnError() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("play/csv") }
        #expect(error.message == "expected a CSV file, found a folder")
    }

    // MARK: - Malformed fixtures

    @Test func unterminatedQuote() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-csv-unterminated-quote.csv") }
        #expect(error.location == SourceLocation(path: "malformed/play-csv-unterminated-quote.csv", line: 3, column: 43))
        #expect(error.message == "malformed CSV: a quoted field is not closed before the end of the file")
    }

    @Test func missingHeader() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-csv-missing-header.csv") }
        #expect(error.location == SourceLocation(path: "malformed/play-csv-missing-header.csv", line: 1))
        #expect(error.message.hasPrefix(#"not a Play Console products CSV: the header row has no "Product ID" column"#))
        #expect(error.message.contains(#"found "SKU", "State", "Type", …"#))
    }

    @Test func badProductID() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-csv-bad-id.csv") }
        #expect(error.location == SourceLocation(path: "malformed/play-csv-bad-id.csv", line: 3))
        #expect(error.message.hasPrefix(#"Product ID "Premium-Pack": not a valid Play product ID"#))
    }

    @Test func binaryFile() throws {
        let error = try #require(throws: CatalogReadError.self) { try read("malformed/play-csv-binary.csv") }
        #expect(error.location == SourceLocation(path: "malformed/play-csv-binary.csv", line: 3))
        #expect(error.message == "not a CSV text file: binary data (a NUL byte)")
    }

    // MARK: - Real-world files

    @Test(.enabled(if: RealWorld.isAvailable)) func martianFrontierCatalog() throws {
        let url = RealWorld.url("google/RiddhRam_Martian-Frontier_GooglePlayProductCatalog.csv")
        let catalog = try reader.read(contentsOf: url, displayPath: "martian.csv", options: try PlayTest.options())
        #expect(catalog.products.map(\.id.rawValue) == [
            "gems70k.", "gems160k.", "gems450k.", "crates110.", "crates275.", "crates800.", "gems20kcrates90",
            "gems70kcrates300", "gems160kcrates500", "gems450kcrates1000",
        ])
        #expect(catalog.products.map(\.location.line) == Array(2...11))
        #expect(catalog.products.allSatisfy { $0.clearedForSale == true && $0.prices.isEmpty && $0.kind == .oneTime })
        #expect(catalog.products.first?.uncomparedPrices.map(\.summary) == ["home-currency 6.99"])
        #expect(catalog.products.last?.uncomparedPrices.map(\.summary) == ["home-currency 59.99"])
        #expect(catalog.remarks == [
            "10 auto-filled prices are not compared: with Auto Fill Prices true, Price is one amount in the "
            + "merchant's home currency, not a price for a country",
        ])
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func unityIAPCatalog() throws {
        let url = RealWorld.url("google/llamacademy_unity-iap-2023_GooglePlayProductCatalog.csv")
        let catalog = try reader.read(contentsOf: url, displayPath: "unity.csv",
                                      options: try PlayTest.options(playCurrency: "USD"))
        #expect(catalog.products.map(\.id.rawValue) == ["few_bucks", "many_bucks", "loads_bucks", "all_guns",
                                                        "all_guns_sale"])
        #expect(catalog.products.map { $0.uncomparedPrices.map(\.summary) } == [
            ["home-currency 1.99 USD"], ["home-currency 4.99 USD"], ["home-currency 24.99 USD"],
            ["home-currency 99.99 USD"], ["home-currency 49.99 USD"],
        ])
        #expect(catalog.remarks == [
            "5 auto-filled prices are not compared: with Auto Fill Prices true, Price is one amount in the "
            + "merchant's home currency, not a price for a country",
        ])
    }

    @Test(.enabled(if: RealWorld.isAvailable)) func csvEmbeddedInAReadme() throws {
        // The README holds a 7-column CSV in a code block: take the lines from its header to the closing fence.
        let readme = try String(contentsOf: RealWorld.url("google/apportable_IABV3Example_README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(where: { $0.hasPrefix("Product ID,") }))
        let end = try #require(lines[start...].firstIndex(where: { $0.hasPrefix("```") }))
        let url = try PlayTest.temporaryFile("readme.csv", lines[start..<end].joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }

        let catalog = try reader.read(contentsOf: url, displayPath: "readme.csv", options: try PlayTest.options())
        #expect(catalog.products.count == 11)
        #expect(catalog.products.first?.id.rawValue == "com.apportable.spin.consumable1")
        #expect(catalog.products.last?.id.rawValue == "com.apportable.spin.nonconsumable1")
        #expect(catalog.products.allSatisfy { PlayTest.priceTexts($0) == ["US": "0.99 USD"] })
        #expect(catalog.products.allSatisfy { $0.clearedForSale == true && $0.uncomparedPrices.isEmpty })
        #expect(catalog.remarks.isEmpty)
    }
}
