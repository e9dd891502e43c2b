import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a snapshot folder atomically (DESIGN.md §2b): every page goes into a temporary sibling folder, and
/// only a complete fetch replaces the target, by rename; a failed fetch removes the temporary folder and leaves
/// the previous snapshot as it was. An interrupted fetch (`interrupt()`, on SIGINT/SIGTERM) keeps the temporary
/// folder, every page in it whole, for `--resume`. An existing target is replaced only when it is empty or a snapshot (holds
/// `.fetch.json`), so a mistyped `--output` never deletes someone's folder. No folders are created above the
/// target.
public final class SnapshotWriter: @unchecked Sendable {
    /// The manifest's file name: a dotfile, which the folder readers skip.
    public static let manifestName = ".fetch.json"

    /// The target folder, as the user named it.
    public let target: String
    private let resolvedTarget: String
    private let staging: String
    /// Held while a page is written and while the snapshot is committed or discarded, so that `interrupt()`
    /// finds the folder between two whole pages.
    private let lock = NSLock()
    private var names: Set<String> = []
    private var state = State.open

    private enum State {
        /// Pages are being written.
        case open
        /// Stopped by a signal: the temporary folder stays as it is; nothing more is written or removed.
        case interrupted
        /// Committed or discarded.
        case closed
    }

    /// Checks the target and creates the temporary sibling folder.
    public init(target: String) throws(FetchError) {
        guard !target.isEmpty else { throw FetchError.output(path: "''", reason: "the output path is empty") }
        self.target = target
        var path = target
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        var info = stat()
        if lstat(path, &info) == 0 {
            if let resolved = realpath(path, nil) {
                path = String(cString: resolved)
                free(resolved)
            }
            try Self.checkReplaceable(path, named: target)
        }
        resolvedTarget = path
        let url = URL(fileURLWithPath: path)
        let parent = url.deletingLastPathComponent().path
        var parentInfo = stat()
        guard stat(parent, &parentInfo) == 0, (parentInfo.st_mode & S_IFMT) == S_IFDIR else {
            throw FetchError.output(path: target, reason: "the folder \(parent) does not exist")
        }
        var template = Array((parent + "/." + url.lastPathComponent + ".fetch-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw FetchError.output(path: target, reason: "cannot create a folder beside it: \(Self.describe(errno))")
        }
        staging = String(cString: made)
    }

    /// Writes one response page, unchanged, as `stem-0001.json` (page numbers zero-padded so names sort).
    func write(_ body: Data, stem: String, page: Int) throws(FetchError) {
        let name = Self.safeName(stem) + "-" + String(repeating: "0", count: max(0, 4 - String(page).count))
            + String(page) + ".json"
        try write(body, named: name)
    }

    /// Writes the manifest and replaces the target with the finished snapshot.
    public func commit(manifest: Data) throws(FetchError) {
        lock.lock()
        defer { lock.unlock() }
        try writeLocked(manifest, named: Self.manifestName)
        let mask = umask(0)
        umask(mask)
        chmod(staging, 0o777 & ~mask)
        var info = stat()
        if lstat(resolvedTarget, &info) == 0 {
            let old = staging + ".old"
            guard rename(resolvedTarget, old) == 0 else {
                throw FetchError.output(path: target, reason: "cannot replace it: \(Self.describe(errno))")
            }
            guard rename(staging, resolvedTarget) == 0 else {
                let reason = Self.describe(errno)
                _ = rename(old, resolvedTarget)
                throw FetchError.output(path: target, reason: "cannot replace it: \(reason)")
            }
            try? FileManager.default.removeItem(atPath: old)
        } else if rename(staging, resolvedTarget) != 0 {
            throw FetchError.output(path: target, reason: "cannot create it: \(Self.describe(errno))")
        }
        // Only now: a commit that failed leaves the writer open, so `discard()` removes the temporary folder.
        state = .closed
    }

    /// Removes the temporary folder (after a failed fetch), unless the fetch was interrupted.
    public func discard() {
        lock.withLock {
            guard state == .open else { return }
            state = .closed
            try? FileManager.default.removeItem(atPath: staging)
        }
    }

    /// Stops the writer for a signal (DESIGN.md §2b): waits for a page being written, then keeps the temporary
    /// folder for `--resume` and writes nothing more. Returns the folder and the pages in it, or nil when the
    /// snapshot was already committed or discarded.
    public func interrupt() -> (folder: String, pages: Int)? {
        lock.withLock {
            guard state == .open else { return nil }
            state = .interrupted
            return (staging, names.count)
        }
    }

    private func write(_ body: Data, named name: String) throws(FetchError) {
        lock.lock()
        defer { lock.unlock() }
        try writeLocked(body, named: name)
    }

    private func writeLocked(_ body: Data, named name: String) throws(FetchError) {
        guard state == .open else { throw FetchError.output(path: target, reason: "the fetch was interrupted") }
        guard names.insert(name).inserted else {
            throw FetchError.output(path: target, reason: "two pages named \(name)")
        }
        do {
            try body.write(to: URL(fileURLWithPath: staging + "/" + name))
        } catch {
            throw FetchError.output(path: target, reason: "cannot write \(name): \(error.localizedDescription)")
        }
    }

    /// An existing target must be a folder that is empty or holds a snapshot.
    private static func checkReplaceable(_ path: String, named target: String) throws(FetchError) {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw FetchError.output(path: target, reason: "exists and is not a folder")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        guard entries.isEmpty || entries.contains(manifestName) else {
            throw FetchError.output(path: target, reason: """
                holds files but no \(manifestName), so it is not a snapshot fetch wrote; \
                fetch into a new or empty folder (fetch replaces the whole folder)
                """)
        }
    }

    /// Store IDs are digits and letters; anything else in a file name becomes `_`.
    private static func safeName(_ stem: String) -> String {
        String(stem.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_" })
    }

    private static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
