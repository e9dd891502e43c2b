import CatalogCore
import Foundation

/// Where the pooled records are in the input, kept as lines and columns so no document has to outlive its
/// reading. While a document is pooled, its places are collected as byte offsets (`mark(offset:)`); when it is
/// done, `finishDocument(_:)` turns them into lines and columns through the document's `SourceText`.
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
        marks.appendGrowingFourfold(Mark(line: 0, column: 0))
        pending.append((offset, mark))
        return mark
    }

    /// Turns the current document's places into lines and columns; its bytes are not needed afterwards. The
    /// places come in reading order, so `SourceText`'s forward cursor counts each byte about once.
    mutating func finishDocument(_ source: SourceText) {
        for (offset, mark) in pending {
            let (line, column) = source.lineAndColumn(ofOffset: offset)
            marks[Int(mark.index)] = Mark(line: UInt32(truncatingIfNeeded: line),
                                          column: UInt32(truncatingIfNeeded: column))
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
