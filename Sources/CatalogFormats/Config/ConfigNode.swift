import CatalogCore

/// A parsed config document, independent of its syntax: the YAML and the JSON form of the internal config are
/// both turned into this tree, so that one validator (`ConfigValidator`) checks both the same way.
///
/// Every node keeps where it starts, and mapping entries where their key starts, as a `ConfigMark` of 8 bytes that
/// the tree's `ConfigSource` turns into a location when a message or the model asks: a big config has hundreds of
/// thousands of nodes, and a `SourceLocation` in each would cost more than the node.
struct ConfigNode {
    /// The shape of a node.
    enum Value {
        /// A mapping, entries in document order (keys are unique: both loaders reject duplicates).
        case mapping([ConfigEntry])
        /// A sequence.
        case sequence([ConfigNode])
        /// A scalar.
        case scalar(ConfigScalar)
    }

    /// The value.
    var value: Value
    /// The file the node was read from.
    let source: ConfigSource
    /// Where the node starts.
    var mark: ConfigMark

    /// Where the node starts.
    var location: SourceLocation { source.location(of: mark) }

    /// The entries of a mapping, or nil.
    var entries: [ConfigEntry]? {
        if case .mapping(let entries) = value { return entries }
        return nil
    }

    /// The elements of a sequence, or nil.
    var elements: [ConfigNode]? {
        if case .sequence(let elements) = value { return elements }
        return nil
    }

    /// The scalar, or nil.
    var scalar: ConfigScalar? {
        if case .scalar(let scalar) = value { return scalar }
        return nil
    }

    /// Whether this is a null (YAML `~`, `null` or nothing; JSON `null`).
    var isNull: Bool { scalar?.isNull ?? false }

    /// How the node reads in an error message: a scalar quoted (`"P0M"`), otherwise its kind (`a mapping`).
    var quoted: String {
        switch value {
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .scalar(let scalar): scalar.quoted
        }
    }
}

/// One `key: value` entry of a mapping.
struct ConfigEntry {
    /// The key, exactly as its source text spells it (YAML keys are never resolved to booleans or numbers).
    var key: String
    /// Where the key starts.
    var keyMark: ConfigMark
    /// The value.
    var value: ConfigNode

    /// Where the key starts.
    var keyLocation: SourceLocation { value.source.location(of: keyMark) }

    /// The entry with a null in place of its value, at the value's place: what a tree keeps of an entry that it
    /// handed to a `ConfigProductSink`.
    var emptied: ConfigEntry {
        ConfigEntry(key: key, keyMark: keyMark,
                    value: ConfigNode(value: .scalar(ConfigScalar(text: "null", kind: .null)), source: value.source,
                                      mark: value.mark))
    }
}

/// Takes the entries of a config's `products` mapping one by one as the parser finishes them, so that the tree of
/// a big config never holds every product at once: of an entry taken, the tree keeps the key, with a null for its
/// value (`ConfigEntry.emptied`).
protocol ConfigProductSink: AnyObject {
    /// Called when the root's `products` mapping opens, with the root's entries before it. False declines every
    /// entry.
    func begin(rootEntries: [ConfigEntry]) -> Bool
    /// Offers one finished product entry, in document order; false leaves it whole in the tree.
    func take(_ entry: ConfigEntry) -> Bool
}

/// Where a node or a key starts, in 8 bytes: a 0-based line and column (YAML, libyaml's marks) or a byte offset
/// (JSON), as its tree's `ConfigSource` reads it.
struct ConfigMark {
    fileprivate let raw: UInt64

    /// A 0-based line and column (from libyaml); beyond 2³² − 1 they stop counting.
    init(line: Int, column: Int) {
        raw = UInt64(UInt32(clamping: line)) << 32 | UInt64(UInt32(clamping: column))
    }

    /// A byte offset into the source text.
    init(offset: Int) {
        raw = UInt64(max(offset, 0))
    }
}

/// The file a `ConfigNode` tree was read from: its path, and for JSON the `SourceText` that turns byte offsets
/// into lines and columns. One per tree, shared by every node.
final class ConfigSource {
    /// The path shown in locations.
    let path: String
    /// The text offsets refer to (JSON), or nil when marks are lines and columns (YAML).
    private let text: SourceText?

    /// A tree whose marks are 0-based lines and columns.
    init(path: String) {
        self.path = path
        text = nil
    }

    /// A tree whose marks are byte offsets into `text`.
    init(text: SourceText) {
        path = text.path
        self.text = text
    }

    /// The 1-based location of a mark.
    func location(of mark: ConfigMark) -> SourceLocation {
        if let text { return text.location(ofOffset: Int(mark.raw)) }
        return SourceLocation(path: path, line: Int(mark.raw >> 32) + 1, column: Int(mark.raw & 0xFFFF_FFFF) + 1)
    }
}

/// A scalar, with enough of its syntax kept to apply the config's typing rules (YAML 1.2 core schema for
/// plain scalars; JSON types as they are).
struct ConfigScalar {
    /// How the scalar was written.
    enum Kind {
        /// A YAML plain (unquoted) scalar: its type follows from its text and where it is used.
        case plain
        /// A string: YAML quoted or block scalar (or `!!str`), JSON string.
        case string
        /// A JSON number (the text is its source text).
        case number
        /// A JSON `true`/`false`.
        case bool
        /// A JSON `null`.
        case null
    }

    /// The source text (for strings, the text after unescaping). Before `kind`, so that the two take 17 bytes.
    var text: String
    /// How it was written.
    var kind: Kind

    /// YAML 1.2 core null (`~`, `null`, `Null`, `NULL`, nothing) or JSON null.
    var isNull: Bool {
        switch kind {
        case .null: true
        case .plain: ["", "~", "null", "Null", "NULL"].contains(text)
        case .string, .number, .bool: false
        }
    }

    /// The boolean value: only `true` and `false` (a YAML plain scalar or a JSON boolean).
    var bool: Bool? {
        switch kind {
        case .plain, .bool:
            switch text {
            case "true": true
            case "false": false
            default: nil
            }
        case .string, .number, .null: nil
        }
    }

    /// A whole number written as a number (YAML plain, JSON number) — never a quoted string.
    var int: Int? {
        switch kind {
        case .plain, .number:
            guard let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= 48 && first <= 57),
                  text.utf8.dropFirst().allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            return Int(text)
        case .string, .bool, .null:
            return nil
        }
    }

    /// The text when the scalar can stand for a string: any YAML scalar but null, or a JSON string.
    var string: String? {
        switch kind {
        case .plain: isNull ? nil : text
        case .string: text
        case .number, .bool, .null: nil
        }
    }

    /// For error messages: the text in double quotes (shortened, control characters escaped), or `null`.
    var quoted: String {
        if isNull { return kind == .null || text.isEmpty ? "null" : "\"\(text)\"" }
        return ConfigScalar.quote(text)
    }

    /// Quotes text for an error message (see `quotedForMessage`), cut after 60 characters.
    static func quote(_ text: String) -> String {
        quotedForMessage(text, limit: 60)
    }
}
