import CatalogFetch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGINT and SIGTERM during a fetch (DESIGN.md §2b): the snapshot writer stops between two whole pages and
/// keeps its hidden temporary folder, the message names the folder and says to run again with `--resume`, and
/// the process then dies of the same signal, as a shell and a CI runner expect of an interrupted command.
final class FetchInterruption: @unchecked Sendable {
    private let lock = NSLock()
    private var writer: SnapshotWriter?
    private var progress: FetchProgress?
    private var sources: [any DispatchSourceSignal] = []

    /// Catches SIGINT and SIGTERM until `stop()`.
    func start() {
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in interrupted(by: number) }
            source.resume()
            return source
        }
        lock.withLock { self.sources = sources }
    }

    /// The writer whose folder a signal keeps, and the progress whose bar it clears.
    func watch(_ writer: SnapshotWriter, progress: FetchProgress) {
        lock.withLock {
            self.writer = writer
            self.progress = progress
        }
    }

    /// Restores the signals' default actions.
    func stop() {
        let sources = lock.withLock {
            defer { self.sources = [] }
            return self.sources
        }
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    private func interrupted(by number: Int32) {
        let (writer, progress) = lock.withLock { (self.writer, self.progress) }
        progress?.finish()
        let name = number == SIGINT ? "SIGINT" : "SIGTERM"
        if let kept = writer?.interrupt() {
            let pages = kept.pages == 1 ? "the 1 page" : "the \(kept.pages) pages"
            Console().error("""
                interrupted (\(name)): \(pages) fetched so far are kept in \(kept.folder); \
                run again with --resume to continue from them
                """)
        } else {
            Console().error("interrupted (\(name))")
        }
        signal(number, SIG_DFL)
        raise(number)
    }
}
