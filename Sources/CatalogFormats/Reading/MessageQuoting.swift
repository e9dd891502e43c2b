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
