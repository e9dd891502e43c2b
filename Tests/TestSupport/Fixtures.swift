import Foundation

/// Paths of the test fixtures and of the example catalogs, found from this file's location so tests run from
/// any working directory.
public enum Fixtures {
    /// The repository root.
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // TestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    /// `Tests/Fixtures/<relativePath>`.
    public static func url(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures").appendingPathComponent(relativePath)
    }

    /// `catalogs/<relativePath>`.
    public static func catalog(_ relativePath: String) -> URL {
        repositoryRoot.appendingPathComponent("catalogs").appendingPathComponent(relativePath)
    }

    /// A new, empty folder under the temporary directory, named `catalogcheck-<UUID><suffix>`; the caller
    /// removes it.
    public static func temporaryFolder(suffix: String = "") throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("catalogcheck-\(UUID().uuidString)\(suffix)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A Transporter package (`<temporary>.itmsp/metadata.xml`) holding a copy of an XML fixture; the caller
    /// removes it.
    public static func transporterPackage(with relativePath: String) throws -> URL {
        let folder = try temporaryFolder(suffix: ".itmsp")
        try FileManager.default.copyItem(at: url(relativePath), to: folder.appendingPathComponent("metadata.xml"))
        return folder
    }

    /// The names of the files in a fixture folder, sorted.
    public static func files(in relativePath: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url(relativePath).path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }
}

/// The real catalog files from public projects (`../shared/realworld`), read in place. Tests find them through
/// the `CATALOGCHECK_REALWORLD` environment variable and are skipped, by name, when it is not set.
public enum RealWorld {
    /// The folder, when `CATALOGCHECK_REALWORLD` names an existing one.
    public static let folder: URL? = {
        guard let path = ProcessInfo.processInfo.environment["CATALOGCHECK_REALWORLD"], !path.isEmpty else {
            return nil
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return nil
        }
        return URL(fileURLWithPath: path)
    }()

    /// Whether the real-world files are available.
    public static var isAvailable: Bool { folder != nil }

    /// `<realworld>/<relativePath>`.
    public static func url(_ relativePath: String) -> URL {
        (folder ?? URL(fileURLWithPath: "/nonexistent-realworld")).appendingPathComponent(relativePath)
    }
}
