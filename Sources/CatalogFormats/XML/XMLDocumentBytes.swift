import CatalogCore
import Foundation

/// The bytes of an XML document as `XMLSAXParser` reads them: UTF-8 or another ASCII-compatible encoding its
/// declaration names, without a byte order mark, with XML's line breaks (DESIGN.md §5a 14, FORMATS.md "Text
/// encodings").
///
/// - UTF-16 and UTF-32, with a byte order mark or recognized from `<?` (XML 1.0 appendix F), are transcoded to
///   UTF-8 here, so that the entity-declaration blanker and the positions work on them as on UTF-8; libxml2
///   is then told to ignore the declaration, which still names the original encoding.
/// - A UTF-8 byte order mark is dropped: it is not a character of line 1.
/// - CR LF and a lone CR become LF, as an XML parser reads them (XML 1.0 §2.11), so that offsets map to lines
///   through `SourceText` the way libxml2 counts them; lines and columns (in characters) do not change.
/// - EBCDIC is refused: neither the blanker nor the positions could follow it.
struct XMLDocumentBytes {
    /// The bytes to parse.
    let bytes: Data
    /// True when the bytes were transcoded to UTF-8 and the declaration must be ignored.
    let isTranscoded: Bool

    /// Byte order marks that XML allows without a mark, by the first four bytes of `<?` or `<` in that
    /// encoding: the mark `TextEncoding` needs to transcode them.
    private static let unmarkedSignatures: [(head: [UInt8], mark: [UInt8])] = [
        ([0x3C, 0x00, 0x00, 0x00], [0xFF, 0xFE, 0x00, 0x00]),
        ([0x00, 0x00, 0x00, 0x3C], [0x00, 0x00, 0xFE, 0xFF]),
        ([0x3C, 0x00, 0x3F, 0x00], [0xFF, 0xFE]),
        ([0x00, 0x3C, 0x00, 0x3F], [0xFE, 0xFF]),
    ]

    /// Whether a document starting with `head` is UTF-16 or UTF-32, to be transcoded whole.
    static func needsTranscoding(_ head: Data) -> Bool {
        switch TextEncoding.byteOrderMark(of: head)?.encoding {
        case .utf8: false
        case .some: true
        case nil: unmarkedSignatures.contains { head.starts(with: $0.head) }
        }
    }

    /// Prepares `data`, a whole document or its first block; invalid UTF-16 or UTF-32 and EBCDIC are errors
    /// naming `path`.
    init(_ data: Data, path: String) throws(CatalogReadError) {
        var marked = data
        if TextEncoding.byteOrderMark(of: data) == nil,
           let signature = XMLDocumentBytes.unmarkedSignatures.first(where: { data.starts(with: $0.head) }) {
            marked = Data(signature.mark) + data
        }
        if data.starts(with: [0x4C, 0x6F, 0xA7, 0x94]) {
            throw CatalogReadError("the file is EBCDIC text; save the file as UTF-8",
                                   at: SourceLocation(path: path, line: 1, column: 1))
        }
        switch TextEncoding.byteOrderMark(of: marked)?.encoding {
        case nil:
            isTranscoded = false
        case .utf8:
            isTranscoded = false
            marked = Data(marked.dropFirst(3))
        default:
            isTranscoded = true
            marked = try TextEncoding.withoutByteOrderMark(marked, path: path)
        }
        bytes = XMLDocumentBytes.withXMLLineBreaks(marked)
    }

    /// `data` with CR LF and lone CR as LF; the same `Data` when it holds no CR. A block of a file ends with
    /// LF, so no CR LF pair is ever split between blocks.
    static func withXMLLineBreaks(_ data: Data) -> Data {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data in
            guard let base = raw.baseAddress, memchr(base, 0x0D, raw.count) != nil else { return data }
            var output = [UInt8]()
            output.reserveCapacity(raw.count)
            var previousWasCarriageReturn = false
            for byte in raw {
                if byte == 0x0A, previousWasCarriageReturn {
                    previousWasCarriageReturn = false
                    continue
                }
                previousWasCarriageReturn = byte == 0x0D
                output.append(previousWasCarriageReturn ? 0x0A : byte)
            }
            return Data(output)
        }
    }
}

/// A file read in blocks of about a mebibyte that end at a line break (a line longer than that makes a longer
/// block), for `XMLSAXParser`.
struct XMLFileBlocks {
    private let descriptor: Int32
    private let path: String
    private var carry = Data()
    private var atEnd = false
    private static let blockSize = 1 << 20
    private static let readSize = 1 << 16

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// The next block, nil at the end of the file. The file is read straight into the block's memory, which
    /// becomes the `Data` (no copy); only the bytes after its last line break are copied, into the next block.
    mutating func next() throws(CatalogReadError) -> Data? {
        var capacity = XMLFileBlocks.blockSize + XMLFileBlocks.readSize
        guard var buffer = malloc(capacity) else { throw outOfMemory() }
        var count = carry.count
        carry.withUnsafeBytes { carried in
            if let base = carried.baseAddress { buffer.copyMemory(from: base, byteCount: carried.count) }
        }
        carry = Data()
        do throws(CatalogReadError) {
            while !atEnd {
                if capacity - count < XMLFileBlocks.readSize {
                    capacity *= 2
                    guard let grown = realloc(buffer, capacity) else { throw outOfMemory() }
                    buffer = grown
                }
                let chunkStart = count
                let read = try read(into: buffer + count, count: XMLFileBlocks.readSize)
                guard read > 0 else {
                    atEnd = true
                    break
                }
                count += read
                guard count >= XMLFileBlocks.blockSize,
                      let lineEnd = UnsafeBufferPointer(start: buffer.assumingMemoryBound(to: UInt8.self) + chunkStart,
                                                        count: read).lastIndex(of: 0x0A) else { continue }
                let blockEnd = chunkStart + lineEnd + 1
                carry = Data(bytes: buffer + blockEnd, count: count - blockEnd)
                return Data(bytesNoCopy: buffer, count: blockEnd, deallocator: .free)
            }
        } catch {
            free(buffer)
            throw error
        }
        guard count > 0 else {
            free(buffer)
            return nil
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    private func outOfMemory() -> CatalogReadError {
        CatalogReadError("not enough memory to read the file", at: SourceLocation(path: path))
    }

    /// The rest of the file, whole.
    mutating func rest() throws(CatalogReadError) -> Data {
        var data = Data()
        while let block = try next() { data.append(block) }
        return data
    }

    private func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(CatalogReadError) -> Int {
        while true {
            let read = systemRead(descriptor, buffer, count)
            if read >= 0 { return read }
            if errno != EINTR {
                throw CatalogReadError(FileLoading.reason(forErrno: errno), at: SourceLocation(path: path))
            }
        }
    }
}
