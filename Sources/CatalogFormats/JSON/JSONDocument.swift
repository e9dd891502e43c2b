import CatalogCore
import Foundation

/// A parsed JSON file: the file's bytes, the `JSONTape` over them, and the `SourceText` that turns byte offsets
/// into lines and columns. Values are read through `root`; a reader that keeps locations but not values holds
/// on to `source` alone.
final class JSONDocument {
    /// The path shown in locations.
    var path: String { source.path }
    /// The file's bytes and line tables.
    let source: SourceText
    /// The parsed structure. For a document up to `pinnedLimit` bytes (a page `fetch` writes holds at most 200
    /// resources, well below), its bytes and tape words are copied into memory of its own, which lookups index
    /// through pointers: a reader looks values up millions of times in a big snapshot, and reaching the bytes
    /// through `Data` (whose storage is a class, checked for exclusive access on each reach) and the words through
    /// the tape's array cost more than the lookup itself. A bigger document is read through `Data` and the tape,
    /// so that its bytes are not held twice. A part of a big file handed to a reader (`forEachElement`) indexes
    /// the file's bytes through a pointer borrowed for as long as the reader holds the part, and its own copy of
    /// its tape's words.
    ///
    /// Changed only to end a borrow (`endBorrow()`), on the thread that reads the document: no exclusivity
    /// checks on each lookup (`@exclusivity(unchecked)`), which cost as much as the lookup.
    @exclusivity(unchecked) private var storage: Storage
    static let pinnedLimit = 4 << 20

    private enum Storage {
        /// `bytes` (`count` of them) are the document's own, or borrowed when not `ownsBytes`.
        case pinned(bytes: UnsafeMutableBufferPointer<UInt8>, count: Int, words: UnsafeMutableBufferPointer<UInt64>,
                    ownsBytes: Bool)
        case shared(JSONTape)
    }

    /// The root value.
    var root: JSONValue { JSONValue(document: self, index: 0) }

    /// Parses a file's bytes: UTF-8, or UTF-16 / UTF-32 with a byte order mark (`TextEncoding`). Malformed
    /// JSON, bytes that are not UTF-8, duplicate keys and nesting deeper than 512 levels are errors that name
    /// the line and column.
    convenience init(data: Data, path: String) throws(CatalogReadError) {
        let text = try TextEncoding.utf8Text(data, path: path)
        try self.init(utf8: text.bytes, path: path, isASCII: text.isASCII)
    }

