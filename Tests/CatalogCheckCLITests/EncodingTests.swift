import Foundation
import TestSupport
import Testing

/// Inputs saved as UTF-16 or UTF-32 with a byte order mark, or as UTF-8 with one, read exactly like their UTF-8
/// originals (same catalog, same error at the same line and column); text that is not UTF-8 is an error at the
/// first bad byte. The encoded files are made here from the UTF-8 fixtures, not committed.
@Suite("Text encodings", .serialized)
struct EncodingTests {
    /// An encoding a test saves a fixture in.
    enum Encoding: String, CaseIterable, CustomTestStringConvertible {
        case utf8BOM, utf16LE, utf16BE, utf32LE, utf32BE

        var testDescription: String { rawValue }

        /// `text` in this encoding, with its byte order mark.
        func encode(_ text: String) throws -> Data {
            let (mark, encoding): ([UInt8], String.Encoding) = switch self {
            case .utf8BOM: ([0xEF, 0xBB, 0xBF], .utf8)
            case .utf16LE: ([0xFF, 0xFE], .utf16LittleEndian)
            case .utf16BE: ([0xFE, 0xFF], .utf16BigEndian)
            case .utf32LE: ([0xFF, 0xFE, 0x00, 0x00], .utf32LittleEndian)
            case .utf32BE: ([0x00, 0x00, 0xFE, 0xFF], .utf32BigEndian)
            }
            return Data(mark) + (try #require(text.data(using: encoding)))
        }
    }

    /// One valid input per format read through this path (JSON, YAML and CSV), found by detection.
    static let valid = [
        "catalogs/demo/products.yml", "Tests/Fixtures/config/valid/rich.json", "catalogs/demo/appstore.storekit",
        "catalogs/demo/play-products.csv", "catalogs/demo/asc/in-app-purchases.json",
        "catalogs/demo/play/subscriptions.json",
    ]

    /// Inputs with an error at a line and column.
    static let invalid = [
        "Tests/Fixtures/config/invalid/unknown-product-key.yml", "Tests/Fixtures/malformed/config-truncated.json",
        "Tests/Fixtures/malformed/storekit-bad-price.storekit",
        "Tests/Fixtures/malformed/play-csv-unterminated-quote.csv",
        "Tests/Fixtures/malformed/asc-bad-customer-price.json",
    ]

    /// Runs `catalogcheck export NAME --format json` on `data` saved as `name` in a new folder.
    static func export(_ data: Data, as name: String, _ extra: [String] = []) throws -> CommandResult {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try data.write(to: folder.appendingPathComponent(name))
        return try CommandRunner.run(["export", name, "--format", "json", "--as-of", "2026-11-22"] + extra,
                                     in: folder)
    }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }

    @Test("a file with a byte order mark reads like its UTF-8 original", arguments: valid, Encoding.allCases)
    func validInput(path: String, encoding: Encoding) throws {
        let name = (path as NSString).lastPathComponent
        let original = try Self.export(Data(try Self.text(path).utf8), as: name)
        #expect(original.exitCode == 0, "\(original.stderr)")
        let encoded = try Self.export(try encoding.encode(try Self.text(path)), as: name)
        #expect(encoded.exitCode == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == original.stdout)
        #expect(encoded.stderr == original.stderr)
    }

    @Test("errors in a transcoded file are at the original's line and column", arguments: invalid, Encoding.allCases)
    func invalidInput(path: String, encoding: Encoding) throws {
        let name = (path as NSString).lastPathComponent
        let original = try Self.export(Data(try Self.text(path).utf8), as: name)
        #expect(original.exitCode == 2)
        let encoded = try Self.export(try encoding.encode(try Self.text(path)), as: name)
        #expect(encoded.exitCode == 2)
        #expect(encoded.stderr == original.stderr)
        #expect(encoded.stdout.isEmpty)
    }

