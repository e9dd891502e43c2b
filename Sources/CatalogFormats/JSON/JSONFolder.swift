import CatalogCore
import CatalogSnapshot
import Foundation

/// A folder of JSON documents read as one catalog (App Store Connect, Play): the one folder loop of both readers.
/// The listing resolution made becomes the documents to read, in listing order, one at a time (each dropped once
/// its reader took what it needs), parsed a few ahead on the other core (`ReadAhead`).
///
/// A folder holding a snapshot manifest (`.fetch.json`, DESIGN.md §2b) is a snapshot `fetch` wrote, and it is read
/// as exactly that or not at all: the manifest must decode (`SnapshotManifest`: its version, every key and value),
/// be of the reader's store, and name every page the folder holds — a page it names that is not there, or whose
/// bytes' SHA-256 is not the one recorded, and a file it does not name (`fetch` writes only its pages, and replaces
/// the whole folder on the next fetch, so a file added since is neither read nor passed over) are each an error
/// (exit 2) naming the manifest's line and column or the file. A damaged snapshot never reads as a smaller catalog.
/// What the manifest says then stands for the folder: its store (a snapshot whose pages are all empty lists is an
/// empty catalog of that store, with no mark of the format to find in it), each page's request and the kinds
/// fetch asked for.
struct JSONFolder {
    /// The manifest, verified against the folder's pages; nil for a folder `fetch` did not write.
    let manifest: SnapshotManifest?
    /// The documents to read, in listing order.
    private let documents: [Document]
    private let url: URL

    /// One document of the folder.
    private struct Document: Sendable {
        /// Relative to the folder.
        let name: String
        /// As locations name it.
        let path: String
        /// Its page record, in a snapshot.
        let page: SnapshotManifest.Page?
        /// Where the manifest records it, for the error when its bytes changed.
        let recorded: SourceLocation?
    }

    /// Lists the documents of the folder at `url`: in a snapshot (of `store`, else an error) every listed file, all
    /// of them pages; in any other folder the listed files `isDocument` takes (at least one, else an error).
    init(url: URL, listing: [String], displayPath: String, store: SnapshotStore,
         isDocument: (String) -> Bool) throws(CatalogReadError) {
        self.url = url
        let base = displayPath.hasSuffix("/") && displayPath.count > 1 ? String(displayPath.dropLast()) : displayPath
        guard let snapshot = try Self.readManifest(in: url, displayPath: base) else {
            let names = listing.filter(isDocument)
            guard !names.isEmpty else {
                throw CatalogReadError("the folder holds no .json files", at: SourceLocation(path: displayPath))
            }
            manifest = nil
            documents = names.map { Document(name: $0, path: base + "/" + $0, page: nil, recorded: nil) }
            return
        }
        let (manifest, text) = snapshot
        guard manifest.store == store else {
            throw CatalogReadError("the snapshot manifest says this is a snapshot of \(manifest.store.title) "
                                   + "(\"\(SnapshotManifest.CodingKeys.store.stringValue)\": "
                                   + "\(quotedForMessage(manifest.store.rawValue))), not of \(store.title)",
                                   at: text.location(of: [.key(SnapshotManifest.CodingKeys.store.stringValue)]))
        }
        var pages: [String: (page: SnapshotManifest.Page, index: Int)] = [:]
        for (index, page) in manifest.pages.enumerated() { pages[page.file] = (page, index) }
        let pagesKey = ManifestText.Step.key(SnapshotManifest.CodingKeys.pages.stringValue)
        for name in listing where pages[name] == nil {
            throw CatalogReadError("""
                not a page of this snapshot: its \(SnapshotManifest.fileName) does not name it. fetch writes only the \
                pages its manifest names (and replaces the whole folder on the next fetch), so a file added to a \
                snapshot is refused, neither read nor passed over; move it out of the folder, or fetch again
                """, at: SourceLocation(path: base + "/" + name))
        }
        let listed = Set(listing)
        for (index, page) in manifest.pages.enumerated() where !listed.contains(page.file) {
            throw CatalogReadError("""
                the snapshot manifest names the page \(quotedForMessage(page.file, limit: 200)), which is not in the folder (or \
                is not a regular file): the snapshot is incomplete; fetch it again
                """, at: text.location(of: [pagesKey, .index(index)]))
        }
        self.manifest = manifest
        // One walk over the records, not one from the start for each (a snapshot of 10,000 products has 40,000).
        let records = text.elementLocations(at: [pagesKey])
        documents = listing.map { name in
            let recorded = pages[name]
            return Document(name: name, path: base + "/" + name, page: recorded?.page,
                            recorded: recorded.map { records.indices.contains($0.index) ? records[$0.index]
                                                         : text.location(of: [pagesKey, .index($0.index)]) })
        }
    }

