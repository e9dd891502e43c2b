import Testing
@testable import CatalogCore

@Suite("NearMatch")
struct NearMatchTests {
    /// The plain, unbanded Levenshtein distance: the reference the banded one must agree with up to its limit.
    private static func reference(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs.lowercased().unicodeScalars), right = Array(rhs.lowercased().unicodeScalars)
        var previous = Array(0...right.count)
        for (i, l) in left.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: right.count)
            for (j, r) in right.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (l == r ? 0 : 1))
            }
            previous = current
        }
        return previous[right.count]
    }

    /// The specified choice: nearest within two edits, ties by sort order, never the ID itself.
    private static func referenceBest(_ id: String, among candidates: [String]) -> String? {
        candidates.sorted().filter { $0 != id }
            .map { ($0, reference(id, $0)) }
            .filter { $0.1 <= 2 }
            .min { $0.1 < $1.1 }?.0
    }

    @Test("the banded distance equals Levenshtein up to 2 and is above 2 otherwise")
    func bandedDistance() {
        let words = ["", "a", "ab", "ba", "abc", "acb", "abcd", "xbcx", "premium", "premuim", "prem", "primo",
                     "com.app.gold", "com.app.GOLD", "com.app.golds", "com.ap.gold", "kitten", "sitting", "İx", "ix"]
        for lhs in words {
            for rhs in words {
                let expected = Self.reference(lhs, rhs)
                let banded = NearMatch.levenshtein(lhs.lowercased().unicodeScalars.map(\.value),
                                                   rhs.lowercased().unicodeScalars.map(\.value), limit: 2)
                if expected <= 2 {
                    #expect(banded == expected, "\(lhs) / \(rhs)")
                } else {
                    #expect(banded > 2, "\(lhs) / \(rhs)")
                }
            }
        }
    }

    @Test("lookups agree with the specified choice: nearest wins, ties by sort order")
    func agreesWithReference() {
        let candidates = ["com.app.gold", "com.app.golf", "com.app.bold", "com.app.GOLD", "com.app.silver",
                          "com.app.silvers", "x", "xy", "", "com.app.gold.yearly", "com.app.gold.yearlyy"]
        let needles = ["com.app.gold", "com.app.goal", "com.app.gol", "COM.APP.SILVER", "com.app.silverss", "y",
                       "", "com.app.gold.yearl", "com.app.platinum", "xyz"]
        let matcher = NearMatch(candidates: candidates)
        for needle in needles {
            #expect(matcher.best(for: needle) == Self.referenceBest(needle, among: candidates), "\(needle)")
        }
        // Candidates sharing a prefix, and needles that do or do not start with it.
        let prefixed = ["com.app.gold", "com.app.golf", "com.app.GOLD", "com.app.silver", "com.app.", "com.app.s"]
        let prefixedMatcher = NearMatch(candidates: prefixed)
        for needle in ["com.app.gold", "com.ap.gold", "Com.App.Gold", "cm.app.golf", "com.ap", "com.app", "om.app.s",
                       "com.app.x", "com.apq.silver", "org.app.gold", ""] {
            #expect(prefixedMatcher.best(for: needle) == Self.referenceBest(needle, among: prefixed), "\(needle)")
        }
    }

    @Test("10,000 × 10,000 IDs sharing a prefix: the planted near-misses get their hints")
    func scales() {
        // A deterministic generator, so the IDs (and any failure) are the same on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func nextLetter() -> Character {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Array("abcdefghijklmnopqrstuvwxyz0123456789")[Int((state >> 33) % 36)]
        }
        func randomID() -> String { "com.example.app." + String((0..<10).map { _ in nextLetter() }) }
        var config = (0..<10_000).map { _ in randomID() }
        var store = (0..<10_000).map { _ in randomID() }
        // Planted: a substitution, a transposition (two edits), a case change, a deleted character, and one
        // ID two edits from two candidates, where sort order decides.
        config[17] = "com.example.app.premium.monthly"
        store[4711] = "com.example.app.premium.monthlx"
        config[250] = "com.example.app.gold.yearly"
        store[9000] = "com.example.app.gold.yaerly"
        config[3000] = "com.example.app.Coins.500"
        store[12] = "com.example.app.coins.500"
        config[7777] = "com.example.app.lifetime.unlock"
        store[5] = "com.example.app.lifetime.unlck"
        config[8000] = "com.example.app.tie.abc"
        store[100] = "com.example.app.tie.xyc"
        store[101] = "com.example.app.tie.axz"

        let storeHints = NearMatch(candidates: store)
        let configHints = NearMatch(candidates: config)
        #expect(storeHints.best(for: "com.example.app.premium.monthly") == "com.example.app.premium.monthlx")
        #expect(storeHints.best(for: "com.example.app.gold.yearly") == "com.example.app.gold.yaerly")
        #expect(storeHints.best(for: "com.example.app.Coins.500") == "com.example.app.coins.500")
        #expect(storeHints.best(for: "com.example.app.lifetime.unlock") == "com.example.app.lifetime.unlck")
        #expect(storeHints.best(for: "com.example.app.tie.abc") == "com.example.app.tie.axz")
        #expect(configHints.best(for: "com.example.app.coins.500") == "com.example.app.Coins.500")
        #expect(configHints.best(for: "com.example.app.gold.yaerly") == "com.example.app.gold.yearly")

        // Every config ID is looked up, as the identity rules do; the random ones have no near neighbour.
        let hinted = config.filter { storeHints.best(for: $0) != nil }
        #expect(Set(hinted) == ["com.example.app.premium.monthly", "com.example.app.gold.yearly",
                                "com.example.app.Coins.500", "com.example.app.lifetime.unlock",
                                "com.example.app.tie.abc"])
    }

    @Test("random IDs over a small alphabet, with and without the candidates' shared prefix: the specified choice")
    func agreesWithReferenceOnRandomIDs() {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func word(_ length: Int) -> String { String((0..<length).map { _ in Array("abAB.")[next(5)] }) }
        for round in 0..<200 {
            let shared = ["", "ab", "a.b.", "aaaa"][round % 4]
            let candidates = (0..<(1 + next(6))).map { _ in shared + word(next(5)) }
            let matcher = NearMatch(candidates: candidates)
            for _ in 0..<20 {
                // Needles near the shared prefix (edited inside it, or cut short) as well as beyond it.
                let needle = String((shared + word(next(5))).dropFirst(next(3))) + word(next(2))
                #expect(matcher.best(for: needle) == Self.referenceBest(needle, among: candidates),
                        "\(needle) among \(candidates)")
            }
        }
    }

    @Test("IDs around the trie's length (32 after the shared prefix), a few edits apart: the specified choice")
    func agreesWithReferenceAcrossIndexAndTrie() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("abAB.")
        func edited(_ text: String, edits: Int) -> String {
            var scalars = Array(text)
            for _ in 0..<edits {
                let position = next(scalars.count + 1)
                switch next(3) {
                case 0 where position < scalars.count: scalars.remove(at: position)
                case 1: scalars.insert(alphabet[next(alphabet.count)], at: position)
                default: if position < scalars.count { scalars[position] = alphabet[next(alphabet.count)] }
                }
            }
            return String(scalars)
        }
        for round in 0..<150 {
            let shared = ["", "com.app.", "com.app.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"][round % 3]
            let base = String((0..<(29 + next(8))).map { _ in alphabet[next(alphabet.count)] })
            let candidates = (0..<(2 + next(6))).map { _ in shared + edited(base, edits: next(4)) }
            let matcher = NearMatch(candidates: candidates)
            for _ in 0..<15 {
                let needle = edited(shared + edited(base, edits: next(4)), edits: next(2))
                #expect(matcher.best(for: needle) == Self.referenceBest(needle, among: candidates),
                        "\(needle) among \(candidates)")
            }
        }
    }

    @Test("IDs longer than 256 characters get no hint and are never offered as one; 256 characters still do")
    func longIDsGetNoHint() {
        let long = "com.example." + String(repeating: "a", count: 245)  // 257 characters
        let longNeighbour = "com.example." + String(repeating: "a", count: 244) + "b"
        let limit = "com.example." + String(repeating: "a", count: 244)  // 256 characters
        let limitNeighbour = "com.example." + String(repeating: "a", count: 243) + "b"

        let hints = NearMatch(candidates: [long, longNeighbour, limitNeighbour, "com.example.coins"])

        #expect(long.unicodeScalars.count == 257 && limit.unicodeScalars.count == 256)
        #expect(hints.best(for: long) == nil)
        #expect(hints.best(for: longNeighbour) == nil)
        #expect(hints.best(for: limit) == limitNeighbour)
        #expect(NearMatch(candidates: [long]).best(for: limit) == nil)
        #expect(NearMatch.best(for: long, among: [longNeighbour]) == nil)
    }

    @Test("a 10 MB ID among the candidates and as a lookup: no hint for it, the others unharmed")
    func hugeID() {
        let huge = "com.example." + String(repeating: "x", count: 10 * 1024 * 1024)

        let hints = NearMatch(candidates: [huge, "com.example.coins.100", "com.example.gems.100"])

        #expect(hints.best(for: huge) == nil)
        #expect(hints.best(for: "com.example.coins.10") == "com.example.coins.100")
        #expect(NearMatch(candidates: ["com.example.coins.100", "com.example.gems.100"]).best(for: huge) == nil)
    }

    @Test("the hint text: the plain question, or with where look-alike characters differ")
    func hintText() {
        #expect(NearMatch.hint(for: "com.example.premium.monthy", suggesting: "com.example.premium.monthly")
                == "did you mean 'com.example.premium.monthly'?")
        #expect(NearMatch.hint(for: "com.example.coins.5OO", suggesting: "com.example.coins.500")
                == "did you mean 'com.example.coins.500'? (letter 'O' where the other has digit '0', twice, from character 20)")
    }
}
