@testable import CatalogFormats
import CatalogCore
import Foundation
import Testing
import TestSupport

@Suite("SourceText")
struct SourceTextTests {
    /// Line and column of every byte offset, counted the slow way: lines after LF, columns in Unicode scalars.
    private static func expected(_ bytes: [UInt8]) -> [(line: Int, column: Int)] {
        var result: [(Int, Int)] = []
        var line = 1
        var column = 1
        for byte in bytes {
            result.append((line, column))
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        result.append((line, column))
        return result
    }

    /// A 30 KB text mixing a minified line longer than the 4 KiB checkpoint stride, short lines and characters of
    /// one to four bytes.
    private static let text: [UInt8] = {
        let pieces = ["{\"a\":1,", "\"é\":\"ü\",", "\"😀\":[\"→\"],", "\n", "x", "\r\n"]
        var generator = SeededGenerator(seed: 7)
        var bytes: [UInt8] = Array(String(repeating: "{\"ключ\":\"值\",", count: 600).utf8)
        while bytes.count < 30_000 {
            let index = Int(generator.next() % UInt64(pieces.count))
            let piece = index == 3 && generator.next() % 8 != 0 ? pieces[0] : pieces[index]
            bytes.append(contentsOf: piece.utf8)
        }
        return bytes
    }()

    /// The same text with every character that is not ASCII written as `?`: its columns need no counting past
    /// the first 64 bytes of a line.
    private static let asciiText: [UInt8] = {
        var bytes: [UInt8] = []
        for byte in text where byte & 0xC0 != 0x80 { bytes.append(byte < 0x80 ? byte : UInt8(ascii: "?")) }
        return bytes
    }()

    @Test("offsets front to back, back to front and at random get the counted line and column, in either form",
          arguments: [false, true])
    func everyOrderAgrees(ascii: Bool) {
        // Arrange
        let text = ascii ? Self.asciiText : Self.text
        let expected = Self.expected(text)
        var generator = SeededGenerator(seed: 11)
        let forward = Array(stride(from: 0, through: text.count, by: 7))
        let random = (0..<3000).map { _ in Int(generator.next() % UInt64(text.count + 1)) }
        for order in [forward, forward.reversed(), random] {
            let source = SourceText(path: "f.json", bytes: Data(text))
            // Act
            let mismatches = order.filter { offset in
                let location = source.location(ofOffset: offset)
                let (line, column) = source.lineAndColumn(ofOffset: offset)
                return location.line != expected[offset].line || location.column != expected[offset].column
                    || line != expected[offset].line || column != expected[offset].column
            }
            // Assert
            #expect(mismatches.count == 0, "first mismatch at offset \(mismatches.first ?? -1)")
        }
    }

    @Test("an offset past either end is clamped to the file")
    func clamped() {
        let source = SourceText(path: "f.json", bytes: Data("ab\ncd".utf8))
        #expect(source.location(ofOffset: -5) == SourceLocation(path: "f.json", line: 1, column: 1))
        #expect(source.location(ofOffset: 99) == SourceLocation(path: "f.json", line: 2, column: 3))
    }
}
