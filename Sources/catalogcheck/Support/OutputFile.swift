#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes output bytes with every error checked (DESIGN.md §2): a regular file is replaced atomically (a
/// temporary sibling, then rename), so a failed run never leaves half a report where the last good one was; a
/// target that is not a regular file (a device such as /dev/full, a FIFO) is written in place and never renamed
/// over; no folders are created. Errors are `OutputError`s in the user's words.
enum OutputFile {
    /// What `produce` writes, in one or more pieces: see `write(to:_:)`.
    typealias Producer = (OutputSink) throws(OutputError) -> Void

    /// Writes `bytes` to standard output (file descriptor 1), all of them, or throws.
    static func writeStandardOutput(_ bytes: some Collection<UInt8>) throws(OutputError) {
        try writeStandardOutput { sink throws(OutputError) in try sink.write(bytes) }
    }

    /// Writes what `produce` gives to standard output.
    static func writeStandardOutput(_ produce: Producer) throws(OutputError) {
        try produce(OutputSink(descriptor: STDOUT_FILENO, target: "standard output"))
    }

    /// Writes `bytes` to `path`.
    static func write(_ bytes: some Collection<UInt8>, to path: String) throws(OutputError) {
        try write(to: path) { sink throws(OutputError) in try sink.write(bytes) }
    }

    /// Writes what `produce` gives to `path`, piece by piece (a regular file still appears only when all of it is
    /// written).
    static func write(to path: String, _ produce: Producer) throws(OutputError) {
        guard !path.isEmpty else { throw OutputError(target: "''", reason: "the path is empty") }
        let parts = OutputPath(path)
        var info = stat()
        if lstat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFLNK {
                // Replace what the link points at, not the link.
                guard let resolved = realpath(path, nil) else {
                    throw OutputError(target: path, reason: OutputError.describe(errno))
                }
                defer { free(resolved) }
                return try write(to: String(cString: resolved), produce)
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw OutputError(target: path, reason: "is a directory")
            case S_IFREG:
                return try replaceAtomically(parts, path, produce)
            default:
                return try writeInPlace(path, produce)
            }
        }
        let code = errno
        if parts.endsInSlash {
            // `r/` names a folder (and lstat says ENOTDIR when `r` is a file): an output is a file.
            throw OutputError(target: path, reason: "ends in '/', so it names a folder; an output is a file")
        }
        guard code == ENOENT else { throw OutputError(target: path, reason: OutputError.describe(code)) }
        var folderInfo = stat()
        guard stat(parts.folder, &folderInfo) == 0 else {
            let reason = errno == ENOENT ? "the folder '\(parts.folder)' does not exist (folders are not created)"
                : "the folder '\(parts.folder)': \(OutputError.describe(errno))"
            throw OutputError(target: path, reason: reason)
        }
        guard (folderInfo.st_mode & S_IFMT) == S_IFDIR else {
            throw OutputError(target: path, reason: "'\(parts.folder)' is not a folder")
        }
        try replaceAtomically(parts, path, produce)
    }

    /// Appends `bytes` to `path`, creating the file when missing (GitHub's `$GITHUB_STEP_SUMMARY`).
    static func append(_ bytes: some Collection<UInt8>, to path: String) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw OutputError(target: path, reason: OutputError.describe(errno)) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, target: path)
    }

    private static func writeInPlace(_ path: String, _ produce: Producer) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OutputError(target: path, reason: OutputError.describe(errno)) }
        defer { close(descriptor) }
        try produce(OutputSink(descriptor: descriptor, target: path))
    }

    /// Writes a temporary sibling of `path` (in the folder the kernel resolves for it) and renames it over
    /// `path`.
    private static func replaceAtomically(_ parts: OutputPath, _ path: String,
                                          _ produce: Producer) throws(OutputError) {
        let temporary = parts.hiddenSibling(suffix: ".catalogcheck-\(getpid()).tmp")
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw OutputError(target: path, reason: OutputError.describe(errno)) }
        do throws(OutputError) {
            try produce(OutputSink(descriptor: descriptor, target: path))
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputError(target: path, reason: OutputError.describe(code))
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw OutputError(target: path, reason: OutputError.describe(code))
        }
    }

    fileprivate static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32,
                                     target: String) throws(OutputError) {
        let array = Array(bytes)
        var offset = 0
        while offset < array.count {
            let written = array.withUnsafeBytes { buffer in
                posixWrite(descriptor, buffer.baseAddress.map { $0 + offset }, array.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                throw OutputError(target: target, reason: OutputError.describe(errno))
            }
            offset += written
        }
    }
}

/// An open output of `OutputFile`: each write is checked, and names the output in its error.
struct OutputSink {
    fileprivate let descriptor: Int32
    /// The output as messages name it (a path, or `standard output`).
    fileprivate let target: String

    /// Writes all of `bytes`, or throws.
    func write(_ bytes: some Collection<UInt8>) throws(OutputError) {
        try OutputFile.writeAll(bytes, to: descriptor, target: target)
    }
}

/// `write(2)`, named apart from `OutputFile.write`.
private func posixWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// An output that could not be written: exit code 2, one line naming the target.
struct OutputError: Error {
    /// What could not be written (a path, or "standard output").
    let target: String
    /// Why, in the user's words.
    let reason: String

    /// The line for standard error.
    var message: String { "\(target): error: cannot write: \(reason)" }

    /// An errno in words, without error domains or numbers.
    static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "permission denied"
        case EISDIR: "is a directory"
        case ENOSPC: "no space left on the device"
        case EPIPE: "the reader went away (broken pipe)"
        case EBADF: "it is closed"
        case ELOOP: "too many levels of symbolic links"
        case ENOENT: "no such file or folder"
        case ENOTDIR: "a part of the path is not a folder"
        case EROFS: "the file system is read-only"
        case EDQUOT: "the disk quota is exceeded"
        case EFBIG: "the file is too large"
        case EIO: "an input/output error"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
