import CatalogFetch
import Foundation
import Testing
import TestSupport

/// `fetch appstore --help` and `fetch play --help` name every kind of resource a fetch lists (issue 29: the help
/// named fewer kinds than the fetch got): each kind a real fetch of the demo counts, in its progress lines and in
/// `.fetch.json`, is one of the client's `kinds`, and the help names each of those.
@Suite(.serialized)
struct FetchHelpTests {
    @Test func everyKindAnAppStoreFetchCountsIsInItsHelp() async throws {
        let scene = try await FetchScene.start()
        let fetched = try await scene.fetchAppStore("asc")
        let help = try await catalogcheck(["fetch", "appstore", "--help"], environment: ["COLUMNS": "1000"])

        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        try expectNamed(fetched, manifest: scene.path("asc"), kinds: AppStoreConnectClient.kinds, help: help.stdout)
        await scene.finish()
    }

    @Test func everyKindAPlayFetchCountsIsInItsHelp() async throws {
        let scene = try await FetchScene.start()
        let fetched = try await scene.fetchPlay("play")
        let help = try await catalogcheck(["fetch", "play", "--help"], environment: ["COLUMNS": "1000"])

        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        try expectNamed(fetched, manifest: scene.path("play"), kinds: PlayClient.kinds, help: help.stdout)
        await scene.finish()
    }

    /// The progress labels (`in-app purchases: 4 in 2 pages`) and manifest keys of the fetch are all in `kinds`,
    /// and the help names every label of `kinds`.
    private func expectNamed(_ fetched: CommandResult, manifest folder: String, kinds: [ResourceKind],
                             help: String) throws {
        let labels = Set(kinds.map(\.label)), keys = Set(kinds.map(\.key))
        let progress = fetched.stderr.split(separator: "\n").compactMap { line -> String? in
            guard let colon = line.range(of: ": "), line.hasSuffix("page") || line.hasSuffix("pages") else { return nil }
            return String(line[..<colon.lowerBound])
        }
        #expect(!progress.isEmpty)
        for label in progress { #expect(labels.contains(label), "the fetch counted '\(label)', not in kinds") }
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/.fetch.json"))
        let manifest = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let counted = (manifest?["kinds"] as? [String: Any])?.keys.sorted() ?? []
        #expect(!counted.isEmpty)
        for key in counted { #expect(keys.contains(key), "the manifest counts '\(key)', not in kinds") }
        for label in labels.sorted() {
            #expect(help.contains(label + ",") || help.contains(label + "."), "the help does not name '\(label)'")
        }
    }
}
