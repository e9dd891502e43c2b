import CatalogSnapshot
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a snapshot folder atomically (DESIGN.md §2b): every page goes into the hidden sibling folder
/// `.<name>.fetch-partial`, and only a complete fetch replaces the target, by rename. A fetch that stops on the
/// way (a spent request budget, a network failure, or `interrupt()` on SIGINT/SIGTERM) leaves that folder, every
/// page in it whole, with a journal of the pages it holds — each page's record as the manifest keeps it (file,
/// request path and query, never a credential, and the SHA-256 of its bytes) — so `--resume` continues it,
/// requesting no page twice; any other failure removes it. Resuming keeps only the pages whose bytes still match
/// their journal line, read without following a symbolic link, and removes everything else from the hidden
/// folder (a changed page, a link, a stray file), since the whole folder becomes the snapshot. An existing
/// target is replaced only when it is empty or a snapshot (holds `.fetch.json`), so a mistyped `--output` never
/// deletes someone's folder. No folders are created above the target.
public final class SnapshotWriter: @unchecked Sendable {
    /// The journal's file name inside the hidden folder: a header line naming the fetch, then one JSON line per
    /// page (a `SnapshotManifest.Page`); removed by `commit`.
    static let journalName = ".fetch-journal"

    /// The journal's first line: which fetch the hidden folder holds.
    private struct JournalHeader: Codable {
        /// `appstore app=123` (`FetchTarget.identity`).
        let fetch: String
    }

    /// The target folder, as the user named it.
    public let target: String
    /// The hidden folder the pages go to until the snapshot is complete.
    public let partialFolder: String
    /// What opening the hidden folder did with an earlier unfinished fetch, for a line on standard error.
    public private(set) var notice: String?
    private let resolvedTarget: String
    private let staging: String
    /// Held while a page is written and while the snapshot is committed or discarded, so that `interrupt()`
    /// finds the folder between two whole pages.
    private let lock = NSLock()
    private var names: Set<String> = []
    /// Pages an earlier run wrote: one that no longer reads as JSON is fetched and written again.
    private var resumedNames: Set<String> = []
    /// The pages in the hidden folder, resumed ones included: request (path and query) → record.
    private var saved: [String: SnapshotManifest.Page] = [:]
    /// The same pages in the order they were written.
    private var records: [SnapshotManifest.Page] = []
    private var journal: FileHandle?
    private var state = State.open
    /// Held for the writer's life: a second fetch into the same target stops instead of sharing the folder.
    private let outputLock: FetchLock

    private enum State {
        /// Pages are being written.
        case open
        /// Kept for `--resume` (stopped by a signal, a spent budget or a network failure): the hidden folder
        /// stays as it is; nothing more is written or removed.
        case kept
        /// Committed or discarded.
        case closed
    }

    /// Checks the target and opens the hidden sibling folder. With `resume`, an unfinished fetch of the same
    /// `identity` (store and app) is continued; without it, an unfinished fetch is discarded and this one starts
    /// over.
    public init(target: String, identity: String = "", resume: Bool = false) throws(FetchError) {
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
        staging = (parent == "/" ? "" : parent) + "/." + url.lastPathComponent + ".fetch-partial"
        partialFolder = staging
        outputLock = try FetchLock(parent: parent, name: url.lastPathComponent, target: target)
        try openPartial(identity: identity, resume: resume)
    }

    /// Pages in the hidden folder (resumed ones included).
    public var pagesWritten: Int { lock.withLock { records.count } }

    /// Each page's record (file, request, SHA-256), sorted by file, for the manifest.
    var pages: [SnapshotManifest.Page] {
        lock.withLock { records }.sorted { $0.file < $1.file }
    }

    /// The body of the page an earlier run of this fetch saved for `request` (path and query), or nil: read
    /// without following a symbolic link, and only while its bytes are still those its journal line records.
    func savedPage(for request: String) -> Data? {
        guard let record = lock.withLock({ saved[request] }),
              let body = Self.regularFile(at: staging + "/" + record.file), record.matches(body) else { return nil }
        return body
    }

