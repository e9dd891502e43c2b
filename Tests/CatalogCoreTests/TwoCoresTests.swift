import CatalogCore
import Foundation
import Testing

@Suite("TwoCores")
struct TwoCoresTests {
    /// A value whose release is observed through a weak reference.
    private final class Held: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    @Test("both results come back, the second's from another thread")
    func bothResults() {
        let caller = ObjectIdentifier(Thread.current)
        let (first, second) = TwoCores.run({ ((1...100).reduce(0, +), ObjectIdentifier(Thread.current)) }, alongside: {
            (Array(1...10).map { $0 * $0 }, ObjectIdentifier(Thread.current))
        })

        #expect(first.0 == 5050)
        #expect(second.0 == [1, 4, 9, 16, 25, 36, 49, 64, 81, 100])
        #expect(first.1 == caller)
        #expect(second.1 != caller)
    }

    @Test("what the second work captured is released by the time run returns", arguments: 0..<20)
    func nothingOutlivesRun(_ attempt: Int) {
        weak var released: Held?
        do {
            let held = Held(attempt)
            released = held
            let (_, number) = TwoCores.run({ 0 }, alongside: { held.number })
            #expect(number == attempt)
        }

        #expect(released == nil)
    }
}
