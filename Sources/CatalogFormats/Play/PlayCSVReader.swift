import CatalogCore
import CSV
import Foundation

/// Reads the Play Console one-time (managed) products CSV, the legacy import/export file:
///
/// `Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price`
/// followed by `Pricing Template ID` (8 columns) and, in the newest exports, four tax and compliance columns
/// (12). Columns are matched by header name (case-insensitive, spaces ignored); unknown columns are ignored.
///
/// Normalization (FORMATS.md, DESIGN.md §5a items 7, 8, 12):
/// - every row is a `one-time` product (the file only ever held managed products; Play does not say consumable
///   vs non-consumable, so the type matches either, DESIGN.md §4);
/// - `Published State` published / unpublished is availability;
/// - `Auto Fill Prices = false`: `Price` holds `COUNTRY; micros` pairs, current prices in the country's Play
///   currency; `Auto Fill Prices = true`: one micros amount in the merchant's home currency, which the file
///   does not name — exported as the uncompared price `home-currency`, in `ReadOptions.playCurrency` when
///   known (`--play-currency`, or the config's base territory); `Catalog.remarks` says how many were not compared;
/// - `Locale; Title; Description` is display text: no reference name;
/// - locations are the 1-based line where each record starts (the header is line 1).
public struct PlayCSVReader: CatalogReader {
    /// `play-csv`.
    public let format = CatalogFormat.playCSV

    /// Creates a reader.
    public init() {}

    /// The columns the reader uses, by normalized header name.
    enum Column: String, CaseIterable {
        case productID = "productid"
        case publishedState = "publishedstate"
        case purchaseType = "purchasetype"
        case autoTranslate = "autotranslate"
        case listings = "locale;title;description"
        case autoFillPrices = "autofillprices"
        case price = "price"
        case pricingTemplateID = "pricingtemplateid"

        /// The header text as Play writes it, for messages.
        var title: String {
            switch self {
            case .productID: "Product ID"
            case .publishedState: "Published State"
            case .purchaseType: "Purchase Type"
            case .autoTranslate: "Auto Translate"
            case .listings: "Locale; Title; Description"
            case .autoFillPrices: "Auto Fill Prices"
            case .price: "Price"
            case .pricingTemplateID: "Pricing Template ID"
            }
        }
    }

