@testable import CatalogFormats
import Foundation
import Testing
import TestSupport

/// `XMLSourceBlocks` locates offsets from a cursor that counts the bytes since the last location; `SourceText`,
/// which builds tables of the whole text, is what its answers must equal.
@Suite("XMLSourceBlocks")
struct XMLSourceBlocksTests {
    /// A document of `lines` lines cut into blocks after a line feed about every `blockSize` bytes: short lines,
    /// indented ones, non-ASCII ones, empty ones and a line of 5,000 characters.
    static func document(lines: Int, blockSize: Int) -> (text: Data, blocks: [Data]) {
        let shapes = ["<a>", "    <b name=\"x\">text</b>", "  <c>Grüße, 価格 €</c>", "", String(repeating: "<d/>", count: 1250)]
        var text = Data()
        var blocks: [Data] = []
        var blockStart = 0
        for line in 0..<lines {
            text.append(Data(shapes[line % shapes.count].utf8))
            text.append(0x0A)
            if text.count - blockStart >= blockSize {
                blocks.append(text[blockStart...])
                blockStart = text.count
            }
        }
        text.append(Data("</a>".utf8))
        blocks.append(text[blockStart...])
        return (text, blocks)
    }

    /// `document(lines:blockSize:)`, its whole text's locations, and its blocks appended to an `XMLSourceBlocks`.
    static func held(lines: Int, blockSize: Int)
        -> (text: Data, blocks: [Data], whole: SourceText, source: XMLSourceBlocks) {
        let (text, blocks) = document(lines: lines, blockSize: blockSize)
        let source = XMLSourceBlocks(path: "m.xml")
        for block in blocks { source.append(Data(block)) }
        return (text, blocks, SourceText(path: "m.xml", bytes: text), source)
    }

    @Test("every offset, asked forward, backward and across blocks, has the line and column of the whole text")
    func locationsEqualTheWholeText() {
        // Arrange: 600 lines in blocks of about 4 KiB; offsets forward one by one, then jumps back and forth.
        let (text, blocks, whole, source) = XMLSourceBlocksTests.held(lines: 600, blockSize: 4096)
        var generator = SeededGenerator(seed: 30)
        let offsets = Array(stride(from: 0, through: text.count, by: 7))
            + (0..<2000).map { _ in Int(generator.next() % UInt64(text.count + 1)) }
            + [text.count, 0, text.count + 50, -3]

        // Act
        let located = offsets.map { source.location(ofOffset: $0) }

        // Assert
        #expect(blocks.count > 10)
        for (offset, location) in zip(offsets, located) {
            let expected = whole.location(ofOffset: offset)
            #expect(location.line == expected.line && location.column == expected.column, "offset \(offset)")
        }
    }

    @Test("a cursor put at a counted position (libxml2's line) counts on from it, in its block and the next")
    func movedCursorCountsOn() {
        // Arrange: each line's fourth byte handed over as a caller that counted its line would, front to back.
        let (text, blocks, whole, source) = XMLSourceBlocksTests.held(lines: 600, blockSize: 4096)
        let lineStarts = [0] + text.indices.filter { text[$0] == 0x0A }.map { $0 + 1 }.filter { $0 < text.count }
        var generator = SeededGenerator(seed: 31)

        // Act and Assert: every position is taken, and the one after it counted on from there.
        var refused: [Int] = []
        for lineStart in lineStarts {
            let offset = min(lineStart + 3, text.count - 1)
            let expected = whole.location(ofOffset: offset)
            if !source.moveCursor(to: offset, line: expected.line ?? 0, lineStart: lineStart,
                                  characters: (expected.column ?? 1) - 1) {
                refused.append(offset)
            }
            let next = min(offset + 1, text.count)
            #expect(source.location(ofOffset: next).line == whole.location(ofOffset: next).line, "offset \(next)")
            #expect(source.location(ofOffset: next).column == whole.location(ofOffset: next).column, "offset \(next)")
        }
        #expect(refused.isEmpty)
        #expect(blocks.count > 10)
        // Then offsets anywhere, back into every block: the lines the blocks begin on were kept as the cursor
        // entered them.
        for _ in 0..<2000 {
            let probe = Int(generator.next() % UInt64(text.count + 1))
            let location = source.location(ofOffset: probe)
            #expect(location.line == whole.location(ofOffset: probe).line, "offset \(probe)")
            #expect(location.column == whole.location(ofOffset: probe).column, "offset \(probe)")
        }
        // A position past the next block is refused: the line its block begins on would be unknown.
        let fresh = XMLSourceBlocks(path: "m.xml")
        for block in blocks { fresh.append(Data(block)) }
        let farStart = blocks[0].count + blocks[1].count + blocks[2].count
        let far = whole.location(ofOffset: farStart)
        #expect(!fresh.moveCursor(to: farStart, line: far.line ?? 0, lineStart: farStart, characters: 0))
        #expect(fresh.location(ofOffset: farStart).line == far.line)
    }

    @Test("dropped blocks leave the lines of the blocks kept; an older offset gets the first block's start")
    func droppingKeepsLines() {
        // Arrange: blocks dropped as a parser goes on, with a location asked only now and then.
        let (text, blocks) = XMLSourceBlocksTests.document(lines: 400, blockSize: 2048)
        let whole = SourceText(path: "m.xml", bytes: text)
        let source = XMLSourceBlocks(path: "m.xml")
        var start = 0
        var checked = 0

        // Act and Assert
        for (index, block) in blocks.enumerated() {
            source.append(Data(block))
            if index % 3 == 2 {
                let offset = start + block.count / 2
                let location = source.location(ofOffset: offset)
                #expect(location.line == whole.location(ofOffset: offset).line, "offset \(offset)")
                #expect(location.column == whole.location(ofOffset: offset).column, "offset \(offset)")
                checked += 1
            }
            start += block.count
            source.dropBlocks(before: start - 1)
        }
        let last = blocks[blocks.count - 1]
        let lastStart = text.count - last.count
        #expect(source.location(ofOffset: 0).line == whole.location(ofOffset: lastStart).line)
        #expect(source.location(ofOffset: text.count).line == whole.location(ofOffset: text.count).line)
        #expect(checked > 20)
    }

    @Test("line feeds are counted and the last one found at every alignment")
    func lineFeeds() {
        // Arrange: line feeds at chosen places among 300 bytes.
        var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: 300)
        for index in [0, 15, 16, 17, 31, 32, 100, 255, 256, 299] { bytes[index] = 0x0A }

        bytes.withUnsafeBytes { raw in
            for from in [0, 1, 16, 17, 99] {
                for to in [from, 18, 33, 101, 256, 257, 300] where to >= from {
                    // Act
                    let found = XMLSourceBlocks.lineFeeds(in: raw, from: from, to: to)

                    // Assert
                    let feeds = (from..<to).filter { bytes[$0] == 0x0A }
                    #expect(found.count == feeds.count, "\(from)..<\(to)")
                    #expect(found.lastLineStart == feeds.last.map { $0 + 1 }, "\(from)..<\(to)")
                }
            }
        }
    }
}
