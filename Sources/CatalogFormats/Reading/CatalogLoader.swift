import CatalogCore
import Foundation

/// Finds, detects and reads inputs: the one entry point the CLI uses.
public struct CatalogLoader: Sendable {
    /// Options every reader gets.
    public var options: ReadOptions

    /// Creates a loader.
    public init(options: ReadOptions) {
        self.options = options
    }

    /// The reader of a format. Exhaustive: a new format without a reader does not compile.
    public static func reader(for format: CatalogFormat) -> any CatalogReader {
        switch format {
        case .appstoreXML: AppStoreMetadataReader()
        case .storekit: StoreKitConfigReader()
        case .ascJSON: AppStoreConnectReader()
        case .playCSV: PlayCSVReader()
        case .playJSON: PlayJSONReader()
        case .plist: PlistReader()
        case .catalog: ProductConfigReader()
        }
    }

    /// The loader for the stores checked against `config`: without `--play-currency`, Play CSV home-currency
    /// prices are taken to be in the currency of the config's base territory (DESIGN.md §5a.8).
    public func readingStores(against config: Catalog) -> CatalogLoader {
        guard options.playCurrency == nil, let implied = config.baseTerritory.playCurrency else { return self }
        var loader = self
        loader.options.playCurrency = implied
        return loader
    }

    /// Reads `path` (relative to the working directory, or absolute) as `format`, detecting it when nil.
    public func load(_ path: String, format: CatalogFormat? = nil) throws(CatalogReadError) -> Catalog {
        try load(URL(fileURLWithPath: path), displayPath: path, format: format)
    }

    /// Reads `url`, naming it `displayPath` in the catalog and in errors. A stream (a FIFO, `/dev/stdin`, a
    /// device) is read once, up to `FileLoading.streamLimit`, into a temporary file of the same name that
    /// detection and the reader then read like any file.
    public func load(_ url: URL, displayPath: String, format: CatalogFormat? = nil) throws(CatalogReadError) -> Catalog {
        if try FileLoading.kind(of: url, displayPath: displayPath) == .stream {
            let data = try FileLoading.data(at: url, displayPath: displayPath)
            let folder = FileManager.default.temporaryDirectory
                .appendingPathComponent("catalogcheck-stream-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let copy = folder.appendingPathComponent(url.lastPathComponent.isEmpty ? "input" : url.lastPathComponent)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try data.write(to: copy)
            } catch {
                throw CatalogReadError("cannot copy the stream to a temporary file in \(folder.deletingLastPathComponent().path)",
                                       at: SourceLocation(path: displayPath))
            }
            return try load(copy, displayPath: displayPath, format: format)
        }
        let resolved: CatalogFormat
        if let format {
            resolved = format
        } else {
            resolved = try FormatDetector.detect(url, displayPath: displayPath)
        }
        return try CatalogLoader.reader(for: resolved).read(contentsOf: url, displayPath: displayPath,
                                                             options: options)
    }

    /// Reads a `diff` input: `PATH`, `FORMAT:PATH`, or `git:REV:PATH` (through a temporary copy of what git
    /// holds at REV, removed afterwards).
    public func load(input argument: String) throws(CatalogReadError) -> Catalog {
        var format: CatalogFormat?
        var rest = argument
        if let colon = argument.firstIndex(of: ":"),
           let named = CatalogFormat(rawValue: String(argument[..<colon])) {
            format = named
            rest = String(argument[argument.index(after: colon)...])
        }
        guard let git = GitRevisionSource(argument: rest) else { return try load(rest, format: format) }
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogcheck-git-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try git.materialize(in: folder)
        return try load(url, displayPath: git.displayPath, format: format)
    }
}
