/// Writes YAML scalars: plain where that is unambiguous for every YAML reader (1.1 and 1.2), double-quoted
/// with escapes otherwise.
enum YAMLEscaper {
    /// Words YAML 1.1 or 1.2 readers turn into booleans or null.
    private static let specialWords: Set<String> = ["y", "yes", "n", "no", "true", "false", "on", "off", "null", "~"]

    /// `text` as a YAML scalar: plain when safe, else double-quoted.
    static func scalar(_ text: String) -> String {
        needsQuotes(text) ? doubleQuoted(text) : text
    }

    /// Whether a written scalar may stand as an implicit key (`key: value`): YAML limits an implicit key to 1,024
    /// characters (libyaml counts from the key to its `:`), so a longer one must be an explicit key (`? key`).
    /// The margin keeps every count of "characters" (scalars or bytes) under the limit.
    static func fitsImplicitKey(_ written: String) -> Bool {
        written.utf8.count <= 1_000
    }

    /// Whether `text` must be quoted to read back as the same string.
    static func needsQuotes(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last else { return true }
        guard isWordCharacter(first) || first == "_", last != " " else { return true }
        if specialWords.contains(text.lowercased()) { return true }
        // Numbers, dates and times all start with a digit and hold no space.
        if ("0"..."9").contains(first), !text.contains(" ") { return true }
        for scalar in text.unicodeScalars {
            switch scalar {
            case ".", "_", "-", "/", "(", ")", "+", " ":
                continue
            default:
                if !isWordCharacter(scalar) { return true }
            }
        }
        return false
    }

    /// A double-quoted YAML string with every special and non-printable character escaped, and every invisible
    /// format character (zero-width space, bidi controls: Unicode Cf) too: YAML prints them raw, and an
    /// exported ID holding one would read like the ID without it (DESIGN.md §6).
    static func doubleQuoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            case "\u{85}": result += "\\N"
            case "\u{2028}": result += "\\L"
            case "\u{2029}": result += "\\P"
            default:
                if isPrintable(scalar), scalar.properties.generalCategory != .format {
                    result.unicodeScalars.append(scalar)
                } else if scalar.value <= 0xFF {
                    result += "\\x" + hex(scalar.value, width: 2)
                } else if scalar.value <= 0xFFFF {
                    result += "\\u" + hex(scalar.value, width: 4)
                } else {
                    result += "\\U" + hex(scalar.value, width: 8)
                }
            }
        }
        return result + "\""
    }

    /// YAML's printable set (c-printable): tab, line breaks, ASCII from space, and most of Unicode.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// ASCII letters and digits, and non-ASCII letters, marks and digits.
    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case 0...0x7F: return false
        default:
            let properties = scalar.properties
            return properties.isAlphabetic || properties.numericType != nil
        }
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
