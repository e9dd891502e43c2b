import CatalogCore
import Foundation

/// A JSON value that remembers the byte offset where it starts, so every record can carry file:line:column.
/// Numbers keep their source text (amounts are read as decimals from it, never through `Double`).
struct JSONValue {
    enum Kind {
        case object([JSONMember])
        case array([JSONValue])
        case string(String)
        case number(String)
        case bool(Bool)
        case null
    }

    let kind: Kind
    /// Byte offset of the value's first character.
    let offset: Int

    /// The member named `key` of an object (nil for other kinds or a missing key).
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = kind else { return nil }
        return members.first(where: { $0.key == key })?.value
    }

    var members: [JSONMember]? {
        if case .object(let members) = kind { return members }
        return nil
    }

    var elements: [JSONValue]? {
        if case .array(let elements) = kind { return elements }
        return nil
    }

    var string: String? {
        if case .string(let text) = kind { return text }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = kind { return value }
        return nil
    }

    var isNull: Bool {
        if case .null = kind { return true }
        return false
    }

    /// The source text of a number, or nil.
    var numberText: String? {
        if case .number(let text) = kind { return text }
        return nil
    }

    /// A whole number within `Int`, written as a JSON number.
    var int: Int? {
        guard case .number(let text) = kind else { return nil }
        return Int(text)
    }

    /// What kind of value this is, for error messages.
    var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A value for an error message: scalars quoted (and shortened), containers by kind only.
func describeForMessage(_ value: JSONValue) -> String {
    switch value.kind {
    case .string(let text): "the string \(quotedForMessage(text))"
    case .number(let text): "the number \(text.count > 40 ? String(text.prefix(40)) + "…" : text)"
    case .bool(let flag): flag ? "true" : "false"
    case .null: "null"
    case .object: "an object"
    case .array: "an array"
    }
}

/// A key of a JSON object with its value.
struct JSONMember {
    let key: String
    let keyOffset: Int
    let value: JSONValue
}

/// A parsed JSON file: the root value plus the `SourceText` that turns byte offsets into lines and columns.
/// A reader that keeps locations but not values holds on to `source` alone.
final class JSONDocument {
    /// The path shown in locations.
    var path: String { source.path }
    /// The root value.
    let root: JSONValue
    /// The file's bytes and line tables.
    let source: SourceText

    /// Parses a file's bytes: UTF-8, or UTF-16 / UTF-32 with a byte order mark (`TextEncoding`). Malformed
    /// JSON, bytes that are not UTF-8, duplicate keys and nesting deeper than 512 levels are errors that name
    /// the line and column.
    convenience init(data: Data, path: String) throws(CatalogReadError) {
        try self.init(utf8: TextEncoding.utf8(data, path: path), path: path)
    }

    /// Parses bytes that `TextEncoding.utf8` returned.
    init(utf8 data: Data, path: String) throws(CatalogReadError) {
        self.source = SourceText(path: path, bytes: data)
        let result: Result<JSONValue, JSONSyntaxError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return Result { () throws(JSONSyntaxError) in try parser.parseDocument() }
        }
        switch result {
        case .success(let root):
            self.root = root
        case .failure(let error):
            let location = error.offset < 0 ? SourceLocation(path: path) : source.location(ofOffset: error.offset)
            throw CatalogReadError("invalid JSON: \(error.message)", at: location)
        }
    }

    /// Reads and parses a file.
    convenience init(contentsOf url: URL, displayPath: String) throws(CatalogReadError) {
        let data = try FileLoading.data(at: url, displayPath: displayPath)
        try self.init(data: data, path: displayPath)
    }

    /// The location of a value.
    func location(of value: JSONValue) -> SourceLocation {
        source.location(ofOffset: value.offset)
    }

    /// The location of an object member's key.
    func location(of member: JSONMember) -> SourceLocation {
        source.location(ofOffset: member.keyOffset)
    }

    /// An error at a value.
    func error(_ message: String, at value: JSONValue) -> CatalogReadError {
        CatalogReadError(message, at: location(of: value))
    }
}

