import CatalogCore
import Foundation

/// A file's path and UTF-8 bytes, which turn byte offsets into 1-based lines and columns (columns count
/// characters, that is Unicode scalars). The one offset → line:column of every format: readers keep offsets
/// and ask for a location only for what a finding or an error reports. The tables are built on first use.
final class SourceText {
    /// The path shown in locations.
    let path: String
    /// The bytes offsets refer to.
    let bytes: Data
    private lazy var lineStarts: [Int] = SourceText.lineStarts(of: bytes)
    private lazy var characterCheckpoints: [Int] = SourceText.characterCheckpoints(of: bytes)
    /// Whether every byte is ASCII: then a column is a byte distance, with nothing to count.
    private lazy var isASCII: Bool = SourceText.isASCII(bytes)
    private static let checkpointStride = 4096
    /// A distance from the line start counted even in ASCII text, where finding out that the text is ASCII (the
    /// whole text, once) would cost more than a location on a short line.
    private static let directCountLimit = 64

    /// `isASCII`, when the caller found it out reading the bytes (`TextEncoding.utf8Text`), is not found again.
    init(path: String, bytes: Data, isASCII: Bool? = nil) {
        self.path = path
        self.bytes = bytes
        if let isASCII { self.isASCII = isASCII }
    }

    /// Builds the tables every location needs (the line starts, whether the text is ASCII) now: a reader that
    /// parses on a second core prepares each document there, so that the core that pools it only looks up.
    func prepareLocations() {
        _ = lineStarts
        _ = isASCII
    }

    /// The location of a byte offset.
    func location(ofOffset offset: Int) -> SourceLocation {
        let (line, column) = lineAndColumn(ofOffset: offset)
        return SourceLocation(path: path, line: line, column: column)
    }

    /// The 1-based line and column of a byte offset: what `location(ofOffset:)` says, for a reader that keeps
    /// millions of them without a path each.
    func lineAndColumn(ofOffset offset: Int) -> (line: Int, column: Int) {
        let clamped = min(max(offset, 0), bytes.count)
        let (line, lineStart) = lineIndex(of: clamped)
        // A short distance is counted directly (eight bytes a step); past that, ASCII text needs no counting (on
        // minified JSON's one line, the first 4 KiB too), and other text is counted up to 4 KiB, or else goes
        // through the checkpoints.
        let column: Int
        if clamped - lineStart <= SourceText.directCountLimit {
            column = SourceText.characterCount(in: bytes, from: lineStart, to: clamped) + 1
        } else if isASCII {
            column = clamped - lineStart + 1
        } else if clamped - lineStart <= SourceText.checkpointStride {
            column = SourceText.characterCount(in: bytes, from: lineStart, to: clamped) + 1
        } else {
            column = characters(before: clamped) - characters(beforeLine: line) + 1
        }
        return (line + 1, column)
    }

    /// The furthest offset asked for so far and the characters before it: a reader asks for locations front to
    /// back, and then each costs only the bytes since the previous one.
    private var cursor = (offset: 0, characters: 0)
    /// The last long line asked for and the characters before its start.
    private var lastLine = (index: 0, characters: 0)

    /// Characters (Unicode scalars) before a byte offset, counted from the cursor or from a checkpoint every
    /// 4 KiB, whichever is nearer: columns on a minified document's one long line never scan the line.
    private func characters(before offset: Int) -> Int {
        let block = offset / SourceText.checkpointStride
        var start = (offset: block * SourceText.checkpointStride, characters: characterCheckpoints[block])
        if cursor.offset <= offset, cursor.offset > start.offset { start = cursor }
        let count = start.characters + SourceText.characterCount(in: bytes, from: start.offset, to: offset)
        if offset > cursor.offset { cursor = (offset, count) }
        return count
    }

    private func characters(beforeLine line: Int) -> Int {
        if line != lastLine.index {
            lastLine = (line, characters(before: lineStarts[line]))
        }
        return lastLine.characters
    }

    private static func isASCII(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var index = 0
            while index + 8 <= raw.count {
                if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
                index += 8
            }
            return raw[index...].allSatisfy { $0 < 0x80 }
        }
    }

    /// The offset after every LF, found with `memchr` (a vectorized search, several times a byte loop's speed).
    private static func lineStarts(of data: Data) -> [Int] {
        var starts = [0]
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var index = 0
            while index < raw.count, let found = memchr(base + index, 0x0A, raw.count - index) {
                index = base.distance(to: UnsafeRawPointer(found)) + 1
                starts.append(index)
            }
        }
        return starts
    }

    /// The number of characters before every `checkpointStride`-th byte.
    private static func characterCheckpoints(of data: Data) -> [Int] {
        var checkpoints = [0]
        checkpoints.reserveCapacity(data.count / checkpointStride + 1)
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var count = 0
            for index in 0..<bytes.count {
                if index > 0, index % checkpointStride == 0 { checkpoints.append(count) }
                if bytes[index] & 0xC0 != 0x80 { count += 1 }
            }
            if bytes.count > 0, bytes.count % checkpointStride == 0 { checkpoints.append(count) }
        }
        return checkpoints
    }

    /// The line of the previous location: readers ask front to back, mostly on the same or a nearby line.
    private var lastLineIndex = 0

    /// The index of the last line start ≤ offset, and that start: a few lines on from the previous one, else a
    /// binary search. The table is read once (each read of the lazy property retains it, and is checked for
    /// exclusive access: a location for each of a snapshot's million records asks).
    private func lineIndex(of offset: Int) -> (index: Int, start: Int) {
        let starts = lineStarts
        var line = lastLineIndex
        if starts[line] <= offset {
            let limit = min(line + 8, starts.count - 1)
            while line < limit, starts[line + 1] <= offset { line += 1 }
            if line == starts.count - 1 || starts[line + 1] > offset {
                lastLineIndex = line
                return (line, starts[line])
            }
        }
        line = SourceText.lineIndex(of: offset, lineStarts: starts)
        lastLineIndex = line
        return (line, starts[line])
    }

    /// The index of the last line start ≤ offset (binary search).
    private static func lineIndex(of offset: Int, lineStarts: [Int]) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Characters (Unicode scalars) between two byte offsets: UTF-8 bytes that do not continue a sequence,
    /// counted eight bytes at a time (a continuation byte is `10xxxxxx`).
    private static func characterCount(in data: Data, from start: Int, to end: Int) -> Int {
        guard end > start else { return 0 }
        return data.withUnsafeBytes { characterCount(in: $0, from: start, to: end) }
    }

    /// Characters (Unicode scalars) among `raw[start..<end]`.
    static func characterCount(in raw: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var continuations = 0
        var index = start
        let high: UInt64 = 0x8080_8080_8080_8080
        while index + 8 <= end {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            continuations += (word & high & ~(word << 1)).nonzeroBitCount
            index += 8
        }
        while index < end {
            if raw[index] & 0xC0 == 0x80 { continuations += 1 }
            index += 1
        }
        return max(0, end - start) - continuations
    }
}
