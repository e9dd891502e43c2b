import Foundation

/// Reads a folder's files (or any inputs by index) on a second core ahead of the caller: a background thread
/// parses file after file, at most `lookahead` files ahead, and `next()` hands them over in file order, so a
/// reader that pools documents one at a time keeps its order (and its output) while parsing overlaps pooling.
/// The first file that fails stops the thread; its error is thrown when the caller reaches that file, as a
/// sequential read would throw it. The caller calls `finish()` when done (or failed): it stops the thread and
/// waits for it, so no file is read afterwards.
final class ReadAhead<Value>: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private let lookahead: Int
    /// Parsed files not yet handed over, by index; guarded by `condition`.
    private var ready: [Int: Result<Value, CatalogReadError>] = [:]
    private var handedOver = 0
    private var stopped = false
    private var running = true

    /// Starts parsing `count` files with `parse` (called with 0, 1, … on the background thread).
    init(count: Int, lookahead: Int = 4, parse: @escaping @Sendable (Int) throws(CatalogReadError) -> Value) {
        self.count = count
        self.lookahead = lookahead
        let thread = Thread { [self] in produce(parse) }
        // As deep as the main thread's: the parsers recurse once per nesting level.
        thread.stackSize = 16 << 20
        thread.start()
    }

    private func produce(_ parse: (Int) throws(CatalogReadError) -> Value) {
        defer {
            condition.lock()
            running = false
            condition.broadcast()
            condition.unlock()
        }
        for index in 0..<count {
            condition.lock()
            while !stopped, index - handedOver >= lookahead { condition.wait() }
            let stop = stopped
            condition.unlock()
            if stop { return }
            let result = Result { () throws(CatalogReadError) in try parse(index) }
            condition.lock()
            ready[index] = result
            condition.broadcast()
            condition.unlock()
            if case .failure = result { return }
        }
    }

    /// The next file's parsed value, in file order; the error of a file that failed.
    func next() throws(CatalogReadError) -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = ready.removeValue(forKey: handedOver) {
                handedOver += 1
                condition.broadcast()
                return try result.get()
            }
            condition.wait()
        }
    }

    /// Stops parsing and waits for the background thread to end.
    func finish() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while running { condition.wait() }
        ready = [:]
        condition.unlock()
    }
}
