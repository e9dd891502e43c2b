import CatalogCore
import Foundation

/// Reading a big JSON file in parts, each part a tape of its own parsed on the second core a few parts ahead of
/// the reader, so that no tape of the whole file is held: the documents of a top-level array (an App Store
/// Connect export), the members of a top-level object and those of the members it splits (a config's products, a
/// Play list response's resources).
extension JSONDocument {
    /// Parses a file's bytes (as `init(data:path:)`) whose top level may be an array of documents, element by
    /// element, so that no tape of the whole file is held: `element` gets each element of a top-level array as a
    /// document of its own, with its position, in file order. Returns the array's location and its number of
    /// elements; or, when the top level is not an array, the whole document, parsed as `init(data:path:)` parses
    /// it. The errors are those of `init(data:path:)`, except that an error `element` throws ends the reading:
    /// an element that fails is reported before a syntax error in a later one. The pages of a mapped file are
    /// given back behind the element handled (`parsedAhead`).
    static func forEachElement(
        data: Data, path: String, _ element: (JSONDocument, Int) throws(CatalogReadError) -> Void
    ) throws(CatalogReadError) -> TopLevel {
        let (utf8, isASCII) = try TextEncoding.utf8Text(data, path: path)
        let source = SourceText(path: path, bytes: utf8, isASCII: isASCII)
        // Each element reads the file's bytes through a pointer lent for the time `element` runs (an App Store
        // Connect export's pool looks values up millions of times, and each reach through `Data` was checked for
        // exclusive access: an eighth of a check's instructions); one that `element` keeps gets a copy of its own.
        typealias Parsed = Result<(offset: Int, count: Int)?, JSONSyntaxError>
        let reading: Result<Parsed, CatalogReadError> = utf8.withUnsafeBytes { raw in
            let fileBytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(CatalogReadError) in
                try parsedAhead(source) { bytes, emit throws(JSONSyntaxError) in
                    try JSONTapeParser.parseElements(bytes) { tape, position in emit((tape, position)) }
                } start: { part in
                    part.tape[0].offset
                } handle: { (part: (tape: JSONTape, position: Int)) throws(CatalogReadError) in
                    var document = JSONDocument(element: part.tape, source: source, borrowing: fileBytes)
                    defer {
                        if !isKnownUniquelyReferenced(&document) { document.endBorrow() }
                    }
                    try element(document, part.position)
                }
            }
        }
        let result = try reading.get()
        switch result {
        case .success(let array):
            guard let array else { return .document(try JSONDocument(utf8: utf8, path: path)) }
            return .array(source.location(ofOffset: array.offset), count: array.count)
        case .failure(let error):
            throw Self.readError(error, in: source)
        }
    }

    /// Runs `parse` over `source`'s bytes on the second core (`ReadAhead`), a few parts ahead of `handle`, which
    /// gets each part it emits in order; returns how the parsing ended once every part is handled. An error
    /// `handle` throws stops the parsing and is thrown.
    ///
    /// The file's line table is made first (`prepareLocations`), the one reading of the whole file after its
    /// UTF-8 check; then the pages of a mapped file are given back (`PassedPages`): all of them, and again those
    /// before the `start` of each part handled, as the parsing reads them in again.
    private static func parsedAhead<Part, Outcome>(
        _ source: SourceText,
        parse: @escaping @Sendable (UnsafeBufferPointer<UInt8>, (Part) -> Bool) throws(JSONSyntaxError) -> Outcome,
        start: (Part) -> Int?,
        handle: (Part) throws(CatalogReadError) -> Void
    ) throws(CatalogReadError) -> Result<Outcome, JSONSyntaxError> {
        source.prepareLocations()
        let data = source.bytes
        var pages = PassedPages(releasingAll: data)
        let reads = ReadAhead<ParsedAhead<Part, Outcome>>(lookahead: 16) { emit in
            let outcome: Result<Outcome, JSONSyntaxError> = data.withUnsafeBytes { raw in
                Result { () throws(JSONSyntaxError) in try parse(raw.bindMemory(to: UInt8.self)) { emit(.part($0)) } }
            }
            _ = emit(.end(outcome))
        }
        defer { reads.finish() }
        while let step = try reads.next() {
            switch step {
            case .part(let part):
                try handle(part)
                if let offset = start(part) { pages.passed(offset) }
                // Its tape is freed on the other core.
                reads.retire(step)
            case .end(let outcome): return outcome
            }
        }
        // Not reached: the parsing ends with `.end`.
        return .failure(JSONSyntaxError(offset: 0, message: "the file was not read to its end"))
    }

    /// A step of `parsedAhead`: a part parsed, or the end of the parsing.
    private enum ParsedAhead<Part, Outcome> {
        case part(Part)
        case end(Result<Outcome, JSONSyntaxError>)
    }

    /// What `forEachMember` hands over: each value as a document of its own, its locations the file's.
    typealias MemberEvent = JSONMemberEvent<JSONDocument>

    /// Parses a file's UTF-8 bytes (from `TextEncoding.utf8`, in `source`) whose top level may be an object,
    /// member by member, and the members or elements of a member `split` names one by one too, so that no tape
    /// of the whole file is held (a config's `products`, a Play list): each value is a document of its own, its
    /// offsets the file's. Returns the object's offset; or, when the top level is not an object, the whole
    /// document, parsed as `init(utf8:path:)` parses it. The errors are those of `init(utf8:path:)`, except that
    /// an error `event` throws ends the reading: the events before a syntax error are handed over before it is
    /// thrown. The pages of a mapped file are given back behind the value handled (`parsedAhead`).
    static func forEachMember(
        in source: SourceText, splitting split: JSONTapeParser.Split,
        _ event: (MemberEvent) throws(CatalogReadError) -> Void
    ) throws(CatalogReadError) -> TopLevelObject {
        let result = try parsedAhead(source) { bytes, emit throws(JSONSyntaxError) in
            try JSONTapeParser.parseMembers(bytes, splitting: split, emit)
        } start: { (parsed: JSONTapeParser.MemberEvent) in
            parsed.offset
        } handle: { parsed throws(CatalogReadError) in
            try event(parsed.map { JSONDocument(element: $0, source: source) })
        }
        switch result {
        case .success(let offset):
            guard let offset else { return .document(try JSONDocument(utf8: source.bytes, path: source.path)) }
            return .object(offset: offset)
        case .failure(let error):
            throw Self.readError(error, in: source)
        }
    }

    /// What `forEachMember` found at the top level.
    enum TopLevelObject {
        /// An object at `offset`; its members were handed over.
        case object(offset: Int)
        /// Not an object: the document.
        case document(JSONDocument)
    }

    /// What `forEachElement` found at the top level.
    enum TopLevel {
        /// An array: its location and its number of elements, each handed over.
        case array(SourceLocation, count: Int)
        /// Not an array: the document.
        case document(JSONDocument)
    }
}