    /// Parses bytes that `TextEncoding.utf8` returned; a document up to `pinnedLimit` bytes is pinned (tests
    /// read one document both ways).
    /// `isASCII`, when the caller knows it, spares `SourceText` a pass over the bytes.
    init(utf8 data: Data, path: String, pinnedLimit: Int = JSONDocument.pinnedLimit,
         isASCII: Bool? = nil) throws(CatalogReadError) {
        let source = SourceText(path: path, bytes: data, isASCII: isASCII)
        let result: Result<JSONTape, JSONSyntaxError> = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) in try JSONTapeParser.parse(raw.bindMemory(to: UInt8.self)) }
        }
        switch result {
        case .success(let tape):
            self.source = source
            // A tape of up to 4 MiB has fewer entries than bytes, far from the 16 M whose extents it keeps aside.
            if data.count <= pinnedLimit, let tapeWords = tape.wordsAlone {
                let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(data.count, 1))
                _ = data.copyBytes(to: bytes)
                storage = .pinned(bytes: bytes, count: data.count, words: Self.copy(tapeWords), ownsBytes: true)
            } else {
                storage = .shared(tape)
            }
        case .failure(let error):
            throw Self.readError(error, in: source)
        }
    }

    /// One value of a file parsed in parts (an element of its top-level array, a member's value), as a document
    /// of its own: its root is the value, its locations are the file's.
    init(element tape: JSONTape, source: SourceText) {
        self.source = source
        storage = .shared(tape)
    }

    /// `init(element:source:)` reading `bytes`, the bytes of `source`, through a pointer that stays valid only
    /// until `endBorrow()`, which the lender calls before the pointer goes.
    init(element tape: JSONTape, source: SourceText, borrowing bytes: UnsafeBufferPointer<UInt8>) {
        self.source = source
        if let tapeWords = tape.wordsAlone, bytes.baseAddress != nil {
            storage = .pinned(bytes: UnsafeMutableBufferPointer(mutating: bytes), count: bytes.count,
                              words: Self.copy(tapeWords), ownsBytes: false)
        } else {
            storage = .shared(tape)
        }
    }

    /// Ends the borrow of `init(element:source:borrowing:)`, called by the lender when a reader has kept the
    /// document past it (none does: a reader keeps records, not documents): the document then reads a copy of
    /// the bytes of its own.
    func endBorrow() {
        guard case .pinned(let borrowed, let count, let words, ownsBytes: false) = storage else { return }
        let bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 1))
        _ = bytes.initialize(from: borrowed)
        storage = .pinned(bytes: bytes, count: count, words: words, ownsBytes: true)
    }

    /// Whether the document reads bytes it has borrowed (`init(element:source:borrowing:)`).
    var isBorrowing: Bool {
        if case .pinned(_, _, _, ownsBytes: false) = storage { return true }
        return false
    }

    private static func copy(_ tapeWords: [UInt64]) -> UnsafeMutableBufferPointer<UInt64> {
        let words = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: max(tapeWords.count, 1))
        _ = words.initialize(from: tapeWords)
        return words
    }

    /// The error of a syntax error (with the repeated keys found before it) in `source`.
    static func readError(_ error: JSONSyntaxError, in source: SourceText) -> CatalogReadError {
        let problems = error.problems.map {
            CatalogReadError("invalid JSON: \($0.message)", at: source.location(ofOffset: $0.offset))
        }
        return CatalogReadError(listing: problems, unlisted: error.unlisted)
            ?? CatalogReadError("invalid JSON: \(error.message)", at: source.location(ofOffset: error.offset))
    }

    /// Parses a resolved file input's bytes (mapped, `ResolvedInput.bytes()`), named by its display path.
    convenience init(_ input: ResolvedInput) throws(CatalogReadError) {
        try self.init(data: input.bytes(), path: input.displayPath)
    }

    /// Reads and parses a file: a regular file is mapped, not copied (the tape refers to its bytes); anything
    /// else, and a file that cannot be mapped, is read as `FileLoading` reads it, with its errors.
    convenience init(contentsOf url: URL, displayPath: String) throws(CatalogReadError) {
        try self.init(data: FileLoading.parsingData(at: url, displayPath: displayPath), path: displayPath)
    }

    /// The location of a value.
    func location(of value: JSONValue) -> SourceLocation {
        source.location(ofOffset: value.offset)
    }

    /// The location of an object member's key.
    func location(of member: JSONMember) -> SourceLocation {
        source.location(ofOffset: member.keyOffset)
    }

    /// An error at a value.
    func error(_ message: String, at value: JSONValue) -> CatalogReadError {
        CatalogReadError(message, at: location(of: value))
    }

    deinit {
        if case .pinned(let bytes, _, let words, let ownsBytes) = storage {
            if ownsBytes { bytes.deallocate() }
            words.deallocate()
        }
    }

    /// Calls `body` with the document's bytes.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storage {
        case .pinned(let bytes, let count, _, _): body(UnsafeBufferPointer(rebasing: bytes[0..<count]))
        case .shared: source.bytes.withUnsafeBytes { body($0.bindMemory(to: UInt8.self)) }
        }
    }

    /// Calls `body` with the document's bytes and the tape's entries, the storage read once: for a loop over many
    /// entries (`storage` may change, so each `entry(at:)` reads it again).
    @inline(__always)
    private func withEntries<Result>(
        _ body: (UnsafeBufferPointer<UInt8>, (Int) -> JSONTape.Entry) -> Result
    ) -> Result {
        switch storage {
        case .pinned(let bytes, let count, let words, _):
            body(UnsafeBufferPointer(rebasing: bytes[0..<count])) { JSONTape.entry(words[$0], at: $0, largeExtent: 0) }
        case .shared(let tape):
            source.bytes.withUnsafeBytes { raw in body(raw.bindMemory(to: UInt8.self)) { tape[$0] } }
        }
    }

    /// The tape's entry at `index`.
    @inline(__always)
    func entry(at index: Int) -> JSONTape.Entry {
        switch storage {
        case .pinned(_, _, let words, _): JSONTape.entry(words[index], at: index, largeExtent: 0)
        case .shared(let tape): tape[index]
        }
    }

    /// The index of the entry after `index` and everything inside it.
    func next(after index: Int) -> Int {
        entry(at: index).next(after: index)
    }

    /// Calls `body` with the bytes from the first character of the value at tape index `index` up to the next
    /// entry's on the tape (or the end of the bytes): the value's text and what separates it from the next value.
    /// Two values whose such bytes are equal are equal. Bytes longer than `limit` are not looked at: `body` gets
    /// nil.
    func withTextAndSeparator<Result>(ofValueAt index: Int, limit: Int,
                                      _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        let following = next(after: index)
        return withBytes { bytes in
            let start = entry(at: index).offset
            let end = following < entryCount ? entry(at: following).offset : bytes.count
            guard end >= start, end - start <= limit, end <= bytes.count else { return body(nil) }
            return body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
    }

    /// Calls `body` with the bytes of each unescaped string that follows a string equal to `key` on the tape, in
    /// order: every value of a member named `key`, anywhere in the document, in one pass over the tape with no
    /// walk of its structure. A string element that follows such a string in an array is passed too, and an
    /// escaped value is not: for a hint (`ASCResourceIndex.prefetch`), not for reading values. Stops when `body`
    /// returns false.
    func forEachString(afterKey key: StaticString, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        let keyBytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
        withBytes { bytes in
            withWords { words in
                // Each word is looked at alone: a whole page's tape is read, thousands of words, most not strings.
                var index = 0
                while index + 1 < words.count {
                    let word = words[index]
                    index += 1
                    guard JSONTape.plainStringLength(word) == keyBytes.count,
                          let length = JSONTape.plainStringLength(words[index]),
                          JSONDocument.string(JSONTape.entry(word, at: index - 1, largeExtent: 0), equals: keyBytes,
                                              in: bytes) else { continue }
                    let valueStart = JSONTape.entry(words[index], at: index, largeExtent: 0).offset + 1
                    guard body(UnsafeBufferPointer(rebasing: bytes[valueStart..<(valueStart + length)])) else {
                        return
                    }
                    index += 1
                }
            }
        }
    }

    /// Calls `body` with the tape's words.
    private func withWords<Result>(_ body: (UnsafeBufferPointer<UInt64>) -> Result) -> Result {
        switch storage {
        case .pinned(_, _, let words, _): body(UnsafeBufferPointer(words))
        case .shared(let tape): tape.withWords(body)
        }
    }

    /// The number of tape entries.
    private var entryCount: Int {
        switch storage {
        case .pinned(_, _, let words, _): words.count
        case .shared(let tape): tape.count
        }
    }

    /// The text of the string entry at `index` (a value or a key), escapes decoded.
    fileprivate func string(at index: Int) -> String {
        withStringBytes(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the UTF-8 bytes of the string entry at `index` (escapes decoded), making no `String`.
    fileprivate func withStringBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let entry = entry(at: index)
        return withBytes { entry.withStringBytes(in: $0, body) }
    }

    /// The source text of the scalar entry at `index`.
    fileprivate func text(at index: Int) -> String {
        let entry = entry(at: index)
        return withBytes { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[entry.offset..<(entry.offset + entry.extent)]),
                   as: UTF8.self)
        }
    }

    /// The tape index of the value of the member named `key` (UTF-8) of the object at `index`, which ends
    /// before `end`; nil when it has none. The loop stays in the document, which holds the tape and the bytes.
    fileprivate func member(_ key: UnsafeBufferPointer<UInt8>, ofObjectAt index: Int, end: Int) -> Int? {
        withEntries { bytes, entry in
            var position = index + 1
            while position < end {
                if JSONDocument.string(entry(position), equals: key, in: bytes) { return position + 1 }
                position = entry(position + 1).next(after: position + 1)
            }
            return nil
        }
    }

    /// Whether the string `entry` is `key`: a byte comparison; only a key with escapes is decoded.
    fileprivate static func string(_ entry: JSONTape.Entry, equals key: UnsafeBufferPointer<UInt8>,
                                   in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start = entry.offset + 1
        if entry.kind == .string {
            guard entry.extent == key.count else { return false }
            guard let base = bytes.baseAddress, let keyBase = key.baseAddress else { return key.isEmpty }
            return memcmp(base + start, keyBase, key.count) == 0
        }
        return JSONStringDecoding.decode(bytes, from: start, count: entry.extent).elementsEqual(key)
    }
}

