import CatalogCore
@testable import CatalogFormats
@testable import CatalogReports
import Foundation
import TestSupport
import Testing

/// `export` then reading the export gives the same products, for generated catalogs full of hostile strings:
/// both through the real `ProductConfigReader` (the JSON export is the config, as JSON).
@Suite("CatalogExport round trip (property)")
struct CatalogExportRoundTripTests {
    /// How many catalogs each property runs over; the generator is seeded, so every run sees the same ones.
    static let catalogCount = 240

    /// What a round trip must keep of a product.
    struct ProductShape: Hashable, CustomStringConvertible {
        var id: String
        var type: String?
        var name: String?
        var groupKey: String?
        var groupName: String?
        var period: String?
        var prices: [String: String]

        var description: String {
            "\(id.debugDescription) type \(type ?? "-") name \(name.debugDescription) group "
                + "\(groupKey.debugDescription)/\(groupName.debugDescription) period \(period ?? "-") prices \(prices)"
        }
    }

    /// The shapes of a catalog's products, sorted by ID.
    static func shapes(of catalog: Catalog) -> [ProductShape] {
        let groupNames = Dictionary(catalog.groups.map { ($0.key, $0.name) }, uniquingKeysWith: { first, _ in first })
        return catalog.products.map { product in
            ProductShape(
                id: product.id.rawValue, type: product.kind?.rawValue, name: product.referenceName,
                groupKey: product.groupKey, groupName: product.groupKey.map { groupNames[$0] ?? $0 },
                period: product.period?.description,
                prices: Dictionary(uniqueKeysWithValues: product.prices.map {
                    ($0.key.alpha2, $0.value.money.description)
                }))
        }
        .sorted { $0.id < $1.id }
    }

    /// Exports every generated catalog with `export`, reads it back with `readBack`, and expects the same
    /// product shapes; stops at the first catalog that differs, naming the products that do.
    static func expectRoundTrips(_ export: (Catalog) -> String,
                                 readBack: (String, Int) throws -> [ProductShape]) throws {
        var generator = HostileCatalogGenerator(seed: 0x00C0_FFEE)
        for index in 0..<catalogCount {
            let catalog = try generator.catalog(number: index)
            let text = export(catalog)
            let actual: [ProductShape]
            do {
                actual = try readBack(text, index)
            } catch {
                Issue.record("catalog \(index) does not read back: \(error)\n\(text)")
                return
            }
            let expected = shapes(of: catalog)
            #expect(actual == expected, "catalog \(index)")
            if actual != expected {
                for (lhs, rhs) in zip(actual, expected) where lhs != rhs {
                    Issue.record("read back \(lhs)\nexported   \(rhs)")
                }
                return
            }
        }
    }

    @Test("YAML export reads back through ProductConfigReader with the same products")
    func yamlRoundTrip() throws {
        try Self.expectRoundTrips({ CatalogYAMLExporter().export($0) }, readBack: { text, index in
            Self.shapes(of: try ProductConfigReader().read(data: Data(text.utf8), displayPath: "exported-\(index).yml"))
        })
    }

    @Test("JSON export reads back through ProductConfigReader with the same products: it is a config")
    func jsonRoundTrip() throws {
        try Self.expectRoundTrips({ CatalogJSONExporter().export($0) }, readBack: { text, index in
            Self.shapes(of: try ProductConfigReader().read(data: Data(text.utf8), displayPath: "exported-\(index).json"))
        })
    }

