import CatalogSnapshot
import Foundation

/// Snapshot folders for tests: a manifest written for the pages a test put in a folder, or rewritten after a test
/// changed pages on purpose (as a store could have sent those bytes), so the readers take them as fetch's own.
public enum SnapshotFolders {
    /// Writes `.fetch.json` into `folder` naming every `.json` file in it as a page, with its SHA-256 now and the
    /// request `requests` gives it (by file name; else the store's API path + the name), `kinds` as the kinds fetch
    /// asked for.
    public static func writeManifest(in folder: URL, store: SnapshotStore, subject: String = "1",
                                     kinds: [String: SnapshotManifest.KindCount] = [:],
                                     requests: [String: String] = [:]) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }
        let pages = try names.map { name in
            SnapshotManifest.Page(file: name, request: requests[name] ?? (store.apiPath ?? "/") + name,
                                  bytes: try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        let manifest = SnapshotManifest(store: store, subject: subject,
                                        fetchedAt: Date(timeIntervalSince1970: 1_795_000_000),
                                        fetchedBy: "catalogcheck test", kinds: kinds, pages: pages)
        try manifest.encoded().write(to: folder.appendingPathComponent(SnapshotManifest.fileName))
    }

    /// Rewrites the manifest of the snapshot in `folder` with each page's SHA-256 as its bytes are now.
    public static func reseal(_ folder: URL) throws {
        let url = folder.appendingPathComponent(SnapshotManifest.fileName)
        let manifest = try SnapshotManifest.decode(Data(contentsOf: url))
        let pages = try manifest.pages.map { page in
            SnapshotManifest.Page(file: page.file, request: page.request,
                                  bytes: try Data(contentsOf: folder.appendingPathComponent(page.file)))
        }
        try SnapshotManifest(store: manifest.store, subject: manifest.subject, fetchedAt: manifest.fetchedAt,
                             fetchedBy: manifest.fetchedBy, kinds: manifest.kinds, pages: pages)
            .encoded().write(to: url)
    }

    /// The manifest of the snapshot in `folder`.
    public static func manifest(in folder: URL) throws -> SnapshotManifest {
        try SnapshotManifest.decode(Data(contentsOf: folder.appendingPathComponent(SnapshotManifest.fileName)))
    }
}