/// Reading by tape index, for a reader that walks millions of values (the App Store Connect pool): a `JSONValue`
/// holds its document, a reference count for each one made, so none is made until a message needs one.
extension JSONDocument {
    /// The value at tape index `index`.
    func value(at index: Int) -> JSONValue { JSONValue(document: self, index: index) }

    /// The kind of the entry at `index`.
    func kind(at index: Int) -> JSONTape.EntryKind { entry(at: index).kind }

    /// The byte offset of the value at `index`.
    func offset(at index: Int) -> Int { entry(at: index).offset }

    /// The tape index of the value of the member named `key` of the object at `index`; nil when the value is
    /// not an object or has no such member.
    func member(_ key: StaticString, of index: Int) -> Int? {
        let entry = entry(at: index)
        guard entry.kind == .object else { return nil }
        return member(UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount), ofObjectAt: index,
                      end: entry.extent)
    }

    /// The tape indices of the values of the members named `first` and `second` of the object at `index`, found
    /// in one pass over its members (a resource's `type` and `id`, its `attributes` and `relationships`: two
    /// lookups walked the members twice); nil for a key it has not, both nil when the value is not an object.
    func members(_ first: StaticString, _ second: StaticString, of index: Int) -> (first: Int?, second: Int?) {
        let entry = entry(at: index)
        guard entry.kind == .object else { return (nil, nil) }
        let firstKey = UnsafeBufferPointer(start: first.utf8Start, count: first.utf8CodeUnitCount)
        let secondKey = UnsafeBufferPointer(start: second.utf8Start, count: second.utf8CodeUnitCount)
        return withEntries { bytes, entryAt in
            var found: (first: Int?, second: Int?) = (nil, nil)
            var position = index + 1
            while position < entry.extent, found.first == nil || found.second == nil {
                let key = entryAt(position)
                if found.first == nil, JSONDocument.string(key, equals: firstKey, in: bytes) {
                    found.first = position + 1
                } else if found.second == nil, JSONDocument.string(key, equals: secondKey, in: bytes) {
                    found.second = position + 1
                }
                position = entryAt(position + 1).next(after: position + 1)
            }
            return found
        }
    }

    /// `member(_:of:)` for a key given as a `String` (a literal key goes to the `StaticString` form, whose bytes
    /// need no copy).
    func member(named key: String, of index: Int) -> Int? {
        let entry = entry(at: index)
        guard entry.kind == .object else { return nil }
        var key = key
        return key.withUTF8 { member($0, ofObjectAt: index, end: entry.extent) }
    }

    /// The tape index after the container at `index` and everything inside it: its first member's key or first
    /// element is at `index + 1`, the next at `next(after:)` of it (of a member's value, for an object).
    func end(ofContainerAt index: Int) -> Int { entry(at: index).extent }

    /// Calls `body` with the UTF-8 bytes (escapes decoded) of the key at `index` (a member's, whose value is at
    /// `index + 1`).
    func withKeyBytes<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withStringBytes(at: index, body)
    }

    /// Calls `body` with the UTF-8 bytes (escapes decoded) of the string at `index`, a value or a key; nil when it
    /// is not a string.
    func withStringBytes<Result>(ofStringAt index: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        switch entry(at: index).kind {
        case .string, .escapedString: withStringBytes(at: index, body)
        default: nil
        }
    }
}