    @Test("a key longer than YAML's 1,024-character limit for implicit keys is written as an explicit key")
    func longKeys() throws {
        let long = String(repeating: "k", count: 1_500)
        let quotedLong = String(repeating: "\"", count: 600)
        var catalog = Catalog(path: "long", format: .catalog)
        catalog.groups = [SubscriptionGroup(key: long, name: long), SubscriptionGroup(key: quotedLong, name: "short")]
        var product = Product(id: ProductID(long), kind: .autoRenewable, location: SourceLocation(path: ""))
        product.groupKey = quotedLong
        product.referenceName = long
        product.period = SubscriptionPeriod(count: 1, unit: .month)
        var other = Product(id: ProductID(quotedLong), kind: .autoRenewable, location: SourceLocation(path: ""))
        other.groupKey = long
        other.period = SubscriptionPeriod(count: 1, unit: .year)
        catalog.products = [product, other]
        let text = CatalogYAMLExporter().export(catalog)
        #expect(text.contains("\n  ? \(long)\n  :\n"))
        let back = try ProductConfigReader().read(data: Data(text.utf8), displayPath: "long.yml")
        #expect(Self.shapes(of: back) == Self.shapes(of: catalog))
    }

    @Test("U+FEFF and other invisible characters survive both exports", arguments: [
        "\u{FEFF}", "\u{FEFF}lead", "\u{FEFF}\u{200D}joined", "\u{FEFF}\u{301}",
        "trail\u{FEFF}", "mid\u{FEFF}dle", "\u{200B}", "zw\u{200D}j", "\u{2060}",
    ])
    func invisibleCharacters(text: String) throws {
        var catalog = Catalog(path: "bom", format: .catalog)
        catalog.groups = [SubscriptionGroup(key: text, name: text)]
        var product = Product(id: ProductID(text), kind: .autoRenewable, location: SourceLocation(path: ""))
        product.referenceName = text
        product.groupKey = text
        product.period = SubscriptionPeriod(count: 1, unit: .week)
        catalog.products = [product]
        let yaml = try ProductConfigReader().read(data: Data(CatalogYAMLExporter().export(catalog).utf8),
                                                  displayPath: "bom.yml")
        #expect(Self.shapes(of: yaml) == Self.shapes(of: catalog))
        let json = try ProductConfigReader().read(data: Data(CatalogJSONExporter().export(catalog).utf8),
                                                  displayPath: "bom.json")
        #expect(Self.shapes(of: json) == Self.shapes(of: catalog))
    }

    @Test("a hand-written config keeps a leading U+FEFF: escaped, literal, in keys and values, in every quoting")
    func handWrittenByteOrderMarks() throws {
        let text = "version: 1\nproducts:\n"
            + "  \"\\uFEFFescaped\":\n    type: consumable\n    name: \"\\U0000feffeight\"\n"
            + "  \"\u{FEFF}literal\":\n    type: consumable\n    name: '\u{FEFF}single'\n"
            + "  plain:\n    type: consumable\n    name: \"\\\\uFEFF is text\"\n"
        let catalog = try ProductConfigReader().read(data: Data(text.utf8), displayPath: "bom.yml")
        #expect(catalog.products.map(\.id.rawValue.unicodeScalars.first) == ["\u{FEFF}", "\u{FEFF}", "p"])
        #expect(catalog.products.map { $0.referenceName?.unicodeScalars.first } == ["\u{FEFF}", "\u{FEFF}", "\\"])
        #expect(catalog.products.map(\.referenceName) == ["\u{FEFF}eight", "\u{FEFF}single", "\\uFEFF is text"])
    }
}

/// Catalogs full of hostile strings, from a seeded SplitMix64: the same catalogs on every run.
struct HostileCatalogGenerator {
    private var random: SeededGenerator

    init(seed: UInt64) {
        random = SeededGenerator(seed: seed)
    }

