import CatalogCore
import Foundation

/// Where the pooled records are in the input, kept as lines and columns so no document has to outlive its
/// reading. While a document is pooled, its places are collected as byte offsets (`mark(offset:)`); when it is
/// done, `finishDocument(_:)` turns them into lines and columns in one pass over its bytes, with
/// `SourceText`'s rules (1-based, columns count Unicode scalars, lines end at LF).
struct ASCMarks {
    /// A place: its line and column (its document is the one whose marks range holds it).
    private struct Mark {
        var line: UInt32
        var column: UInt32
    }

    /// The path of every document, by `DocumentID`.
    private(set) var paths: [String] = []
    /// The first mark of every document, by `DocumentID` (marks are made document by document).
    private var firstMarks: [Int32] = []
    private var marks: [Mark] = []
    /// The current document's places not yet turned into lines and columns.
    private var pending: [(offset: Int, mark: MarkID)] = []

    /// Starts a document; its places are marked until `finishDocument(_:)`.
    mutating func beginDocument(path: String) -> DocumentID {
        paths.append(path)
        firstMarks.append(Int32(truncatingIfNeeded: marks.count))
        return DocumentID(paths.count - 1)
    }

    /// A place in the current document, by byte offset.
    mutating func mark(offset: Int) -> MarkID {
        let mark = MarkID(marks.count)
        marks.append(Mark(line: 0, column: 0))
        pending.append((offset, mark))
        return mark
    }

    /// Turns the current document's places into lines and columns; its bytes are not needed afterwards.
    mutating func finishDocument(_ source: SourceText) {
        guard !pending.isEmpty else { return }
        pending.sort { $0.offset < $1.offset }
        source.bytes.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            var line: UInt32 = 1
            var characters: UInt32 = 0  // since the line's start
            for (offset, mark) in pending {
                let target = min(max(offset, 0), bytes.count)
                while position < target {
                    // Eight bytes at once while they are ASCII without a line feed (most of a JSON document).
                    if position + 8 <= target {
                        let word = raw.loadUnaligned(fromByteOffset: position, as: UInt64.self)
                        let feeds = word ^ 0x0A0A_0A0A_0A0A_0A0A
                        let hasFeed = (feeds &- 0x0101_0101_0101_0101) & ~feeds & 0x8080_8080_8080_8080 != 0
                        if word & 0x8080_8080_8080_8080 == 0, !hasFeed {
                            characters &+= 8
                            position += 8
                            continue
                        }
                    }
                    let byte = bytes[position]
                    if byte == 0x0A {
                        line &+= 1
                        characters = 0
                    } else if byte & 0xC0 != 0x80 {
                        characters &+= 1
                    }
                    position += 1
                }
                marks[Int(mark.index)].line = line
                marks[Int(mark.index)].column = characters &+ 1
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The location of a place.
    func location(of id: MarkID) -> SourceLocation {
        let mark = marks[Int(id.index)]
        return SourceLocation(path: paths[Int(document(of: id).index)], line: Int(mark.line), column: Int(mark.column))
    }

    /// The document a mark was made in: the last whose first mark is at or before it (binary search).
    private func document(of id: MarkID) -> DocumentID {
        var low = 0
        var high = firstMarks.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if firstMarks[middle] <= id.index { low = middle } else { high = middle - 1 }
        }
        return DocumentID(low)
    }
}
