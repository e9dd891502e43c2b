/// Finds "did you mean" candidates: IDs equal ignoring case, or at most two edits apart (Levenshtein on
/// lower-cased IDs, DESIGN.md §5a.6). The nearest wins; ties go to the first in sort order.
///
/// Comparing every ID with every candidate is quadratic, and IDs of one catalog share long prefixes
/// (`com.example.app.`), so neither length buckets nor an early exit keep 10,000 × 10,000 IDs fast. Instead the
/// candidates are indexed once by their deletion neighbourhood: every string obtained by deleting at most two
/// characters. Two strings at most two edits apart share such a string (a substitution is one deletion on each
/// side, an insertion one deletion on the other), so a lookup visits only candidates that share one, and
/// confirms each with an edit distance restricted to the diagonal band |i − j| ≤ 2. Variants are keyed by a
/// 64-bit polynomial hash; a collision only costs one extra confirmation, never a wrong answer.
///
/// An ID of n characters has about n²/2 variants, so only candidates whose text after the shared prefix is at
/// most `deletionIndexLength` long are indexed this way (at most 529 variants each); longer ones go into a
/// trie (`NearMatchTrie`, one node per character). An ID longer than `maximumLength` is neither indexed nor
/// looked up (DESIGN.md §5: both stores cap product IDs far below it). So the index, time and memory, is
/// linear in the candidates' total length (a 10 MB ID once asked for a 34 GB index, and 1,000 IDs of 256
/// characters for 740 MB), a lookup hashes a bounded number of variants of the ID, and a trie search visits
/// only nodes whose text is within two edits of a prefix of the ID.
public struct NearMatch: Sendable {
    static let maximumDistance = 2
    /// The longest ID, in Unicode scalars, that gets a hint or is offered as one.
    public static let maximumLength = 256
    /// The longest candidate text (after the shared prefix) that goes into the deletion index.
    static let deletionIndexLength = 32

    private struct Candidate: Sendable {
        let id: String
        let lowered: [UInt32]
    }

    /// The lower-cased prefix every candidate starts with; candidates and their variants leave it out, since
    /// a common prefix does not change an edit distance.
    private let prefix: [UInt32]
    /// Candidates in sort order, without `prefix`.
    private let candidates: [Candidate]
    /// An open hash table of variant chains: slot (from the variant hash) → the last index entry hashed there,
    /// or -1. Chains of different hashes may share a slot; entries keep their full hash to tell them apart.
    private let slots: [Int32]
    /// log2 of the slot count.
    private let slotBits: Int
    /// Index entry → its variant hash.
    private let hashes: [UInt64]
    /// Index entry → the previous entry in its slot's chain, or -1.
    private let next: [Int32]
    /// Index entry → the candidate (position in `candidates`) it belongs to.
    private let owners: [Int32]
    /// The candidates longer than `deletionIndexLength` after the prefix.
    private let trie: NearMatchTrie

    /// Prepares the candidates for lookups.
    public init(candidates ids: [String]) {
        let full = ids.filter(Self.isShortEnough).sorted().map { (id: $0, lowered: Self.scalars(of: $0)) }
        var prefix = full.first?.lowered ?? []
        for candidate in full.dropFirst() {
            let shared = zip(prefix, candidate.lowered).prefix { $0.0 == $0.1 }.count
            prefix.removeLast(prefix.count - shared)
        }
        let candidates = full.map { Candidate(id: $0.id, lowered: Array($0.lowered.dropFirst(prefix.count))) }
        var long: [(text: [UInt32], position: Int32)] = []
        let entryCount = candidates.reduce(0) { total, candidate in
            let count = candidate.lowered.count
            guard count <= Self.deletionIndexLength else { return total }
            return total + 1 + count + count * (count - 1) / 2
        }
        var slotBits = 4
        while 1 << slotBits < 2 * entryCount { slotBits += 1 }
        var slots = [Int32](repeating: -1, count: 1 << slotBits)
        var hashes: [UInt64] = [], next: [Int32] = [], owners: [Int32] = []
        hashes.reserveCapacity(entryCount)
        next.reserveCapacity(entryCount)
        owners.reserveCapacity(entryCount)
        var variants: [UInt64] = []
        for (position, candidate) in candidates.enumerated() {
            guard candidate.lowered.count <= Self.deletionIndexLength else {
                long.append((candidate.lowered, Int32(position)))
                continue
            }
            Self.variants(of: candidate.lowered, into: &variants)
            for hash in variants {
                let slot = Self.slot(of: hash, bits: slotBits)
                next.append(slots[slot])
                slots[slot] = Int32(hashes.count)
                hashes.append(hash)
                owners.append(Int32(position))
            }
        }
        self.prefix = prefix
        self.candidates = candidates
        self.slots = slots
        self.slotBits = slotBits
        self.hashes = hashes
        self.next = next
        self.owners = owners
        self.trie = NearMatchTrie(long)
    }

