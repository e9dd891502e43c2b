import CatalogCore
import Foundation

/// Reading files with errors that name the file.
enum FileLoading {
    /// Reads a whole file; an unreadable or missing file is a `CatalogReadError` naming it.
    static func data(at url: URL, displayPath: String) throws(CatalogReadError) -> Data {
        // Foundation on Linux leaks its 4 KiB read buffer for an empty regular file (found by scripts/fuzz); an
        // empty readable regular file needs no read. Pipes and devices report size 0 too, so only regular files.
        if let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
           attributes[.type] as? FileAttributeType == .typeRegular,
           (attributes[.size] as? NSNumber)?.int64Value == 0,
           FileManager.default.isReadableFile(atPath: url.path) {
            return Data()
        }
        do {
            return try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            let reason = FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "does not exist"
            throw CatalogReadError("the file \(reason)", at: SourceLocation(path: displayPath))
        }
    }

    /// Reads a file that must be one file, not a folder; `oneFile` says what it is, for the folder's error
    /// (`the rules file is one YAML or JSON file`).
    static func fileData(at url: URL, displayPath: String, oneFile: String) throws(CatalogReadError) -> Data {
        if isDirectory(url) {
            throw CatalogReadError("is a folder; \(oneFile)", at: SourceLocation(path: displayPath))
        }
        return try data(at: url, displayPath: displayPath)
    }

    /// Whether a path is a directory.
    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The regular files in a folder, recursively, whose names end in `suffix`, sorted by relative path so that
    /// reading order (and so output) never depends on the file system.
    static func files(in folder: URL, suffix: String) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var result: [URL] = []
        for case let url as URL in enumerator where url.lastPathComponent.lowercased().hasSuffix(suffix) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                result.append(url)
            }
        }
        return result.sorted { $0.path < $1.path }
    }
}