    /// How many documents the folder has to read.
    var count: Int { documents.count }

    /// The kinds the snapshot's manifest says fetch asked for (listed also when the store had none of them);
    /// empty for another folder.
    var fetchedKinds: Set<String> {
        Set(manifest?.kinds.keys.map { $0 } ?? [])
    }

    /// Calls `body` with each document, in listing order, and its page record in a snapshot. A page whose bytes
    /// are not the ones the manifest records is an error at the manifest's record of it, thrown when `body` would
    /// reach that page.
    func forEachDocument(_ body: (JSONDocument, SnapshotManifest.Page?) throws(CatalogReadError) -> Void)
        throws(CatalogReadError)
    {
        try forEachFile(parsingUpTo: .max) { file, page throws(CatalogReadError) in
            guard case .parsed(let document) = file else { return }
            try body(document, page)
        }
    }

    /// A file as `forEachFile` hands it over.
    enum File {
        /// Parsed (on the second core).
        case parsed(JSONDocument)
        /// A bigger file's bytes, for its reader to parse in parts (`JSONDocument.forEachMember`), and its path.
        case bytes(Data, path: String)
    }

    /// Calls `body` with each file, in listing order, as `forEachDocument` does: a file up to `limit` bytes parsed,
    /// a bigger one as its bytes (checked against the manifest all the same).
    func forEachFile(parsingUpTo limit: Int,
                     _ body: (File, SnapshotManifest.Page?) throws(CatalogReadError) -> Void) throws(CatalogReadError)
    {
        let documents = documents
        let path = url.path
        let folder = path.hasSuffix("/") ? path : path + "/"
        let reads = ReadAhead(count: documents.count) { index throws(CatalogReadError) in
            let document = documents[index]
            let data = try FileLoading.parsingData(atPath: folder + document.name, displayPath: document.path)
            if let page = document.page, let recorded = document.recorded {
                let actual = SnapshotDigest.sha256(of: data)
                guard actual == page.sha256 else {
                    throw CatalogReadError("""
                        the page \(quotedForMessage(page.file, limit: 200)) is not the one fetch wrote: its bytes' SHA-256 is \
                        \(actual), the manifest records \(page.sha256); the snapshot was changed after fetch, so \
                        it is not read; fetch it again
                        """, at: recorded)
                }
            }
            guard data.count <= limit else { return File.bytes(data, path: document.path) }
            let parsed = try JSONDocument(data: data, path: document.path)
            // The reader marks places in every document (`ASCMarks`): their tables are built here, on this core.
            parsed.source.prepareLocations()
            return File.parsed(parsed)
        }
        defer { reads.finish() }
        for document in documents {
            guard let file = try reads.next() else { return }
            try body(file, document.page)
            // Freed on the other core: a parsed page's tape and bytes, a big file's mapping.
            reads.retire(consume file)
        }
    }

    /// The store of the snapshot in the folder at `url` (its manifest read and decoded, not yet verified against
    /// the pages: the reader does that), or nil when the folder holds no manifest: what a snapshot is read as
    /// when no format is given.
    static func snapshotStore(in url: URL, displayPath: String) throws(CatalogReadError) -> SnapshotStore? {
        let base = displayPath.hasSuffix("/") && displayPath.count > 1 ? String(displayPath.dropLast()) : displayPath
        return try readManifest(in: url, displayPath: base)?.manifest.store
    }