/// A view of one value of a `JSONDocument` (the document and a tape index): nothing is decoded until asked for.
/// Numbers keep their source text (amounts are read as decimals from it, never through `Double`).
struct JSONValue {
    /// What kind of value a `JSONValue` is.
    enum Kind {
        case object, array, string, number, bool, null
    }

    /// The document the value is in.
    let document: JSONDocument
    /// The value's tape index.
    let index: Int

    private var entry: JSONTape.Entry { document.entry(at: index) }

    /// What kind of value this is.
    var kind: Kind {
        switch entry.kind {
        case .object: .object
        case .array: .array
        case .string, .escapedString: .string
        case .number: .number
        case .true, .false: .bool
        case .null: .null
        }
    }

    /// Byte offset of the value's first character.
    var offset: Int { entry.offset }

    /// The member named `key` of an object (nil for other kinds or a missing key). Keys are compared as
    /// bytes; no key is turned into a `String`.
    subscript(key: String) -> JSONValue? {
        document.member(named: key, of: index).map { JSONValue(document: document, index: $0) }
    }

    /// Whether the value is an object (`members != nil`, without making the members).
    var isObject: Bool { entry.kind == .object }

    /// The members of an object, in document order; nil for other kinds.
    var members: JSONMembers? {
        let entry = entry
        guard entry.kind == .object else { return nil }
        return JSONMembers(document: document, start: index + 1, end: entry.extent)
    }

