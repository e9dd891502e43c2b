import Foundation

/// A parsed JSON document as one flat array: one 8-byte word per value and per object key, in document order.
/// A container's word says where it ends (how many entries its descendants take), so siblings are a jump
/// apart; a scalar's word says where its text is. No string, number or member list is built while parsing:
/// `JSONValue` reads the bytes when a reader asks for a value.
struct JSONTape {
    /// What an entry is. Object keys are string entries at the member positions of an object.
    enum EntryKind: UInt8, CaseIterable {
        case object, array, string, escapedString, number, `true`, `false`, null

        /// The kind whose raw value is `bits` (0...7, a word's top three bits). There are eight kinds, with the
        /// raw values 0 to 7 in order (a test pins it), so every three bits name one: the bits are the kind.
        @inline(__always)
        static func fromThreeBits(_ bits: UInt8) -> EntryKind {
            unsafeBitCast(bits & 0b111, to: EntryKind.self)
        }
    }

    /// One value or key, decoded from its word.
    struct Entry {
        /// What the entry is.
        let kind: EntryKind
        /// The byte offset of the value's first character (a string's opening quote).
        let offset: Int
        /// For a container the index of the entry after its end; for a scalar its length in bytes (a string's
        /// without the quotes).
        let extent: Int

        /// The index of the entry after this one, at `index`, and everything inside it.
        func next(after index: Int) -> Int {
            switch kind {
            case .object, .array: extent
            default: index + 1
            }
        }

        /// Calls `body` with the UTF-8 bytes of this string entry of `bytes` (escapes decoded), making no `String`.
        func withStringBytes<Result>(in bytes: UnsafeBufferPointer<UInt8>,
                                     _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
            let start = offset + 1
            if kind == .string { return body(UnsafeBufferPointer(rebasing: bytes[start..<(start + extent)])) }
            return JSONStringDecoding.decode(bytes, from: start, count: extent).withUnsafeBufferPointer(body)
        }
    }

    // A word: the kind in the top 3 bits, the offset in the next 37 (files up to 128 GiB), and in the low 24
    // the extent (a container's relative to its own index). An extent that does not fit is kept aside.
    private static let offsetBits: UInt64 = 37
    private static let extentBits: UInt64 = 24
    private static let extentMask: UInt64 = (1 << extentBits) - 1
    /// The largest input the offsets can address.
    static let maximumInput = 1 << Int(offsetBits)

    private var words: [UInt64] = []
    /// Extents of `extentMask` or more, by entry index.
    private var largeExtents: [Int: Int] = [:]

    /// The number of entries; the root is entry 0.
    var count: Int { words.count }

    /// Room for `count` entries. Untouched room costs address space, not memory.
    mutating func reserve(_ count: Int) {
        words.reserveCapacity(count)
    }

    /// Appends an entry: a scalar with its length, or a container to be completed by `close`.
    @inline(__always)
    mutating func append(_ kind: EntryKind, offset: Int, extent: Int = 0) {
        let word = UInt64(kind.rawValue) << (64 - 3) | UInt64(truncatingIfNeeded: offset) << Self.extentBits
        let stored = UInt64(truncatingIfNeeded: extent)
        guard stored >= Self.extentMask else {
            words.append(word | stored)
            return
        }
        words.append(word | Self.extentMask)
        largeExtents[words.count - 1] = extent
    }

    /// Completes the container at `index`: it ends here.
    mutating func close(_ index: Int) {
        setExtent(words.count - index, at: index)
    }

    @inline(__always)
    private mutating func setExtent(_ extent: Int, at index: Int) {
        let stored = UInt64(truncatingIfNeeded: extent)
        if stored < Self.extentMask {
            words[index] = words[index] & ~Self.extentMask | stored
        } else {
            words[index] |= Self.extentMask
            largeExtents[index] = extent
        }
    }

    /// The entry at `index`.
    subscript(index: Int) -> Entry {
        Self.entry(words[index], at: index, largeExtent: largeExtents[index] ?? 0)
    }

