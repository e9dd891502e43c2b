/// Quotes a value for an error message: double quotes, with quotes, backslashes and control characters
/// escaped, cut after `limit` characters so a huge value cannot flood the terminal.
func quotedForMessage(_ text: String, limit: Int = 80) -> String {
    var result = "\""
    var count = 0
    for scalar in text.unicodeScalars {
        if count == limit {
            result += "…"
            break
        }
        count += 1
        switch scalar {
        case "\"": result += "\\\""
        case "\\": result += "\\\\"
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case "\r": result += "\\r"
        default:
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
    }
    return result + "\""
}

/// The keys an object holds, for a "not a <format>" message: sorted, quoted, at most `limit` of them then how
/// many more, so a file of another format says what it is without flooding the terminal.
func describeKeysFound(_ keys: [String], limit: Int = 8) -> String {
    guard !keys.isEmpty else { return "the object is empty" }
    let sorted = Set(keys).sorted()
    var text = "keys found: " + sorted.prefix(limit).map { quotedForMessage($0, limit: 40) }.joined(separator: ", ")
    if sorted.count > limit { text += " and \(sorted.count - limit) more" }
    return text
}
