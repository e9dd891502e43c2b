/// The members of a JSON text's top-level object, as far as the text goes: enough to tell a product config from
/// a store catalog by structure (DESIGN.md §2) from the first bytes of a file, where a search for key names
/// anywhere in them would take a config whose products hold `purchaseOptions` for a Play catalog. One pass over
/// the text's UTF-8 bytes (every byte JSON's structure is made of is ASCII), with the nesting depth and strings
/// tracked; linear in its length.
enum JSONTopLevel {
    /// One member: its key and the first character of its value (`{`, `[`, `"`, a digit, `t`, `f`, `n`, `-`).
    struct Member: Equatable {
        let key: String
        let value: Character
    }

    /// The keys of a product config (DESIGN.md §4) at the top level.
    static let configKeys: Set<String> = ["version", "app", "groups", "products", "$schema"]

    /// Whether the members are a product config's: `products` is a mapping (a StoreKit file's is an array), or
    /// every key is a config key and `version` is a number.
    static func isProductConfig(_ members: [Member]) -> Bool {
        if members.contains(where: { $0.key == "products" && $0.value == "{" }) { return true }
        guard let version = members.first(where: { $0.key == "version" }), version.value.isNumber else { return false }
        return members.allSatisfy { configKeys.contains($0.key) }
    }

    /// The top-level members the text shows (a text cut short gives those before the cut), or nil when it is
    /// not a JSON object.
    static func members(of text: some StringProtocol) -> [Member]? {
        Array(text.utf8).withUnsafeBufferPointer { members(of: $0) }
    }

    /// The same, over the text's UTF-8 bytes.
    static func members(of text: UnsafeBufferPointer<UInt8>) -> [Member]? {
        var index = 0
        func skipSpace() {
            while index < text.count, isSpace(text, at: index) { index += byteOrderMarkAt(text, index) ? 3 : 1 }
        }
        skipSpace()
        guard index < text.count, text[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var members: [Member] = []
        while true {
            skipSpace()
            guard index < text.count, text[index] == UInt8(ascii: "\"") else { return members }
            guard let key = readString(text, from: &index) else { return members }
            skipSpace()
            guard index < text.count, text[index] == UInt8(ascii: ":") else { return members }
            index += 1
            skipSpace()
            guard index < text.count else { return members }
            members.append(Member(key: key, value: character(in: text, at: index)))
            guard skipValue(text, from: &index) else { return members }
            skipSpace()
            guard index < text.count, text[index] == UInt8(ascii: ",") else { return members }
            index += 1
        }
    }

    /// JSON's white space (RFC 8259 §2: space, tab, line feed, carriage return), the other ASCII white space
    /// `Character.isWhitespace` knows (vertical tab, form feed), and a byte order mark (EF BB BF).
    private static func isSpace(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        switch text[index] {
        case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D: true
        default: byteOrderMarkAt(text, index)
        }
    }

    private static func byteOrderMarkAt(_ text: UnsafeBufferPointer<UInt8>, _ index: Int) -> Bool {
        index + 2 < text.count && text[index] == 0xEF && text[index + 1] == 0xBB && text[index + 2] == 0xBF
    }

    /// The character that begins at `index`: one byte when ASCII, else the scalar its UTF-8 sequence encodes (a
    /// value's first character is only compared with ASCII and asked `isNumber`).
    private static func character(in text: UnsafeBufferPointer<UInt8>, at index: Int) -> Character {
        let end = min(index + 4, text.count)
        var decoder = UTF8()
        var iterator = text[index..<end].makeIterator()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return Character(scalar) }
        return "\u{FFFD}"
    }

    /// Reads a string starting at its opening quote; `index` ends after the closing one. Nil when cut short. An
    /// escaped character stands for itself (`\"` is `"`): the key is only compared with plain names.
    private static func readString(_ text: UnsafeBufferPointer<UInt8>, from index: inout Int) -> String? {
        var result: [UInt8] = []
        index += 1
        while index < text.count {
            let byte = text[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < text.count else { return nil }
                result.append(text[index])
                index += 1
            default: result.append(byte)
            }
        }
        return nil
    }

    /// Skips one value (nested objects and arrays, strings with their escapes); `index` ends after it. False
    /// when the text ends first.
    private static func skipValue(_ text: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Bool {
        var depth = 0
        while index < text.count {
            switch text[index] {
            case UInt8(ascii: "\""):
                guard skipString(text, from: &index) else { return false }
                if depth == 0 { return true }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return true }
                depth -= 1
                if depth == 0 {
                    index += 1
                    return true
                }
            case UInt8(ascii: ","):
                if depth == 0 { return true }
            default: break
            }
            index += 1
        }
        return false
    }

    /// `readString` without keeping the text: a value's strings are only stepped over.
    private static func skipString(_ text: UnsafeBufferPointer<UInt8>, from index: inout Int) -> Bool {
        index += 1
        while index < text.count {
            let byte = text[index]
            index += byte == UInt8(ascii: "\\") ? 2 : 1
            if byte == UInt8(ascii: "\"") { return true }
        }
        return false
    }
}