    /// The entry that `word`, the word at `index` of a tape, holds; `largeExtent` is read only for an extent kept
    /// aside.
    @inline(__always)
    static func entry(_ word: UInt64, at index: Int, largeExtent: @autoclosure () -> Int) -> Entry {
        let kind = EntryKind.fromThreeBits(UInt8(truncatingIfNeeded: word >> (64 - 3)))
        let offset = Int(truncatingIfNeeded: (word >> extentBits) & ((1 << offsetBits) - 1))
        var extent = Int(truncatingIfNeeded: word & extentMask)
        if extent == extentMask { extent = largeExtent() }
        switch kind {
        case .object, .array: return Entry(kind: kind, offset: offset, extent: index + extent)
        default: return Entry(kind: kind, offset: offset, extent: extent)
        }
    }

    /// The length of the string that `word` holds when it is a string entry without escapes, else nil: read
    /// from the word alone, for a scan of every entry (`JSONDocument.forEachString`). A string of 16 MiB or more,
    /// whose length is kept aside, is nil too.
    @inline(__always)
    static func plainStringLength(_ word: UInt64) -> Int? {
        guard word >> (64 - 3) == UInt64(EntryKind.string.rawValue), word & extentMask != extentMask else {
            return nil
        }
        return Int(truncatingIfNeeded: word & extentMask)
    }

    /// Calls `body` with the entries' words (`plainStringLength`); extents kept aside are not in them.
    func withWords<Result>(_ body: (UnsafeBufferPointer<UInt64>) -> Result) -> Result {
        words.withUnsafeBufferPointer(body)
    }

    /// The words, for a reader that keeps them in memory of its own (`JSONDocument`); nil when an extent is kept
    /// aside, which only a tape of 16 M entries has.
    var wordsAlone: [UInt64]? { largeExtents.isEmpty ? words : nil }

    /// The index of the entry after `index` and everything inside it.
    func next(after index: Int) -> Int {
        self[index].next(after: index)
    }
}

/// What reading a top-level object in parts hands over, in document order, each value as a `Value` of its own: a
/// tape (`JSONTapeParser.parseMembers`) or a document (`JSONDocument.forEachMember`).
enum JSONMemberEvent<Value> {
    /// A member of the top-level object: its key, the key's offset and its value.
    case member(key: String, keyOffset: Int, value: Value)
    /// A member to split opens: its key, the key's offset and the value's; its members or elements follow.
    case splitBegins(key: String, keyOffset: Int, valueOffset: Int)
    /// A member of the object being split, as `member`.
    case splitMember(key: String, keyOffset: Int, value: Value)
    /// An element of the array being split.
    case splitElement(Value)
    /// The split member ends.
    case splitEnds

    /// The same event with its value made by `transform`.
    func map<Other>(_ transform: (Value) -> Other) -> JSONMemberEvent<Other> {
        switch self {
        case .member(let key, let keyOffset, let value): .member(key: key, keyOffset: keyOffset, value: transform(value))
        case .splitBegins(let key, let keyOffset, let valueOffset):
            .splitBegins(key: key, keyOffset: keyOffset, valueOffset: valueOffset)
        case .splitMember(let key, let keyOffset, let value):
            .splitMember(key: key, keyOffset: keyOffset, value: transform(value))
        case .splitElement(let value): .splitElement(transform(value))
        case .splitEnds: .splitEnds
        }
    }
}

extension JSONMemberEvent where Value == JSONTape {
    /// Where the event starts in the file: its key's offset, or its value's for an element; nil for the end of
    /// a split member.
    var offset: Int? {
        switch self {
        case .member(_, let keyOffset, _), .splitBegins(_, let keyOffset, _), .splitMember(_, let keyOffset, _):
            keyOffset
        case .splitElement(let tape): tape[0].offset
        case .splitEnds: nil
        }
    }
}

/// A syntax error: the message and the byte offset it is about, after the repeated keys found before it (all of
/// them are reported, DESIGN.md §5a.1: the first `CatalogReadError.listLimit`, then how many more).
struct JSONSyntaxError: Error {
    let offset: Int
    let message: String
    /// Repeated keys found before this error (or, for a repeated key, after it), in file order.
    var others: [JSONSyntaxError] = []
    /// How many more repeated keys there were than are listed.
    var unlisted = 0

