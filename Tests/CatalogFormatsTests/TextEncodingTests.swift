import CatalogCore
import Foundation
import Testing
@testable import CatalogFormats

/// The shared decoding step: byte order marks, transcoding, and the UTF-8 check with its location.
@Suite struct TextEncodingTests {
    @Test("the UTF-8 check agrees with the standard library on tricky and random bytes")
    func agreesWithStandardLibrary() {
        var samples: [[UInt8]] = [
            [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF0, 0x9F, 0x98, 0x80],
            [0xE2, 0x82], [0xF0, 0x9F, 0x98], Array("plain ascii text, long enough for words".utf8) + [0xFF],
            Array("café 😀".utf8), [0x80], [0xC2, 0xA0], [0xEF, 0xBF, 0xBF],
        ]
        // A fixed linear congruential generator: the same bytes on every run.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int(state % 24) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let byte = UInt8(truncatingIfNeeded: state >> 56)
                bytes.append(state & 0x300 == 0 ? byte & 0x7F : byte)
            }
            samples.append(bytes)
        }
        for bytes in samples {
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let ours = (try? TextEncoding.validateUTF8(Data(bytes), path: "t")) != nil
            #expect(ours == valid, "\(bytes.map { String($0, radix: 16) })")
            // The same pass tells whether every byte is ASCII, as SourceText would count it.
            if valid, let text = try? TextEncoding.utf8Text(Data(bytes), path: "t") {
                #expect(text.isASCII == bytes.allSatisfy { $0 < 0x80 }, "\(bytes.map { String($0, radix: 16) })")
            }
        }
    }

    @Test("a document told it is ASCII or not gets the columns its bytes have, on a line longer than 4 KiB")
    func asciiTold() throws {
        let line = String(repeating: "a", count: 5000)
        for (text, column) in [(line + "éx", 5003), (line + "ex", 5003)] {
            let bytes = "\"" + text + "\""
            let document = try JSONDocument(data: Data(bytes.utf8), path: "t.json")
            let offset = bytes.utf8.count - 2
            #expect(document.source.location(ofOffset: offset)
                    == SourceLocation(path: "t.json", line: 1, column: column))
        }
    }

    @Test("a bad byte or a non-ASCII character is found at every place of a long ASCII run, in steps of 32 and 8")
    func everyPlaceOfALongRun() throws {
        for place in 0..<100 {
            // Arrange: 100 ASCII bytes with one bad byte, or one two-byte character, at `place`.
            var bad = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
            bad[place] = 0xFF
            var accented = [UInt8](repeating: UInt8(ascii: "a"), count: 100)
            accented.replaceSubrange(place..<(place + 1), with: Array("é".utf8))

            // Act
            let error = #expect(throws: CatalogReadError.self) { try TextEncoding.validateUTF8(Data(bad), path: "t") }
            let text = try TextEncoding.utf8Text(Data(accented), path: "t")

            // Assert
            #expect(error?.location == SourceLocation(path: "t", line: 1, column: place + 1), "place \(place)")
            #expect(!text.isASCII, "place \(place)")
        }
    }

    @Test("the first bad byte is located in characters")
    func location() {
        let bytes = Array("ab\ncé😀x".utf8) + [0xE9] + Array("\n".utf8)
        #expect(throws: CatalogReadError("the file is not UTF-8 text (byte 0xE9); save the file as UTF-8",
                                         at: SourceLocation(path: "t", line: 2, column: 5))) {
            try TextEncoding.validateUTF8(Data(bytes), path: "t")
        }
    }

    @Test("byte order marks name their encoding; the text reads the same in each")
    func marks() throws {
        let text = "version: 1 # café 😀\n"
        let encodings: [([UInt8], String.Encoding)] = [
            ([0xEF, 0xBB, 0xBF], .utf8), ([0xFF, 0xFE], .utf16LittleEndian), ([0xFE, 0xFF], .utf16BigEndian),
            ([0xFF, 0xFE, 0, 0], .utf32LittleEndian), ([0, 0, 0xFE, 0xFF], .utf32BigEndian),
        ]
        for (mark, encoding) in encodings {
            let data = Data(mark) + (try #require(text.data(using: encoding)))
            #expect(try TextEncoding.utf8(data, path: "t") == Data(text.utf8))
            #expect(TextEncoding.sniffingText(data) == text)
        }
    }
}
