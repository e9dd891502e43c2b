@testable import CatalogFormats
import CatalogCore
import Foundation
import Testing
import TestSupport

/// Random JSON text: nested objects and arrays, strings with every escape, `\u` escapes with surrogate pairs,
/// raw non-ASCII and non-BMP characters, numbers in every RFC 8259 form, and whitespace between tokens.
struct JSONCorpusGenerator {
    /// Seeded SplitMix64: the same corpus on every run and machine.
    var random: SeededGenerator

    private static let numbers = ["0", "-0", "7", "-12", "1234567890", "0.5", "-0.25", "3.14159", "1e3", "1E3", "1e+3",
                                  "1e-3", "-2.5E-2", "6.02e23", "0.000001", "1.0", "100.00", "9007199254740991",
                                  "-9223372036854775808", "9223372036854775807", "12.5e+1", "0e0", "0.1E-10"]
    // Not U+FEFF raw: Foundation on Linux drops it inside strings, which RFC 8259 does not allow.
    private static let characters: [String] = ["a", "Z", " ", "é", "中", "😀", "𝄞", "\u{7F}", "~", "\u{E000}"]
    private static let escapes: [(text: String, value: String)] = [
        ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\u{8}"), ("\\f", "\u{C}"), ("\\n", "\n"), ("\\r", "\r"),
        ("\\t", "\t"), ("\\u0041", "A"), ("\\u00e9", "é"), ("\\u4E2D", "中"), ("\\u0000", "\u{0}"), ("\\u001f", "\u{1F}"),
        ("\\ud83d\\ude00", "😀"), ("\\uD834\\uDD1E", "𝄞"), ("\\uDBFF\\uDFFF", "\u{10FFFF}"), ("\\uFFFF", "\u{FFFF}"),
    ]
    private static let whitespace = ["", "", " ", "\n", "\t", "\r\n", "  "]

    private mutating func pick<T>(_ items: [T]) -> T {
        items[Int(random.next() % UInt64(items.count))]
    }

    private mutating func space() -> String { pick(Self.whitespace) }

    /// A string's JSON text and its value.
    mutating func string() -> (text: String, value: String) {
        var text = "\""
        var value = ""
        for _ in 0..<Int(random.next() % 8) {
            if random.next() % 3 == 0 {
                let escape = pick(Self.escapes)
                text += escape.text
                value += escape.value
            } else {
                let character = pick(Self.characters)
                text += character
                value += character
            }
        }
        return (text + "\"", value)
    }

    /// A value's JSON text, at most `depth` levels deep.
    mutating func value(depth: Int) -> String {
        switch random.next() % (depth > 0 ? 8 : 5) {
        case 0: return pick(Self.numbers)
        case 1: return string().text
        case 2: return pick(["true", "false", "null"])
        case 3, 4: return pick(Self.numbers)
        case 5, 6:
            var keys: Set<String> = []
            var members: [String] = []
            for _ in 0..<Int(random.next() % 6) {
                let key = string()
                guard keys.insert(key.value).inserted else { continue }
                members.append(space() + key.text + space() + ":" + space() + value(depth: depth - 1) + space())
            }
            return "{" + space() + members.joined(separator: ",") + "}"
        default:
            let elements = (0..<Int(random.next() % 6)).map { _ in space() + value(depth: depth - 1) + space() }
            return "[" + space() + elements.joined(separator: ",") + "]"
        }
    }
}

