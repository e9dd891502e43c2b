/// Finds where each start tag of an XML document begins (`<` of `<name`), as 1-based line and column.
///
/// libxml2 keeps no column for nodes, and the parser behind `xmlTextReader` runs ahead of the node being read,
/// so neither `xmlTextReaderGetParserLineNumber` nor the node's own line is exactly where a start tag is. This
/// scanner sees the same bytes as libxml2, in the same order (it runs inside the input callback), and records
/// every start tag outside comments, CDATA sections, processing instructions and the DOCTYPE. Elements reach
/// the reader in document order, so the n-th element node is the n-th start tag recorded here; the name is
/// checked (by hash) to catch any disagreement, in which case the caller falls back to libxml2's line numbers.
///
/// Lines count `\n`, `\r\n` and a lone `\r` as one line break, like libxml2; columns count Unicode scalars
/// (UTF-8), like `JSONDocument`. The scanner only understands ASCII-compatible encodings; a UTF-16 or UTF-32
/// document disables it.
struct XMLStartTagScanner {
    /// Where one start tag begins, and a hash of its qualified name.
    struct Mark: Equatable {
        /// 1-based line of the `<`.
        var line: Int
        /// 1-based column of the `<`, in Unicode scalars.
        var column: Int
        /// FNV-1a hash of the qualified name's UTF-8 bytes.
        var nameHash: UInt64
    }

    private enum State {
        case content
        case tagOpen
        case startTagName
        case inStartTag(sawSlash: Bool)
        case attributeValue(quote: UInt8)
        case endTag
        case processingInstruction(inSubset: Bool, sawQuestionMark: Bool)
        case markupDeclarationOpen
        case commentOpen(inSubset: Bool)
        case comment(inSubset: Bool, dashes: Int)
        case cdata(brackets: Int)
        case doctype
        case doctypeQuoted(quote: UInt8)
        case internalSubset
        case subsetMarkupOpen
        case subsetDeclarationOpen
        case subsetDeclaration
        case subsetDeclarationQuoted(quote: UInt8)
    }

    /// False once the scanner cannot follow the document (an encoding it does not read, or a disagreement with
    /// libxml2); positions then come from libxml2.
    private(set) var isReliable = true

    private var state = State.content
    private var line = 1
    private var column = 1
    private var lastWasCarriageReturn = false
    private var bytesSeen = 0
    private var pendingLine = 0
    private var pendingColumn = 0
    private var pendingHash = XMLStartTagScanner.fnvOffset
    private var marks: [Mark] = []
    private var nextMark = 0
    /// Start tags seen so far.
    private(set) var startTagCount = 0
    /// Elements opened and not yet closed in the bytes seen so far (a truncated document ends with some open).
    private(set) var openElementCount = 0

    static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325
    static let fnvPrime: UInt64 = 0x0000_0100_0000_01b3