    /// The file name of a listing's page: `stem-0001.json` (page numbers zero-padded so names sort).
    static func pageName(stem: String, page: Int) -> String {
        safeName(stem) + "-" + String(repeating: "0", count: max(0, 4 - String(page).count)) + String(page) + ".json"
    }

    /// Writes one response page, unchanged, as `stem-0001.json`, then notes it and its `request` (path and
    /// query) in the journal, so that an interrupted fetch resumes after it.
    func write(_ body: Data, stem: String, page: Int, request: String) throws(FetchError) {
        let name = Self.pageName(stem: stem, page: page)
        let record = SnapshotManifest.Page(file: name, request: request, bytes: body)
        let line = Self.journalLine(record)
        // Page and journal line under one lock: `interrupt()` finds the folder between two whole, noted pages.
        lock.lock()
        defer { lock.unlock() }
        try writeLocked(body, named: name)
        saved[request] = record
        records.append(record)
        // One write per line: an interruption leaves at most one partial last line, which resuming skips.
        try? journal?.write(contentsOf: line + Data("\n".utf8))
    }

    /// One JSON line: keys sorted, slashes unescaped.
    private static func journalLine(_ value: some Encodable) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data()
    }

    /// Writes the manifest and replaces the target with the finished snapshot.
    public func commit(manifest: Data) throws(FetchError) {
        lock.lock()
        defer { lock.unlock() }
        try writeLocked(manifest, named: SnapshotManifest.fileName)
        closeJournalLocked()
        try? FileManager.default.removeItem(atPath: staging + "/" + Self.journalName)
        let mask = umask(0)
        umask(mask)
        chmod(staging, 0o777 & ~mask)
        var info = stat()
        if lstat(resolvedTarget, &info) == 0 {
            let old = staging + ".old"
            try? FileManager.default.removeItem(atPath: old)
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
        outputLock.release()
    }

    /// Removes the hidden folder (after a fetch that cannot be resumed), unless it was kept for `--resume`.
    public func discard() {
        lock.withLock {
            guard state == .open else { return }
            state = .closed
            closeJournalLocked()
            try? FileManager.default.removeItem(atPath: staging)
            outputLock.release()
        }
    }

    /// Stops the writer for a signal (DESIGN.md §2b): waits for a page being written, then keeps the hidden
    /// folder for `--resume` and writes nothing more. Returns the folder and the pages in it, or nil when the
    /// snapshot was already committed, discarded or kept.
    public func interrupt() -> (folder: String, pages: Int)? {
        lock.withLock {
            guard state == .open else { return nil }
            state = .kept
            closeJournalLocked()
            return (staging, records.count)
        }
    }

    /// Leaves the hidden folder for `--resume` (after a fetch stopped on the way).
    public func keep() {
        lock.withLock {
            guard state == .open else { return }
            state = .kept
            closeJournalLocked()
            outputLock.release()
        }
    }

    private func closeJournalLocked() {
        try? journal?.close()
        journal = nil
    }

    /// Opens the hidden folder: resumes or discards an earlier one (only a folder holding a journal that is a
    /// regular file: fetch's own), then creates it and its journal when there is none.
    private func openPartial(identity: String, resume: Bool) throws(FetchError) {
        let journalPath = staging + "/" + Self.journalName
        var info = stat()
        if lstat(staging, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR, let journalData = Self.regularFile(at: journalPath) else {
                throw FetchError.output(path: staging, reason: "is in the way of fetch's temporary folder and was "
                    + "not made by fetch; move it away")
            }
            let lines = journalData.split(separator: UInt8(ascii: "\n"))
            let header = lines.first.flatMap { try? JSONDecoder().decode(JournalHeader.self, from: Data($0)) }
            let earlier = header?.fetch ?? "an unknown fetch"
            if resume, earlier == identity {
                let dropped = resumePages(journal: lines.dropFirst())
                notice = "resuming the unfinished fetch in \(staging): \(records.count) pages already fetched"
                    + (dropped == 0 ? "" : "; \(dropped) \(dropped == 1 ? "page that was" : "pages that were") "
                        + "changed or replaced since \(dropped == 1 ? "is" : "are") fetched again")
                journal = FileHandle(forWritingAtPath: journalPath)
                _ = try? journal?.seekToEnd()
                return
            }
            if resume {
                throw FetchError.output(path: staging, reason: "holds an unfinished fetch of \(earlier), not of "
                    + "\(identity); run without --resume to discard it")
            }
            try? FileManager.default.removeItem(atPath: staging)
            notice = "discarded the unfinished fetch in \(staging) (--resume continues one)"
        } else if resume {
            notice = "no unfinished fetch in \(staging) to resume: fetching everything"
        }
        guard mkdir(staging, 0o700) == 0 else {
            throw FetchError.output(path: target, reason: "cannot create a folder beside it: \(Self.describe(errno))")
        }
        let header = Self.journalLine(JournalHeader(fetch: identity))
        guard FileManager.default.createFile(atPath: journalPath, contents: header + Data("\n".utf8),
                                             attributes: [.posixPermissions: 0o600]),
              let handle = FileHandle(forWritingAtPath: journalPath) else {
            throw FetchError.output(path: target, reason: "cannot write \(journalPath)")
        }
        _ = try? handle.seekToEnd()
        journal = handle
    }

    /// Takes over the pages an earlier run noted in the journal (the last line of a file wins: a page written
    /// again was noted again): each one still a regular file whose bytes match its line's SHA-256. Everything else
    /// in the hidden folder — a page changed or replaced since, a symbolic link (removed, never followed), a file
    /// fetch did not write — is removed, since the whole folder becomes the snapshot. Returns how many noted pages
    /// were dropped.
    private func resumePages(journal lines: ArraySlice<Data.SubSequence>) -> Int {
        var noted: [String: SnapshotManifest.Page] = [:]
        var order: [String] = []
        for line in lines {
            // A line cut short by an interruption names no complete page: that page is fetched again.
            guard let record = try? JSONDecoder().decode(SnapshotManifest.Page.self, from: Data(line)) else { continue }
            if noted.updateValue(record, forKey: record.file) == nil { order.append(record.file) }
        }
        var dropped = 0
        for file in order {
            guard let record = noted[file] else { continue }
            guard let body = Self.regularFile(at: staging + "/" + file), record.matches(body) else {
                dropped += 1
                continue
            }
            names.insert(file)
            saved[record.request] = record
            records.append(record)
            resumedNames.insert(file)
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: staging)) ?? []
        for entry in entries where entry != Self.journalName && !names.contains(entry) {
            let path = staging + "/" + entry
            var info = stat()
            // A link or a file is unlinked (a link's target is never touched); a folder is removed with what is in it.
            if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                try? FileManager.default.removeItem(atPath: path)
            } else {
                unlink(path)
            }
        }
        return dropped
    }

    /// The bytes of the regular file at `path`, opened without following a symbolic link (`O_NOFOLLOW`: a link
    /// there is no file fetch wrote); nil for a link, a folder or anything that cannot be read.
    static func regularFile(at path: String) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return try? handle.readToEnd() ?? Data()
    }

    private func write(_ body: Data, named name: String) throws(FetchError) {
        lock.lock()
        defer { lock.unlock() }
        try writeLocked(body, named: name)
    }

    private func writeLocked(_ body: Data, named name: String) throws(FetchError) {
        guard state == .open else { throw FetchError.output(path: target, reason: "the fetch was interrupted") }
        let isNew: Bool
        if resumedNames.remove(name) != nil {
            records.removeAll { $0.file == name }
            isNew = true
        } else {
            isNew = names.insert(name).inserted
        }
        guard isNew else { throw FetchError.output(path: target, reason: "two pages named \(name)") }
        do {
            // Atomic: a page cut off by an interruption never stands in the folder half written.
            try body.write(to: URL(fileURLWithPath: staging + "/" + name), options: .atomic)
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
        guard entries.isEmpty || entries.contains(SnapshotManifest.fileName) else {
            throw FetchError.output(path: target, reason: """
                holds files but no \(SnapshotManifest.fileName), so it is not a snapshot fetch wrote; \
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
