import CatalogCore
import Foundation

/// Reading files with errors that name the file, in the user's words (never an error domain or a code).
enum FileLoading {
    /// What a path holds.
    enum Kind: Equatable {
        /// A regular file, read whole (mapped when it is safe).
        case regular
        /// A directory.
        case directory
        /// A FIFO, a character device or a socket: read as a stream, up to `streamLimit` bytes.
        case stream
    }

    /// The most a stream (a FIFO, `/dev/stdin`, a device) is read before giving up on it.
    static let streamLimit = 512 << 20

    /// The location of the error about an empty path: the path shown as `''`.
    static let emptyPathLocation = SourceLocation(path: "''")

    /// Why a file cannot be opened or examined, from `errno`.
    static func reason(forErrno code: Int32) -> String {
        switch code {
        case ENOENT: "the file does not exist"
        case ELOOP: "too many levels of symbolic links"
        case EACCES, EPERM: "permission denied"
        case ENOTDIR: "a folder on the path is a file"
        case ENAMETOOLONG: "the path is too long"
        case EISDIR: "is a directory, not a file"
        default: "the file cannot be read"
        }
    }

    /// What `url` holds (following symbolic links); a missing path, a symbolic link loop or a path that cannot
    /// be searched is an error naming it.
    static func kind(of url: URL, displayPath: String) throws(CatalogReadError) -> Kind {
        try examine(url, displayPath: displayPath).kind
    }

    /// What `url` holds and its size in bytes, from one `stat` (following symbolic links), several times cheaper
    /// than `URL.resourceValues` once per file of a large folder; errors as `kind(of:displayPath:)`.
    static func examine(_ url: URL, displayPath: String) throws(CatalogReadError) -> (kind: Kind, size: Int) {
        try examine(path: url.path, displayPath: displayPath)
    }

