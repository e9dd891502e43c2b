/// Where two look-alike IDs differ, as positions a report can mark (DESIGN.md §2a: "IDs that differ only in
/// look-alike characters are marked where they differ"), from the same alignment as `LookAlikes.difference`,
/// so a marked character and the hint's "from character 26" always point at the same place.
extension LookAlikes {
    /// The text two IDs share when they look alike: each character replaced by the Latin one it resembles,
    /// invisible ones dropped. IDs with equal skeletons are the only candidates for `markedOffsets`, so a
    /// report finds every look-alike pair by grouping on it, in time linear in the IDs' total length.
    public static func skeleton(of id: String) -> String {
        var text = String.UnicodeScalarView()
        text.append(contentsOf: id.unicodeScalars.compactMap(skeleton))
        return String(text)
    }

    /// The 0-based offsets, in Unicode scalars of `id`, of the characters that differ from `other` (an
    /// invisible character `id` has and `other` lacks included), when the two IDs look alike; nil when they
    /// are equal or differ in anything else.
    public static func markedOffsets(_ id: String, from other: String) -> [Int]? {
        let mine = Array(id.unicodeScalars), theirs = Array(other.unicodeScalars)
        guard mine != theirs, mine.compactMap(skeleton) == theirs.compactMap(skeleton) else { return nil }
        var offsets: [Int] = []
        walk(mine, theirs) { this, _, position in
            if this != nil { offsets.append(position - 1) }
        }
        return offsets
    }

    /// Walks two IDs with equal skeletons side by side and calls `visit` for each place they differ: this ID's
    /// character and the other's (nil where one has an invisible character the other lacks), and the 1-based
    /// position in `mine` where it is.
    static func walk(_ mine: [Unicode.Scalar], _ theirs: [Unicode.Scalar],
                     _ visit: (Unicode.Scalar?, Unicode.Scalar?, Int) -> Void) {
        var left = 0, right = 0
        while left < mine.count || right < theirs.count {
            let this = left < mine.count ? mine[left] : nil
            let that = right < theirs.count ? theirs[right] : nil
            if let this, this == that {
                left += 1
                right += 1
            } else if let this, let that, skeleton(this) == nil, skeleton(that) == nil {
                visit(this, that, left + 1)
                left += 1
                right += 1
            } else if let this, skeleton(this) == nil {
                visit(this, nil, left + 1)
                left += 1
            } else if let that, skeleton(that) == nil {
                visit(nil, that, left + 1)
                right += 1
            } else {
                // Equal skeletons with no invisible character left here: both are visible look-alikes.
                visit(this, that, left + 1)
                left += 1
                right += 1
            }
        }
    }
}
