import CatalogCore

/// Writes indented JSON straight into bytes, one value at a time, in the order the caller gives: the canonical
/// exports pin their key order themselves, so no dictionary, `Encodable` tree or `JSONEncoder` is needed.
///
/// The layout is two-space indentation with `"key" : value`, an empty object or array as `{}` / `[]`. Strings go
/// through `JSONEscaper` only when they hold a byte that needs it, so plain ASCII text is copied as is.
struct PrettyJSONWriter {
    /// The JSON written so far.
    private(set) var bytes: [UInt8] = []
    /// For each open container: whether it has no member yet.
    private var isEmpty: [Bool] = []
    /// True between `key(_:)` and the value it names.
    private var afterKey = false

    init(reservingCapacity capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON text's bytes, ending in a newline.
    mutating func finish() -> [UInt8] {
        bytes.append(0x0A)
        return bytes
    }

    /// Forgets the bytes written so far, keeping their memory, once the caller has written them out: a long text
    /// goes out in chunks.
    mutating func forgetWritten() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        isEmpty.append(true)
    }

    mutating func endObject() {
        end(UInt8(ascii: "}"))
    }

    mutating func beginArray() {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        isEmpty.append(true)
    }

    mutating func endArray() {
        end(UInt8(ascii: "]"))
    }

    /// Starts an object member; its value comes next.
    mutating func key(_ key: String) {
        beginValue()
        appendString(key)
        bytes.append(contentsOf: [0x20, UInt8(ascii: ":"), 0x20])
        afterKey = true
    }

    /// A territory's code as a key: two capital letters, which JSON never escapes, so they are not looked through.
    mutating func territoryKey(_ territory: Territory) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: territory.alpha2.utf8)
        bytes.append(contentsOf: Self.quoteAndColon)
        afterKey = true
    }

    /// What ends a key: its closing quote and ` : `.
    private static let quoteAndColon: [UInt8] = [UInt8(ascii: "\""), 0x20, UInt8(ascii: ":"), 0x20]

    mutating func string(_ value: String) {
        beginValue()
        appendString(value)
    }

    /// `"9.99 USD"`: the money's canonical text, which is ASCII digits, a point, a minus, a space and letters, so
    /// it is not looked through for what JSON escapes.
    mutating func money(_ value: Money) {
        beginValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: value.description.utf8)
        bytes.append(UInt8(ascii: "\""))
    }

    mutating func int(_ value: Int) {
        beginValue()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        beginValue()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `"key" : "value"` when the value is there; nothing otherwise.
    mutating func member(_ name: String, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// `"key" : "9.99 USD"` when the money is there; nothing otherwise.
    mutating func member(_ name: String, _ value: Money?) {
        guard let value else { return }
        key(name)
        money(value)
    }

    mutating func member(_ name: String, _ value: Int?) {
        guard let value else { return }
        key(name)
        int(value)
    }

    mutating func member(_ name: String, _ value: Bool?) {
        guard let value else { return }
        key(name)
        bool(value)
    }

    /// `"key" : ["a", "b"]` when the list is there; nothing otherwise.
    mutating func member(_ name: String, _ values: [String]?) {
        guard let values else { return }
        key(name)
        beginArray()
        for value in values {
            string(value)
        }
        endArray()
    }

    /// `"key" : {"DE" : "…", "US" : "…"}`, each value's `text` by territory code (a territory orders as its code),
    /// when there are entries; nothing otherwise.
    mutating func member<Value>(_ name: String, byTerritory entries: [Territory: Value], _ text: (Value) -> String) {
        member(name, byTerritory: entries) { json, value in json.string(text(value)) }
    }

    /// `"key" : {"DE" : "9.99 EUR", "US" : "9.99 USD"}`: money by territory code, when there are entries.
    mutating func member(_ name: String, byTerritory entries: [Territory: Money]) {
        member(name, byTerritory: entries) { json, value in json.money(value) }
    }

    /// The object of `entries` sorted by territory code, each value written by `write`; nothing when empty.
    private mutating func member<Value>(_ name: String, byTerritory entries: [Territory: Value],
                                        write: (inout PrettyJSONWriter, Value) -> Void) {
        guard !entries.isEmpty else { return }
        key(name)
        beginObject()
        for (territory, value) in entries.sorted(by: { $0.key < $1.key }) {
            territoryKey(territory)
            write(&self, value)
        }
        endObject()
    }

    /// The separator and indentation before a member or element; nothing before an object member's value.
    private mutating func beginValue() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = isEmpty.indices.last else { return }
        if !isEmpty[last] { bytes.append(UInt8(ascii: ",")) }
        isEmpty[last] = false
        newline()
    }

    private mutating func end(_ bracket: UInt8) {
        let wasEmpty = isEmpty.popLast() ?? true
        if !wasEmpty { newline() }
        bytes.append(bracket)
    }

    /// A line feed and a line's indentation: 64 spaces, of which a line takes what its depth needs; a deeper line
    /// takes them again.
    private static let spaces = [UInt8](repeating: 0x20, count: 64)

    private mutating func newline() {
        bytes.append(0x0A)
        var indentation = 2 * isEmpty.count
        while indentation > 0 {
            let count = min(indentation, Self.spaces.count)
            bytes.append(contentsOf: Self.spaces[..<count])
            indentation -= count
        }
    }

    private mutating func appendString(_ text: String) {
        // Printable ASCII other than the quote and the backslash is its own JSON text. A native string's bytes are
        // looked at and copied as one buffer.
        var text = text
        let plain = text.withUTF8 { utf8 -> Bool in
            let escaped = utf8.contains { byte in
                byte < 0x20 || byte >= 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            }
            guard !escaped else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { bytes.append(contentsOf: JSONEscaper.quoted(text).utf8) }
    }
}