    /// The candidate nearest to `id`, if one is close enough.
    ///
    /// Candidates are indexed without their shared prefix P, so `id` is split where P would end in it: a
    /// candidate P + r is at most two edits from `id` exactly when, for some split point k within two of |P|,
    /// the edits to turn `id[..<k]` into P and `id[k...]` into r add up to at most two. Each of those (at most
    /// five) splits looks up the variants of `id[k...]`; every candidate found is confirmed on the whole ID.
    /// The long candidates are searched in the trie, and the nearer of the two answers wins.
    public func best(for id: String) -> String? {
        guard Self.isShortEnough(id) else { return nil }
        let lowered = Self.scalars(of: id)
        // When `id` starts with P, the shared prefix changes no distance: it is left out, and only the split
        // right after it can find a candidate.
        let startsWithPrefix = lowered.starts(with: prefix)
        let rest = startsWithPrefix ? Array(lowered.dropFirst(prefix.count)) : []
        func distance(to candidate: Candidate) -> Int {
            startsWithPrefix
                ? Self.levenshtein(rest, candidate.lowered, limit: Self.maximumDistance)
                : Self.levenshtein(lowered, prefix + candidate.lowered, limit: Self.maximumDistance)
        }
        var visited: Set<Int32> = []
        var best: (distance: Int, position: Int32)?
        var variants: [UInt64] = []
        let splits = startsWithPrefix
            ? prefix.count...prefix.count
            : max(0, prefix.count - Self.maximumDistance)...(prefix.count + Self.maximumDistance)
        // A split whose rest is more than two longer than every indexed text cannot find one.
        for split in splits where split <= lowered.count
            && lowered.count - split <= Self.deletionIndexLength + Self.maximumDistance {
            let head = Array(lowered[..<split])
            guard Self.levenshtein(head, prefix, limit: Self.maximumDistance) <= Self.maximumDistance else { continue }
            Self.variants(of: Array(lowered[split...]), into: &variants)
            for hash in variants {
                var entry = slots[Self.slot(of: hash, bits: slotBits)]
                while entry >= 0 {
                    let index = Int(entry)
                    entry = next[index]
                    guard hashes[index] == hash else { continue }
                    let position = owners[index]
                    guard visited.insert(position).inserted else { continue }
                    let candidate = candidates[Int(position)]
                    guard candidate.id != id else { continue }
                    let distance = distance(to: candidate)
                    guard distance <= Self.maximumDistance else { continue }
                    // Candidates are in sort order, so the lower position wins a tie.
                    if let current = best, distance > current.distance
                        || (distance == current.distance && current.position < position) { continue }
                    best = (distance, position)
                }
            }
        }
        if lowered.count + Self.maximumDistance > prefix.count + Self.deletionIndexLength,
           let long = trie.best(for: lowered, prefix: prefix, excluded: { candidates[Int($0)].id == id }),
           best.map({ long.distance < $0.distance || (long.distance == $0.distance && long.position < $0.position) })
            ?? true {
            best = long
        }
        return best.map { candidates[Int($0.position)].id }
    }