    @Test("columns count characters, after a byte order mark too", arguments: [
        ("c.yml", "version: 1\nproducts:\n  \"café😀\": {type: consumable, prise: 1}\n", "c.yml:3:31: error: "),
        ("c.json", "{\"version\": 1, \"products\": {\"café😀\": {\"type\": \"consumable\", \"prise\": 1}}}",
         "c.json:1:61: error: "),
    ], Encoding.allCases)
    func columns(input: (name: String, text: String, prefix: String), encoding: Encoding) throws {
        let (name, text, prefix) = input
        let plain = try Self.export(Data(text.utf8), as: name)
        #expect(plain.stderr.hasPrefix(prefix), "\(plain.stderr)")
        let encoded = try Self.export(try encoding.encode(text), as: name)
        #expect(encoded.exitCode == 2)
        #expect(encoded.stderr == plain.stderr)
    }

    @Test("Transporter XML in UTF-16 with its own declaration, and XML with a UTF-8 mark", arguments: [
        Encoding.utf16LE, .utf16BE, .utf8BOM,
    ])
    func transporterXML(encoding: Encoding) throws {
        let text = try Self.text("catalogs/demo/metadata.xml")
        let original = try Self.export(Data(text.utf8), as: "metadata.xml")
        #expect(original.exitCode == 0, "\(original.stderr)")
        let declared = encoding == .utf8BOM ? text
            : text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        #expect(declared.contains("UTF-16") == (encoding != .utf8BOM))
        let encoded = try Self.export(try encoding.encode(declared), as: "metadata.xml")
        #expect(encoded.exitCode == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == original.stdout)
    }

    @Test("a property list with a UTF-8 byte order mark, or in UTF-16 with its declaration", arguments: [
        Encoding.utf8BOM, .utf16LE, .utf16BE,
    ])
    func plist(encoding: Encoding) throws {
        let text = try Self.text("Tests/Fixtures/plist/array.plist")
        let original = try Self.export(Data(text.utf8), as: "ids.plist")
        #expect(original.exitCode == 0, "\(original.stderr)")
        let declared = encoding == .utf8BOM ? text
            : text.replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        let encoded = try Self.export(try encoding.encode(declared), as: "ids.plist")
        #expect(encoded.exitCode == 0, "\(encoded.stderr)")
        #expect(encoded.stdout == original.stdout)
    }

    @Test("Latin-1 text is not UTF-8: the first bad byte's line and column", arguments: [
        "catalogs/demo/products.yml", "catalogs/demo/play-products.csv", "catalogs/demo/appstore.storekit",
        "catalogs/demo/asc/in-app-purchases.json",
    ])
    func latin1(path: String) throws {
        let name = (path as NSString).lastPathComponent
        // The third line gets "é" (Latin-1 0xE9) after its first character: the bad byte is at 3:2.
        var latin1 = Array(try Self.text(path).utf8)
        let lineBreaks = latin1.indices.filter { latin1[$0] == 0x0A }
        latin1.insert(0xE9, at: try #require(lineBreaks.dropFirst().first) + 2)
        let result = try Self.export(Data(latin1), as: name)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "\(name):3:2: error: the file is not UTF-8 text (byte 0xE9); save the file as UTF-8\n")
    }

    @Test("UTF-16 or UTF-32 without a byte order mark is named, not taken for binary data", arguments: [
        ("products.csv", String.Encoding.utf16LittleEndian, "UTF-16"), ("products.csv", .utf16BigEndian, "UTF-16"),
        ("c.json", .utf16LittleEndian, "UTF-16"), ("c.yml", .utf32LittleEndian, "UTF-32"),
    ])
    func unmarked(name: String, encoding: String.Encoding, words: String) throws {
        let text = try Self.text(name.hasSuffix(".csv") ? "catalogs/demo/play-products.csv" : "catalogs/demo/products.yml")
        let result = try Self.export(try #require(text.data(using: encoding)), as: name)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "\(name):1:1: error: the file is not UTF-8 text: it looks like \(words) without a byte "
                    + "order mark; save the file as UTF-8\n")
    }

    @Test("a UTF-16 mark on text that is not UTF-16 is an error")
    func brokenUTF16() throws {
        // An unpaired high surrogate on line 2, column 3.
        let data = Data([0xFF, 0xFE]) + (try #require("a\nbc".data(using: .utf16LittleEndian)))
            + Data([0x00, 0xD8, 0x41, 0x00])
        let result = try Self.export(data, as: "c.yml")
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("c.yml:2:3: error: the file starts with a UTF-16 byte order mark but is not UTF-16 text"),
                "\(result.stderr)")
    }
}
