import Foundation

/// Two independent pieces of work at once, the second on a thread of its own (the first on the caller's): the
/// App Store Connect builder builds, and the checker compares, the later half of many products on the second
/// core. The results are those of running one after the other.
package enum TwoCores {
    /// `first()` and `second()`, run at once; returns when both are done.
    package static func run<First, Second: Sendable>(_ first: () -> First,
                                             alongside second: @escaping @Sendable () -> Second) -> (First, Second) {
        let result = Handover<Second>()
        let thread = Thread { result.put(second()) }
        // As deep as the main thread's, as `ReadAhead`'s thread.
        thread.stackSize = 16 << 20
        thread.start()
        let firstResult = first()
        return (firstResult, result.take())
    }
}

/// One value passed from a thread to the one that waits for it.
private final class Handover<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// Guarded by `condition`.
    private var value: Value?

    func put(_ newValue: Value) {
        condition.lock()
        value = newValue
        condition.broadcast()
        condition.unlock()
    }

    /// The value, once it has been put.
    func take() -> Value {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value { return value }
            condition.wait()
        }
    }
}