@Suite("JSON tape")
struct JSONTapeTests {
    /// Whether a tape value and what `JSONSerialization` made of the same text are the same value.
    private func agree(_ value: JSONValue, _ foundation: Any, path: String) -> String? {
        switch value.kind {
        case .object:
            guard let dictionary = foundation as? [String: Any], let members = value.members else { return path }
            let keys = members.map(\.key)
            guard keys.count == dictionary.count, Set(keys) == Set(dictionary.keys) else { return path }
            for member in members {
                guard let other = dictionary[member.key], value[member.key]?.index == member.value.index else {
                    return path + "." + member.key
                }
                if let mismatch = agree(member.value, other, path: path + "." + member.key) { return mismatch }
            }
            return nil
        case .array:
            guard let array = foundation as? [Any], let elements = value.elements, elements.count == array.count else {
                return path
            }
            for (index, (element, other)) in zip(elements, array).enumerated() {
                if let mismatch = agree(element, other, path: "\(path)[\(index)]") { return mismatch }
            }
            return nil
        case .string:
            return value.string == foundation as? String ? nil : path
        case .number:
            // Foundation reads numbers as integers or doubles: the text read as a double must be that number.
            guard let text = value.numberText, let number = foundation as? NSNumber, let double = Double(text),
                  double == number.doubleValue else { return path }
            if let int = value.int, Int(text) != int { return path }
            return nil
        case .bool:
            return value.bool == (foundation as? Bool) ? nil : path
        case .null:
            return foundation is NSNull ? nil : path
        }
    }

    /// Pinned (the bytes and tape copied, read through pointers: every document up to 4 MiB) and not (read through
    /// `Data` and the tape's array: a bigger one), the same documents read the same.
    @Test("every value of 3,000 generated documents reads as JSONSerialization reads it", arguments: [
        JSONDocument.pinnedLimit, 0,
    ])
    func agreesWithFoundation(pinnedLimit: Int) throws {
        var generator = JSONCorpusGenerator(random: SeededGenerator(seed: 0x5EED_1234))
        var containers = 0
        for number in 0..<3000 {
            let text = generator.value(depth: 5)
            let data = Data(text.utf8)
            let document = try JSONDocument(utf8: data, path: "t.json", pinnedLimit: pinnedLimit)
            let foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let mismatch = agree(document.root, foundation, path: "$")
            #expect(mismatch == nil, "document \(number) differs at \(mismatch ?? ""): \(text)")
            if document.root.members != nil || document.root.elements != nil { containers += 1 }
        }
        #expect(containers > 1000)
    }

    @Test("numbers: int reads whole numbers within Int from the bytes, nothing else")
    func integers() throws {
        let document = try JSONDocument(
            data: Data("[0, -0, 42, -9223372036854775808, 9223372036854775807, 9223372036854775808, 1.0, 1e2, -1]".utf8),
            path: "t.json")
        let values = try #require(document.root.elements).map(\.int)
        #expect(values == [0, 0, 42, Int.min, Int.max, nil, nil, nil, -1])
    }

