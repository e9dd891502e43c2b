import CatalogCore
import Foundation

/// Reads a rules file (`.catalogcheck.yml`, schema version 1, DESIGN.md §5) into a `RuleConfiguration`: rule
/// severities, the territories prices are compared in, and the `ignore` entries.
///
/// YAML or JSON, told apart as the product config is (extension, then content), and validated in the same
/// strict style: unknown or duplicate keys, an unknown rule ID, a bad setting, territory, store or date, and an
/// ignore entry without a reason are `CatalogReadError`s (exit 2) naming file:line:column, the key path and the
/// value, with a "did you mean" for near misses.
public struct RulesFileReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// Reads a rules file; `displayPath` is the path as the user gave it (or as discovery found it), used in every
    /// location. A missing or unreadable file, or a folder, is an error naming it.
    public func read(contentsOf url: URL, displayPath: String) throws(CatalogReadError) -> RuleConfiguration {
        let data = try FileLoading.fileData(at: url, displayPath: displayPath,
                                            oneFile: "the rules file is one YAML or JSON file")
        return try read(data: data, displayPath: displayPath)
    }

    /// Reads a rules file from its bytes. The syntax follows the extension of `displayPath`, then the content.
    public func read(data: Data, displayPath: String) throws(CatalogReadError) -> RuleConfiguration {
        let root = try ConfigNode.parse(data, path: displayPath,
                                        emptyFile: "the file is empty; a rules file needs at least \"version: 1\"")
        return try RulesFileValidator(path: displayPath).configuration(from: root)
    }
}

/// Finds the rules file when `--rules` is not given (DESIGN.md §5): `.catalogcheck.yml` (or `.catalogcheck.yaml`)
/// in the working directory or a parent, up to and including the repository root.
public enum RulesFileLocator {
    /// The names looked for in each folder, the first found wins.
    public static let fileNames = [".catalogcheck.yml", ".catalogcheck.yaml"]

    /// The nearest rules file: looks in `directory`, then in each parent, and stops after the repository root
    /// (the first folder holding a `.git` file or folder) or at `/`. Nil when there is none. A folder named like
    /// a rules file is passed over.
    public static func find(from directory: URL) -> URL? {
        let fileManager = FileManager.default
        var folder = directory.standardizedFileURL
        while true {
            for name in fileNames {
                let candidate = folder.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                    return candidate
                }
            }
            if fileManager.fileExists(atPath: folder.appendingPathComponent(".git").path) { return nil }
            let parent = folder.deletingLastPathComponent().standardizedFileURL
            if parent.path == folder.path || folder.path == "/" { return nil }
            folder = parent
        }
    }
}
