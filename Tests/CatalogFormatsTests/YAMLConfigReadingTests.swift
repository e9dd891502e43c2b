import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// The YAML config read from libyaml's events (`ConfigNode.parseYAML`): aliases, keys from their source text,
/// locations, line breaks and byte order marks.
@Suite("YAML config reading")
struct YAMLConfigReadingTests {
    /// The tree of a YAML text.
    static func tree(_ yaml: String) throws -> ConfigNode {
        try #require(try ConfigNode.parseYAML(Data(yaml.utf8), path: "c.yml"))
    }

    /// The entry of a mapping node under `key`.
    static func entry(_ node: ConfigNode, _ key: String) throws -> ConfigEntry {
        try #require(node.entries?.first { $0.key == key })
    }

    @Test("an alias to a mapping is the anchored mapping again, located where the anchor is")
    func aliasToMapping() throws {
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              a: &coins {type: consumable, price: 0.99 USD}
              b: *coins
            """)
        #expect(catalog.products.map(\.id.rawValue) == ["a", "b"])
        let usd = try ConfigTesting.money("0.99", "USD")
        let us = try ConfigTesting.territory("US")
        #expect(catalog.products.map { $0.prices[us]?.money } == [usd, usd])
        let products = try Self.entry(try Self.tree("products:\n  a: &p {type: consumable}\n  b: *p\n"), "products")
        let b = try Self.entry(products.value, "b")
        #expect(b.value.location == SourceLocation(path: "c.yml", line: 2, column: 6))
        #expect(b.keyLocation == SourceLocation(path: "c.yml", line: 3, column: 3))
        #expect(try Self.entry(b.value, "type").value.scalar?.text == "consumable")
    }

    @Test("aliases count against the node budget: within it a document reads, past it the node that breaks it is named")
    func aliasBudget() throws {
        let ten = "[x, x, x, x, x, x, x, x, x, x]"
        let small = try Self.tree("a: &a \(ten)\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b]\n")
        #expect(try Self.entry(small, "c").value.elements?.first?.elements?.count == 10)
        let error = ConfigTesting.error(reading: "malformed/config-alias-bomb.yml")
        #expect(error?.message
                    == "lol4[9][0][8][9][7]: the document expands to too many values (are aliases nested too deeply?)")
        #expect(error?.location == SourceLocation(path: "malformed/config-alias-bomb.yml", line: 2, column: 49))
    }

    @Test("YAML 1.1 booleans and numbers as keys stay their text: NO is Norway, 1234 a product ID")
    func keysAreText() throws {
        let catalog = try ConfigTesting.read(text: """
            version: 1
            products:
              1234: {type: consumable, prices: {NO: 9.99 NOK, SE: 9.99 SEK}}
              yes: {type: consumable}
            """)
        #expect(catalog.products.map(\.id.rawValue) == ["1234", "yes"])
        #expect(catalog.products.first?.prices.keys.map(\.alpha2).sorted() == ["NO", "SE"])
        let tree = try Self.tree("NO: n\ny: 1\n~: null\n")
        #expect(tree.entries?.map(\.key) == ["NO", "y", "~"])
        #expect(tree.entries?.map(\.value.scalar?.kind) == [.plain, .plain, .plain])
    }

    @Test("a key and a value in a flow mapping are located where they start")
    func flowLocations() throws {
        let tree = try Self.tree("products: {x: {type: consumable, \"price\": '1 USD'}}\n")
        let product = try Self.entry(try Self.entry(tree, "products").value, "x")
        let price = try Self.entry(product.value, "price")
        #expect(product.keyLocation == SourceLocation(path: "c.yml", line: 1, column: 12))
        #expect(product.value.location == SourceLocation(path: "c.yml", line: 1, column: 15))
        #expect(price.keyLocation == SourceLocation(path: "c.yml", line: 1, column: 34))
        #expect(price.value.location == SourceLocation(path: "c.yml", line: 1, column: 43))
        #expect(price.value.scalar?.kind == .string)
        #expect(try Self.entry(product.value, "type").value.scalar?.kind == .plain)
    }

    @Test("a tab used as indentation is a syntax error at the tab")
    func tabIndentation() {
        let error = ConfigTesting.error(readingText: "version: 1\nproducts:\n\tx: {type: consumable}\n")
        #expect(error == CatalogReadError(
            "invalid YAML: found character that cannot start any token (while scanning for the next token at line 3,"
                + " column 1)", at: SourceLocation(path: "products.yml", line: 3, column: 1)))
    }

    @Test("CRLF and CR line breaks count one line each")
    func lineBreaks() {
        for breakText in ["\r\n", "\r"] {
            let text = ["version: 1", "products:", "  x:", "    type: consumable", "    price: bad", ""]
                .joined(separator: breakText)
            let error = ConfigTesting.error(readingText: text)
            #expect(error?.location == SourceLocation(path: "products.yml", line: 5, column: 12))
        }
    }

    @Test("a byte order mark: a leading one is dropped (UTF-8 and UTF-16), one in a block scalar is text")
    func byteOrderMarks() throws {
        let yaml = "\u{FEFF}version: 1\nproducts:\n  x:\n    type: consumable\n    name: |\n      \u{FEFF}hi\n"
        let catalog = try ConfigTesting.read(text: yaml)
        #expect(catalog.products.first?.referenceName == "\u{FEFF}hi\n")
        var utf16 = Data([0xFF, 0xFE])
        for unit in yaml.dropFirst().utf16 { utf16.append(contentsOf: [UInt8(unit & 0xFF), UInt8(unit >> 8)]) }
        let fromUTF16 = try ProductConfigReader().read(data: utf16, displayPath: "products.yml")
        #expect(fromUTF16.products.first?.referenceName == "\u{FEFF}hi\n")
    }

    @Test("a repeated key with an anchor is named where it repeats; a repeat comes before a second document")
    func repeatedKeys() {
        let anchored = ConfigTesting.error(readingText: "version: 1\nproducts:\n  &a x: {type: consumable}\n  x: {}\n")
        #expect(anchored == CatalogReadError("products.x: duplicate key (first at line 3, column 3)",
                                             at: SourceLocation(path: "products.yml", line: 4, column: 3)))
        let twoDocuments = ConfigTesting.error(readingText: "version: 1\nversion: 1\n---\na: 1\n")
        #expect(twoDocuments?.message == "version: duplicate key (first at line 1, column 1)")
    }

    /// A mapping of more than 12 keys looks them up in a table of their hashes: each repeat is still found, at the
    /// first place of its key, and keys alike (one byte apart, a prefix of another) are told apart.
    @Test("repeated keys of a long mapping are found, each at its first place; keys alike are different keys")
    func repeatedKeysOfALongMapping() throws {
        let keys = (0..<40).map { "k\($0)" } + ["k1x", "k", "K1", "k 1"]
        var text = "version: 1\nproducts:\n  a:\n    prices:\n"
        for key in keys { text += "      \(key): 1 USD\n" }
        text += "      k3: 2 USD\n      k39: 3 USD\n      k1x: 4 USD\n"
        // (The keys are no territories: those problems are reported too, and left out here.)
        let repeats = try #require(ConfigTesting.error(readingText: text)).problems
            .filter { $0.message.contains("duplicate key") }
        #expect(repeats.map(\.message) == [
            "products.a.prices.k3: duplicate key (first at line 8, column 7)",
            "products.a.prices.k39: duplicate key (first at line 44, column 7)",
            "products.a.prices.k1x: duplicate key (first at line 45, column 7)",
        ])
        #expect(repeats.map(\.location.line) == [49, 50, 51])
    }

    @Test("what the config does not allow is reported with a syntax error or a second document later in the file")
    func syntaxErrorsWithEarlierProblems() throws {
        let tag = #"version: YAML tags are not supported (found "tag:yaml.org,2002:int")"#
        let tagThenSyntax = try #require(ConfigTesting.error(readingText: "version: !!int 1\nproducts: [\n"))
        #expect(tagThenSyntax.problems.map(\.message) == [
            tag, "invalid YAML: did not find expected node content (while parsing a flow node at line 3, column 1)",
        ])
        #expect(tagThenSyntax.problems.map(\.location.line) == [1, 3])
        let tagThenDocument = try #require(ConfigTesting.error(readingText: "version: !!int 1\n---\na: 1\n"))
        #expect(tagThenDocument.problems.map(\.message)
                    == [tag, "invalid YAML: the file holds several documents; a config is one document"])
        #expect(ConfigTesting.error(readingText: "version: !!int 1\nproducts: {}\n")?.message
                    == #"version: YAML tags are not supported (found "tag:yaml.org,2002:int")"#)
    }

    @Test("a tag is refused on a key, a mapping and a list, named at its path; !, !!str, !!map and !!seq are read")
    func tags() {
        #expect(ConfigTesting.error(readingText: "version: 1\nproducts:\n  !!int 7: {}\n")?.message
                    == #"products: YAML tags are not supported (found "tag:yaml.org,2002:int")"#)
        #expect(ConfigTesting.error(readingText: "version: 1\nproducts: !!set {}\n")?.message
                    == #"products: YAML tags are not supported (found "tag:yaml.org,2002:set")"#)
        #expect(ConfigTesting.error(readingText: "version: 1\nproducts:\n  a: {offers: !custom [x]}\n")?.message
                    == #"products.a.offers: YAML tags are not supported (found "!custom")"#)
        let allowed = "version: 1\nproducts: !!map\n  ! a: !!map {type: !!str consumable, tags: !!seq [x]}\n"
        #expect(ConfigTesting.error(readingText: allowed)?.message.contains("tags are not supported") != true)
    }

    @Test("nesting deeper than 1000 block levels is refused, 999 read")
    func blockNesting() throws {
        func nested(_ depth: Int) -> String {
            (0..<depth).map { String(repeating: " ", count: $0) + "k:" }.joined(separator: "\n") + " v\n"
        }
        #expect(throws: Never.self) { try ConfigNode.parseYAML(Data(nested(999).utf8), path: "c.yml") }
        let error = #expect(throws: CatalogReadError.self) {
            try ConfigNode.parseYAML(Data(nested(1001).utf8), path: "c.yml")
        }
        #expect(error?.message == "invalid YAML: nesting deeper than 1000 levels")
    }
}