    /// Hashes a qualified name the way the scanner does.
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash = fnvOffset
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* fnvPrime
        }
        return hash
    }

    /// Recorded start tags not yet taken.
    var pendingMarks: ArraySlice<Mark> { marks[nextMark...] }

    /// Stops using the scanner's positions.
    mutating func giveUp() {
        isReliable = false
        marks = []
        nextMark = 0
    }

    /// The next recorded start tag, if its name hash matches; otherwise the scanner gives up and returns nil.
    mutating func takeMark(nameHash: UInt64) -> Mark? {
        guard isReliable, nextMark < marks.count, marks[nextMark].nameHash == nameHash else {
            giveUp()
            return nil
        }
        let mark = marks[nextMark]
        nextMark += 1
        // Drop consumed marks now and then so memory stays bounded by the parser's look-ahead.
        if nextMark >= 4096, nextMark * 2 >= marks.count {
            marks.removeFirst(nextMark)
            nextMark = 0
        }
        return mark
    }

    /// Feeds the next bytes of the document.
    mutating func consume(_ buffer: UnsafeRawBufferPointer) {
        guard isReliable else { return }
        var start = 0
        if bytesSeen == 0, !buffer.isEmpty {
            // UTF-16 / UTF-32 (BOM or a NUL among the first bytes): not followed.
            if buffer[0] == 0 || buffer[0] == 0xFE || buffer[0] == 0xFF || (buffer.count > 1 && buffer[1] == 0) {
                giveUp()
                return
            }
            // A UTF-8 byte order mark is not a character of line 1.
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                start = 3
            }
        }
        bytesSeen += buffer.count
        var index = start
        let count = buffer.count
        while index < count {
            // Fast path through text and attribute values, the bulk of a document: only positions change.
            let stop: UInt8?
            switch state {
            case .content: stop = UInt8(ascii: "<")
            case .attributeValue(let quote): stop = quote
            case .endTag: stop = UInt8(ascii: ">")
            case .startTagName:
                // Names hold no line breaks and (mostly) ASCII: hash up to the end of the name.
                var hash = pendingHash
                var currentColumn = column
                while index < count, !XMLStartTagScanner.endsName(buffer[index]) {
                    let byte = buffer[index]
                    hash = (hash ^ UInt64(byte)) &* XMLStartTagScanner.fnvPrime
                    if byte & 0xC0 != 0x80 { currentColumn += 1 }
                    index += 1
                }
                pendingHash = hash
                column = currentColumn
                lastWasCarriageReturn = false
                if index == count { return }
                stop = nil
            default: stop = nil
            }
            if let stop {
                var currentLine = line
                var currentColumn = column
                var carriageReturn = lastWasCarriageReturn
                while index < count, buffer[index] != stop {
                    XMLStartTagScanner.advance(buffer[index], line: &currentLine, column: &currentColumn,
                                               lastWasCarriageReturn: &carriageReturn)
                    index += 1
                }
                line = currentLine
                column = currentColumn
                lastWasCarriageReturn = carriageReturn
                if index == count { break }
            }
            step(buffer[index])
            index += 1
        }
    }

    @inline(__always)
    private static func advance(_ byte: UInt8, line: inout Int, column: inout Int, lastWasCarriageReturn: inout Bool) {
        switch byte {
        case 0x0A:
            if !lastWasCarriageReturn { line += 1 }
            column = 1
            lastWasCarriageReturn = false
        case 0x0D:
            line += 1
            column = 1
            lastWasCarriageReturn = true
        default:
            lastWasCarriageReturn = false
            if byte & 0xC0 != 0x80 { column += 1 }
        }
    }

    private mutating func step(_ byte: UInt8) {
        let byteLine = line
        let byteColumn = column
        XMLStartTagScanner.advance(byte, line: &line, column: &column, lastWasCarriageReturn: &lastWasCarriageReturn)

        switch state {
        case .content:
            if byte == UInt8(ascii: "<") {
                pendingLine = byteLine
                pendingColumn = byteColumn
                state = .tagOpen
            }
        case .tagOpen:
            switch byte {
            case UInt8(ascii: "/"): state = .endTag
            case UInt8(ascii: "?"): state = .processingInstruction(inSubset: false, sawQuestionMark: false)
            case UInt8(ascii: "!"): state = .markupDeclarationOpen
            default:
                pendingHash = (XMLStartTagScanner.fnvOffset ^ UInt64(byte)) &* XMLStartTagScanner.fnvPrime
                state = .startTagName
            }
        case .startTagName:
            if XMLStartTagScanner.endsName(byte) {
                marks.append(Mark(line: pendingLine, column: pendingColumn, nameHash: pendingHash))
                startTagCount += 1
                if byte == UInt8(ascii: ">") {
                    openElementCount += 1
                    state = .content
                } else {
                    state = .inStartTag(sawSlash: byte == UInt8(ascii: "/"))
                }
            } else {
                pendingHash = (pendingHash ^ UInt64(byte)) &* XMLStartTagScanner.fnvPrime
            }
        case .inStartTag(let sawSlash):
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .attributeValue(quote: byte)
            case UInt8(ascii: ">"):
                if !sawSlash { openElementCount += 1 }
                state = .content
            case UInt8(ascii: "/"): state = .inStartTag(sawSlash: true)
            case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0A, 0x0D: break
            default: state = .inStartTag(sawSlash: false)
            }
        case .attributeValue(let quote):
            if byte == quote { state = .inStartTag(sawSlash: false) }
        case .endTag:
            if byte == UInt8(ascii: ">") {
                openElementCount -= 1
                state = .content
            }
        case .processingInstruction(let inSubset, let sawQuestionMark):
            if sawQuestionMark, byte == UInt8(ascii: ">") {
                state = inSubset ? .internalSubset : .content
            } else {
                state = .processingInstruction(inSubset: inSubset, sawQuestionMark: byte == UInt8(ascii: "?"))
            }
        case .markupDeclarationOpen:
            switch byte {
            case UInt8(ascii: "-"): state = .commentOpen(inSubset: false)
            case UInt8(ascii: "["): state = .cdata(brackets: 0)
            default: state = .doctype
            }
        case .commentOpen(let inSubset):
            state = .comment(inSubset: inSubset, dashes: 0)
        case .comment(let inSubset, let dashes):
            if byte == UInt8(ascii: "-") {
                state = .comment(inSubset: inSubset, dashes: dashes + 1)
            } else if byte == UInt8(ascii: ">"), dashes >= 2 {
                state = inSubset ? .internalSubset : .content
            } else if dashes != 0 {
                state = .comment(inSubset: inSubset, dashes: 0)
            }
        case .cdata(let brackets):
            if byte == UInt8(ascii: "]") {
                state = .cdata(brackets: brackets + 1)
            } else if byte == UInt8(ascii: ">"), brackets >= 2 {
                state = .content
            } else if brackets != 0 {
                state = .cdata(brackets: 0)
            }
        case .doctype:
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .doctypeQuoted(quote: byte)
            case UInt8(ascii: "["): state = .internalSubset
            case UInt8(ascii: ">"): state = .content
            default: break
            }
        case .doctypeQuoted(let quote):
            if byte == quote { state = .doctype }
        case .internalSubset:
            switch byte {
            case UInt8(ascii: "<"): state = .subsetMarkupOpen
            case UInt8(ascii: "]"): state = .doctype
            default: break
            }
        case .subsetMarkupOpen:
            switch byte {
            case UInt8(ascii: "?"): state = .processingInstruction(inSubset: true, sawQuestionMark: false)
            case UInt8(ascii: "!"): state = .subsetDeclarationOpen
            default: state = .subsetDeclaration
            }
        case .subsetDeclarationOpen:
            state = byte == UInt8(ascii: "-") ? .commentOpen(inSubset: true) : .subsetDeclaration
        case .subsetDeclaration:
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): state = .subsetDeclarationQuoted(quote: byte)
            case UInt8(ascii: ">"): state = .internalSubset
            default: break
            }
        case .subsetDeclarationQuoted(let quote):
            if byte == quote { state = .subsetDeclaration }
        }
    }

    @inline(__always)
    private static func endsName(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), 0x0A, 0x0D, UInt8(ascii: "/"), UInt8(ascii: ">"): true
        default: false
        }
    }
}
