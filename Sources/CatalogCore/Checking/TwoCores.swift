import Foundation

/// Two independent pieces of work at once, the second on a thread of its own (the first on the caller's): `check`
/// reads the config while it reads the stores, the App Store Connect builder builds, and the checker compares,
/// the later half of many products on the second core. The results are those of running one after the other.
/// (A stream of values produced ahead of their reader is `ReadAhead`'s job.)
package enum TwoCores {
    /// `first()` and `second()`, run at once; returns when both are done, and nothing `second` holds is held by
    /// the other thread any more.
    package static func run<First, Second: Sendable>(_ first: () -> First,
                                                     alongside second: @escaping @Sendable () -> Second)
        -> (First, Second)
    {
        let handover = Handover(second)
        let thread = Thread { handover.work() }
        // As deep as the main thread's, as `ReadAhead`'s thread.
        thread.stackSize = 16 << 20
        thread.start()
        let firstResult = first()
        return (firstResult, handover.take())
    }
}

/// The second piece of work, run on the other thread, and its result passed back to the one that waits for it.
private final class Handover<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// The work, until the other thread has run it: released there before the result is handed over, so that
    /// what it captured (a catalog, a pool) is not left to the thread's end.
    private var pending: (@Sendable () -> Value)?
    /// Guarded by `condition`.
    private var value: Value?

    init(_ work: @escaping @Sendable () -> Value) {
        pending = work
    }

    /// Runs the work (on the other thread), drops it, then hands the result over.
    func work() {
        guard let result = runPending() else { return }
        condition.lock()
        value = result
        condition.broadcast()
        condition.unlock()
    }

    /// The work's result; the work is released when this returns.
    private func runPending() -> Value? {
        guard let run = pending else { return nil }
        pending = nil
        return run()
    }

    /// The result, once the work has run.
    func take() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value { return value }
            condition.wait()
        }
    }
}
