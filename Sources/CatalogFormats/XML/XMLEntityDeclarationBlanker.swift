/// Rewrites the entity declarations of a document's internal subset so that every declared entity is an
/// internal entity with empty replacement text, before libxml2 sees the bytes (DESIGN.md §5a 14).
///
/// libxml2 parses an entity's replacement text at its first reference, even without substitution, and its
/// amplification guard refuses four levels of nested declarations as an "entity reference loop". Blanking the
/// declarations makes every reference expand to nothing at any depth, in text and in attribute values; nothing
/// of an entity's text is ever parsed, so it can reach neither memory nor a message, and an external entity
/// becomes an internal one that cannot load anything.
///
/// `<!ENTITY name "value">` becomes `<!ENTITY name ""       >`, `<!ENTITY name SYSTEM "uri">` becomes
/// `<!ENTITY name ""           >` (parameter entities alike). The definition's first byte is replaced by `""`
/// and its next byte other than a line break is dropped, every other byte up to the closing `>` becomes a
/// space, and line breaks stay: lines and the total length never change, so every position after the
/// declaration is exact (a column inside the declaration's own lines may shift by one). The predefined
/// entities (`lt`, `gt`, `amp`, `apos`, `quot`) keep their declarations: libxml2 ignores a redeclaration and
/// refuses an empty one.
///
/// The rewriter stops at the root element's start tag; it reads ASCII-compatible encodings only (UTF-16 and
/// UTF-32 documents are transcoded to UTF-8 before, `XMLDocumentBytes`).
struct XMLEntityDeclarationBlanker {
    private enum State {
        case prolog
        case prologMarkupOpen
        case prologBang
        case processingInstruction(inSubset: Bool, sawQuestionMark: Bool)
        case comment(inSubset: Bool, dashes: Int, opened: Bool)
        case doctype(quote: UInt8?)
        case internalSubset
        case subsetMarkupOpen
        case subsetBang
        case keyword(matched: Int)
        case declaration(quote: UInt8?)
        case entityBeforeName
        case entityName
        case entityBeforeDefinition
        case entityDefinition(quote: UInt8?)
        case predefinedEntityDefinition(quote: UInt8?)
        case afterSubset
    }

    private static let entityKeyword = Array("ENTITY".utf8)
    private static let predefinedNames: Set<[UInt8]> = [
        Array("lt".utf8), Array("gt".utf8), Array("amp".utf8), Array("apos".utf8), Array("quot".utf8),
    ]

    private var state = State.prolog
    private var name: [UInt8] = []
    private var owesDrop = false
    /// True once the rest of the document passes through unchanged: the root element has begun or the DOCTYPE
    /// has ended.
    private(set) var isFinished = false

