import Foundation
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
    /// Writes `bytes` to standard output (file descriptor 1), all of them, or throws.
    static func writeStandardOutput(_ bytes: some Collection<UInt8>) throws(OutputError) {
        try writeAll(bytes, to: STDOUT_FILENO, target: "standard output")
    }

    /// Writes `bytes` to `path`.
    static func write(_ bytes: some Collection<UInt8>, to path: String) throws(OutputError) {
        guard !path.isEmpty else { throw OutputError(target: "''", reason: "the path is empty") }
        var info = stat()
        if lstat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFLNK {
                // Replace what the link points at, not the link.
                guard let resolved = realpath(path, nil) else {
                    throw OutputError(target: path, reason: OutputError.describe(errno))
                }
                defer { free(resolved) }
                return try write(bytes, to: String(cString: resolved))
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                throw OutputError(target: path, reason: "is a directory")
            case S_IFREG:
                return try replaceAtomically(path, with: bytes)
            default:
                return try writeInPlace(path, bytes)
            }
        }
        let code = errno
        guard code == ENOENT else { throw OutputError(target: path, reason: OutputError.describe(code)) }
        let parent = (path as NSString).deletingLastPathComponent
        var parentInfo = stat()
        if !parent.isEmpty, stat(parent, &parentInfo) != 0 || (parentInfo.st_mode & S_IFMT) != S_IFDIR {
            throw OutputError(target: path, reason: "the folder '\(parent)' does not exist (folders are not created)")
        }
        try replaceAtomically(path, with: bytes)
    }

    /// Appends `bytes` to `path`, creating the file when missing (GitHub's `$GITHUB_STEP_SUMMARY`).
    static func append(_ bytes: some Collection<UInt8>, to path: String) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw OutputError(target: path, reason: OutputError.describe(errno)) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, target: path)
    }

    private static func writeInPlace(_ path: String, _ bytes: some Collection<UInt8>) throws(OutputError) {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OutputError(target: path, reason: OutputError.describe(errno)) }
        defer { close(descriptor) }
        try writeAll(bytes, to: descriptor, target: path)
    }

    private static func replaceAtomically(_ path: String, with bytes: some Collection<UInt8>) throws(OutputError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".catalogcheck-\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw OutputError(target: path, reason: OutputError.describe(errno)) }
        do throws(OutputError) {
            try writeAll(bytes, to: descriptor, target: path)
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

    private static func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32,
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
