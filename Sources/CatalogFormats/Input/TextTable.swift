/// Values kept by their text, found by the text's bytes in `HashSlots`: for the readers' caches of a few thousand
/// texts looked up hundreds of thousands of times (a config's price texts, a snapshot's `customerPrice`s), where a
/// `[String: Value]` cost a `Hasher` (SipHash) per lookup.
struct TextTable<Value> {
    private var slots = HashSlots(capacity: 256)
    private var texts: [String] = []
    private var values: [Value] = []

    /// The value kept for `text`, if any.
    func value(for text: String) -> Value? {
        guard let found = text.utf8.withContiguousStorageIfAvailable({ bytes in
            slots.find(hash: HashSlots.hash(bytes)) { texts[$0] == text }
        }), let index = found.index else { return nil }
        return values[index]
    }

    /// Keeps `value` for `text` unless a value is kept for it already. A text without contiguous UTF-8 (never a
    /// native `String`) is not kept.
    mutating func keep(_ value: Value, for text: String) {
        guard let hash = text.utf8.withContiguousStorageIfAvailable({ HashSlots.hash($0) }) else { return }
        let found = slots.find(hash: hash) { texts[$0] == text }
        guard found.index == nil else { return }
        slots.insert(texts.count, hash: hash, at: found.slot)
        texts.append(text)
        values.append(value)
    }
}
