@testable import CatalogFormats
import Testing

@Suite("HashSlots")
struct HashSlotsTests {
    @Test("reading ahead reads the slot each lookup starts at: the stored words of the hashes there, nothing else")
    func readFirstSlots() {
        // Arrange: ten indices whose hashes start at ten different slots of the 1,024, and two hashes whose
        // first slot is empty.
        var slots = HashSlots()
        let hashes: [Int] = (0..<10).map { $0 * 97 + 5 }
        for (index, hash) in hashes.enumerated() {
            slots.insert(index, hash: hash, at: slots.find(hash: hash) { _ in false }.slot)
        }
        let stored = hashes.enumerated().reduce(UInt64(0)) { sum, pair in
            sum ^ (UInt64(pair.offset + 1) << 32 | UInt64(pair.element))
        }

        // Act
        let read = slots.readFirstSlots(of: hashes + [3, 1_000])

        // Assert: a lookup of each finds it at the slot read.
        #expect(read == stored)
        #expect(hashes.enumerated().allSatisfy { index, hash in slots.find(hash: hash) { $0 == index }.index == index })
        #expect(HashSlots(capacity: 0).readFirstSlots(of: hashes) == 0)
    }
}
