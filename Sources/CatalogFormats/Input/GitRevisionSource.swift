import CatalogCore
import Foundation

/// An input read from git: `git:REV:PATH` is PATH (from the repository root, or `./`-relative) as it is at
/// revision REV, in the repository that holds the working directory (DESIGN.md §2a). git runs as a
/// subprocess without a shell; a bad revision or path is a `CatalogReadError` carrying git's own reason.
public struct GitRevisionSource: Sendable {
    /// The revision (`HEAD`, `origin/main`, a commit).
    public let revision: String
    /// The path at that revision.
    public let path: String

    /// Parses `git:REV:PATH`; nil when the argument does not start with `git:`.
    public init?(argument: String) {
        guard argument.hasPrefix("git:") else { return nil }
        let rest = argument.dropFirst(4)
        guard let colon = rest.firstIndex(of: ":") else { return nil }
        revision = String(rest[..<colon])
        path = String(rest[rest.index(after: colon)...])
    }

    /// The input at `path` in `revision`.
    public init(revision: String, path: String) {
        self.revision = revision
        self.path = path
    }

    /// How the input is named in output and locations.
    public var displayPath: String { "git:\(revision):\(path)" }

    /// Writes the file (or folder) at the revision into `folder` and returns its URL there, under the same
    /// name, so the readers and format detection see what they would see in a checkout, with git's name for
    /// the object (its identity: one object given twice is one input).
    public func materialize(in folder: URL) throws(CatalogReadError) -> (url: URL, object: String) {
        let location = SourceLocation(path: displayPath)
        guard !revision.isEmpty, !path.isEmpty, !revision.hasPrefix("-") else {
            throw CatalogReadError("write git:REV:PATH, e.g. git:origin/main:products.yml", at: location)
        }
        let object = "\(revision):\(path)"
        let kind = try git(["cat-file", "-t", object])
        let name = String(decoding: try git(["rev-parse", "--verify", "--quiet", object]), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let fileName = (path as NSString).lastPathComponent
        let target = folder.appendingPathComponent(fileName.isEmpty ? "root" : fileName)
        switch String(decoding: kind, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) {
        case "blob":
            try write(try git(["show", object]), to: target)
        case "tree":
            // Every file below the folder, by its path inside it.
            let listing = try git(["ls-tree", "-r", "-z", "--name-only", object])
            for entry in listing.split(separator: 0) {
                let relative = String(decoding: entry, as: UTF8.self)
                guard !relative.split(separator: "/").contains("..") else { continue }
                try write(try git(["show", "\(object)/\(relative)"]), to: target.appendingPathComponent(relative))
            }
        case let other:
            throw CatalogReadError("is a \(other) in git, not a file or folder", at: location)
        }
        return (target, name)
    }

    private func write(_ data: Data, to url: URL) throws(CatalogReadError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try data.write(to: url)
        } catch {
            throw CatalogReadError("cannot be copied out of git into a temporary folder",
                                   at: SourceLocation(path: displayPath))
        }
    }

    /// Runs git, returning standard output; a failure is git's first line of standard error.
    private func git(_ arguments: [String]) throws(CatalogReadError) -> Data {
        let location = SourceLocation(path: displayPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "--no-pager"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CatalogReadError("cannot run git (is it installed?)", at: location)
        }
        let collected = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = collected.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: message, as: UTF8.self)
                .split(whereSeparator: \.isNewline).first.map(String.init) ?? "git failed"
            throw CatalogReadError("git: \(reason)", at: location)
        }
        return data
    }
}

/// Reads a pipe on another thread, so a child filling both pipes cannot block.
private final class ErrorCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        DispatchQueue.global().async {
            let read = handle.readDataToEndOfFile()
            self.lock.lock()
            self.data = read
            self.lock.unlock()
            self.done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}