    init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// Every listed problem, in file order.
    var problems: [JSONSyntaxError] { [JSONSyntaxError(offset: offset, message: message)] + others }
}

/// A strict RFC 8259 parser over UTF-8 bytes that writes a `JSONTape`. Strings are checked (escapes, control
/// characters, UTF-8) but not decoded; duplicate keys are found by comparing key bytes, decoding only keys
/// that hold escapes.
struct JSONTapeParser {
    let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var depth = 0
    private var tape = JSONTape()
    /// The keys of the objects being parsed, innermost last (`keys[..<keyCount]`); each object knows where its
    /// own keys start, and drops them by lowering `keyCount`: the array keeps its room and its stale keys, which
    /// are overwritten (dropping them from the array cost more than comparing them).
    private var keys: [JSONKeyBytes] = []
    private var keyCount = 0
    static let maximumDepth = 512
    /// Objects with more members than this look duplicates up in `HashSlots` instead of comparing with each key.
    private static let linearKeyLimit = 16
    /// The first repeated keys, in file order, and how many more: each is reported, and the parsing goes on.
    private var repeatedKeys: [JSONSyntaxError] = []
    /// The entries the last value `parseDetachedValue` parsed took.
    private var detachedRoom = 0
    private var moreRepeatedKeys = 0

    /// A parser of `bytes`, its tape with room for `reserving` entries (by default twice the entries typical
    /// JSON has, an entry per 8 or 9 bytes: room that is mostly never touched).
    init(bytes: UnsafeBufferPointer<UInt8>, reserving: Int? = nil) {
        self.bytes = bytes
        tape.reserve(reserving ?? bytes.count / 4 + 1)
    }

