import Foundation

/// The snapshot's `.fetch.json`: what was fetched (store, app or package), when (the time the snapshot is
/// written), by which catalogcheck, and how many pages and resources of each kind. It holds no credential: no
/// key ID, issuer, account or token.
public struct FetchManifest: Sendable {
    /// `appstore` or `play`.
    public let store: String
    /// `app` → Apple ID, or `package` → package name.
    public let subject: [String: String]
    /// `catalogcheck <version>`.
    public let tool: String

    /// Creates a manifest.
    public init(store: String, subject: [String: String], tool: String) {
        self.store = store
        self.subject = subject
        self.tool = tool
    }

    /// The JSON, keys sorted.
    func encoded(_ tallies: [KindTally], fetchedAt: Date) -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var kinds: [String: Any] = [:]
        for tally in tallies {
            kinds[tally.kind.key] = ["pages": tally.pages, "resources": tally.resources]
        }
        var object: [String: Any] = [
            "version": 1, "store": store, "fetchedAt": formatter.string(from: fetchedAt), "fetchedBy": tool,
            "pages": tallies.reduce(0) { $0 + $1.pages }, "kinds": kinds,
        ]
        for (key, value) in subject { object[key] = value }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return data + Data("\n".utf8)
    }
}

extension SnapshotWriter {
    /// Runs `fetch` into this writer; on success writes the manifest (dated now) and replaces the target, on
    /// any error removes what was written and rethrows. Returns the counts per kind.
    public func fill(manifest: FetchManifest,
                     _ fetch: (SnapshotWriter) async throws -> [KindTally]) async throws -> [KindTally] {
        do {
            let tallies = try await fetch(self)
            try commit(manifest: manifest.encoded(tallies, fetchedAt: Date()))
            return tallies
        } catch {
            discard()
            throw error
        }
    }
}
