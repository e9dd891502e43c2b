import CatalogCore
import Foundation

/// A catalog input as the user spelled it (DESIGN.md §2, "inputs are resolved once"): `PATH`, `FORMAT:PATH`,
/// `git:REV:PATH`, `FORMAT:git:REV:PATH`, or `-` for standard input. Parsing never touches the file system;
/// `resolve(as:)` does, once, before any reader runs.
public struct InputSource: Hashable, Sendable {
    /// Where the bytes come from.
    public enum Origin: Hashable, Sendable {
        /// A file or folder, relative to the working directory or absolute.
        case path(String)
        /// A file or folder as git holds it at a revision.
        case git(revision: String, path: String)
        /// Standard input (`-`).
        case standardInput
    }

    /// Where the bytes come from.
    public var origin: Origin
    /// The format the spelling names (`FORMAT:`), or nil to detect it.
    public var format: CatalogFormat?
    /// The app a RevenueCat project is compared as (`revenuecat:DIR@APP_ID`, DESIGN.md §4b), or nil.
    public var app: String?

    /// Creates an input from its parts.
    public init(origin: Origin, format: CatalogFormat? = nil) {
        self.origin = origin
        self.format = format
    }

    /// Parses a spelling. A leading `FORMAT:` counts only when FORMAT is a format name, so a path holding a
    /// colon is still a path; `git:` needs a second colon (`git:REV:PATH`).
    public init(_ argument: String) {
        var rest = Substring(argument)
        format = nil
        if let colon = rest.firstIndex(of: ":"), let named = CatalogFormat(rawValue: String(rest[..<colon])) {
            format = named
            rest = rest[rest.index(after: colon)...]
        }
        if format == .revenuecat, let at = rest.lastIndex(of: "@"),
           !rest[rest.index(after: at)...].contains("/"), rest.index(after: at) < rest.endIndex {
            app = String(rest[rest.index(after: at)...])
            rest = rest[..<at]
        }
        if rest == "-" {
            origin = .standardInput
        } else if let git = GitRevisionSource(argument: String(rest)) {
            origin = .git(revision: git.revision, path: git.path)
        } else {
            origin = .path(String(rest))
        }
    }

    /// The input as output and locations name it: the path as given, `git:REV:PATH`, or `-`.
    public var displayPath: String {
        switch origin {
        case .path(let path): path
        case .git(let revision, let path): "git:\(revision):\(path)"
        case .standardInput: "-"
        }
    }

    /// The input as the user could have typed it: `FORMAT:` (when named) and `displayPath`.
    public var spelling: String { (format.map { $0.rawValue + ":" } ?? "") + displayPath + (app.map { "@" + $0 } ?? "") }

    /// Looks at the input once: one `stat`, a folder's listing, a stream's bytes, git's object copied out, and
    /// the format (given, else detected). Errors about the path itself (missing, a loop, not searchable, git's
    /// own reason) are thrown here; a format that cannot be told, or one the role refuses, is kept in
    /// `ResolvedInput.format` and thrown when the input is read, so the config's errors still come first.
    public func resolve(as role: InputRole) throws(CatalogReadError) -> ResolvedInput {
        let display = displayPath
        switch origin {
        case .path(let path):
            // `isDirectory` from the spelling: resolution's own `stat` tells a folder, Foundation need not.
            let url = URL(fileURLWithPath: path, isDirectory: path.hasSuffix("/"))
            return try ResolvedInput.resolve(url: url, displayPath: display, source: self,
                                             role: role, scratch: nil, identity: nil)
        case .standardInput:
            return try ResolvedInput.resolve(url: URL(fileURLWithPath: "/dev/stdin"), displayPath: display,
                                             source: self, role: role, scratch: nil, identity: nil)
        case .git(let revision, let path):
            let git = GitRevisionSource(revision: revision, path: path)
            let scratch = try ScratchFolder(prefix: "git", displayPath: display)
            let (url, object) = try git.materialize(in: scratch.url)
            return try ResolvedInput.resolve(url: url, displayPath: display, source: self, role: role,
                                             scratch: scratch, identity: .gitObject(object))
        }
    }
}

/// What an input is for: the role decides which formats it may be and how refusals are worded.
public enum InputRole: String, Hashable, Sendable {
    /// `--config`: the declared side. A product config unless `FORMAT:` names another format (DESIGN.md §4b);
    /// a store catalog given without its format named is refused, saying how to name it.
    case config
    /// `--store`: a store catalog, never a product config (DESIGN.md §2).
    case store
    /// `diff OLD NEW`, `export FILE`, `report --since`: a catalog of any format.
    case catalog
}

/// Which file an input is, whatever its spelling: two spellings (`a.yml`, `./x/../a.yml`, a symbolic link, a
/// hard link) of one file have one identity. Used to refuse a store given twice and an output that would
/// replace an input (DESIGN.md §2).
public enum FileIdentity: Hashable, Sendable {
    /// A file or folder on disk: its device and inode.
    case file(device: UInt64, inode: UInt64)
    /// An object in git, by its object name.
    case gitObject(String)

