import ArgumentParser
import CatalogFetch
import CatalogReports
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fetch pipeline (DESIGN.md §9 `Run/`): what a fetch needs from its options, as plain values that may cross
/// into the task that runs it, and the run from options to snapshot and exit code.
struct FetchRun: Sendable {
    let output: String
    let quiet: Bool
    let resume: Bool
    let retryBaseDelayMs: Int?
    let requestTimeoutMs: Int?

    /// A store's fetch: given the transport, retry policy and progress, what it fetches and the fetch itself.
    typealias MakeFetch = @Sendable (any HTTPTransport, RetryPolicy, FetchProgress) async throws
        -> (FetchTarget, (SnapshotWriter) async throws -> [KindTally])

    /// Runs the fetch to the end from the synchronous command: the root command stays synchronous, so the
    /// other commands never start the concurrency runtime (which opens file descriptors: a closed standard
    /// output must stay closed for `check` to report it).
    func run(_ makeFetch: @escaping MakeFetch) throws {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let interruption = FetchInterruption()
        interruption.start()
        Task.detached {
            do {
                try await self.fetch(makeFetch, interruption: interruption)
                outcome.set(.success(()))
            } catch {
                outcome.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        try outcome.get()
    }

    /// Sets up transport, retry policy, progress and snapshot writer, runs the store's fetch, and turns every
    /// fetch error into one line on standard error and exit 2.
    private func fetch(_ makeFetch: MakeFetch, interruption: FetchInterruption) async throws {
        let console = Console()
        let progress = FetchProgress(quiet: quiet, isTerminal: isatty(STDERR_FILENO) != 0) { text in
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        var policy = RetryPolicy()
        if let retryBaseDelayMs { policy.baseDelay = .milliseconds(max(0, retryBaseDelayMs)) }
        if let requestTimeoutMs { policy.requestTimeout = .milliseconds(max(1, requestTimeoutMs)) }
        let transport = AsyncHTTPTransport()
        let result: Result<[KindTally], any Error>
        var writer: SnapshotWriter?
        do {
            let (target, fetch) = try await makeFetch(transport, policy, progress)
            let opened = try SnapshotWriter(target: output, identity: target.identity, resume: resume)
            writer = opened
            if let notice = opened.notice, !quiet { console.error(notice) }
            interruption.watch(opened, progress: progress)
            result = .success(try await opened.fill(target, fetch))
        } catch {
            result = .failure(error)
        }
        progress.finish()
        await transport.shutdown()
        switch result {
        case .success(let tallies):
            if !quiet {
                console.error("wrote \(tallies.reduce(0) { $0 + $1.pages }) pages to \(output)")
            }
        case .failure(FetchError.output(let path, let reason)):
            console.error("\(path): error: \(reason)")
            throw Exit.cannotCheck
        case .failure(let error as FetchError):
            // A store's reason is the store's text: escaped, so it can neither recolor nor rewrite the terminal.
            console.error("error: \(TerminalEscaper.escape(error.description))")
            if let writer, SnapshotWriter.isResumable(error), writer.pagesWritten > 0 {
                console.error("""
                    note: the \(writer.pagesWritten == 1 ? "page" : "\(writer.pagesWritten) pages") fetched so far \
                    \(writer.pagesWritten == 1 ? "is" : "are") kept in \(writer.partialFolder); \
                    run the same command with --resume to continue from there
                    """)
            }
            throw Exit.cannotCheck
        case .failure(let error):
            throw error
        }
    }
}

/// The result of the fetch task, handed to the waiting thread.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Void, any Error> = .success(())

    func set(_ value: Result<Void, any Error>) {
        lock.withLock { result = value }
    }

    func get() throws {
        try lock.withLock { result }.get()
    }
}