    /// Pieces strings are made of: words YAML resolves to other types, YAML indicators, quotes, spaces at the
    /// ends, control and invisible characters, combining marks, non-BMP emoji.
    static let pieces: [String] = [
        "", " ", "  ", "\t", "NO", "no", "No", "~", "null", "Null", "NULL", "true", "False", "yes", "Y", "on", "off",
        "1234", "-1", "+1", "0x1F", "0o17", "1e3", ".5", "1_000", ".inf", "-.Inf", ".NaN", "2024-01-01",
        "2024-01-01T10:00:00Z", "12:30", "1:2:3", ": ", ":", "a: b", "#", " #", "a #b", "\"", "'", "''", "`", "\\",
        "\\n", " lead", "trail ", "\n", "\r\n", "\r", "\u{7}", "\u{1B}[31m", "\u{7F}", "\u{85}", "\u{2028}",
        "\u{2029}", "\u{202E}", "\u{200B}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{A0}", "\u{3000}", "🎉",
        "👩‍👩‍👧", "𝔘𝔫𝔦", "é", "e\u{301}", "コイン", "- x", "-", "? x", "?", "&a", "*a", "!t", "!!str", "%YAML",
        "@", "|", ">", "[", "]", "{", "}", ",", "<<", "---", "...", "=", "com.example.app.coins.100",
        "premium:monthly", "Premium", "100 Coins", "\u{D7FF}", "\u{E000}", "\u{FFFD}", "\u{10FFFF}", "\u{1F}",
        "\u{0}", "\u{8}\u{C}",
    ]

    private mutating func below(_ bound: Int) -> Int {
        Int(random.next() % UInt64(bound))
    }

    /// A string of one to four pieces; now and then longer than 1,024 characters.
    mutating func string() -> String {
        var result = ""
        for _ in 0...below(4) {
            result += Self.pieces[below(Self.pieces.count)]
        }
        if below(12) == 0 {
            let filler = Self.pieces[below(Self.pieces.count)] + "x"
            result += String(repeating: filler, count: 1_100 / filler.count + 1)
        }
        return result
    }

    /// A string the config accepts where it must not be empty (product IDs, group keys and names).
    mutating func nonEmptyString() -> String {
        let text = string()
        return text.isEmpty ? "x" : text
    }

    /// One generated catalog: groups, and products of every type with names, groups, periods and prices.
    mutating func catalog(number: Int) throws -> Catalog {
        let territories = try ["US", "GB", "DE", "JP", "CH", "BR"].map { try #require(Territory(code: $0)) }
        let currencies = try ["USD", "GBP", "EUR", "JPY", "CHF", "BRL"].map { try #require(CurrencyCode($0)) }
        var catalog = Catalog(path: "generated-\(number)", format: .catalog,
                              baseTerritory: territories[below(territories.count)])
        var groupKeys: [String] = []
        for _ in 0..<below(4) {
            let key = nonEmptyString()
            guard !groupKeys.contains(key) else { continue }
            groupKeys.append(key)
            catalog.groups.append(SubscriptionGroup(key: key, name: below(2) == 0 ? key : nonEmptyString()))
        }
        var ids: Set<String> = []
        for _ in 0..<(1 + below(6)) {
            let id = nonEmptyString()
            guard ids.insert(id).inserted else { continue }
            let kinds = ProductKind.allCases
            var product = Product(id: ProductID(id), kind: kinds[below(kinds.count)],
                                  location: SourceLocation(path: ""))
            if below(4) != 0 { product.referenceName = string() }
            if product.kind == .autoRenewable || product.kind == .nonRenewing {
                let units: [SubscriptionPeriod.Unit] = [.day, .week, .month, .year]
                product.period = SubscriptionPeriod(count: 1 + below(6), unit: units[below(units.count)])
            }
            // Play prepaid base plans are non-renewing products in a group.
            if product.kind == .autoRenewable || product.kind == .nonRenewing, !groupKeys.isEmpty {
                product.groupKey = groupKeys[below(groupKeys.count)]
            }
            for _ in 0..<below(4) {
                let slot = below(territories.count)
                let cents = Decimal(below(100_000)) / Decimal(100)
                product.prices[territories[slot]] = Price(
                    territory: territories[slot], money: Money(amount: cents, currency: currencies[slot]))
            }
            product.listsTerritoryPrices = !product.prices.isEmpty && below(2) == 0
            catalog.products.append(product)
        }
        return catalog
    }
}
