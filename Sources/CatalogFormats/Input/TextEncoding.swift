import CatalogCore
import Foundation

/// The one place where the bytes of a JSON, YAML or CSV input become UTF-8 text.
///
/// A byte order mark says the encoding: UTF-8 (the mark is dropped), UTF-16 or UTF-32, little or big endian
/// (transcoded to UTF-8 once, here). Without a mark the file must be UTF-8. The bytes handed on never start
/// with a byte order mark, so every reader counts line 1's columns from its first character, and because the
/// readers count columns in characters (Unicode scalars), locations in a transcoded file are those of the
/// original. XML comes through here only for UTF-16 and UTF-32 (`XMLDocumentBytes`); in any other encoding
/// libxml2 follows the document's own declaration.
enum TextEncoding {
    /// An encoding a byte order mark names.
    enum Encoding: Equatable {
        case utf8, utf16LittleEndian, utf16BigEndian, utf32LittleEndian, utf32BigEndian

        /// The name in messages.
        var name: String {
            switch self {
            case .utf8: "UTF-8"
            case .utf16LittleEndian, .utf16BigEndian: "UTF-16"
            case .utf32LittleEndian, .utf32BigEndian: "UTF-32"
            }
        }
    }

    /// The encoding a leading byte order mark names, and the mark's length. UTF-32 LE is tested before
    /// UTF-16 LE, whose mark it begins with.
    static func byteOrderMark(of data: Data) -> (encoding: Encoding, length: Int)? {
        let head = Array(data.prefix(4))
        if head.starts(with: [0xEF, 0xBB, 0xBF]) { return (.utf8, 3) }
        if head.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (.utf32LittleEndian, 4) }
        if head.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (.utf32BigEndian, 4) }
        if head.starts(with: [0xFF, 0xFE]) { return (.utf16LittleEndian, 2) }
        if head.starts(with: [0xFE, 0xFF]) { return (.utf16BigEndian, 2) }
        return nil
    }

    /// The file as valid UTF-8 without a byte order mark; anything else is an error at the first bad byte.
    static func utf8(_ data: Data, path: String) throws(CatalogReadError) -> Data {
        try utf8Text(data, path: path).bytes
    }

    /// The file as valid UTF-8 without a byte order mark, and whether every byte is ASCII (found by the same
    /// pass, for `SourceText`); anything else is an error at the first bad byte.
    static func utf8Text(_ data: Data, path: String) throws(CatalogReadError) -> (bytes: Data, isASCII: Bool) {
        let bytes = try withoutByteOrderMark(data, path: path)
        return (bytes, try checkUTF8(bytes, path: path))
    }

    /// The file with its byte order mark dropped and UTF-16 / UTF-32 transcoded to UTF-8, not yet checked to
    /// be UTF-8 (for a reader that first rejects binary data in its own words, then calls `validateUTF8`).
    /// Text that looks like UTF-16 or UTF-32 without a mark (ASCII with NUL bytes between) is an error at 1:1
    /// saying so, rather than "binary data".
    static func withoutByteOrderMark(_ data: Data, path: String) throws(CatalogReadError) -> Data {
        guard let (encoding, length) = byteOrderMark(of: data) else {
            if let name = unmarkedWideEncoding(of: data) {
                throw CatalogReadError(
                    "the file is not UTF-8 text: it looks like \(name) without a byte order mark; save the file as UTF-8",
                    at: SourceLocation(path: path, line: 1, column: 1))
            }
            return data
        }
        switch encoding {
        case .utf8:
            return Data(data.dropFirst(length))
        case .utf16LittleEndian, .utf16BigEndian:
            let body = [UInt8](data.dropFirst(length))
            return try transcode(units16(body, bigEndian: encoding == .utf16BigEndian), from: UTF16.self,
                                 encoding: encoding, leftover: body.count % 2, path: path)
        case .utf32LittleEndian, .utf32BigEndian:
            let body = [UInt8](data.dropFirst(length))
            return try transcode(units32(body, bigEndian: encoding == .utf32BigEndian), from: UTF32.self,
                                 encoding: encoding, leftover: body.count % 4, path: path)
        }
    }

    /// Throws at the first byte that is not part of a valid UTF-8 character, naming its line and column.
    static func validateUTF8(_ data: Data, path: String) throws(CatalogReadError) {
        _ = try checkUTF8(data, path: path)
    }

    /// Throws at the first byte that is not part of a valid UTF-8 character; whether every byte is ASCII.
    private static func checkUTF8(_ data: Data, path: String) throws(CatalogReadError) -> Bool {
        let (bad, isASCII) = data.withUnsafeBytes { raw in
            firstInvalidUTF8Offset(raw.bindMemory(to: UInt8.self))
        }
        guard let bad else { return isASCII }
        let byte = data[data.startIndex + bad]
        throw CatalogReadError(
            "the file is not UTF-8 text (byte 0x\(String(byte, radix: 16, uppercase: true))); save the file as UTF-8",
            at: SourceText(path: path, bytes: data).location(ofOffset: bad))
    }

    /// The beginning of a file as text, for telling its format: transcoded when a byte order mark (or, for
    /// XML, the UTF-16 form of `<?`) says so; never an error, invalid bytes become U+FFFD.
    static func sniffingText(_ data: Data) -> String {
        let head = Array(data.prefix(4))
        var encoding = byteOrderMark(of: data)
        if encoding == nil, head.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { encoding = (.utf16LittleEndian, 0) }
        if encoding == nil, head.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { encoding = (.utf16BigEndian, 0) }
        guard let (kind, length) = encoding else { return String(decoding: data, as: UTF8.self) }
        let body = [UInt8](data.dropFirst(length))
        switch kind {
        case .utf8:
            return String(decoding: body, as: UTF8.self)
        case .utf16LittleEndian, .utf16BigEndian:
            return String(decoding: units16(body, bigEndian: kind == .utf16BigEndian), as: UTF16.self)
        case .utf32LittleEndian, .utf32BigEndian:
            return String(decoding: units32(body, bigEndian: kind == .utf32BigEndian), as: UTF32.self)
        }
    }

    /// "UTF-16" or "UTF-32" when the first four bytes are ASCII characters with NUL bytes between (either byte
    /// order), as a file saved without a mark starts.
    private static func unmarkedWideEncoding(of data: Data) -> String? {
        let head = Array(data.prefix(4))
        guard head.count == 4 else { return nil }
        let zero = head.map { $0 == 0 }
        let ascii = head.allSatisfy { $0 < 0x80 }
        guard ascii else { return nil }
        if zero == [false, true, true, true] || zero == [true, true, true, false] { return "UTF-32" }
        if zero == [false, true, false, true] || zero == [true, false, true, false] { return "UTF-16" }
        return nil
    }

    /// Pairs of bytes as UTF-16 code units; an odd last byte is left out.
    private static func units16(_ body: [UInt8], bigEndian: Bool) -> [UInt16] {
        stride(from: 0, to: body.count - 1, by: 2).map { (index: Int) -> UInt16 in
            let high = UInt16(body[bigEndian ? index : index + 1])
            let low = UInt16(body[bigEndian ? index + 1 : index])
            return high << 8 | low
        }
    }

    /// Groups of four bytes as UTF-32 code units; a partial last group is left out.
    private static func units32(_ body: [UInt8], bigEndian: Bool) -> [UInt32] {
        stride(from: 0, to: body.count - 3, by: 4).map { (index: Int) -> UInt32 in
            var value: UInt32 = 0
            for byte in 0..<4 {
                let shift = UInt32(8 * byte)
                value |= UInt32(body[index + (bigEndian ? 3 - byte : byte)]) << shift
            }
            return value
        }
    }

    /// Decodes code units to UTF-8, counting lines and columns (in characters) to name a bad unit.
    private static func transcode<Codec: UnicodeCodec>(
        _ units: [Codec.CodeUnit], from codec: Codec.Type, encoding: Encoding, leftover: Int, path: String
    ) throws(CatalogReadError) -> Data {
        var output = [UInt8]()
        output.reserveCapacity(units.count + units.count / 2)
        var decoder = Codec()
        var iterator = units.makeIterator()
        var line = 1
        var column = 1
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                UTF8.encode(scalar) { output.append($0) }
                if scalar == "\n" {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            case .emptyInput:
                break decoding
            case .error:
                throw CatalogReadError(
                    "the file starts with a \(encoding.name) byte order mark but is not \(encoding.name) text "
                        + "(an invalid character); save the file as UTF-8",
                    at: SourceLocation(path: path, line: line, column: column))
            }
        }
        if leftover > 0 {
            throw CatalogReadError(
                "the file starts with a \(encoding.name) byte order mark but ends in the middle of a character; "
                    + "save the file as UTF-8",
                at: SourceLocation(path: path, line: line, column: column))
        }
        return Data(output)
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence (Unicode Table 3-7:
    /// no overlong forms, no surrogates, nothing above U+10FFFF), and whether every byte before it is ASCII;
    /// ASCII runs are skipped eight bytes at a time.
    private static func firstInvalidUTF8Offset(_ bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int?, isASCII: Bool) {
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return (nil, true) }
        var isASCII = true
        var index = 0
        let count = bytes.count
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < count && range.contains(bytes[index + offset])
        }
        let high: UInt64 = 0x8080_8080_8080_8080
        while index < count {
            // ASCII runs 32 bytes a step (four words tested together), then eight.
            while index + 32 <= count,
                  (base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    | base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                    | base.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self)
                    | base.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self)) & high == 0 {
                index += 32
            }
            while index + 8 <= count, base.loadUnaligned(fromByteOffset: index, as: UInt64.self) & high == 0 {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            isASCII = false
            let length: Int
            switch lead {
            case 0xC2...0xDF: length = continuation(1) ? 2 : 0
            case 0xE0: length = continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
            case 0xE1...0xEC, 0xEE...0xEF: length = continuation(1) && continuation(2) ? 3 : 0
            case 0xED: length = continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
            case 0xF0: length = continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
            case 0xF1...0xF3: length = continuation(1) && continuation(2) && continuation(3) ? 4 : 0
            case 0xF4: length = continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
            default: length = 0
            }
            if length == 0 { return (index, isASCII) }
            index += length
        }
        return (nil, isASCII)
    }
}