struct JSONSyntaxError: Error {
    let offset: Int
    let message: String
}

/// A strict RFC 8259 parser over UTF-8 bytes.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0
    static let maximumDepth = 512

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "the file is empty")
        }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()) after the end of the document")
        }
        return value
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func describeHere() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return String(format: "byte 0x%02X", byte)
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of file, expected a value")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return JSONValue(kind: .string(try parseString()), offset: start)
        case UInt8(ascii: "t"): try expectLiteral("true"); return JSONValue(kind: .bool(true), offset: start)
        case UInt8(ascii: "f"): try expectLiteral("false"); return JSONValue(kind: .bool(false), offset: start)
        case UInt8(ascii: "n"): try expectLiteral("null"); return JSONValue(kind: .null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONValue(kind: .number(try parseNumber()), offset: start)
        default:
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            throw JSONSyntaxError(offset: start, message: "invalid literal, expected '\(literal)'")
        }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw JSONSyntaxError(offset: start, message: "invalid literal, expected '\(literal)'")
        }
        index += count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONParser.maximumDepth {
            throw JSONSyntaxError(offset: index, message: "nesting deeper than \(JSONParser.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try enter()
        index += 1
        var members: [JSONMember] = []
        var seen: Set<String> = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONValue(kind: .object(members), offset: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected a key in quotes")
            }
            let keyOffset = index
            let key = try parseString()
            if members.count < 16 {
                if members.contains(where: { $0.key == key }) {
                    throw JSONSyntaxError(offset: keyOffset, message: "duplicate key \"\(key)\"")
                }
            } else {
                if seen.isEmpty { seen = Set(members.map(\.key)) }
                if !seen.insert(key).inserted {
                    throw JSONSyntaxError(offset: keyOffset, message: "duplicate key \"\(key)\"")
                }
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected ':' after key \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key: key, keyOffset: keyOffset, value: value))
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of file, expected ',' or '}'")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return JSONValue(kind: .object(members), offset: start)
            }
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected ',' or '}'")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return JSONValue(kind: .array(elements), offset: start)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(offset: index, message: "unexpected end of file, expected ',' or ']'")
            }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return JSONValue(kind: .array(elements), offset: start)
            }
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected ',' or ']'")
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            var count = 0
            while parser.index < parser.bytes.count, parser.bytes[parser.index] >= 0x30, parser.bytes[parser.index] <= 0x39 {
                parser.index += 1
                count += 1
            }
            return count
        }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw JSONSyntaxError(offset: start, message: "invalid number: leading zero")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        let start = index
        index += 1
        let contentStart = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                guard let text = String(validating: slice, as: UTF8.self) else {
                    throw JSONSyntaxError(offset: start, message: "string is not valid UTF-8")
                }
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw JSONSyntaxError(offset: index, message: "control character in string")
            }
            index += 1
        }
        var buffer = Array(UnsafeBufferPointer(rebasing: bytes[contentStart..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    throw JSONSyntaxError(offset: start, message: "string is not valid UTF-8")
                }
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                              bytes[index + 1] == UInt8(ascii: "u") else {
                            throw JSONSyntaxError(offset: index, message: "unpaired surrogate in string")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw JSONSyntaxError(offset: index, message: "unpaired surrogate in string")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw JSONSyntaxError(offset: index, message: "unpaired surrogate in string")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw JSONSyntaxError(offset: index, message: "invalid \\u escape")
                    }
                    buffer.append(contentsOf: Array(String(unicode).utf8))
                default:
                    throw JSONSyntaxError(offset: index - 2, message: "invalid escape in string")
                }
            default:
                if byte < 0x20 {
                    throw JSONSyntaxError(offset: index, message: "control character in string")
                }
                buffer.append(byte)
                index += 1
            }
        }
        throw JSONSyntaxError(offset: start, message: "unterminated string")
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw JSONSyntaxError(offset: index, message: "invalid \\u escape")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case 0x30...0x39: digit = UInt32(byte - 0x30)
            case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
            case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
            default: throw JSONSyntaxError(offset: index, message: "invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
