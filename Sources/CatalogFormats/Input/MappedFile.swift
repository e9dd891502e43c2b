import Foundation

/// Big files mapped into memory (`FileLoading.regularFileData`), and the pages of one that its reader has
/// passed given back.
///
/// A mapped file's pages count in the process's resident memory from the first read of them until the file is
/// unmapped. A reader checks a file's UTF-8 (and counts its lines) before it parses it, so without this the whole
/// file stayed resident for the whole reading: the Play check's two files and its YAML config, 57 MB, were half
/// its peak. Given back (`madvise(MADV_DONTNEED)`), a page leaves the process at once ("The resident set size
/// (RSS) of the calling process will be immediately reduced", madvise(2), Linux man-pages 6.03); the file's bytes
/// stay in the kernel's page cache. A later read of the page faults it in again: "subsequent accesses of pages in
/// the range will succeed, but will result in either repopulating the memory contents from the up-to-date
/// contents of the underlying mapped file ... or zero-fill-on-demand pages for anonymous private mappings". The
/// page names shared file mappings; a private one, as here, maps the file's page again too, as long as the
/// process never wrote a copy of its own, and these mappings are read-only (`MappedFileTests` reads the bytes
/// after giving them back).
///
/// Only a file mapping may be given back: on memory of the heap the same call would zero the bytes. So only
/// memory that `map` mapped is ever given back; for any other bytes `release` does nothing.
enum MappedFile {
    /// The address ranges of the live mappings.
    private nonisolated(unsafe) static var mappings: [Range<UInt>] = []
    private static let lock = NSLock()

    /// An open regular file's bytes, mapped read-only; nil when the file cannot be mapped. Its size is taken
    /// now (`fstat`), not from an earlier `stat`: reading a mapped page past the end of a file that has
    /// shrunk since would stop the process (SIGBUS).
    static func map(_ descriptor: Int32) -> Data? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0, let size = Int(exactly: info.st_size),
              let start = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), start != MAP_FAILED
        else { return nil }
        let address = UInt(bitPattern: start)
        lock.withLock { mappings.append(address ..< address + UInt(size)) }
        return Data(bytesNoCopy: start, count: size, deallocator: .custom { pointer, count in
            let address = UInt(bitPattern: pointer)
            lock.withLock { mappings.removeAll { $0.lowerBound == address } }
            munmap(pointer, count)
        })
    }

    #if os(Linux)
    /// The size of a page of memory, asked once.
    private static let pageSize = UInt(max(sysconf(Int32(_SC_PAGESIZE)), 1))
    #endif

    /// Gives back the whole pages of `bytes[from ..< upTo]` (the page that holds `from` included) when `bytes` lie
    /// in a mapping of `map`: the caller reads none of them again, or reads them from the file again.
    static func release(_ bytes: UnsafeRawBufferPointer, from: Int, upTo: Int) {
        #if os(Linux)
        guard let base = bytes.baseAddress, from < upTo else { return }
        let start = UInt(bitPattern: base)
        let end = start + UInt(min(upTo, bytes.count))
        guard let mapping = lock.withLock({ mappings.first { $0.contains(start) && end <= $0.upperBound } })
        else { return }
        let page = Self.pageSize
        let first = max(mapping.lowerBound, (start + UInt(max(from, 0))) / page * page)
        let last = end / page * page
        guard last > first, let pointer = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(pointer, Int(last - first), MADV_DONTNEED)
        #endif
    }
}

/// The part of a file's bytes a reader has passed, given back a mebibyte at a time (`MappedFile.release`):
/// a reader reports where it is as often as it likes, and the pages behind it go in few calls.
struct PassedPages {
    private let bytes: Data
    /// Where the pages given back so far end.
    private var released = 0

    /// Gives back every whole page of `bytes` (they were read to check them, and the reader reads them again
    /// from the start); then `passed(_:)` gives back those behind the reader as it goes.
    init(releasingAll bytes: Data) {
        self.bytes = bytes
        bytes.withUnsafeBytes { MappedFile.release($0, from: 0, upTo: $0.count) }
    }

    /// How far the reader goes between two releases.
    private static let step = 1 << 20

    /// The reader is done with the bytes before `offset`.
    mutating func passed(_ offset: Int) {
        guard offset >= released + Self.step else { return }
        bytes.withUnsafeBytes { MappedFile.release($0, from: released, upTo: offset) }
        released = offset
    }
}
