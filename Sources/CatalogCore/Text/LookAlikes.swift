/// Says where two IDs differ when they differ only in characters that look alike (DESIGN.md §5): O and 0,
/// l, 1 and I, Cyrillic and Greek letters shaped like Latin ones, and invisible format characters (zero-width
/// space, joiners, bidi controls: Unicode category Cf). Such IDs look the same on screen, so a plain
/// "did you mean" leaves the reader staring at two identical strings.
///
/// Two IDs look alike when their skeletons are equal: each character mapped to the Latin character it
/// resembles, invisible ones dropped. Case is not a look-alike (`Coins` and `coins` read differently). Time is
/// linear in the IDs' lengths.
public enum LookAlikes {
    /// Where `id` differs from `other` in look-alike characters, or nil when the two are equal or differ in
    /// anything else: `letter 'O' where the other has digit '0', twice, from character 26`. Each kind of
    /// difference (this ID's character, the other's) is one clause in order of first appearance, with how often
    /// it occurs and the 1-based position (in Unicode scalars) in `id` where it first does; clauses are joined
    /// with "; ".
    public static func difference(_ id: String, from other: String) -> String? {
        let mine = Array(id.unicodeScalars), theirs = Array(other.unicodeScalars)
        guard mine != theirs, mine.compactMap(skeleton) == theirs.compactMap(skeleton) else { return nil }
        var clauses: [Clause] = []
        func record(_ this: Unicode.Scalar?, _ that: Unicode.Scalar?, at position: Int) {
            if let index = clauses.firstIndex(where: { $0.mine == this && $0.theirs == that }) {
                clauses[index].count += 1
            } else {
                clauses.append(Clause(mine: this, theirs: that, count: 1, first: position))
            }
        }
        walk(mine, theirs) { this, that, position in record(this, that, at: position) }
        return clauses.map(\.text).joined(separator: "; ")
    }

    /// One kind of difference: this ID's character where the other has its own (nil: nothing there).
    private struct Clause {
        let mine: Unicode.Scalar?
        let theirs: Unicode.Scalar?
        var count: Int
        let first: Int

        var text: String {
            let times: String
            switch count {
            case 1: times = "at character \(first)"
            case 2: times = "twice, from character \(first)"
            default: times = "\(count) times, from character \(first)"
            }
            return "\(describe(mine)) where the other has \(describe(theirs)), \(times)"
        }
    }

    /// A character as a reader should hear it: `letter 'O'`, `digit '0'`, `Cyrillic letter 'о' U+043E`,
    /// `zero-width space U+200B`. An invisible character is never quoted raw.
    static func describe(_ scalar: Unicode.Scalar?) -> String {
        guard let scalar else { return "nothing" }
        let code = codePoint(scalar)
        switch scalar.value {
        case 0x30...0x39: return "digit '\(scalar)'"
        case 0x41...0x5A, 0x61...0x7A: return "letter '\(scalar)'"
        case 0x370...0x3FF: return "Greek letter '\(scalar)' \(code)"
        case 0x400...0x52F: return "Cyrillic letter '\(scalar)' \(code)"
        default:
            if let name = invisibleNames[scalar.value] { return "\(name) \(code)" }
            if scalar.properties.generalCategory == .format { return "invisible character \(code)" }
            return "character '\(scalar)' \(code)"
        }
    }

    /// `U+043E`: at least four uppercase hex digits, as Unicode writes code points.
    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The character `scalar` looks like, or nil for an invisible one (Unicode category Cf).
    static func skeleton(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        if scalar.value < 0x80 { return confusables[scalar.value] ?? scalar }
        if scalar.properties.generalCategory == .format { return nil }
        return confusables[scalar.value] ?? scalar
    }

    /// Characters and the Latin character they are read as. Digits 0 and 1 and the letters O, l and I are the
    /// classic confusions in product IDs; the Cyrillic and Greek letters are those drawn like a Latin letter in
    /// common fonts (the Latin-looking subset of Unicode's confusables.txt for these scripts).
    private static let confusables: [UInt32: Unicode.Scalar] = {
        let groups: [(Unicode.Scalar, [UInt32])] = [
            ("O", [0x30, 0x41E, 0x39F]),           // 0, Cyrillic О, Greek Ο
            ("o", [0x43E, 0x3BF]),                 // Cyrillic о, Greek ο
            ("l", [0x31, 0x49, 0x406, 0x399, 0x4C0, 0x4CF]),  // 1, I, Cyrillic І, Greek Ι, Cyrillic Ӏ ӏ
            ("i", [0x456]),
            ("A", [0x410, 0x391]), ("B", [0x412, 0x392]), ("C", [0x421]), ("E", [0x415, 0x395]),
            ("H", [0x41D, 0x397]), ("J", [0x408]), ("K", [0x41A, 0x39A]), ("M", [0x41C, 0x39C]),
            ("N", [0x39D]), ("P", [0x420, 0x3A1]), ("S", [0x405]), ("T", [0x422, 0x3A4]),
            ("X", [0x425, 0x3A7]), ("Y", [0x423, 0x3A5]), ("Z", [0x396]),
            ("a", [0x430, 0x3B1]), ("c", [0x441]), ("d", [0x501]), ("e", [0x435]), ("h", [0x4BB]),
            ("j", [0x458]), ("p", [0x440, 0x3C1]), ("s", [0x455]), ("u", [0x3C5]), ("v", [0x3BD]),
            ("x", [0x445]), ("y", [0x443]),
        ]
        var table: [UInt32: Unicode.Scalar] = [:]
        for (latin, lookAlikes) in groups {
            for value in lookAlikes { table[value] = latin }
        }
        return table
    }()

    /// Names of the invisible characters most often met in copied text.
    private static let invisibleNames: [UInt32: String] = [
        0xAD: "soft hyphen", 0x200B: "zero-width space", 0x200C: "zero-width non-joiner",
        0x200D: "zero-width joiner", 0x200E: "left-to-right mark", 0x200F: "right-to-left mark",
        0x202A: "left-to-right embedding", 0x202B: "right-to-left embedding", 0x202C: "pop directional formatting",
        0x202D: "left-to-right override", 0x202E: "right-to-left override", 0x2060: "word joiner",
        0x2066: "left-to-right isolate", 0x2067: "right-to-left isolate", 0x2068: "first strong isolate",
        0x2069: "pop directional isolate", 0xFEFF: "zero-width no-break space",
    ]
}