    /// The manifest of the folder, decoded, with its text for locations; nil when there is none. Its JSON is
    /// parsed first by `JSONDocument` (invalid JSON, duplicate keys: line and column), then decoded
    /// (`SnapshotManifest`), a decoding error located through its coding path.
    private static func readManifest(in url: URL, displayPath base: String) throws(CatalogReadError)
        -> (manifest: SnapshotManifest, text: ManifestText)?
    {
        let file = url.appendingPathComponent(SnapshotManifest.fileName, isDirectory: false)
        guard FileLoading.exists(file) else { return nil }
        let path = base + "/" + SnapshotManifest.fileName
        let data = try FileLoading.fileData(at: file, displayPath: path,
                                            oneFile: "a snapshot manifest is one JSON file written by fetch")
        let document: JSONDocument
        do {
            document = try JSONDocument(data: data, path: path)
        } catch {
            throw CatalogReadError("damaged snapshot manifest: \(error.message); fetch the snapshot again",
                                   at: error.location)
        }
        let text = ManifestText(document: document)
        do {
            return (try SnapshotManifest.decode(data), text)
        } catch let error as DecodingError {
            throw text.error(error)
        } catch {
            throw CatalogReadError("damaged snapshot manifest: \(error); fetch the snapshot again",
                                   at: SourceLocation(path: path))
        }
    }
}

/// The parsed manifest, for locating what decoding says about it.
private struct ManifestText {
    let document: JSONDocument

    /// A step of a path into the manifest: an object's member or an array's element.
    enum Step {
        case key(String)
        case index(Int)

        /// A step of a decoding error's coding path.
        init(_ key: any CodingKey) {
            self = key.intValue.map(Step.index) ?? .key(key.stringValue)
        }
    }

    /// The location of the value at `path`, or of the deepest value on the way there that the document has (a
    /// key the object lacks: the object's); the root for a root that is not an object.
    func location(of path: [Step]) -> SourceLocation {
        var value = document.root
        for step in path {
            guard let next = Self.value(after: step, in: value) else { break }
            value = next
        }
        return document.location(of: value)
    }

    /// The locations of the elements of the array at `path`, in order; empty when there is no array there.
    func elementLocations(at path: [Step]) -> [SourceLocation] {
        value(at: path)?.elements?.map { document.location(of: $0) } ?? []
    }

    /// The value at `path`, if the document has one there.
    func value(at path: [Step]) -> JSONValue? {
        var value = document.root
        for step in path {
            guard let next = Self.value(after: step, in: value) else { return nil }
            value = next
        }
        return value
    }

    private static func value(after step: Step, in value: JSONValue) -> JSONValue? {
        switch step {
        case .key(let name): value[name]
        case .index(let index): value.elements?.dropFirst(index).first
        }
    }

    /// What a decoding error says, at the place it names.
    func error(_ error: DecodingError) -> CatalogReadError {
        let what: String
        let context: DecodingError.Context
        switch error {
        case let .typeMismatch(type, found), let .valueNotFound(type, found):
            let value = value(at: found.codingPath.map(Step.init)).map(describeForMessage) ?? "nothing"
            (what, context) = ("expected \(Self.describe(type)), found \(value)", found)
        case let .keyNotFound(key, found):
            (what, context) = ("missing \(quotedForMessage(key.stringValue))", found)
        case let .dataCorrupted(found):
            (what, context) = (found.debugDescription, found)
        @unknown default:
            return CatalogReadError("damaged snapshot manifest: \(error); fetch the snapshot again",
                                    at: SourceLocation(path: document.path))
        }
        let location = location(of: context.codingPath.map(Step.init))
        // Another version is no damage: its message says so, and what to do.
        if case .dataCorrupted = error,
           context.codingPath.map(\.stringValue) == [SnapshotManifest.CodingKeys.version.stringValue] {
            return CatalogReadError(what, at: location)
        }
        let place = Self.dotted(context.codingPath)
        return CatalogReadError("damaged snapshot manifest: " + (place.isEmpty ? "" : place + ": ") + what
                                    + "; fetch the snapshot again", at: location)
    }

    /// `pages[3].sha256`.
    static func dotted(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return text
    }

    /// What a decoded type is, in words.
    static func describe(_ type: Any.Type) -> String {
        if type == Int.self { return "a whole number" }
        if type == String.self { return "a string" }
        if type == Date.self { return "an ISO 8601 date" }
        let name = String(describing: type)
        if name.hasPrefix("Array<") { return "an array" }
        return "an object"
    }
}
