@testable import CatalogFormats
import Testing

/// `TextTable` keeps the readers' price texts in `HashSlots`, which grow at three quarters full.
@Suite("TextTable")
struct TextTableTests {
    @Test("every text kept is found with its value, past the slots' growth; others are not; the first value stays")
    func keepsAndFinds() {
        // Arrange: 1,000 texts alike in length and most bytes, a short one, an empty one and a non-ASCII one.
        var table = TextTable<Int>()
        let texts = (0..<1000).map { "\($0).99 USD" } + ["", "9", "9,99 €"]

        // Act
        for (value, text) in texts.enumerated() { table.keep(value, for: text) }
        table.keep(-1, for: texts[5])

        // Assert
        for (value, text) in texts.enumerated() { #expect(table.value(for: text) == value, "\(text)") }
        #expect(table.value(for: "1000.99 USD") == nil)
        #expect(table.value(for: "0.99 usd") == nil)
        #expect(table.value(for: "9,99 € ") == nil)
    }
}