    /// The elements of an array, in document order; nil for other kinds.
    var elements: JSONElements? {
        let entry = entry
        guard entry.kind == .array else { return nil }
        return JSONElements(document: document, start: index + 1, end: entry.extent)
    }

    /// The text of a string, escapes decoded; nil for other kinds.
    var string: String? {
        switch entry.kind {
        case .string, .escapedString: document.string(at: index)
        default: nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of a string (escapes decoded) without making a `String`; nil for other
    /// kinds.
    func withStringBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        document.withStringBytes(ofStringAt: index, body)
    }

    /// The value of `true` or `false`; nil for other kinds.
    var bool: Bool? {
        switch entry.kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// Whether the value is `null`.
    var isNull: Bool { entry.kind == .null }

    /// The source text of a number, or nil.
    var numberText: String? {
        entry.kind == .number ? document.text(at: index) : nil
    }

    /// A whole number within `Int`, written as a JSON number without a fraction or exponent (read from the
    /// bytes, no text is made).
    var int: Int? {
        let entry = entry
        guard entry.kind == .number else { return nil }
        return document.withBytes { bytes -> Int? in
            var position = entry.offset
            let end = entry.offset + entry.extent
            let negative = bytes[position] == UInt8(ascii: "-")
            if negative { position += 1 }
            var value = 0
            while position < end {
                let byte = bytes[position]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                let digit = Int(byte - 0x30)
                let (scaled, scaleOverflow) = value.multipliedReportingOverflow(by: 10)
                let (next, overflow) = negative ? scaled.subtractingReportingOverflow(digit)
                                                : scaled.addingReportingOverflow(digit)
                guard !scaleOverflow, !overflow else { return nil }
                value = next
                position += 1
            }
            return value
        }
    }

    /// What kind of value this is, for error messages.
    var typeName: String {
        switch kind {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// A value for an error message: scalars quoted (and shortened), containers by kind only.
func describeForMessage(_ value: JSONValue) -> String {
    let number = value.numberText ?? ""
    return switch value.kind {
    case .string: "the string \(quotedForMessage(value.string ?? ""))"
    case .number: "the number \(number.count > 40 ? String(number.prefix(40)) + "…" : number)"
    case .bool: value.bool == true ? "true" : "false"
    case .null: "null"
    case .object: "an object"
    case .array: "an array"
    }
}

/// A key of a JSON object with its value. The key is decoded when asked for.
struct JSONMember {
    /// The document the member is in.
    let document: JSONDocument
    /// The tape index of the key; the value follows it.
    let keyIndex: Int

    /// The key, escapes decoded.
    var key: String { document.string(at: keyIndex) }
    /// Byte offset of the key's opening quote.
    var keyOffset: Int { document.entry(at: keyIndex).offset }
    /// The value.
    var value: JSONValue { JSONValue(document: document, index: keyIndex + 1) }
}

/// The members of an object, walked along the tape.
struct JSONMembers: Sequence {
    let document: JSONDocument
    /// The first key's tape index and the index after the object.
    let start: Int, end: Int

    /// Walks the members in document order.
    struct Iterator: IteratorProtocol {
        let document: JSONDocument
        var position: Int
        let end: Int

        mutating func next() -> JSONMember? {
            guard position < end else { return nil }
            let member = JSONMember(document: document, keyIndex: position)
            position = document.next(after: position + 1)
            return member
        }
    }

    func makeIterator() -> Iterator {
        Iterator(document: document, position: start, end: end)
    }

    /// Whether the object has no members.
    var isEmpty: Bool { start == end }
}

/// The elements of an array, walked along the tape (a forward collection: an element's position is its tape
/// index).
struct JSONElements: Collection {
    let document: JSONDocument
    /// The first element's tape index and the index after the array.
    let start: Int, end: Int

    /// A position in the array: the element's tape index.
    struct Index: Comparable {
        /// The element's tape index (`JSONDocument`'s index readers take it).
        let position: Int

        static func < (lhs: Index, rhs: Index) -> Bool { lhs.position < rhs.position }
    }

    var startIndex: Index { Index(position: start) }
    var endIndex: Index { Index(position: end) }

    func index(after index: Index) -> Index {
        Index(position: document.next(after: index.position))
    }

    subscript(index: Index) -> JSONValue {
        JSONValue(document: document, index: index.position)
    }
}