    /// Rewrites the next bytes of the document, appending the result to `output`.
    mutating func rewrite(_ input: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        var index = 0
        while index < input.count, !isFinished {
            step(input[index], into: &output)
            index += 1
        }
        if index < input.count {
            output.append(contentsOf: input[index...])
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isQuote(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }

    /// The state after a quote-aware byte inside a declaration: the quote that is open afterwards.
    private static func quote(after byte: UInt8, open quote: UInt8?) -> UInt8? {
        if let quote { return byte == quote ? nil : quote }
        return isQuote(byte) ? byte : nil
    }

    /// One byte of the prolog, appended to `output` as it stays or as it is rewritten.
    private mutating func step(_ byte: UInt8, into output: inout [UInt8]) {
        switch state {
        case .prolog:
            if byte == UInt8(ascii: "<") { state = .prologMarkupOpen }
        case .prologMarkupOpen:
            switch byte {
            case UInt8(ascii: "?"): state = .processingInstruction(inSubset: false, sawQuestionMark: false)
            case UInt8(ascii: "!"): state = .prologBang
            default: isFinished = true  // the root element: nothing after it is rewritten
            }
        case .prologBang:
            state = byte == UInt8(ascii: "-") ? .comment(inSubset: false, dashes: 0, opened: false)
                : .doctype(quote: nil)
        case .processingInstruction(let inSubset, let sawQuestionMark):
            if sawQuestionMark, byte == UInt8(ascii: ">") {
                state = inSubset ? .internalSubset : .prolog
            } else {
                state = .processingInstruction(inSubset: inSubset, sawQuestionMark: byte == UInt8(ascii: "?"))
            }
        case .comment(let inSubset, let dashes, let opened):
            if !opened {
                // The second dash of `<!--`.
                state = .comment(inSubset: inSubset, dashes: 0, opened: true)
            } else if byte == UInt8(ascii: "-") {
                state = .comment(inSubset: inSubset, dashes: dashes + 1, opened: true)
            } else if byte == UInt8(ascii: ">"), dashes >= 2 {
                state = inSubset ? .internalSubset : .prolog
            } else {
                state = .comment(inSubset: inSubset, dashes: 0, opened: true)
            }
        case .doctype(let quote):
            if quote == nil, byte == UInt8(ascii: "[") {
                state = .internalSubset
            } else if quote == nil, byte == UInt8(ascii: ">") {
                isFinished = true  // a DOCTYPE without an internal subset declares nothing
            } else {
                state = .doctype(quote: Self.quote(after: byte, open: quote))
            }
        case .internalSubset:
            switch byte {
            case UInt8(ascii: "<"): state = .subsetMarkupOpen
            case UInt8(ascii: "]"): state = .afterSubset
            default: break
            }
        case .afterSubset:
            if byte == UInt8(ascii: ">") { isFinished = true }
        case .subsetMarkupOpen:
            switch byte {
            case UInt8(ascii: "?"): state = .processingInstruction(inSubset: true, sawQuestionMark: false)
            case UInt8(ascii: "!"): state = .subsetBang
            default: state = .declaration(quote: nil)
            }
        case .subsetBang:
            if byte == UInt8(ascii: "-") {
                state = .comment(inSubset: true, dashes: 0, opened: false)
            } else {
                state = byte == Self.entityKeyword[0] ? .keyword(matched: 1) : .declaration(quote: nil)
            }
        case .keyword(let matched):
            if matched == Self.entityKeyword.count {
                if Self.isSpace(byte) {
                    state = .entityBeforeName
                } else {
                    state = .declaration(quote: Self.quote(after: byte, open: nil))
                }
            } else if byte == Self.entityKeyword[matched] {
                state = .keyword(matched: matched + 1)
            } else {
                state = byte == UInt8(ascii: ">") ? .internalSubset
                    : .declaration(quote: Self.quote(after: byte, open: nil))
            }
        case .declaration(let quote):
            if quote == nil, byte == UInt8(ascii: ">") {
                state = .internalSubset
            } else {
                state = .declaration(quote: Self.quote(after: byte, open: quote))
            }
        case .entityBeforeName:
            if byte == UInt8(ascii: ">") {
                state = .internalSubset
            } else if !Self.isSpace(byte), byte != UInt8(ascii: "%") {
                name = [byte]
                state = .entityName
            }
        case .entityName:
            if Self.isSpace(byte) {
                state = .entityBeforeDefinition
            } else if byte == UInt8(ascii: ">") {
                state = .internalSubset
            } else if name.count <= 4 {
                name.append(byte)
            } else {
                name = []  // longer than any predefined name; only the comparison needs it
            }
        case .entityBeforeDefinition:
            if byte == UInt8(ascii: ">") {
                state = .internalSubset
            } else if !Self.isSpace(byte) {
                // Only a definition that starts like one (a literal, SYSTEM or PUBLIC) is rewritten, so that a
                // malformed declaration stays malformed.
                let startsDefinition = Self.isQuote(byte) || byte == UInt8(ascii: "S") || byte == UInt8(ascii: "P")
                if Self.predefinedNames.contains(name) || !startsDefinition {
                    state = .predefinedEntityDefinition(quote: Self.quote(after: byte, open: nil))
                } else {
                    output.append(UInt8(ascii: "\""))
                    output.append(UInt8(ascii: "\""))
                    owesDrop = true
                    state = .entityDefinition(quote: Self.quote(after: byte, open: nil))
                    return
                }
            }
        case .entityDefinition(let quote):
            if quote == nil, byte == UInt8(ascii: ">") {
                owesDrop = false
                state = .internalSubset
            } else {
                state = .entityDefinition(quote: Self.quote(after: byte, open: quote))
                if byte == 0x0A || byte == 0x0D {
                    output.append(byte)
                } else if owesDrop {
                    owesDrop = false
                } else {
                    output.append(UInt8(ascii: " "))
                }
                return
            }
        case .predefinedEntityDefinition(let quote):
            if quote == nil, byte == UInt8(ascii: ">") {
                state = .internalSubset
            } else {
                state = .predefinedEntityDefinition(quote: Self.quote(after: byte, open: quote))
            }
        }
        output.append(byte)
    }
}
