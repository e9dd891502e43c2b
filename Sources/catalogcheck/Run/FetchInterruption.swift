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
///
/// The signals are blocked in every thread (threads inherit the mask of the thread that starts them, so this
/// runs before the fetch starts any) and taken by one thread with `sigwait`, where the handler may lock, print
/// and wait for a page being written, which a signal handler may not.
final class FetchInterruption: @unchecked Sendable {
    private let lock = NSLock()
    private var writer: SnapshotWriter?
    private var progress: FetchProgress?

    /// Blocks SIGINT and SIGTERM and starts the thread that waits for them.
    func start() {
        var signals = Self.signals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let thread = Thread { [self] in
            var signals = Self.signals
            var number: Int32 = 0
            while sigwait(&signals, &number) != 0 {}
            interrupted(by: number)
        }
        thread.start()
    }

    /// The writer whose folder a signal keeps, and the progress whose bar it clears.
    func watch(_ writer: SnapshotWriter, progress: FetchProgress) {
        lock.withLock {
            self.writer = writer
            self.progress = progress
        }
    }

    private static var signals: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }

    private func interrupted(by number: Int32) -> Never {
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
        // Die of the signal itself: its default action, unblocked in this thread, sent to this thread.
        signal(number, SIG_DFL)
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        pthread_sigmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        _exit(128 + number)
    }
}
