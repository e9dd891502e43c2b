import CatalogSnapshot
import Foundation

/// What a fetch is of: the store, the app or package (`subject`), and the catalogcheck that fetches it. At the end
/// of a fetch it becomes the snapshot's manifest (`SnapshotManifest`, `.fetch.json`), with the counts of every kind
/// asked for and every page's request and SHA-256; it holds no credential (no key ID, issuer, account or token).
public struct FetchTarget: Sendable {
    /// The store.
    public let store: SnapshotStore
    /// The app's Apple ID, or the package name.
    public let subject: String
    /// `catalogcheck <version>`.
    public let tool: String

    /// Creates a target.
    public init(store: SnapshotStore, subject: String, tool: String) {
        self.store = store
        self.subject = subject
        self.tool = tool
    }

    /// What an unfinished fetch must match to be resumed: store and subject (`appstore app=123`).
    public var identity: String {
        SnapshotManifest.identity(store: store, subject: subject)
    }

    /// The manifest of a finished fetch: the counts per kind (a kind counted twice keeps its last count), the
    /// pages, and the time.
    func manifest(_ tallies: [KindTally], pages: [SnapshotManifest.Page], fetchedAt: Date) -> SnapshotManifest {
        let kinds = Dictionary(tallies.map {
            ($0.kind.key, SnapshotManifest.KindCount(pages: $0.pages, resources: $0.resources))
        }, uniquingKeysWith: { $1 })
        return SnapshotManifest(store: store, subject: subject, fetchedAt: fetchedAt, fetchedBy: tool, kinds: kinds,
                                pages: pages)
    }
}

extension SnapshotWriter {
    /// Runs `fetch` into this writer; on success writes the manifest (dated now) and replaces the target. A
    /// fetch stopped on the way — a spent request budget, a network failure, a `Retry-After` too long to wait,
    /// a cancellation — keeps the hidden folder for `--resume` when it holds pages; any other error removes it.
    /// Returns the counts per kind.
    public func fill(_ target: FetchTarget,
                     _ fetch: (SnapshotWriter) async throws -> [KindTally]) async throws -> [KindTally] {
        do {
            let tallies = try await fetch(self)
            let manifest = target.manifest(tallies, pages: pages, fetchedAt: Date())
            let data: Data
            do {
                data = try manifest.encoded()
            } catch {
                throw FetchError.output(path: self.target, reason: "cannot write \(SnapshotManifest.fileName): \(error)")
            }
            try commit(manifest: data)
            return tallies
        } catch {
            if Self.isResumable(error), pagesWritten > 0 { keep() } else { discard() }
            throw error
        }
    }

    /// Whether a fetch that failed with `error` is worth continuing later from the pages it got.
    public static func isResumable(_ error: any Error) -> Bool {
        switch error {
        case FetchError.budgetSpent, FetchError.rateLimited, FetchError.burstLimited, FetchError.gaveUp,
             FetchError.retryLater: return true
        case is CancellationError: return true
        default: return false
        }
    }
}
