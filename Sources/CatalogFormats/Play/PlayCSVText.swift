import CatalogCore
import Foundation

/// Checks that a CSV file is text the CSV library can split faithfully, before it is handed to it.
///
/// yaslab CSV.swift splits records and unescapes fields (RFC 4180 quoting, CR / LF / CRLF), but it is lenient:
/// an unterminated quoted field silently runs to the end of the file and text after a closing quote is mangled,
/// and it reports no positions. So this check rejects binary data, invalid UTF-8, an unterminated quote and
/// text after a closing quote, naming the line and column; the reader then counts lines from the records the
/// library returns (one per record, plus the line breaks inside its quoted fields).
enum PlayCSVText {
    /// Decodes the file as UTF-8 text (UTF-16 / UTF-32 with a byte order mark are transcoded, the mark is
    /// dropped) or throws naming a NUL byte (binary data) or the first byte that is not UTF-8.
    static func decode(_ data: Data, path: String) throws(CatalogReadError) -> String {
        let bytes = try TextEncoding.withoutByteOrderMark(data, path: path)
        if let nul = bytes.firstIndex(of: 0) {
            throw CatalogReadError("not a CSV text file: binary data (a NUL byte)",
                                   at: location(ofOffset: nul - bytes.startIndex, in: bytes, path: path))
        }
        try TextEncoding.validateUTF8(bytes, path: path)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Checks RFC 4180 quoting: a quote opens a quoted field only at the start of a field, `""` inside it is
    /// a quote, and the closing quote is followed by a comma, a line break or the end of the file.
    static func checkQuoting(_ text: String, path: String) throws(CatalogReadError) {
        let scalars = Array(text.unicodeScalars)
        var line = 1
        var column = 1
        var atFieldStart = true
        var inQuotes = false
        var afterClosingQuote = false
        var openedAt = (line: 1, column: 1)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next: Unicode.Scalar? = index + 1 < scalars.count ? scalars[index + 1] : nil
            if inQuotes {
                if scalar == "\"" {
                    if next == "\"" {
                        index += 2
                        column += 2
                        continue
                    }
                    inQuotes = false
                    afterClosingQuote = true
                }
            } else if afterClosingQuote, scalar != ",", scalar != "\r", scalar != "\n" {
                throw CatalogReadError("malformed CSV: text after the closing quote of a quoted field",
                                       at: SourceLocation(path: path, line: line, column: column))
            } else {
                afterClosingQuote = false
                switch scalar {
                case "\"" where atFieldStart:
                    inQuotes = true
                    openedAt = (line, column)
                    atFieldStart = false
                case ",", "\r", "\n":
                    atFieldStart = true
                default:
                    atFieldStart = false
                }
            }
            // Line breaks: LF, CRLF (counted at its LF) or a lone CR, inside quotes or not.
            if scalar == "\n" || (scalar == "\r" && next != "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += 1
        }
        if inQuotes {
            throw CatalogReadError("malformed CSV: a quoted field is not closed before the end of the file",
                                   at: SourceLocation(path: path, line: openedAt.line, column: openedAt.column))
        }
    }

    /// How many line breaks a field holds (LF, CRLF or a lone CR), to number the lines of the records after it.
    static func lineBreaks(in field: String) -> Int {
        var count = 0
        var previousWasCR = false
        for scalar in field.unicodeScalars {
            switch scalar {
            case "\r":
                count += 1
                previousWasCR = true
            case "\n":
                if !previousWasCR { count += 1 }
                previousWasCR = false
            default:
                previousWasCR = false
            }
        }
        return count
    }

    private static func location(ofOffset offset: Int, in bytes: Data, path: String) -> SourceLocation {
        let line = bytes.prefix(offset).reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        return SourceLocation(path: path, line: line)
    }
}