    /// The identity of what `path` names, following symbolic links; nil when nothing is there (or it cannot
    /// be examined, which reading it then reports).
    public static func of(path: String) -> FileIdentity? {
        var info = stat()
        guard !path.isEmpty, stat(path, &info) == 0 else { return nil }
        return .file(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

/// An input looked at once (`InputSource.resolve(as:)`): what it is, where readers read it, its format, and
/// which files it is.
public struct ResolvedInput: Sendable {
    /// What a path holds.
    public enum Kind: String, Hashable, Sendable {
        /// A regular file.
        case file
        /// A folder, read as one catalog.
        case folder
        /// A FIFO, a device or standard input: read once, at resolution.
        case stream
    }

    /// The spelling it came from.
    public let source: InputSource
    /// What the input is for.
    public let role: InputRole
    /// What the path holds.
    public let kind: Kind
    /// The input as output and locations name it.
    public let displayPath: String
    /// Where readers read it: the file or folder, or a temporary copy of a stream or of git's object. A regular
    /// file's bytes are not held here: its reader maps it once, so memory stays within DESIGN.md §8's bounds.
    public let url: URL
    /// The format: given, or detected; or why it cannot be read (the format is not told by anything, the
    /// folder holds several catalogs, or the role refuses it), thrown when the input is read.
    public let format: Result<CatalogFormat, CatalogReadError>
    /// Which file (or folder) this is.
    public let identity: FileIdentity
    /// Every file the input is made of: the file, or each regular file below the folder. An output that is one
    /// of them would replace an input.
    public let files: Set<FileIdentity>
    /// A folder's regular files, relative to it, sorted (hidden entries left out); empty for a file.
    public let listing: [String]
    /// The size in bytes of a file (of a stream: of the copy that holds its bytes), from resolution's `stat`;
    /// 0 for a folder.
    public let size: Int
    /// The temporary folder holding a stream's or git's copy; removed when the last copy of this value goes.
    let scratch: ScratchFolder?

    /// The format, or the reason the input cannot be read.
    public func readableFormat() throws(CatalogReadError) -> CatalogFormat { try format.get() }

    /// The bytes of a file input (or of a stream's copy), a big one mapped rather than copied
    /// (`FileLoading.regularFileData`); the size is resolution's, so nothing is stat'ed again. A folder has none:
    /// its reader reads the files of `listing`.
    public func bytes() throws(CatalogReadError) -> Data {
        guard kind != .folder else {
            throw CatalogReadError(FileLoading.reason(forErrno: EISDIR), at: SourceLocation(path: displayPath))
        }
        return try FileLoading.regularFileData(url, size: size, displayPath: displayPath)
    }

    /// A file or folder named by URL, resolved for a reader of `format`: one `stat` (and a folder's listing),
    /// with no detection and no role's refusal, for the readers' `read(contentsOf:…)`.
    static func resolve(url: URL, displayPath: String,
                        readingAs format: CatalogFormat) throws(CatalogReadError) -> ResolvedInput {
        try resolve(url: url, displayPath: displayPath, source: InputSource(origin: .path(url.path), format: format),
                    role: .catalog, scratch: nil, identity: nil, knownFormat: format)
    }

    /// A folder as `listing` names its files, without listing or examining it: for a reader's
    /// `read(folder:listing:…)`.
    static func folder(_ url: URL, listing: [String], displayPath: String,
                       readingAs format: CatalogFormat) -> ResolvedInput {
        // Nothing there (or not examinable): reading its files says so; the identity then names no file.
        let identity = FileIdentity.of(path: url.path) ?? .file(device: 0, inode: 0)
        return ResolvedInput(source: InputSource(origin: .path(url.path), format: format), role: .catalog,
                             kind: .folder, displayPath: displayPath, url: url, format: .success(format),
                             identity: identity, files: [identity], listing: listing, size: 0, scratch: nil)
    }

    /// Resolves `url`; a `knownFormat` (a reader's own) is taken as it is, with no detection or refusal.
    fileprivate static func resolve(url: URL, displayPath: String, source: InputSource, role: InputRole,
                                    scratch: ScratchFolder?, identity given: FileIdentity?,
                                    knownFormat: CatalogFormat? = nil) throws(CatalogReadError) -> ResolvedInput {
        if displayPath.isEmpty { throw CatalogReadError("the path is empty", at: FileLoading.emptyPathLocation) }
        var info = stat()
        guard stat(url.path, &info) == 0 else {
            throw CatalogReadError(FileLoading.reason(forErrno: errno), at: SourceLocation(path: displayPath))
        }
        let device = UInt64(info.st_dev)
        let ownIdentity = FileIdentity.file(device: device, inode: UInt64(info.st_ino))
        let identity = given ?? ownIdentity
        let location = SourceLocation(path: displayPath)
        // The format named (`FORMAT:`) is the user's statement, for the config too (DESIGN.md §4b): a `.storekit`
        // file named `storekit:` is the declared catalog. Unnamed, the config is a product config, or a declared
        // source that says what it is; a store catalog given unnamed as the config is refused with the way to name it.
        let named = source.format
        // A file's format: the one given, else detected; a refusal is kept for the reading.
        func fileFormat(_ file: URL) -> Result<CatalogFormat, CatalogReadError> {
            if let knownFormat { return .success(knownFormat) }
            return refusing(Result { () throws(CatalogReadError) in
                if let named { return named }
                guard role == .config else { return try FormatDetector.detectFile(file, displayPath: displayPath) }
                guard let detected = try? FormatDetector.detectFile(file, displayPath: displayPath) else {
                    return .catalog
                }
                try refuseUnnamedStore(detected, at: location)
                return detected
            }, role: role, location: location)
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            let listed = FileLoading.listing(of: url)
            var files: Set<FileIdentity> = [identity]
            if given == nil { for entry in listed { files.insert(.file(device: device, inode: entry.inode)) } }
            let listing = listed.map(\.path)
            var format: Result<CatalogFormat, CatalogReadError>
            if let knownFormat {
                format = .success(knownFormat)
            } else {
                format = Result { () throws(CatalogReadError) in
                    if role == .config, named == nil {
                        // Unnamed: a declared source's folder says what it is; anything else is left to the
                        // config reader, which says the config is one file.
                        guard let detected = try? FormatDetector.detectFolder(url, listing: listing, given: nil,
                                                                              role: role, displayPath: displayPath)
                        else { return CatalogFormat.catalog }
                        try refuseUnnamedStore(detected, at: location)
                        return detected
                    }
                    return try FormatDetector.detectFolder(url, listing: listing, given: named, role: role,
                                                           displayPath: displayPath)
                }
            }
            if knownFormat == nil { format = refusing(format, role: role, location: location) }
            return ResolvedInput(source: source, role: role, kind: .folder, displayPath: displayPath, url: url,
                                 format: format, identity: identity, files: files, listing: listing, size: 0,
                                 scratch: scratch)
        case S_IFREG:
            return ResolvedInput(source: source, role: role, kind: .file, displayPath: displayPath, url: url,
                                 format: fileFormat(url), identity: identity, files: [identity], listing: [],
                                 size: Int(info.st_size), scratch: scratch)
        default:
            // A stream can be read only once: its bytes go to a temporary file of the same name, which
            // detection and the reader then read like any file.
            let data = try FileLoading.data(at: url, displayPath: displayPath)
            let scratch = try ScratchFolder(prefix: "stream", displayPath: displayPath)
            let copy = scratch.url.appendingPathComponent(url.lastPathComponent.isEmpty ? "input" : url.lastPathComponent)
            do {
                try data.write(to: copy)
            } catch {
                throw CatalogReadError("cannot copy the stream to a temporary file in "
                                       + scratch.url.deletingLastPathComponent().path, at: location)
            }
            return ResolvedInput(source: source, role: role, kind: .stream, displayPath: displayPath, url: copy,
                                 format: fileFormat(copy), identity: identity, files: [identity], listing: [],
                                 size: data.count, scratch: scratch)
        }
    }

    /// A store catalog given as the config without its format named would fail on its first key with a message
    /// about that key: say what it is, and how to read it as the declared catalog (DESIGN.md §4b).
    private static func refuseUnnamedStore(_ format: CatalogFormat, at location: SourceLocation) throws(CatalogReadError) {
        guard format.store != nil else { return }
        throw CatalogReadError("a store catalog (\(format.rawValue)), not a product config; give it with --store and "
                               + "the config with --config, or name its format to check against it as the declared "
                               + "catalog: --config \(format.rawValue):\(location.path)", at: location)
    }

    /// A store input that is a product config is refused: checking the config against itself passes for
    /// nothing (DESIGN.md §2).
    private static func refusing(_ format: Result<CatalogFormat, CatalogReadError>, role: InputRole,
                                 location: SourceLocation) -> Result<CatalogFormat, CatalogReadError> {
        guard role == .store, case .success(let found) = format else { return format }
        if found == .catalog {
            return .failure(CatalogReadError("a product config, not a store catalog; compare two configs with `diff`",
                                             at: location))
        }
        if found.isDeclaredOnly {
            // A RevenueCat project or a mapped server config says what the team declares, never what a store holds.
            return .failure(CatalogReadError("a declared catalog (\(found.rawValue)), not a store catalog: give it "
                                             + "with --config", at: location))
        }
        return format
    }
}

/// A temporary folder that lives as long as the inputs read from it.
final class ScratchFolder: Sendable {
    /// The folder.
    let url: URL

    init(prefix: String, displayPath: String) throws(CatalogReadError) {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogcheck-\(prefix)-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CatalogReadError("cannot create a temporary folder in "
                                   + FileManager.default.temporaryDirectory.path,
                                   at: SourceLocation(path: displayPath))
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