    /// Reads one CSV file.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        if input.kind == .folder {
            throw CatalogReadError("expected a CSV file, found a folder", at: SourceLocation(path: input.displayPath))
        }
        return try read(data: input.bytes(), displayPath: input.displayPath, options: options)
    }

    /// Reads one CSV file's bytes; `displayPath` names it in locations.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let text = try PlayCSVText.decode(data, path: displayPath)
        try PlayCSVText.checkQuoting(text, path: displayPath)
        let records = try Self.records(of: text, path: displayPath)

        guard let headerIndex = records.firstIndex(where: { !Self.isBlank($0.fields) }) else {
            throw CatalogReadError("the file is empty: expected a header row starting with \"Product ID\"",
                                   at: SourceLocation(path: displayPath, line: 1))
        }
        let header = records[headerIndex]
        let columns = try Self.columns(of: header, path: displayPath)
        var namedCount = header.fields.count
        while namedCount > 0, header.fields[namedCount - 1].trimmingCharacters(in: .whitespaces).isEmpty {
            namedCount -= 1
        }

        var products: [Product] = []
        var homePrices = 0
        var unknownValues: [String] = []
        for record in records[(headerIndex + 1)...] where !Self.isBlank(record.fields) {
            let location = SourceLocation(path: displayPath, line: record.line)
            if record.fields.count < namedCount {
                throw CatalogReadError("malformed CSV: the row has \(record.fields.count) fields, the header has "
                                       + "\(namedCount) columns", at: location)
            }
            if let extra = record.fields[namedCount...].first(where: {
                !$0.trimmingCharacters(in: .whitespaces).isEmpty
            }) {
                throw CatalogReadError("malformed CSV: the row has \(record.fields.count) fields, the header has "
                                       + "\(namedCount) columns (extra value \"\(extra)\")", at: location)
            }
            let row = Row(fields: record.fields, columns: columns, location: location)
            let product = try Self.product(from: row, options: options, remarks: &unknownValues)
            if product.uncomparedPrices.contains(where: { $0.label == "home-currency" }) {
                homePrices += 1
            }
            products.append(product)
        }

        var remarks = unknownValues
        if homePrices > 0 {
            // Whatever currency the export labels them with, these prices are for no country (§5a.8).
            let count = homePrices == 1 ? "1 auto-filled price is" : "\(homePrices) auto-filled prices are"
            remarks.append("\(count) not compared: with Auto Fill Prices true, Price is one amount in the merchant's "
                           + "home currency, not a price for a country")
        }
        return Catalog(path: displayPath, format: .playCSV, products: products,
                       capabilities: CatalogCapabilities(expressesGroups: false), remarks: remarks)
    }

    /// One CSV record with the line it starts on.
    struct Record {
        /// The fields, unescaped by the CSV library.
        var fields: [String]
        /// The 1-based line of the record's first character.
        var line: Int
    }

    /// Splits the text into records with the CSV library and numbers their lines.
    static func records(of text: String, path: String) throws(CatalogReadError) -> [Record] {
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false)
        } catch {
            throw CatalogReadError("malformed CSV: \(error)", at: SourceLocation(path: path, line: 1))
        }
        var records: [Record] = []
        var line = 1
        while let fields = reader.next() {
            records.append(Record(fields: fields, line: line))
            line += 1 + fields.reduce(0) { $0 + PlayCSVText.lineBreaks(in: $1) }
        }
        return records
    }

    private static func isBlank(_ fields: [String]) -> Bool {
        fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
    }

    /// Maps the known columns to their indices; `Product ID` is required, a column may not appear twice.
    static func columns(of header: Record, path: String) throws(CatalogReadError) -> [Column: Int] {
        let location = SourceLocation(path: path, line: header.line)
        var columns: [Column: Int] = [:]
        for (index, name) in header.fields.enumerated() {
            let normalized = String(name.unicodeScalars.filter { !CharacterSet.whitespaces.contains($0) }).lowercased()
            guard let column = Column(rawValue: normalized) else { continue }
            if columns[column] != nil {
                throw CatalogReadError("the header names the column \"\(column.title)\" twice", at: location)
            }
            columns[column] = index
        }
        guard columns[.productID] != nil else {
            let found = header.fields.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
            throw CatalogReadError("not a Play Console products CSV: the header row has no \"Product ID\" column "
                                   + "(found \(found)\(header.fields.count > 3 ? ", …" : ""))", at: location)
        }
        return columns
    }

    /// One data row with access by column.
    struct Row {
        var fields: [String]
        var columns: [Column: Int]
        var location: SourceLocation

        /// The trimmed value of a column; empty when the header lacks the column.
        subscript(column: Column) -> String {
            guard let index = columns[column], index < fields.count else { return "" }
            return fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// An error at this row naming the column and its value.
        func error(_ column: Column, _ message: String) -> CatalogReadError {
            CatalogReadError("\(column.title) \"\(self[column])\": \(message)", at: location)
        }

        /// A case-insensitive boolean column; nil when empty.
        func bool(_ column: Column) throws(CatalogReadError) -> Bool? {
            switch self[column].lowercased() {
            case "": return nil
            case "true": return true
            case "false": return false
            default: throw error(column, "expected true or false")
            }
        }
    }

    /// Whether an ID follows Play's product ID rules: lower-case letters, digits, `_` and `.`, starting with
    /// a letter or a digit.
    static func isValidProductID(_ id: String) -> Bool {
        guard let first = id.utf8.first, isLowerOrDigit(first) else { return false }
        return id.utf8.allSatisfy { isLowerOrDigit($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }

    private static func isLowerOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// One row as a product; a `Published State` or `Purchase Type` this version does not know adds a remark.
    static func product(from row: Row, options: ReadOptions,
                        remarks: inout [String]) throws(CatalogReadError) -> Product {
        let id = row[.productID]
        guard !id.isEmpty else { throw row.error(.productID, "a product ID is required") }
        guard isValidProductID(id) else {
            throw row.error(.productID, "not a valid Play product ID (lower-case letters a-z, digits 0-9, '_' and "
                            + "'.', starting with a letter or digit)")
        }
        var product = Product(id: ProductID(id), kind: .oneTime, location: row.location)

        switch row[.publishedState].lowercased() {
        case "": break
        case "published": product.clearedForSale = true
        case "unpublished": product.clearedForSale = false
        default:
            // A state Play Console added after this version.
            remarks.append(unknownValue(.publishedState, in: row, consequence: "its availability is not compared"))
        }
        switch row[.purchaseType].lowercased() {
        case "", "managed_by_android", "managed_by_publisher": break
        default:
            // Every row is a one-time product whatever its purchase type, so a new one changes nothing compared.
            remarks.append(unknownValue(.purchaseType, in: row, consequence: "it is not read"))
        }
        _ = try row.bool(.autoTranslate)

        let price = row[.price]
        let autoFill = try row.bool(.autoFillPrices) ?? (!price.isEmpty && !price.contains(";"))
        guard !price.isEmpty else { return product }
        if autoFill {
            switch PlayMoney.amount(micros: price) {
            case .success(let amount):
                if let currency = options.playCurrency {
                    product.uncomparedPrices.append(UncomparedPrice(label: "home-currency",
                                                                    amount: Money(amount: amount, currency: currency)))
                } else {
                    product.uncomparedPrices.append(UncomparedPrice(label: "home-currency",
                                                                    rawAmount: Money.format(amount)))
                }
            case .failure(let problem):
                let hint = price.contains(";") ? " (with Auto Fill Prices true, Price is one amount in micros)" : ""
                throw CatalogReadError("Price: " + PlayMoney.describe(problem, micros: price) + hint,
                                       at: row.location)
            }
        } else {
            product.prices = try pricePairs(price, row: row)
        }
        return product
    }

    /// The remark for a column value this version does not know.
    private static func unknownValue(_ column: Column, in row: Row, consequence: String) -> String {
        "line \(row.location.line.map(String.init) ?? "?"): product \(row[.productID]) has \(column.title) "
            + "\(quotedForMessage(row[column])), not known to this version; \(consequence)"
    }

    /// `US; 990000; GB; 790000` → prices in each country's Play currency.
    private static func pricePairs(_ text: String, row: Row) throws(CatalogReadError) -> [Territory: Price] {
        var parts = text.split(separator: ";", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.last == "" { parts.removeLast() }  // a trailing `;`
        guard parts.count >= 2, parts.count % 2 == 0 else {
            throw row.error(.price, "with Auto Fill Prices false, Price is COUNTRY; micros pairs")
        }
        var prices: [Territory: Price] = [:]
        for pair in stride(from: 0, to: parts.count, by: 2) {
            let code = parts[pair]
            let micros = parts[pair + 1]
            guard code.utf8.count == 2, let territory = Territory(code: code.uppercased()) else {
                throw row.error(.price, "\"\(code)\" is not an ISO 3166-1 alpha-2 country code")
            }
            guard let currency = territory.playCurrency else {
                throw row.error(.price, "no Play currency is known for \"\(territory)\"")
            }
            guard prices[territory] == nil else {
                throw row.error(.price, "\"\(territory)\" is priced twice")
            }
            switch PlayMoney.amount(micros: micros) {
            case .success(let amount):
                prices[territory] = Price(territory: territory, money: Money(amount: amount, currency: currency),
                                          location: row.location)
            case .failure(let problem):
                throw CatalogReadError("Price: " + PlayMoney.describe(problem, micros: micros), at: row.location)
            }
        }
        return prices
    }
}