    /// The table slot of a variant hash (Fibonacci hashing: the top bits of a multiplicative mix).
    private static func slot(of hash: UInt64, bits: Int) -> Int {
        Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// The hint for `id` whose nearest match is `candidate`: `did you mean 'X'?`, followed by where the two
    /// differ when they differ only in characters that look alike (DESIGN.md §5, `LookAlikes`).
    public static func hint(for id: String, suggesting candidate: String) -> String {
        let question = "did you mean '\(candidate)'?"
        return LookAlikes.difference(id, from: candidate).map { "\(question) (\($0))" } ?? question
    }

    /// The candidate nearest to `id` among `candidates` (a one-off lookup).
    public static func best(for id: String, among candidates: [String]) -> String? {
        NearMatch(candidates: candidates).best(for: id)
    }

    /// Whether `id` has at most `maximumLength` scalars: counts no further than that, so a huge ID costs nothing.
    static func isShortEnough(_ id: String) -> Bool {
        var count = 0
        for _ in id.unicodeScalars {
            count += 1
            if count > maximumLength { return false }
        }
        return true
    }

    private static func scalars(of id: String) -> [UInt32] {
        id.lowercased().unicodeScalars.map(\.value)
    }

    private static let base: UInt64 = 0x100_0000_01B3

    /// Replaces `variants` with the hash of `text` and of every string obtained by deleting one or two of its
    /// scalars (duplicates included). Each hash is computed in constant time from prefix hashes.
    private static func variants(of text: [UInt32], into variants: inout [UInt64]) {
        variants.removeAll(keepingCapacity: true)
        let count = text.count
        var prefix = [UInt64](repeating: 0, count: count + 1)
        var power = [UInt64](repeating: 1, count: count + 1)
        for index in 0..<count {
            prefix[index + 1] = prefix[index] &* base &+ UInt64(text[index]) &+ 1
            power[index + 1] = power[index] &* base
        }
        /// The hash of `text[from..<to]`.
        func slice(_ from: Int, _ to: Int) -> UInt64 {
            prefix[to] &- prefix[from] &* power[to - from]
        }
        variants.append(prefix[count])
        for first in 0..<count {
            let head = prefix[first]
            variants.append(head &* power[count - first - 1] &+ slice(first + 1, count))
            for second in (first + 1)..<count {
                let middle = head &* power[second - first - 1] &+ slice(first + 1, second)
                variants.append(middle &* power[count - second - 1] &+ slice(second + 1, count))
            }
        }
    }

    /// Edit distance when it is at most `limit`; otherwise some value greater than `limit`. Only the diagonal
    /// band |i − j| ≤ `limit` is computed, and the computation stops once a whole row of the band exceeds it.
    static func levenshtein(_ lhs: [UInt32], _ rhs: [UInt32], limit: Int) -> Int {
        let beyond = limit + 1
        guard abs(lhs.count - rhs.count) <= limit else { return beyond }
        if lhs.isEmpty { return rhs.count }
        if rhs.isEmpty { return lhs.count }
        var previous = [Int](repeating: beyond, count: rhs.count + 1)
        var current = [Int](repeating: beyond, count: rhs.count + 1)
        for column in 0...min(limit, rhs.count) { previous[column] = column }
        for row in 1...lhs.count {
            let low = max(1, row - limit)
            let high = min(rhs.count, row + limit)
            current[low - 1] = row <= limit && low == 1 ? row : beyond
            var rowMinimum = current[low - 1]
            if low <= high {
                for column in low...high {
                    let cost = lhs[row - 1] == rhs[column - 1] ? 0 : 1
                    let value = min(previous[column] + 1, current[column - 1] + 1, previous[column - 1] + cost)
                    current[column] = min(value, beyond)
                    rowMinimum = min(rowMinimum, current[column])
                }
            }
            if high < rhs.count { current[high + 1] = beyond }
            if rowMinimum > limit { return beyond }
            swap(&previous, &current)
        }
        return previous[rhs.count]
    }
}
