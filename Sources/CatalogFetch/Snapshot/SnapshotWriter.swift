import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a snapshot folder atomically (DESIGN.md §2b): every page goes into a temporary sibling folder, and
/// only a complete fetch replaces the target, by rename; a failed fetch removes the temporary folder and leaves
/// the previous snapshot as it was. An existing target is replaced only when it is empty or a snapshot (holds
/// `.fetch.json`), so a mistyped `--output` never deletes someone's folder. No folders are created above the
/// target.
public final class SnapshotWriter: @unchecked Sendable {
    /// The manifest's file name: a dotfile, which the folder readers skip.
    public static let manifestName = ".fetch.json"

    /// The target folder, as the user named it.
    public let target: String
    private let resolvedTarget: String
    private let staging: String
    private let lock = NSLock()
    private var names: Set<String> = []

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
        try write(manifest, named: Self.manifestName)
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
    }

    /// Removes the temporary folder (after a failed fetch).
    public func discard() {
        try? FileManager.default.removeItem(atPath: staging)
    }

    private func write(_ body: Data, named name: String) throws(FetchError) {
        let isNew = lock.withLock { names.insert(name).inserted }
        guard isNew else { throw FetchError.output(path: target, reason: "two pages named \(name)") }
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
