import Foundation

/// The snapshot's `.fetch.json`: what was fetched (store, app or package), when (the time the snapshot is
/// written), by which catalogcheck, how many pages and resources of each kind, and each page's request (`requests`:
/// file, path and query), so a reader can tell a page's parent from the request that fetched it rather than from
/// the `links.self` the store wrote into it. It holds no credential: no key ID, issuer, account or token (requests
/// carry none in their path or query).
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

    /// What an unfinished fetch must match to be resumed: store and subject (`appstore app=123`).
    public var identity: String {
        ([store] + subject.keys.sorted().map { "\($0)=\(subject[$0] ?? "")" }).joined(separator: " ")
    }

    /// The JSON, keys sorted.
    func encoded(_ tallies: [KindTally], requests: [(file: String, request: String)], fetchedAt: Date) -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        var kinds: [String: Any] = [:]
        for tally in tallies {
            kinds[tally.kind.key] = ["pages": tally.pages, "resources": tally.resources]
        }
        var object: [String: Any] = [
            "version": 1, "store": store, "fetchedAt": formatter.string(from: fetchedAt), "fetchedBy": tool,
            "pages": tallies.reduce(0) { $0 + $1.pages }, "kinds": kinds,
            "requests": requests.map { record -> [String: String] in
                let parts = record.request.split(separator: "?", maxSplits: 1)
                return ["file": record.file, "path": parts.first.map(String.init) ?? "",
                        "query": parts.count > 1 ? String(parts[1]) : ""]
            },
        ]
        for (key, value) in subject { object[key] = value }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return data + Data("\n".utf8)
    }
}

extension SnapshotWriter {
    /// Runs `fetch` into this writer; on success writes the manifest (dated now) and replaces the target. A
    /// fetch stopped on the way — a spent request budget, a network failure, a `Retry-After` too long to wait,
    /// a cancellation — keeps the hidden folder for `--resume` when it holds pages; any other error removes it.
    /// Returns the counts per kind.
    public func fill(manifest: FetchManifest,
                     _ fetch: (SnapshotWriter) async throws -> [KindTally]) async throws -> [KindTally] {
        do {
            let tallies = try await fetch(self)
            try commit(manifest: manifest.encoded(tallies, requests: requests, fetchedAt: Date()))
            return tallies
        } catch {
            if Self.isResumable(error), pagesWritten > 0 { keep() } else { discard() }
            throw error
        }
    }

    /// Whether a fetch that failed with `error` is worth continuing later from the pages it got.
    public static func isResumable(_ error: any Error) -> Bool {
        switch error {
        case FetchError.budgetSpent, FetchError.rateLimited, FetchError.gaveUp, FetchError.retryLater: return true
        case is CancellationError: return true
        default: return false
        }
    }
}
