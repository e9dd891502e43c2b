import CatalogCore

/// A parsed config document, independent of its syntax: the YAML and the JSON form of the internal config are
/// both turned into this tree, so that one validator (`ConfigValidator`) checks both the same way.
///
/// Every node keeps where it starts; mapping entries also keep where their key starts.
struct ConfigNode: Sendable {
    /// The shape of a node.
    enum Value: Sendable {
        /// A mapping, entries in document order (keys are unique: both loaders reject duplicates).
        case mapping([ConfigEntry])
        /// A sequence.
        case sequence([ConfigNode])
        /// A scalar.
        case scalar(ConfigScalar)
    }

    /// The value.
    var value: Value
    /// Where the node starts.
    var location: SourceLocation

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
struct ConfigEntry: Sendable {
    /// The key, exactly as its source text spells it (YAML keys are never resolved to booleans or numbers).
    var key: String
    /// Where the key starts.
    var keyLocation: SourceLocation
    /// The value.
    var value: ConfigNode
}

/// A scalar, with enough of its syntax kept to apply the config's typing rules (YAML 1.2 core schema for
/// plain scalars; JSON types as they are).
struct ConfigScalar: Sendable {
    /// How the scalar was written.
    enum Kind: Sendable {
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

    /// How it was written.
    var kind: Kind
    /// The source text (for strings, the text after unescaping).
    var text: String

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