    /// Parses the whole input into a tape.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONTape {
        var parser = JSONTapeParser(bytes: bytes)
        try parser.run { parser throws(JSONSyntaxError) in try parser.parseDocument() }
        return parser.tape
    }

    /// Runs `parse` on this parser; the repeated keys it found are thrown after it (with the error that stopped
    /// it, if any).
    private mutating func run<Result>(
        _ parse: (inout JSONTapeParser) throws(JSONSyntaxError) -> Result
    ) throws(JSONSyntaxError) -> Result {
        let result: Result
        do {
            result = try parse(&self)
        } catch {
            throw repeatedKeys(then: error) ?? error
        }
        if let repeated = repeatedKeys(then: nil) { throw repeated }
        return result
    }

    /// Parses an input whose top level is an array one element at a time, so that no tape of the whole input is
    /// ever held: `element` gets each element's tape (the element is entry 0; offsets are the whole input's) and
    /// its position, and returns whether to go on (false stops the parsing there). Once a key is repeated, no
    /// more elements are handed over, but the input is parsed to its end, so the errors are those `parse` throws
    /// for the whole input. Returns nil, having parsed nothing, when the top level is not an array; else the
    /// array's offset and how many elements it has (up to the one where `element` stopped).
    static func parseElements(_ bytes: UnsafeBufferPointer<UInt8>,
                              _ element: (JSONTape, Int) -> Bool) throws(JSONSyntaxError) -> (offset: Int, count: Int)? {
        var parser = JSONTapeParser(bytes: bytes, reserving: 0)
        return try parser.run { parser throws(JSONSyntaxError) in try parser.parseTopLevelArray(element) }
    }

    private mutating func parseTopLevelArray(_ element: (JSONTape, Int) -> Bool) throws(JSONSyntaxError)
        -> (offset: Int, count: Int)?
    {
        try beginDocument()
        guard bytes[index] == UInt8(ascii: "[") else { return nil }
        let offset = index
        var count = 0
        let completed = try parseElementsOneByOne { this throws(JSONSyntaxError) in
            let value = try this.parseDetachedValue()
            count += 1
            return !this.repeatedKeys.isEmpty || element(value, count - 1)
        }
        if completed { try endDocument() }
        return (offset, count)
    }

    /// What `parseMembers` hands over: each value as a tape of its own (the value is entry 0).
    typealias MemberEvent = JSONMemberEvent<JSONTape>

    /// Which members `parseMembers` splits: those named by one of `keys` whose value is an object (`.object`,
    /// split into its members) or an array (`.array`, into its elements).
    struct Split {
        let keys: [String]
        let container: JSONTape.EntryKind
    }

    /// Parses an input whose top level is an object one member at a time, and the members or elements of a
    /// member `split` names one at a time too, so that no tape of the whole input is held (a config's `products`,
    /// a Play list response's list). `event` returns whether to go on (false stops the parsing there). The rules
    /// of `parseElements` hold: once a key is repeated nothing more is handed over, the input is parsed to its
    /// end, and the errors are those `parse` throws. Returns nil, having parsed nothing, when the top level is not
    /// an object; else its offset.
    static func parseMembers(_ bytes: UnsafeBufferPointer<UInt8>, splitting split: Split,
                             _ event: (MemberEvent) -> Bool) throws(JSONSyntaxError) -> Int? {
        var parser = JSONTapeParser(bytes: bytes, reserving: 0)
        return try parser.run { parser throws(JSONSyntaxError) in
            try parser.parseTopLevelObject(splitting: split, event)
        }
    }

    private mutating func parseTopLevelObject(splitting split: Split,
                                              _ event: (MemberEvent) -> Bool) throws(JSONSyntaxError) -> Int? {
        try beginDocument()
        guard bytes[index] == UInt8(ascii: "{") else { return nil }
        let offset = index
        let opening = UInt8(ascii: split.container == .object ? "{" : "[")
        let splitKeys = split.keys.map { Array($0.utf8) }
        // An event is handed over while no key is repeated; false from `event` stops the parsing.
        func hand(_ this: borrowing JSONTapeParser, _ parsed: @autoclosure () -> MemberEvent) -> Bool {
            !this.repeatedKeys.isEmpty || event(parsed())
        }
        let completed = try parseMembersOneByOne { this, key, keyOffset throws(JSONSyntaxError) in
            let splits = this.index < this.bytes.count && this.bytes[this.index] == opening && splitKeys.contains {
                $0.withUnsafeBufferPointer { key == JSONKeyBytes(raw: $0, escaped: false) }
            }
            guard splits else {
                let value = try this.parseDetachedValue()
                return hand(this, .member(key: key.text, keyOffset: keyOffset, value: value))
            }
            guard hand(this, .splitBegins(key: key.text, keyOffset: keyOffset, valueOffset: this.index)) else {
                return false
            }
            let completed = if split.container == .object {
                try this.parseMembersOneByOne { this, key, keyOffset throws(JSONSyntaxError) in
                    let value = try this.parseDetachedValue()
                    return hand(this, .splitMember(key: key.text, keyOffset: keyOffset, value: value))
                }
            } else {
                try this.parseElementsOneByOne { this throws(JSONSyntaxError) in
                    let value = try this.parseDetachedValue()
                    return hand(this, .splitElement(value))
                }
            }
            return completed && hand(this, .splitEnds)
        }
        if completed { try endDocument() }
        return offset
    }

    /// Parses the object at `index` as `parseObject` does, but puts neither it nor its keys on the tape: `member`
    /// parses each member's value, with the parser at the value, and returns whether to go on. Returns whether
    /// the object was parsed to its end.
    private mutating func parseMembersOneByOne(
        _ member: (inout JSONTapeParser, JSONKeyBytes, Int) throws(JSONSyntaxError) -> Bool
    ) throws(JSONSyntaxError) -> Bool {
        guard try openDetached(closing: "}") else { return true }
        let firstKey = keyCount
        defer { keyCount = firstKey }
        var keySlots: HashSlots?
        while true {
            let (key, keyOffset) = try parseKey(firstKey: firstKey, keySlots: &keySlots, onTape: false)
            guard try member(&self, key, keyOffset) else { return false }
            if try atEnd(of: "}") { break }
        }
        depth -= 1
        return true
    }

    /// Parses the array at `index` as `parseArray` does, but puts nothing of it on the tape: `element` parses each
    /// element, with the parser at it, and returns whether to go on. Returns whether the array was parsed to its
    /// end.
    private mutating func parseElementsOneByOne(
        _ element: (inout JSONTapeParser) throws(JSONSyntaxError) -> Bool
    ) throws(JSONSyntaxError) -> Bool {
        guard try openDetached(closing: "]") else { return true }
        while true {
            skipWhitespace()
            guard try element(&self) else { return false }
            if try atEnd(of: "]") { break }
        }
        depth -= 1
        return true
    }

    /// Opens the container at `index` as `open` does, without its entry: false when it is empty (and closed).
    private mutating func openDetached(closing: Unicode.Scalar) throws(JSONSyntaxError) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: closing) else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// Parses the value at `index` into a tape of its own (the value is entry 0), with room for as many entries as
    /// the last one took: the elements of one export, the products of one config, are much alike.
    private mutating func parseDetachedValue() throws(JSONSyntaxError) -> JSONTape {
        tape = JSONTape()
        tape.reserve(detachedRoom)
        try parseValue()
        let value = tape
        tape = JSONTape()
        detachedRoom = value.count
        return value
    }

    /// The repeated keys found, followed by `error` (the one that stopped the parsing, if any), as one error;
    /// nil when no key was repeated.
    private func repeatedKeys(then error: JSONSyntaxError?) -> JSONSyntaxError? {
        guard var combined = repeatedKeys.first else { return nil }
        combined.others = Array(repeatedKeys.dropFirst()) + (error.map { [$0] } ?? [])
        combined.unlisted = moreRepeatedKeys
        return combined
    }

    /// Notes a repeated key; only the listed ones are worded, so a million repeats cost a count each.
    private mutating func noteRepeated(_ key: JSONKeyBytes, at offset: Int) {
        if repeatedKeys.count < CatalogReadError.listLimit {
            repeatedKeys.append(JSONSyntaxError(offset: offset, message: "duplicate key \"\(key.text)\""))
        } else {
            moreRepeatedKeys += 1
        }
    }

    private mutating func parseDocument() throws(JSONSyntaxError) {
        try beginDocument()
        try parseValue()
        try endDocument()
    }

    /// Checks the input's size and goes to its first value (there must be one).
    private mutating func beginDocument() throws(JSONSyntaxError) {
        guard bytes.count < JSONTape.maximumInput else {
            throw JSONSyntaxError(offset: 0, message: "the file is larger than 128 GiB")
        }
        skipWhitespace()
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "the file is empty")
        }
    }

    /// After the top-level value: nothing but whitespace may follow.
    private mutating func endDocument() throws(JSONSyntaxError) {
        skipWhitespace()
        guard index == bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()) after the end of the document")
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func describeHere() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }

    private mutating func parseValue() throws(JSONSyntaxError) {
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of file, expected a value")
        }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""):
            let escaped = try parseString()
            tape.append(escaped ? .escapedString : .string, offset: start, extent: index - start - 2)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            tape.append(.true, offset: start, extent: 4)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            tape.append(.false, offset: start, extent: 5)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            tape.append(.null, offset: start, extent: 4)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try parseNumber()
            tape.append(.number, offset: start, extent: index - start)
        default:
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected a value")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else {
            throw JSONSyntaxError(offset: start, message: "invalid literal, expected '\(literal)'")
        }
        for offset in 0..<count where bytes[index + offset] != literal.utf8Start[offset] {
            throw JSONSyntaxError(offset: start, message: "invalid literal, expected '\(literal)'")
        }
        index += count
    }

    @inline(__always)
    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > JSONTapeParser.maximumDepth {
            throw JSONSyntaxError(offset: index, message: "nesting deeper than \(JSONTapeParser.maximumDepth) levels")
        }
    }

    /// Steps into a container at its opening bracket and appends its entry, to be completed by `close`; nil
    /// for an empty container, which is then already closed.
    @inline(__always)
    private mutating func open(_ kind: JSONTape.EntryKind, closing: Unicode.Scalar) throws(JSONSyntaxError) -> Int? {
        tape.append(kind, offset: index)
        let entry = tape.count - 1
        try enter()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: closing) else { return entry }
        index += 1
        close(entry)
        return nil
    }

    private mutating func close(_ entry: Int) {
        tape.close(entry)
        depth -= 1
    }

    private mutating func parseObject() throws(JSONSyntaxError) {
        guard let entry = try open(.object, closing: "}") else { return }
        let firstKey = keyCount
        defer { keyCount = firstKey }
        var keySlots: HashSlots?
        while true {
            _ = try parseKey(firstKey: firstKey, keySlots: &keySlots, onTape: true)
            try parseValue()
            if try atEnd(of: "}") {
                close(entry)
                return
            }
        }
    }

    /// Parses a member's key (its entry appended to the tape when `onTape`), the colon and the whitespace after
    /// it; a key the object's (`keys` from `firstKey` on, found through `keySlots` once there are many) already
    /// has is noted as repeated. Returns the key and its offset.
    @inline(__always)
    private mutating func parseKey(firstKey: Int, keySlots: inout HashSlots?,
                                   onTape: Bool) throws(JSONSyntaxError) -> (key: JSONKeyBytes, offset: Int) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected a key in quotes")
        }
        let keyOffset = index
        let escaped = try parseString()
        if onTape { tape.append(escaped ? .escapedString : .string, offset: keyOffset, extent: index - keyOffset - 2) }
        let key = JSONKeyBytes(raw: UnsafeBufferPointer(rebasing: bytes[(keyOffset + 1)..<(index - 1)]),
                               escaped: escaped, followedWithin: bytes)
        let memberCount = keyCount - firstKey
        let repeated: Bool
        if memberCount < JSONTapeParser.linearKeyLimit {
            repeated = keys.withUnsafeBufferPointer { keys in
                for earlier in firstKey..<keyCount where keys[earlier] == key { return true }
                return false
            }
        } else {
            // Made for an object once it has many members (none for most). The slots hold positions in `keys`:
            // a nested object's keys go after this object's, which stay in place. `HashSlots` and its byte hash,
            // not a `Set` with a `Hasher` per key: a config's 175 territories a price map.
            var slots = keySlots ?? slots(ofKeysAt: firstKey..<keyCount)
            keySlots = nil
            let hash = key.slotHash
            let found = keys.withUnsafeBufferPointer { keys in slots.find(hash: hash) { keys[$0] == key } }
            repeated = found.index != nil
            if !repeated { slots.insert(keyCount, hash: hash, at: found.slot) }
            keySlots = slots
        }
        if repeated {
            noteRepeated(key, at: keyOffset)
        } else {
            if keyCount < keys.count {
                keys[keyCount] = key
            } else {
                keys.append(key)
            }
            keyCount += 1
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw JSONSyntaxError(offset: index,
                                  message: "unexpected \(describeHere()), expected ':' after key \"\(key.text)\"")
        }
        index += 1
        skipWhitespace()
        return (key, keyOffset)
    }

    /// The slots of the keys at `positions` in `keys` (an object's, none repeated).
    private func slots(ofKeysAt positions: Range<Int>) -> HashSlots {
        var slots = HashSlots(capacity: 64)
        for position in positions {
            let hash = keys[position].slotHash
            slots.insert(position, hash: hash, at: slots.find(hash: hash) { _ in false }.slot)
        }
        return slots
    }

    private mutating func parseArray() throws(JSONSyntaxError) {
        guard let entry = try open(.array, closing: "]") else { return }
        while true {
            skipWhitespace()
            try parseValue()
            if try atEnd(of: "]") {
                close(entry)
                return
            }
        }
    }

    /// After a member or an element: consumes a comma (false) or the closing bracket (true).
    @inline(__always)
    private mutating func atEnd(of closing: Unicode.Scalar) throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else {
            throw JSONSyntaxError(offset: index, message: "unexpected end of file, expected ',' or '\(closing)'")
        }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            return false
        case UInt8(ascii: closing):
            index += 1
            return true
        default:
            throw JSONSyntaxError(offset: index, message: "unexpected \(describeHere()), expected ',' or '\(closing)'")
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return index - start
    }

    private mutating func parseNumber() throws(JSONSyntaxError) {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits()
        guard integerDigits > 0 else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw JSONSyntaxError(offset: start, message: "invalid number: leading zero")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        }
    }

    /// Checks a string from its opening quote to past its closing quote; returns whether it holds escapes.
    /// Invalid UTF-8 is reported at the closing quote, after every other error inside the string, as the
    /// decoding parser before this one did.
    @inline(__always)
    private mutating func parseString() throws(JSONSyntaxError) -> Bool {
        let start = index
        index += 1
        let contentStart = index
        var escaped = false
        var nonASCII = false
        while index < bytes.count {
            index = Self.plainRunEnd(in: bytes, from: index)
            guard index < bytes.count else { break }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let content = UnsafeBufferPointer(rebasing: bytes[contentStart..<index])
                index += 1
                // The escapes are ASCII and decode to whole characters, so the raw bytes are valid UTF-8
                // exactly when the decoded ones are.
                if nonASCII, String(validating: content, as: UTF8.self) == nil {
                    throw JSONSyntaxError(offset: start, message: "string is not valid UTF-8")
                }
                return escaped
            case UInt8(ascii: "\\"):
                escaped = true
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                     UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                case UInt8(ascii: "u"):
                    try parseUnicodeEscape()
                default:
                    throw JSONSyntaxError(offset: index - 2, message: "invalid escape in string")
                }
            default:
                if byte < 0x20 {
                    throw JSONSyntaxError(offset: index, message: "control character in string")
                }
                if byte >= 0x80 { nonASCII = true }
                index += 1
            }
        }
        throw JSONSyntaxError(offset: start, message: "unterminated string")
    }

    /// The index of the first byte at or after `start` that is not plain string content — a quote, a backslash, a
    /// control character or a byte of a non-ASCII character — or `bytes.count`: eight bytes at a time, the bytes
    /// of one word tested together (ids and URLs, most of an App Store Connect page, are long runs of plain ASCII).
    @inline(__always)
    static func plainRunEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = start
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            // A byte's high bit is set in `special` when the byte is below 0x20 (the borrow of `word - 0x20…`
            // reaches a byte's high bit only when it or a lower byte is below 0x20), a quote or a backslash (the
            // same test on `word` XOR the character, zero there), or 0x80 or more. Above the lowest flagged
            // byte a borrow may flag more, never below it, so the lowest is exact.
            let quotes = word ^ (ones &* 0x22)
            let backslashes = word ^ (ones &* 0x5C)
            let special = ((word &- ones &* 0x20) | (quotes &- ones) | (backslashes &- ones)) & ~word & highs
                | word & highs
            if special != 0 { return index + special.trailingZeroBitCount / 8 }
            index += 8
        }
        while index < bytes.count {
            let byte = base[index]
            if byte < 0x20 || byte >= 0x80 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return index }
            index += 1
        }
        return index
    }

    /// Checks the `XXXX` of a `\u` escape (and the low half that must follow a high surrogate).
    private mutating func parseUnicodeEscape() throws(JSONSyntaxError) {
        let scalar = try parseHex4()
        if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw JSONSyntaxError(offset: index, message: "unpaired surrogate in string")
            }
            index += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else {
                throw JSONSyntaxError(offset: index, message: "unpaired surrogate in string")
            }
        } else if (0xDC00...0xDFFF).contains(scalar) {
            throw JSONSyntaxError(offset: index, message: "unpaired surrogate in string")
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else {
            throw JSONSyntaxError(offset: index, message: "invalid \\u escape")
        }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = JSONStringDecoding.hexDigit(bytes[index]) else {
                throw JSONSyntaxError(offset: index, message: "invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}

/// An object key for the duplicate check: the raw bytes between the quotes, compared as they are unless the key
/// holds escapes, which are decoded for comparing (rare), so `"a"` and `"\u0061"` are the same key. A plain
/// value: keys are compared in the parser's inner loop, where reference counting would cost more than the bytes.
struct JSONKeyBytes: Equatable {
    private let raw: UnsafeBufferPointer<UInt8>
    private let escaped: Bool
    /// The raw bytes' first eight (fewer for a shorter key, the rest zero): two keys without escapes whose heads
    /// differ differ, so most comparisons in an object's keys end without reading the keys' bytes.
    private let head: UInt64

    init(raw: UnsafeBufferPointer<UInt8>, escaped: Bool) {
        self.raw = raw
        self.escaped = escaped
        head = Self.head(of: raw, readable: raw.count)
    }

    /// A key whose bytes lie in `input` (the parser's): eight bytes are read at once, also past a short key's end
    /// when the input goes on that far, and masked to the key's.
    @inline(__always)
    init(raw: UnsafeBufferPointer<UInt8>, escaped: Bool, followedWithin input: UnsafeBufferPointer<UInt8>) {
        self.raw = raw
        self.escaped = escaped
        var readable = raw.count
        if let start = input.baseAddress, let key = raw.baseAddress { readable = input.count - start.distance(to: key) }
        head = Self.head(of: raw, readable: readable)
    }

    /// The first eight bytes of `raw` (fewer, the rest zero), of which `readable` bytes from its start may be read.
    @inline(__always)
    private static func head(of raw: UnsafeBufferPointer<UInt8>, readable: Int) -> UInt64 {
        guard let base = raw.baseAddress else { return 0 }
        if readable >= 8 {
            let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self))
            return raw.count >= 8 ? word : word & ((1 << (8 * UInt64(raw.count))) - 1)
        }
        var head: UInt64 = 0
        for index in 0..<min(raw.count, 8) { head |= UInt64(base[index]) << (8 * UInt64(index)) }
        return head
    }

    private func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        guard escaped else { return body(raw) }
        return JSONStringDecoding.decode(raw, from: 0, count: raw.count).withUnsafeBufferPointer(body)
    }

    /// The key as text, for a message.
    var text: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    static func == (lhs: JSONKeyBytes, rhs: JSONKeyBytes) -> Bool {
        if !lhs.escaped, !rhs.escaped {
            guard lhs.head == rhs.head, lhs.raw.count == rhs.raw.count else { return false }
            // Keys of eight bytes or fewer are their heads.
            if lhs.raw.count <= 8 { return true }
            guard let left = lhs.raw.baseAddress, let right = rhs.raw.baseAddress else { return true }
            return memcmp(left, right, lhs.raw.count) == 0
        }
        return lhs.withBytes { left in rhs.withBytes { right in left.elementsEqual(right) } }
    }

    /// The hash `HashSlots` files the key under: of its bytes with escapes decoded, as `==` compares them.
    var slotHash: Int { withBytes { HashSlots.hash($0) } }
}

/// Decoding the content of a string that `JSONTapeParser` has checked.
enum JSONStringDecoding {
    /// The value of a hexadecimal digit.
    static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }

    /// The UTF-8 bytes of the string whose content (between the quotes) is `count` bytes at `start`, escapes
    /// decoded. The content was checked while parsing; anything unexpected is copied as it is.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var index = start
        let end = start + count
        func hex4(at position: Int) -> UInt32? {
            guard position + 4 <= end else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                guard let digit = hexDigit(bytes[position + offset]) else { return nil }
                value = value * 16 + digit
            }
            return value
        }
        while index < end {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < end else {
                result.append(byte)
                index += 1
                continue
            }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): result.append(0x08)
            case UInt8(ascii: "f"): result.append(0x0C)
            case UInt8(ascii: "n"): result.append(0x0A)
            case UInt8(ascii: "r"): result.append(0x0D)
            case UInt8(ascii: "t"): result.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4(at: index) else { continue }
                index += 4
                if (0xD800...0xDBFF).contains(scalar), let low = hex4(at: index + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                if let unicode = Unicode.Scalar(scalar) { UTF8.encode(unicode) { result.append($0) } }
            default: result.append(escape)
            }
        }
        return result
    }
}
