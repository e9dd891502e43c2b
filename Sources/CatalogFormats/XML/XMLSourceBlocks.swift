import CatalogCore
import Foundation

/// The part of a document that libxml2 may still point into, as blocks that each begin at a line start. An
/// offset becomes a line:column from a cursor, the last position located: readers ask front to back, so each
/// location counts only the bytes since the one before (line feeds with `memchr`, characters as `SourceText`
/// counts them), and no table of line starts is built. A file is located exactly without being
/// held whole: `XMLSAXParser` drops a block once libxml2 is past it.
final class XMLSourceBlocks {
    private struct Block {
        /// The offset of the block's first byte in the document.
        var start: Int
        /// The line the block begins on, once the cursor has reached the block.
        var firstLine: Int?
        var bytes: Data
        var end: Int { start + bytes.count }
    }

    /// A located position: its line, where that line begins, and the characters between.
    private struct Cursor {
        var block: Int
        var offset: Int
        var line: Int
        var lineStart: Int
        var characters: Int
    }

    /// The path locations name.
    let path: String
    private var blocks: [Block] = []
    /// Bytes appended so far.
    private(set) var byteCount = 0
    private var cursor = Cursor(block: 0, offset: 0, line: 1, lineStart: 0, characters: 0)

    init(path: String) {
        self.path = path
    }

    /// Adds the next block of the document; it must begin at a line start (the previous block ended with LF).
    func append(_ bytes: Data) {
        blocks.append(Block(start: byteCount, firstLine: blocks.isEmpty ? 1 : nil, bytes: bytes))
        byteCount += bytes.count
    }

    /// Forgets the blocks that end at or before `offset`, except the last one. The cursor first moves past
    /// them, so the line of the first block kept is known.
    func dropBlocks(before offset: Int) {
        var dropped = 0
        while blocks.count - dropped > 1, blocks[dropped].end <= offset {
            dropped += 1
        }
        guard dropped > 0 else { return }
        if cursor.block < dropped { move(to: blocks[dropped].start, inBlock: dropped) }
        blocks.removeFirst(dropped)
        cursor.block -= dropped
    }

    /// The location of a byte offset (within the blocks still held; an older one gets the first block's start).
    func location(ofOffset offset: Int) -> SourceLocation {
        guard let first = blocks.first else { return SourceLocation(path: path, line: 1, column: 1) }
        let target = min(max(offset, first.start), byteCount)
        let index = blockIndex(holding: target)
        move(to: target, inBlock: index)
        return SourceLocation(path: path, line: cursor.line, column: cursor.characters + 1)
    }

    /// Puts the cursor at a position whose line and column the caller has counted (`XMLSAXParser`, from the line
    /// libxml2 has counted), so that the next location counts from there. False, with the cursor where it was,
    /// unless the position is in the cursor's block or the next one: the line a skipped block begins on would be
    /// unknown.
    func moveCursor(to offset: Int, line: Int, lineStart: Int, characters: Int) -> Bool {
        guard !blocks.isEmpty, offset < byteCount else { return false }
        let index = blockIndex(holding: offset)
        let block = blocks[index]
        guard index == cursor.block || index == cursor.block + 1, lineStart >= block.start,
              lineStart <= offset else { return false }
        if index > cursor.block {
            // The block begins at a line start: its first line is the position's, less the line feeds before it.
            let feeds = block.bytes.withUnsafeBytes {
                XMLSourceBlocks.lineFeeds(in: $0, from: 0, to: lineStart - block.start).count
            }
            blocks[index].firstLine = line - feeds
        }
        cursor = Cursor(block: index, offset: offset, line: line, lineStart: lineStart, characters: characters)
        return true
    }

    /// The index of the last block that begins at or before `offset` (the first block for an earlier offset).
    private func blockIndex(holding offset: Int) -> Int {
        var index = blocks.count - 1
        while index > 0, blocks[index].start > offset { index -= 1 }
        return index
    }

    /// Moves the cursor to `target` in block `index`: forward by the bytes between; back on its line by the
    /// characters between; back over line feeds by the bytes between and the target line's start; back into
    /// an earlier block from that block's start.
    private func move(to target: Int, inBlock index: Int) {
        if index < cursor.block {
            let block = blocks[index]
            cursor = Cursor(block: index, offset: block.start, line: block.firstLine ?? 1, lineStart: block.start,
                            characters: 0)
        }
        while cursor.block < index {
            // To the end of the cursor's block, then the next block's start: a line start, its line now known.
            let end = blocks[cursor.block].end
            advance(to: end)
            cursor.block += 1
            blocks[cursor.block].firstLine = cursor.line
            cursor = Cursor(block: cursor.block, offset: end, line: cursor.line, lineStart: end, characters: 0)
        }
        if target >= cursor.offset {
            advance(to: target)
        } else {
            retreat(to: target)
        }
    }

    /// Moves the cursor forward to `target` within its block.
    private func advance(to target: Int) {
        let block = blocks[cursor.block]
        block.bytes.withUnsafeBytes { raw in
            let from = cursor.offset - block.start
            let to = target - block.start
            let feeds = XMLSourceBlocks.lineFeeds(in: raw, from: from, to: to)
            if let lineStart = feeds.lastLineStart {
                cursor.line += feeds.count
                cursor.lineStart = block.start + lineStart
                cursor.characters = SourceText.characterCount(in: raw, from: lineStart, to: to)
            } else {
                cursor.characters += SourceText.characterCount(in: raw, from: from, to: to)
            }
        }
        cursor.offset = target
    }

    /// Moves the cursor back to `target` within its block.
    private func retreat(to target: Int) {
        let block = blocks[cursor.block]
        block.bytes.withUnsafeBytes { raw in
            let to = target - block.start
            if target >= cursor.lineStart {
                cursor.characters -= SourceText.characterCount(in: raw, from: to, to: cursor.offset - block.start)
                return
            }
            cursor.line -= XMLSourceBlocks.lineFeeds(in: raw, from: to, to: cursor.lineStart - block.start).count
            var lineStart = to
            while lineStart > 0, raw[lineStart - 1] != 0x0A { lineStart -= 1 }
            cursor.lineStart = block.start + lineStart
            cursor.characters = SourceText.characterCount(in: raw, from: lineStart, to: to)
        }
        cursor.offset = target
    }

    /// The line feeds among `raw[from..<to]`, found with `memchr` (vectorized), and the index after the last one.
    static func lineFeeds(in raw: UnsafeRawBufferPointer, from: Int, to: Int) -> (count: Int, lastLineStart: Int?) {
        guard let base = raw.baseAddress, from < to else { return (0, nil) }
        var count = 0
        var index = from
        while let found = memchr(base + index, 0x0A, to - index) {
            count += 1
            index = base.distance(to: UnsafeRawPointer(found)) + 1
            if index >= to { break }
        }
        return (count, count > 0 ? index : nil)
    }

    /// The offset of the last `byte` at or before `offset`, or the earliest offset held when there is none.
    func lastOffset(of byte: UInt8, atOrBefore offset: Int) -> Int {
        var offset = offset
        for block in blocks.reversed() where block.start <= offset {
            let found: Int? = block.bytes.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var index = min(offset, block.end - 1) - block.start
                while index >= 0 {
                    if bytes[index] == byte { return block.start + index }
                    index -= 1
                }
                return nil
            }
            if let found { return found }
            offset = block.start - 1
        }
        return max(0, blocks.first?.start ?? 0)
    }
}
