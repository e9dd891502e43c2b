import CatalogCore
import Foundation

/// Reads a mapping file and the source it names (`--config map:FILE`, DESIGN.md §4b) into a declared catalog:
/// the team's server or remote config, a paywall definition, any JSON or YAML that lists its products, without
/// rewriting it as a `products.yml`.
///
/// The source is resolved against the mapping file: beside it on disk, at the same revision when the mapping is
/// read from git (`map:git:REV:PATH`), and against the working directory for standard input.
public struct MappingReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// Always `.map`.
    public var format: CatalogFormat { .map }

    /// Reads the mapping file, then its source.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let displayPath = input.displayPath
        let url = input.url
        guard input.kind != .folder else {
            throw CatalogReadError("is a folder; the mapping file is one YAML or JSON file",
                                   at: SourceLocation(path: displayPath))
        }
        let data = try input.bytes()
        let root = try ConfigNode.parse(data, path: displayPath,
                                        emptyFile: "the mapping file is empty; it needs \"version: 1\", \"source\", "
                                            + "\"products\" and \"id\"")
        let mapping = try MappingFile(root: root, path: displayPath)
        let sourceData: Data
        let sourcePath: String
        do {
            let (sourceURL, path, resolved) = try Self.source(mapping.source, of: displayPath, at: url)
            sourcePath = path
            sourceData = try FileLoading.fileData(at: sourceURL, displayPath: sourcePath,
                                                  oneFile: "the source a mapping names is one JSON or YAML file")
            withExtendedLifetime(resolved) {}
        } catch {
            throw CatalogReadError(error.message + " (the source named at \(mapping.sourceLocation))",
                                   at: error.location)
        }
        guard let sourceRoot = try ConfigNode.parse(sourceData, path: sourcePath,
                                                    emptyFile: "the source named by \(displayPath) is empty") else {
            throw CatalogReadError("the source holds no document (only comments)",
                                   at: SourceLocation(path: sourcePath, line: 1, column: 1))
        }
        return try MappedCatalogBuilder(mapping: mapping, root: sourceRoot, sourcePath: sourcePath).catalog()
    }

    /// Where the source is and how it is named: beside the mapping file on disk (named beside it as the user
    /// named the mapping), at the mapping's git revision (`map:git:REV:PATH`, copied out by git; the resolved
    /// input keeps the copy alive), or against the working directory for a mapping from standard input. An
    /// absolute `source` is taken as it is.
    static func source(_ source: String, of displayPath: String,
                       at url: URL) throws(CatalogReadError) -> (URL, String, ResolvedInput?) {
        func beside(_ path: String) -> String {
            if source.hasPrefix("/") { return source }
            let folder = (path as NSString).deletingLastPathComponent
            return folder.isEmpty ? source : folder + "/" + source
        }
        switch InputSource(displayPath).origin {
        case .git(let revision, let path):
            let input = try InputSource(origin: .git(revision: revision, path: beside(path))).resolve(as: .catalog)
            return (input.url, input.displayPath, input)
        case .path(let path):
            let onDisk = source.hasPrefix("/") ? URL(fileURLWithPath: source)
                : url.deletingLastPathComponent().appendingPathComponent(source)
            return (onDisk, beside(path), nil)
        case .standardInput:
            return (URL(fileURLWithPath: source), source, nil)
        }
    }
}