    @Test("a key with escapes is found by its decoded text, and duplicates it")
    func escapedKeys() throws {
        let document = try JSONDocument(data: Data(#"{"\u0061b": 1, "c\/d": [true]}"#.utf8), path: "t.json")
        #expect(document.root["ab"]?.int == 1)
        #expect(document.root["c/d"]?.elements?.first?.bool == true)
        #expect(document.root["c\\/d"] == nil)
        #expect(document.root.members?.map(\.key) == ["ab", "c/d"])
    }

    /// An object of keys alike (many share their first eight bytes, or their length, or are short; some spell a
    /// letter as `\u0061`), nested objects in its values, and the repeated keys it has, in file order: each key's
    /// offset and decoded text.
    private static func objectOfAlikeKeys(_ random: inout SeededGenerator, depth: Int,
                                          into text: inout String, repeated: inout [(Int, String)]) {
        text += "{"
        var seen: Set<String> = []
        for member in 0..<Int(random.next() % 22) {
            if member > 0 { text += ", " }
            var key = random.next() % 2 == 0 ? "abababab" : ""
            for _ in 0..<Int(random.next() % 4) { key += random.next() % 2 == 0 ? "a" : "b" }
            let spelled = random.next() % 5 == 0 ? key.replacingOccurrences(of: "a", with: "\\u0061") : key
            if !seen.insert(key).inserted { repeated.append((text.utf8.count, key)) }
            text += "\"\(spelled)\": "
            if depth > 0, random.next() % 4 == 0 {
                objectOfAlikeKeys(&random, depth: depth - 1, into: &text, repeated: &repeated)
            } else {
                text += "\(member)"
            }
        }
        text += "}"
    }

    /// The parser keeps the keys of the objects open in one stack whose room it reuses, and compares keys by
    /// their first eight bytes before their bytes: keys alike in both must still be told apart, in each object
    /// alone, whether compared one by one (up to 16 members) or through hash slots.
    @Test("repeated keys are found among keys alike in their first eight bytes, in nested and sibling objects")
    func repeatedAlikeKeys() throws {
        var random = SeededGenerator(seed: 0xD0_0B1E)
        var withRepeats = 0
        for number in 0..<2000 {
            var text = ""
            var repeated: [(Int, String)] = []
            text += "["
            for element in 0..<3 {
                if element > 0 { text += ", " }
                Self.objectOfAlikeKeys(&random, depth: 2, into: &text, repeated: &repeated)
            }
            text += "]"
            let parsed: Result<JSONTape, JSONSyntaxError> = Data(text.utf8).withUnsafeBytes { raw in
                Result { () throws(JSONSyntaxError) in try JSONTapeParser.parse(raw.bindMemory(to: UInt8.self)) }
            }
            var found: [(Int, String)] = []
            if case .failure(let error) = parsed {
                found = error.problems.map { ($0.offset, $0.message) }
                #expect(error.unlisted == max(0, repeated.count - CatalogReadError.listLimit), "document \(number)")
            }
            let expected = repeated.prefix(CatalogReadError.listLimit).map { ($0.0, "duplicate key \"\($0.1)\"") }
            #expect(found.map(\.0) == expected.map(\.0) && found.map(\.1) == expected.map(\.1),
                    "document \(number): \(text)")
            if !repeated.isEmpty { withRepeats += 1 }
        }
        #expect(withRepeats > 500)
    }

    /// Past 16 members the keys are found through hash slots, which grow at 48 keys: a price map's 175
    /// territories, each repeated later (every seventh spelled with an escape), are each reported at their place.
    @Test("repeats in an object of 175 keys are each found, escaped spellings included, as the slots grow")
    func repeatedKeysInALongObject() throws {
        let codes = (0..<175).map { "T\($0)" }
        var text = "{" + codes.map { "\"\($0)\": 1" }.joined(separator: ", ")
        var expected: [(Int, String)] = []
        for (number, code) in codes.enumerated() where number % 5 == 0 {
            text += ", "
            expected.append((text.utf8.count, code))
            text += "\"" + (number % 7 == 0 ? "\\u0054" + code.dropFirst() : code) + "\": 2"
        }
        text += ", \"U1\": 3}"
        let parsed: Result<JSONTape, JSONSyntaxError> = Data(text.utf8).withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try JSONTapeParser.parse(raw.bindMemory(to: UInt8.self)) }
        }
        guard case .failure(let error) = parsed else {
            Issue.record("no repeated key was found")
            return
        }
        let listed = expected.prefix(CatalogReadError.listLimit)
        #expect(error.problems.map(\.offset) == listed.map(\.0))
        #expect(error.problems.map(\.message) == listed.map { "duplicate key \"\($0.1)\"" })
        #expect(error.unlisted == expected.count - listed.count)
        #expect(expected.count == 35)
    }

    @Test("a key's head read eight bytes at once past its end is the head read byte by byte, at every length and place")
    func keyHeads() {
        let input = Array("abcdefghijabcdefghij".utf8)
        input.withUnsafeBufferPointer { input in
            for start in 0..<input.count {
                for end in start...input.count {
                    let raw = UnsafeBufferPointer(rebasing: input[start..<end])
                    let alone = JSONKeyBytes(raw: raw, escaped: false)
                    let inInput = JSONKeyBytes(raw: raw, escaped: false, followedWithin: input)
                    #expect(alone == inInput, "\(start)..<\(end)")
                    func key(_ range: Range<Int>) -> JSONKeyBytes {
                        JSONKeyBytes(raw: UnsafeBufferPointer(rebasing: input[range]), escaped: false,
                                     followedWithin: input)
                    }
                    // The same letters ten bytes on are the same key; one byte longer, or the letters one byte on
                    // (of a key up to nine letters: no letter repeats within ten), another.
                    if end + 10 <= input.count { #expect(inInput == key((start + 10)..<(end + 10))) }
                    if end < input.count { #expect(inInput != key(start..<(end + 1))) }
                    if end > start, end - start < 10, end < input.count {
                        #expect(inInput != key((start + 1)..<(end + 1)))
                    }
                }
            }
        }
    }

    @Test("a tape word's top three bits name one of the eight kinds, each kind its raw value")
    func entryKinds() {
        #expect(JSONTape.EntryKind.allCases.map(\.rawValue) == Array(0...7))
        for kind in JSONTape.EntryKind.allCases {
            #expect(JSONTape.EntryKind.fromThreeBits(kind.rawValue) == kind)
        }
    }

    /// What RFC 8259 rejects, with the message and where.
    static let invalid: [(text: String, line: Int, column: Int, message: String)] = [
        ("", 1, 1, "the file is empty"),
        ("  \n ", 2, 2, "the file is empty"),
        ("{\"a\": 1", 1, 8, "unexpected end of file, expected ',' or '}'"),
        ("[1, 2", 1, 6, "unexpected end of file, expected ',' or ']'"),
        ("{\"a\": tr", 1, 7, "invalid literal, expected 'true'"),
        ("\"abc", 1, 1, "unterminated string"),
        ("[\"ab\\", 1, 2, "unterminated string"),
        ("{\"a\": \"x\\q\"}", 1, 9, "invalid escape in string"),
        ("[\"\\u12G4\"]", 1, 7, "invalid \\u escape"),
        ("[\"\\u12\"]", 1, 7, "invalid \\u escape"),
        ("[\"\\ud800\"]", 1, 9, "unpaired surrogate in string"),
        ("[\"\\udc00\"]", 1, 9, "unpaired surrogate in string"),
        ("[\"\\ud800\\u0041\"]", 1, 15, "unpaired surrogate in string"),
        ("[01]", 1, 2, "invalid number: leading zero"),
        ("[-01]", 1, 2, "invalid number: leading zero"),
        ("[1.]", 1, 2, "invalid number"),
        ("[1e]", 1, 2, "invalid number"),
        ("[-]", 1, 2, "invalid number"),
        ("[.5]", 1, 2, "unexpected '.', expected a value"),
        ("[+1]", 1, 2, "unexpected '+', expected a value"),
        ("[1,]", 1, 4, "unexpected ']', expected a value"),
        ("{\"a\":1,}", 1, 8, "unexpected '}', expected a key in quotes"),
        ("{\n  \"a\": [1,\n    2,,\n  ]\n}", 3, 7, "unexpected ',', expected a value"),
        ("{\"a\" 1}", 1, 6, "unexpected '1', expected ':' after key \"a\""),
        ("[\"a\tb\"]", 1, 4, "control character in string"),
        ("[\u{0}]", 1, 2, "unexpected byte 0x00, expected a value"),
        ("[1] x", 1, 5, "unexpected 'x' after the end of the document"),
        ("{\"a\": 1, \"\\u0061\": 2}", 1, 10, "duplicate key \"a\""),
        ("{" + (0..<20).map { "\"k\($0)\": 0" }.joined(separator: ", ") + ", \"\\u006b3\": 1}", 1, 192, "duplicate key \"k3\""),
        (String(repeating: "[", count: 513) + String(repeating: "]", count: 513), 1, 513,
         "nesting deeper than 512 levels"),
    ]

    @Test("what RFC 8259 rejects is rejected with its message, line and column", arguments: invalid)
    func rejects(text: String, line: Int, column: Int, message: String) {
        #expect(throws: CatalogReadError("invalid JSON: \(message)", at: SourceLocation(path: "t.json", line: line,
                                                                                          column: column))) {
            try JSONDocument(data: Data(text.utf8), path: "t.json")
        }
    }

    @Test("a string and a container larger than a tape word holds: their extents are kept aside")
    func largeExtents() throws {
        let long = String(repeating: "x", count: 1 << 24)
        let many = 1 << 24
        let text = "[[" + String(repeating: "0,", count: many) + "1], \"" + long + "\", true]"
        let document = try JSONDocument(data: Data(text.utf8), path: "t.json")
        // Walking the root's elements jumps over the big array by its kept-aside extent.
        let elements = Array(try #require(document.root.elements))
        #expect(elements.count == 3)
        #expect(elements[0].kind == .array)
        #expect(elements[1].string?.utf8.count == 1 << 24)
        #expect(elements[2].bool == true)
        #expect(document.location(of: elements[2])
            == SourceLocation(path: "t.json", line: 1, column: 2 * many + 6 + (1 << 24) + 5))
    }

    @Test("a string's plain run ends at its first quote, backslash, control or non-ASCII byte, words or bytes")
    func plainRunEnd() {
        // Every byte that ends a run, at every place of the first three words and the tail, after plain bytes
        // whose values sit next to the tested ones (a borrow from them must not flag the byte before).
        let stops: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x22, 0x5C, 0x80, 0xC3, 0xFF]
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x41]
        for stop in stops {
            for place in 0..<27 {
                for filler in plain {
                    let bytes = [UInt8](repeating: filler, count: place) + [stop]
                        + [UInt8](repeating: filler, count: 9)
                    let end = bytes.withUnsafeBufferPointer { JSONTapeParser.plainRunEnd(in: $0, from: 0) }
                    #expect(end == place, "byte \(stop) after \(place) of \(filler)")
                }
            }
        }
        // From a start inside the bytes; with no stop, the end of the bytes.
        let text = Array(#"abcdefghijklmnopq"rst"#.utf8)
        #expect(text.withUnsafeBufferPointer { JSONTapeParser.plainRunEnd(in: $0, from: 3) } == 17)
        #expect(text.withUnsafeBufferPointer { JSONTapeParser.plainRunEnd(in: $0, from: 18) } == text.count)
        #expect([UInt8]().withUnsafeBufferPointer { JSONTapeParser.plainRunEnd(in: $0, from: 0) } == 0)
    }

    @Test("512 levels are read")
    func deepestNesting() throws {
        let text = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try JSONDocument(data: Data(text.utf8), path: "t.json").root.elements?.count == 1)
    }

    @Test("invalid UTF-8: the file check names the byte; the parser itself rejects the string")
    func invalidUTF8() {
        let bytes = Data([0x5B, 0x22, 0x61, 0xFF, 0x22, 0x5D])
        #expect(throws: CatalogReadError("the file is not UTF-8 text (byte 0xFF); save the file as UTF-8",
                                         at: SourceLocation(path: "t.json", line: 1, column: 4))) {
            try JSONDocument(data: bytes, path: "t.json")
        }
        #expect(throws: CatalogReadError("invalid JSON: string is not valid UTF-8",
                                         at: SourceLocation(path: "t.json", line: 1, column: 2))) {
            try JSONDocument(utf8: bytes, path: "t.json")
        }
        // An overlong encoding and an encoded surrogate are not UTF-8 either.
        for sequence: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            #expect(throws: CatalogReadError("invalid JSON: string is not valid UTF-8",
                                             at: SourceLocation(path: "t.json", line: 1, column: 1))) {
                try JSONDocument(utf8: Data([0x22] + sequence + [0x22]), path: "t.json")
            }
        }
    }
}