    private static func examine(path: String, displayPath: String) throws(CatalogReadError) -> (kind: Kind, size: Int) {
        if displayPath.isEmpty { throw CatalogReadError("the path is empty", at: emptyPathLocation) }
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw CatalogReadError(reason(forErrno: errno), at: SourceLocation(path: displayPath))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return (.directory, Int(info.st_size))
        case S_IFREG: return (.regular, Int(info.st_size))
        default: return (.stream, Int(info.st_size))
        }
    }

    /// Whether anything is at `url`: false only when nothing is there (a dangling symbolic link included); a
    /// symbolic link loop or a path that cannot be searched counts as present, so reading it names the problem
    /// instead of taking it for a missing file.
    static func exists(_ url: URL) -> Bool {
        var info = stat()
        return stat(url.path, &info) == 0 || errno != ENOENT
    }

    /// Opens a file for reading. A FIFO without a writer does not block the open; reads then wait for data or
    /// the end of the stream as usual. The caller closes the descriptor.
    static func open(_ url: URL, displayPath: String) throws(CatalogReadError) -> Int32 {
        try open(path: url.path, displayPath: displayPath)
    }

    private static func open(path: String, displayPath: String) throws(CatalogReadError) -> Int32 {
        if displayPath.isEmpty { throw CatalogReadError("the path is empty", at: emptyPathLocation) }
        let descriptor = systemOpen(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CatalogReadError(reason(forErrno: errno), at: SourceLocation(path: displayPath))
        }
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        return descriptor
    }

    /// Reads a whole file; a missing, unreadable or looping path is a `CatalogReadError` naming it. A stream
    /// (FIFO, device) is read to its end, up to `streamLimit` bytes.
    static func data(at url: URL, displayPath: String) throws(CatalogReadError) -> Data {
        let descriptor = try open(url, displayPath: displayPath)
        defer { close(descriptor) }
        if try kind(of: url, displayPath: displayPath) == .regular {
            // Foundation on Linux leaks its 4 KiB read buffer for an empty regular file (found by scripts/fuzz):
            // an empty one needs no read.
            var info = stat()
            if fstat(descriptor, &info) == 0, info.st_size == 0 { return Data() }
            if let data = try? Data(contentsOf: url, options: .mappedIfSafe) { return data }
        }
        return try read(descriptor, upTo: streamLimit, displayPath: displayPath, whole: true)
    }

    /// A file's bytes for a parser that refers to them when no `stat` was made yet (a folder's pages): a regular
    /// file as `regularFileData` reads it; anything else as `data(at:displayPath:)` reads it, with its errors.
    static func parsingData(at url: URL, displayPath: String) throws(CatalogReadError) -> Data {
        try parsingData(atPath: url.path, displayPath: displayPath)
    }

    /// `parsingData(at:displayPath:)` of a file path: a folder's reader names its 40,000 pages so, sparing a
    /// `URL` and the conversions of one to a path for each (a tenth of the core that parses them).
    static func parsingData(atPath path: String, displayPath: String) throws(CatalogReadError) -> Data {
        let (kind, size) = try examine(path: path, displayPath: displayPath)
        if kind == .regular { return try regularFileData(atPath: path, size: size, displayPath: displayPath) }
        return try data(at: URL(fileURLWithPath: path, isDirectory: false), displayPath: displayPath)
    }

    /// The size up to which `regularFileData` reads a file rather than mapping it. A fetch page (tens of
    /// kilobytes, 40,000 of them for 10,000 in-app purchases) costs less read into memory than mapped, faulted in
    /// page by page and unmapped, each unmapping interrupting the other core to flush its address cache; and its
    /// parser copies it anyway (`JSONDocument` keeps a document up to 4 MiB in memory of its own).
    static let readLimit = 4 << 20

    /// A regular file's bytes, given its size from a `stat` already made (resolution's). Over `readLimit` the file
    /// is mapped (`MappedFile`), not copied, so that a reader's memory stays within DESIGN.md §8's bounds; a
    /// smaller one is read. An empty file is no bytes, without a read (Foundation leaks its read buffer for one);
    /// a file that cannot be mapped or read so is read whole, with the reason named when that fails.
    static func regularFileData(_ url: URL, size: Int, displayPath: String) throws(CatalogReadError) -> Data {
        try regularFileData(atPath: url.path, size: size, displayPath: displayPath)
    }

    private static func regularFileData(atPath path: String, size: Int,
                                        displayPath: String) throws(CatalogReadError) -> Data {
        if displayPath.isEmpty { throw CatalogReadError("the path is empty", at: emptyPathLocation) }
        if size == 0 { return Data() }
        let descriptor = try open(path: path, displayPath: displayPath)
        defer { close(descriptor) }
        if size > readLimit, let bytes = MappedFile.map(descriptor) { return bytes }
        return try read(descriptor, upTo: streamLimit, displayPath: displayPath, whole: true, expecting: size)
    }

    /// The first `count` bytes of a file (fewer when it is shorter), for telling its format.
    static func prefix(of url: URL, count: Int, displayPath: String) throws(CatalogReadError) -> Data {
        let descriptor = try open(url, displayPath: displayPath)
        defer { close(descriptor) }
        return try read(descriptor, upTo: count, displayPath: displayPath, whole: false)
    }

    /// Reads until the end of the file or `limit` bytes; with `whole`, more than `limit` bytes is an error. The
    /// bytes go straight into memory the returned `Data` owns, sized for `expected` bytes when the caller knows
    /// them (a regular file's size from its `stat`: one `read` fills it, a second sees the end) and doubled while
    /// more come.
    static func read(_ descriptor: Int32, upTo limit: Int, displayPath: String, whole: Bool,
                     expecting expected: Int = 0) throws(CatalogReadError) -> Data {
        var capacity = expected > 0 ? expected + 1 : 1 << 16
        if !whole { capacity = max(1, min(capacity, limit)) }
        guard var buffer = malloc(capacity) else {
            throw CatalogReadError("not enough memory to read the file", at: SourceLocation(path: displayPath))
        }
        var count = 0
        do throws(CatalogReadError) {
            while whole || count < limit {
                if count == capacity {
                    capacity = whole ? capacity * 2 : min(capacity * 2, limit)
                    guard let grown = realloc(buffer, capacity) else {
                        throw CatalogReadError("not enough memory to read the file",
                                               at: SourceLocation(path: displayPath))
                    }
                    buffer = grown
                }
                let read = systemRead(descriptor, buffer + count, capacity - count)
                if read < 0 {
                    if errno == EINTR { continue }
                    throw CatalogReadError(reason(forErrno: errno), at: SourceLocation(path: displayPath))
                }
                if read == 0 { break }
                count += read
                if whole, count > limit {
                    throw CatalogReadError(
                        "the input is a stream of more than \(limit >> 20) MiB; save it to a file first",
                        at: SourceLocation(path: displayPath))
                }
            }
        } catch {
            free(buffer)
            throw error
        }
        guard count > 0 else {
            free(buffer)
            return Data()
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }

    /// Reads a file that must be one file, not a folder; `oneFile` says what it is, for the folder's error
    /// (`the rules file is one YAML or JSON file`).
    static func fileData(at url: URL, displayPath: String, oneFile: String) throws(CatalogReadError) -> Data {
        if try kind(of: url, displayPath: displayPath) == .directory {
            throw CatalogReadError("is a folder; \(oneFile)", at: SourceLocation(path: displayPath))
        }
        return try data(at: url, displayPath: displayPath)
    }

    /// Whether a path is a directory.
    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A folder's regular files, recursively, relative to it and sorted (so reading order, and so output, never
    /// depends on the file system), with their inodes (from `readdir`, whose entry types spare a `stat` per
    /// file): hidden entries (a leading `.`) are skipped and symbolic links neither followed nor listed.
    static func listing(of folder: URL) -> [(path: String, inode: UInt64)] {
        var entries: [(path: String, inode: UInt64)] = []
        collectEntries(in: folder.path, relative: "", into: &entries)
        return entries.sorted { $0.path < $1.path }
    }

    private static func collectEntries(in folder: String, relative: String,
                                       into entries: inout [(path: String, inode: UInt64)]) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }
            let path = folder + "/" + name
            var type = Int32(entry.pointee.d_type)
            if type == Int32(DT_UNKNOWN) {
                var info = stat()
                guard lstat(path, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: type = Int32(DT_DIR)
                case S_IFREG: type = Int32(DT_REG)
                default: continue
                }
            }
            if type == Int32(DT_DIR) {
                collectEntries(in: path, relative: relative + name + "/", into: &entries)
            } else if type == Int32(DT_REG) {
                entries.append((relative + name, UInt64(entry.pointee.d_ino)))
            }
        }
    }
}

/// `open(2)` and `read(2)`, named apart from `FileLoading.open` and `FileLoading.read`.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 {
    #if canImport(Glibc)
    Glibc.open(path, flags)
    #else
    Darwin.open(path, flags)
    #endif
}

func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.read(descriptor, buffer, count)
    #else
    Darwin.read(descriptor, buffer, count)
    #endif
}
