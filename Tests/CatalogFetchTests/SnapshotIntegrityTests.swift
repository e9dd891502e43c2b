import CatalogSnapshot
import FakeStoreServer
import Foundation
import Testing
import TestSupport

/// Issue 25, end to end: a fetched snapshot reads as exactly what fetch wrote or not at all; an empty store reads
/// back as an empty catalog; `--resume` takes no page that changed since, never follows or copies a symbolic link,
/// and the lock is never followed through one.
@Suite(.serialized)
struct SnapshotIntegrityTests {
    static let check = ["check", "--config", "catalogs/demo/products.yml", "--as-of", "2026-11-22"]
    static let iaps = "in-app-purchases-0001.json"
    static let iapRequest = "/v1/apps/\(FakeStoreServer.app)/inAppPurchasesV2"
        + "?include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50"

    // MARK: - A damaged snapshot

    /// The demo snapshot checks clean (exit 0). Each damage below used to leave that run passing, the snapshot read
    /// as a smaller catalog (a damaged `.fetch.json` read as none); now each exits 2 where the damage is.
    @Test func aDamagedSnapshotNeverPasses() async throws {
        // Arrange
        let scene = try await FetchScene.start(pageSize: 200)
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 0)
        let intact = try await catalogcheck(Self.check + ["--store", "asc-json:" + scene.path("asc")])
        #expect(intact.exitCode == 0, "\(intact.stdout)\(intact.stderr)")
        let manifest = ".fetch.json"
        let damages: [(name: String, damage: (URL) throws -> Void, location: String, message: String)] = [
            ("truncated", { folder in
                let url = folder.appendingPathComponent(manifest)
                try Data(contentsOf: url).prefix(300).write(to: url)
            }, manifest + ":", "damaged snapshot manifest: invalid JSON: "),
            ("empty-array", { folder in
                try Data("[]".utf8).write(to: folder.appendingPathComponent(manifest))
            }, manifest + ":1:1", "damaged snapshot manifest: expected an object, found an array"),
            ("missing-page", { folder in
                try FileManager.default.removeItem(at: folder.appendingPathComponent("subscription-groups-0001.json"))
            }, manifest + ":", "the snapshot manifest names the page \"subscription-groups-0001.json\", which is "
                + "not in the folder"),
            ("changed-page", { folder in
                try Data(#"{"data": []}"#.utf8).write(to: folder.appendingPathComponent(Self.iaps))
            }, manifest + ":", "the page \"\(Self.iaps)\" is not the one fetch wrote"),
            ("other-store", { folder in
                let url = folder.appendingPathComponent(manifest)
                let text = try String(contentsOf: url, encoding: .utf8)
                    .replacingOccurrences(of: #""store" : "appstore""#, with: #""store" : "play""#)
                try Data(text.utf8).write(to: url)
            }, manifest + ":", "damaged snapshot manifest: pages[0].path: "),
            ("extra-file", { folder in
                try Data(#"{"data": []}"#.utf8).write(to: folder.appendingPathComponent("more-0001.json"))
            }, "more-0001.json", "not a page of this snapshot"),
        ]
        for (name, damage, location, message) in damages {
            let folder = scene.folder.appendingPathComponent(name)
            try FileManager.default.copyItem(atPath: scene.path("asc"), toPath: folder.path)
            try damage(folder)

            // Act: as asc-json, and with the format left to the folder.
            for store in ["asc-json:" + folder.path, folder.path] {
                let result = try await catalogcheck(Self.check + ["--store", store])

                // Assert
                #expect(result.exitCode == 2, "\(name): \(result.stdout)\(result.stderr)")
                #expect(result.stdout == "", "\(name)")
                #expect(result.stderr.hasPrefix(folder.path + "/" + location), "\(name): \(result.stderr)")
                #expect(result.stderr.contains(": error: " + message), "\(name): \(result.stderr)")
            }
        }
        await scene.finish()
    }

    // MARK: - Empty stores

    /// Issue 25: `fetch play` of an app with no products exited 0, then `--store` of its own snapshot exited 2
    /// "not a Play Developer API catalog … (empty objects only)". An app on the new one-time-product model gets
    /// Play's 403 "migrate" for the legacy list, so every page is Google's empty list `{}`.
    @Test func anEmptyPlayAppReadsBackAsAnEmptyCatalog() async throws {
        // Arrange
        let scene = try await FetchScene.start(empty: true, faults: [
            .init(path: "/androidpublisher/v3/applications/\(FakeStoreServer.package)/inappproducts", status: 403,
                  times: nil, body: FakeStoreServer.playMigrateBody),
        ])
        let fetched = try await scene.fetchPlay("play")
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(try scene.files("play") == [".fetch.json", "onetimeproduct-offers-0001.json", "onetimeproducts-0001.json",
                                            "subscription-offers-0001.json", "subscriptions-0001.json"])
        try await expectAnEmptyCatalog(scene, "play")
        await scene.finish()
    }

    @Test func anEmptyAppStoreAppReadsBackAsAnEmptyCatalog() async throws {
        let scene = try await FetchScene.start(empty: true)
        let fetched = try await scene.fetchAppStore("asc", extra: ["--quiet"])
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        try await expectAnEmptyCatalog(scene, "asc")
        await scene.finish()
    }

    /// Against a config without products: exit 0; against the demo config: every product missing in the store.
    private func expectAnEmptyCatalog(_ scene: FetchScene, _ folder: String) async throws {
        let config = scene.folder.appendingPathComponent("empty.yml")
        try Data("version: 1\nproducts: {}\n".utf8).write(to: config)
        let empty = try await catalogcheck(["check", "--config", config.path, "--store", scene.path(folder)])
        #expect(empty.exitCode == 0, "\(empty.stdout)\(empty.stderr)")
        #expect(empty.stderr == "")
        let demo = try await catalogcheck(Self.check + ["--store", scene.path(folder), "--format", "json"])
        #expect(demo.exitCode == 1, "\(demo.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(demo.stdout.utf8)) as? [String: Any]
        let rules = Set((object?["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String })
        #expect(rules.contains("product-missing-in-store"), "\(rules)")
    }

    // MARK: - --resume

    /// A kept page rewritten since (valid JSON still) was taken into the snapshot as it was; now its bytes are
    /// checked against the journal's SHA-256 and it is fetched again.
    @Test func resumeFetchesAgainAPageRewrittenSince() async throws {
        // Arrange
        let scene = try await FetchScene.start(budget: 10)
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 2)
        let kept = scene.path(".asc.fetch-partial/" + Self.iaps)
        let original = try Data(contentsOf: URL(fileURLWithPath: kept))
        try Data(#"{"data": []}"#.utf8).write(to: URL(fileURLWithPath: kept))
        scene.server.renewBudget()
        let before = scene.server.requests

        // Act
        let resumed = try await scene.fetchAppStore("asc", extra: ["--resume"])

        // Assert
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.hasPrefix("resuming the unfinished fetch in \(scene.path(".asc.fetch-partial")): "),
                "\(resumed.stderr)")
        #expect(resumed.stderr.contains("; 1 page that was changed or replaced since is fetched again\n"),
                "\(resumed.stderr)")
        #expect(Array(scene.server.requests.dropFirst(before.count)).filter(before.contains) == [Self.iapRequest])
        #expect(try Data(contentsOf: URL(fileURLWithPath: scene.path("asc/" + Self.iaps))) == original)
        let check = try await catalogcheck(Self.check + ["--store", "asc-json:" + scene.path("asc")])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        await scene.finish()
    }

    /// A kept page replaced by a symbolic link — even to its own bytes — and a link planted beside the pages: the
    /// links are neither followed nor copied into the snapshot; the page is fetched again.
    @Test func resumeNeitherFollowsNorCopiesASymbolicLink() async throws {
        // Arrange
        let scene = try await FetchScene.start(budget: 10)
        #expect(try await scene.fetchAppStore("asc", extra: ["--quiet"]).exitCode == 2)
        let partial = URL(fileURLWithPath: scene.path(".asc.fetch-partial"))
        let outside = scene.folder.appendingPathComponent("outside.json")
        try FileManager.default.moveItem(at: partial.appendingPathComponent(Self.iaps), to: outside)
        let outsideBytes = try Data(contentsOf: outside)
        try FileManager.default.createSymbolicLink(at: partial.appendingPathComponent(Self.iaps),
                                                   withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: partial.appendingPathComponent("planted-0001.json"),
                                                   withDestinationURL: outside)
        scene.server.renewBudget()
        let before = scene.server.requests

        // Act
        let resumed = try await scene.fetchAppStore("asc", extra: ["--resume", "--quiet"])

        // Assert
        #expect(resumed.exitCode == 0, "\(resumed.stderr)")
        #expect(Array(scene.server.requests.dropFirst(before.count)).filter(before.contains) == [Self.iapRequest])
        let files = try scene.files("asc")
        #expect(!files.contains("planted-0001.json"))
        for name in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: scene.path("asc/" + name))
            #expect(attributes[.type] as? FileAttributeType == .typeRegular, "\(name)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: scene.path("asc/" + Self.iaps))) == outsideBytes)
        #expect(try Data(contentsOf: outside) == outsideBytes)
        await scene.finish()
    }

    // MARK: - The lock

    @Test func aLockFileThatIsASymbolicLinkExits2NamingIt() async throws {
        // Arrange: the lock's name beside the target is a link to a file elsewhere (which must not appear).
        let scene = try await FetchScene.start()
        let elsewhere = scene.folder.appendingPathComponent("elsewhere")
        let lock = scene.path(".asc.fetch-lock")
        try FileManager.default.createSymbolicLink(atPath: lock, withDestinationPath: elsewhere.path)

        // Act
        let result = try await scene.fetchAppStore("asc")

        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stderr == """
            \(scene.path("asc")): error: the lock file \(lock) is a symbolic link, which fetch never follows; remove it

            """)
        #expect(!FileManager.default.fileExists(atPath: elsewhere.path))
        #expect(scene.server.requests.isEmpty)
        await scene.finish()
    }
}
