import Foundation

/// Progress on standard error: one line per resource kind with its counts, a live bar while a phase runs (only
/// on a terminal), and warnings; `quiet` silences all but warnings. Thread-safe: pages finish concurrently.
public final class FetchProgress: @unchecked Sendable {
    private let write: @Sendable (String) -> Void
    private let quiet: Bool
    private let isTerminal: Bool
    private let lock = NSLock()
    private var phaseTotal = 0
    private var phaseDone = 0
    private var warnedRateLimit = false

    /// Creates a reporter writing whole chunks (lines end in `\n`; the bar uses `\r`) through `write`.
    public init(quiet: Bool, isTerminal: Bool, write: @escaping @Sendable (String) -> Void) {
        self.quiet = quiet
        self.isTerminal = isTerminal
        self.write = write
    }

    /// A phase of `total` jobs starts.
    func startPhase(jobs total: Int) {
        lock.withLock {
            phaseTotal = total
            phaseDone = 0
            drawBar()
        }
    }

    /// One job of the phase is done.
    func jobDone() {
        lock.withLock {
            phaseDone += 1
            drawBar()
        }
    }

    /// A kind is complete: `subscription prices: 27 in 3 pages`.
    func finished(_ tally: KindTally) {
        lock.withLock {
            guard !quiet else { return }
            clearBar()
            let pages = tally.pages == 1 ? "1 page" : "\(tally.pages) pages"
            write("\(tally.kind.label): \(tally.resources) in \(pages)\n")
        }
    }

    /// A remark: something the store declined as a matter of course (`remark: …`; silent with `quiet`).
    func remark(_ message: String) {
        lock.withLock {
            guard !quiet else { return }
            clearBar()
            write("remark: \(message)\n")
        }
    }

    /// A warning line (shown even with `quiet`).
    public func warn(_ message: String) {
        lock.withLock {
            clearBar()
            write("warning: \(message)\n")
        }
    }

    /// App Store Connect's hourly budget is nearly spent: said once per run.
    func rateLimitLow(remaining: Int, limit: Int) {
        let first = lock.withLock {
            defer { warnedRateLimit = true }
            return !warnedRateLimit
        }
        if first {
            warn("App Store Connect rate limit low: \(remaining) of \(limit) requests left this hour")
        }
    }

    /// Removes the bar at the end of a run.
    public func finish() {
        lock.withLock { clearBar() }
    }

    private func drawBar() {
        guard isTerminal, !quiet, phaseTotal > 0 else { return }
        let width = 30
        let filled = width * phaseDone / phaseTotal
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        write("\r\u{1B}[2K[\(bar)] \(phaseDone)/\(phaseTotal)")
    }

    private func clearBar() {
        if isTerminal, !quiet, phaseTotal > 0 { write("\r\u{1B}[2K") }
    }
}
