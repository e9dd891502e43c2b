@testable import CatalogFetch
import Foundation
import Testing
import TestSupport

/// Two fetches into one `--output` would write pages into one temporary folder and rename it twice: the second
/// one stops at once instead.
@Suite("One fetch per output folder")
struct FetchLockTests {
    @Test func aSecondFetchIntoTheSameOutputStopsWhileTheFirstRuns() throws {
        // Arrange: a first fetch has opened its snapshot of `asc`.
        let folder = try Fixtures.temporaryFolder(suffix: "-lock")
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("asc").path
        let first = try SnapshotWriter(target: target, identity: "appstore app=1")

        // Act
        let second = Result { () throws(FetchError) in try SnapshotWriter(target: target, identity: "appstore app=1") }

        // Assert
        let lockFile = folder.appendingPathComponent(".asc.fetch-lock").path
        #expect(throws: FetchError.output(path: target, reason: "another fetch into this folder is running (it holds "
                                          + "\(lockFile)); wait for it to end")) { try second.get() }
        first.discard()
        #expect(!FileManager.default.fileExists(atPath: lockFile))
        let third = try SnapshotWriter(target: target, identity: "appstore app=1")
        try third.commit(manifest: Data("{}".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["asc"])
    }
}
