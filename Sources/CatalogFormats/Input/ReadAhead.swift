import Foundation

/// Reads ahead of the caller on a second core: a background thread produces values one after another (a folder's
/// files parsed, the documents of one file's top-level array, …), at most `lookahead` ahead, and `next()` hands
/// them over in the order produced, so a reader that pools them one at a time keeps its order (and its output)
/// while producing overlaps pooling. An error ends the production; it is thrown once the caller has taken every
/// value produced before it, as a sequential read would throw it. The caller calls `finish()` when done (or
/// failed): it stops the thread and waits for it, so nothing is read afterwards.
///
/// A value the caller is done with can be handed back (`retire(_:)`): the background thread drops it, so that
/// freeing a big value (a parsed document's tape and bytes, its file's mapping) is not on the caller's core.
final class ReadAhead<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private let lookahead: Int
    /// Values produced and not yet handed over, oldest first; guarded by `condition`.
    private var ready: [Value] = []
    /// Values handed back, to be dropped on the background thread; guarded by `condition`.
    private var retired: [Value] = []
    /// How the production ended, once it has: nil for all values produced, else the error.
    private var ending: CatalogReadError??
    private var stopped = false
    private var running = true
    /// The producer, until the background thread has run it: released there, before the end is signalled, so
    /// that nothing it holds (a file's bytes) outlives `finish()`.
    private var producer: ((_ emit: (Value) -> Bool) throws(CatalogReadError) -> Void)?

    /// Starts `produce` on the background thread: it hands each value to `emit`, which waits while `lookahead`
    /// values are waiting, and returns false once the caller has stopped the reading (the producer then returns).
    init(lookahead: Int = 4,
         produce: @escaping @Sendable (_ emit: (Value) -> Bool) throws(CatalogReadError) -> Void) {
        self.lookahead = lookahead
        producer = produce
        let thread = Thread { [self] in run() }
        // As deep as the main thread's: the parsers recurse once per nesting level.
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// Starts producing `parse(0)`, `parse(1)`, … `parse(count - 1)` (files by index) on the background thread.
    convenience init(count: Int, lookahead: Int = 4,
                     parse: @escaping @Sendable (Int) throws(CatalogReadError) -> Value) {
        self.init(lookahead: lookahead) { emit throws(CatalogReadError) in
            for index in 0..<count {
                guard emit(try parse(index)) else { return }
            }
        }
    }

    /// Runs the producer, then frees what was handed back and signals the end: once `finish()` returns, no value
    /// and nothing the producer held is left on this thread.
    private func run() {
        let failure = produceAll()
        condition.lock()
        while !retired.isEmpty {
            let dropping = takeRetired()
            condition.unlock()
            drop(dropping)
            condition.lock()
        }
        ending = .some(failure)
        running = false
        condition.broadcast()
        condition.unlock()
    }

    /// Runs the producer and releases it; the error that ended it, if any.
    private func produceAll() -> CatalogReadError? {
        guard let produce = producer else { return nil }
        producer = nil
        do {
            try produce { value in emit(value) }
            return nil
        } catch {
            return error
        }
    }

    private func emit(_ value: Value) -> Bool {
        condition.lock()
        while !stopped, ready.count >= lookahead { condition.wait() }
        let dropping = takeRetired()
        let accepted = !stopped
        if accepted {
            ready.append(value)
            // The caller waits only for a first value (`next()`).
            if ready.count == 1 { condition.broadcast() }
        }
        condition.unlock()
        drop(dropping)
        return accepted
    }

    /// The values handed back so far, which the caller frees once it has unlocked (`drop(_:)`); called locked.
    private func takeRetired() -> [Value] {
        var taken: [Value] = []
        swap(&taken, &retired)
        return taken
    }

    /// Frees values handed back, here on the background thread, outside the lock.
    private func drop(_ values: consuming [Value]) {}

    /// Hands back a value taken with `next()` that the caller no longer needs: the background thread drops it
    /// when it next hands a value over or ends. Once it has ended, the value is dropped here, at once: a big
    /// value (a Play list's mapped file) is never held longer than its reading.
    func retire(_ value: consuming Value) {
        condition.lock()
        guard running else {
            condition.unlock()
            return
        }
        retired.append(value)
        condition.unlock()
    }

    /// The next value, in the order produced; nil once every value is handed over; the error that ended the
    /// production once the values before it are.
    func next() throws(CatalogReadError) -> Value? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if !ready.isEmpty {
                // The producer waits while `lookahead` values are ready: woken once half of them are taken, it
                // produces several before it waits again, instead of sleeping and waking once per value (each
                // waking cost the caller's core a system call: 5 % of a snapshot check's pooling).
                if ready.count - 1 <= lookahead / 2 { condition.broadcast() }
                return ready.removeFirst()
            }
            if let ending {
                if let failure = ending { throw failure }
                return nil
            }
            condition.wait()
        }
    }

    /// Stops producing and waits for the background thread to end.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running { condition.wait() }
        ready = []
        condition.unlock()
    }
}
