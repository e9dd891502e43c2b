import CatalogCore
import Foundation

/// The part of a document that libxml2 may still point into, as blocks that each begin at a line start, with
/// the line each begins on. An offset becomes a line:column through the `SourceText` of its block, so a file
/// is located exactly without being held whole: `XMLSAXParser` drops a block once libxml2 is past it.
final class XMLSourceBlocks {
    private struct Block {
        /// The offset of the block's first byte in the document.
        var start: Int
        /// The line the block begins on.
        var firstLine: Int
        var text: SourceText
        var end: Int { start + text.bytes.count }
    }

    /// The path locations name.
    let path: String
    private var blocks: [Block] = []
    /// Bytes appended so far.
    private(set) var byteCount = 0
    private var nextLine = 1

    init(path: String) {
        self.path = path
    }

    /// Adds the next block of the document; it must begin at a line start (the previous block ended with LF).
    func append(_ bytes: Data) {
        let text = SourceText(path: path, bytes: bytes)
        blocks.append(Block(start: byteCount, firstLine: nextLine, text: text))
        byteCount += bytes.count
        nextLine += text.lineAndColumn(ofOffset: bytes.count).line - 1
    }

    /// Forgets the blocks that end at or before `offset`, except the last one.
    func dropBlocks(before offset: Int) {
        while blocks.count > 1, blocks[0].end <= offset {
            blocks.removeFirst()
        }
    }

    /// The location of a byte offset (within the blocks still held; an older one gets the first block's start).
    func location(ofOffset offset: Int) -> SourceLocation {
        guard let block = blocks.last(where: { $0.start <= offset }) ?? blocks.first else {
            return SourceLocation(path: path, line: 1, column: 1)
        }
        let (line, column) = block.text.lineAndColumn(ofOffset: offset - block.start)
        return SourceLocation(path: path, line: line + block.firstLine - 1, column: column)
    }

    /// The offset of the last `byte` at or before `offset`, or the earliest offset held when there is none.
    func lastOffset(of byte: UInt8, atOrBefore offset: Int) -> Int {
        var offset = offset
        for block in blocks.reversed() where block.start <= offset {
            let found: Int? = block.text.bytes.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
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
