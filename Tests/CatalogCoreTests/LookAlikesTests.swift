import Testing
@testable import CatalogCore

@Suite("Look-alike characters")
struct LookAlikesTests {
    @Test("letters and digits that look alike: which, how often, from where", arguments: [
        ("com.trailmate.app.coins.5OO", "com.trailmate.app.coins.500",
         "letter 'O' where the other has digit '0', twice, from character 26"),
        ("com.trailmate.app.coins.500", "com.trailmate.app.coins.5OO",
         "digit '0' where the other has letter 'O', twice, from character 26"),
        ("com.app.gold.1", "com.app.gold.l", "digit '1' where the other has letter 'l', at character 14"),
        ("com.app.Iife", "com.app.life", "letter 'I' where the other has letter 'l', at character 9"),
        ("a.0.0.0.l", "a.O.O.O.1",
         "digit '0' where the other has letter 'O', 3 times, from character 3; "
            + "letter 'l' where the other has digit '1', at character 9"),
    ])
    func latin(id: String, other: String, expected: String) {
        #expect(LookAlikes.difference(id, from: other) == expected)
    }

    @Test("Cyrillic and Greek letters drawn like Latin ones are named with their code points", arguments: [
        ("com.app.c\u{43E}ins", "com.app.coins", "Cyrillic letter '\u{43E}' U+043E where the other has letter 'o', at character 10"),
        ("com.app.coins", "com.app.c\u{43E}ins", "letter 'o' where the other has Cyrillic letter '\u{43E}' U+043E, at character 10"),
        ("com.\u{430}pp.\u{421}oins", "com.app.Coins",
         "Cyrillic letter '\u{430}' U+0430 where the other has letter 'a', at character 5; "
            + "Cyrillic letter '\u{421}' U+0421 where the other has letter 'C', at character 9"),
        ("com.app.g\u{3BF}ld", "com.app.gold", "Greek letter '\u{3BF}' U+03BF where the other has letter 'o', at character 10"),
        ("com.app.\u{39F}NE", "com.app.0NE", "Greek letter '\u{39F}' U+039F where the other has digit '0', at character 9"),
    ])
    func otherScripts(id: String, other: String, expected: String) {
        #expect(LookAlikes.difference(id, from: other) == expected)
    }

    @Test("invisible characters are named, never shown raw, on either side", arguments: [
        ("com.app.coins\u{200B}.500", "com.app.coins.500",
         "zero-width space U+200B where the other has nothing, at character 14"),
        ("com.app.coins.500", "com.app.coins\u{200B}.500",
         "nothing where the other has zero-width space U+200B, at character 14"),
        ("com.app.gold\u{200E}", "com.app.gold", "left-to-right mark U+200E where the other has nothing, at character 13"),
        ("\u{FEFF}com.app.gold", "com.app.gold\u{2060}",
         "zero-width no-break space U+FEFF where the other has nothing, at character 1; "
            + "nothing where the other has word joiner U+2060, at character 14"),
        ("com.app.\u{202E}gold", "com.app.\u{2066}gold",
         "right-to-left override U+202E where the other has left-to-right isolate U+2066, at character 9"),
        ("com.app.g\u{E0041}old", "com.app.gold", "invisible character U+E0041 where the other has nothing, at character 10"),
        ("com.app.c\u{43E}ins\u{200B}", "com.app.coins",
         "Cyrillic letter '\u{43E}' U+043E where the other has letter 'o', at character 10; "
            + "zero-width space U+200B where the other has nothing, at character 14"),
    ])
    func invisible(id: String, other: String, expected: String) {
        #expect(LookAlikes.difference(id, from: other) == expected)
    }

    @Test("no description when the IDs are equal or differ in anything but look-alikes (case included)", arguments: [
        ("com.app.coins.500", "com.app.coins.500"),
        ("com.app.coins.5OO", "com.app.coins.50"),
        ("com.app.Coins.5OO", "com.app.coins.500"),
        ("com.app.coins.5oo", "com.app.coins.500"),
        ("com.app.premium.monthy", "com.app.premium.monthly"),
        ("", "\u{200B}x"),
    ])
    func notLookAlikes(id: String, other: String) {
        #expect(LookAlikes.difference(id, from: other) == nil)
    }
}
