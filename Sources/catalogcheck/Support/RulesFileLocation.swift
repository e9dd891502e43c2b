import CatalogFormats
import Foundation

extension RulesFileLocator {
    /// The nearest `.catalogcheck.yml` from the working directory, shown relative to it when it is below it (as
    /// the user would type it), else absolute; nil when there is none. `check`, `report` and `validate` agree.
    static func nearest() -> String? {
        let directory = FileManager.default.currentDirectoryPath
        guard let found = find(from: URL(fileURLWithPath: directory)) else { return nil }
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        return found.path.hasPrefix(prefix) ? String(found.path.dropFirst(prefix.count)) : found.path
    }
}
