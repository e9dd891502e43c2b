@testable import CatalogFetch
import Foundation
import Testing

/// What `FetchProgress` writes to standard error: a bar only on a terminal, a line per kind, nothing quiet.
struct FetchProgressTests {
    private final class Sink: @unchecked Sendable {
        let lock = NSLock()
        var text = ""
    }

    private func run(quiet: Bool, isTerminal: Bool) -> String {
        let sink = Sink()
        let progress = FetchProgress(quiet: quiet, isTerminal: isTerminal) { chunk in
            sink.lock.withLock { sink.text += chunk }
        }
        progress.startPhase(jobs: 2)
        progress.jobDone()
        progress.finished(KindTally(kind: ResourceKind(key: "subscriptions", label: "subscriptions"), pages: 2,
                                    resources: 3))
        progress.jobDone()
        progress.finish()
        return sink.lock.withLock { sink.text }
    }

    @Test func aPipeGetsOneLinePerKindAndNoBar() {
        #expect(run(quiet: false, isTerminal: false) == "subscriptions: 3 in 2 pages\n")
    }

    @Test func aTerminalGetsALiveBarClearedBeforeEachLine() {
        let clear = "\r\u{1B}[2K"
        let empty = String(repeating: "-", count: 30)
        let half = String(repeating: "#", count: 15) + String(repeating: "-", count: 15)
        let full = String(repeating: "#", count: 30)
        #expect(run(quiet: false, isTerminal: true) == clear + "[\(empty)] 0/2" + clear + "[\(half)] 1/2" + clear
            + "subscriptions: 3 in 2 pages\n" + clear + "[\(full)] 2/2" + clear)
    }

    @Test func quietWritesNothing() {
        #expect(run(quiet: true, isTerminal: true) == "")
    }
}
