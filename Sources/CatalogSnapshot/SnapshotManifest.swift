import Foundation

/// A snapshot's manifest, `.fetch.json` (DESIGN.md §2b): what `fetch` wrote into the folder, the one definition
/// that `fetch` writes and the readers read (its keys are this type's coding keys, nowhere else). It says which
/// store and which app or package was fetched, when and by which catalogcheck, every kind of resource asked for
/// with its counts (listed also when the store had none of it), and every page the folder holds: its file, the
/// request that fetched it (path and query, never a credential) and the SHA-256 of its bytes, so that a reader
/// takes a page's parent from its request rather than from the `links.self` the store wrote into it, and tells a
/// page that is missing or was changed after `fetch` from a complete snapshot.
///
/// Decoding is strict, since a damaged manifest must never read as a smaller catalog: another `version`, a key
/// this version does not know, a missing or mistyped value, a negative count, a page named twice, a page file
/// that is not a plain `.json` name or a `sha256` that is not 64 lowercase hexadecimal digits are errors naming
/// the coding path.
public struct SnapshotManifest: Codable, Sendable, Equatable {
    /// The manifest's file name in the snapshot folder: a dotfile, which folder listings leave out.
    public static let fileName = ".fetch.json"
    /// The version this catalogcheck writes and reads. Version 1 (catalogcheck 1.0) recorded no page digests:
    /// it cannot tell a changed page, so it is refused with the advice to fetch again.
    public static let currentVersion = 2

    /// `currentVersion`.
    public let version: Int
    /// The store.
    public let store: SnapshotStore
    /// What was fetched of the store: the app's Apple ID, the package name (`store.subjectName` says which).
    public let subject: String
    /// When the snapshot was written (whole seconds, UTC).
    public let fetchedAt: Date
    /// `catalogcheck <version>`.
    public let fetchedBy: String
    /// Every kind of resource fetch asked for, by its key (`subscriptions`, `winBackOffers`), with its counts.
    public let kinds: [String: KindCount]
    /// Every page the folder holds, sorted by file name.
    public let pages: [Page]

    /// The manifest's keys.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case version, store, subject, fetchedAt, fetchedBy, kinds, pages
    }

    /// What fetch got of one kind.
    public struct KindCount: Codable, Sendable, Equatable {
        /// Response pages of its own (0 when it came only with its parents' pages, `include=`).
        public let pages: Int
        /// Resources found.
        public let resources: Int

        /// The keys of a kind's counts.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case pages, resources
        }

        /// Creates counts.
        public init(pages: Int, resources: Int) {
            self.pages = pages
            self.resources = resources
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try refuseUnknownKeys(in: decoder, known: CodingKeys.self)
            pages = try decodeCount(container, .pages)
            resources = try decodeCount(container, .resources)
        }
    }

    /// One page of the snapshot: a store response written unchanged.
    public struct Page: Codable, Sendable, Equatable {
        /// The file name in the folder (`subscriptions-0001.json`).
        public let file: String
        /// The request's path as sent (percent-encoded): `/v1/apps/123/inAppPurchasesV2`.
        public let path: String
        /// The request's query as sent, without `?`; empty when it had none.
        public let query: String
        /// The SHA-256 of the file's bytes, 64 lowercase hexadecimal digits.
        public let sha256: String

        /// The keys of a page.
        public enum CodingKeys: String, CodingKey, CaseIterable {
            case file, path, query, sha256
        }

        /// Creates a page record.
        public init(file: String, path: String, query: String, sha256: String) {
            self.file = file
            self.path = path
            self.query = query
            self.sha256 = sha256
        }

        /// The record of `bytes` written as `file`, fetched with `request` (path and query).
        public init(file: String, request: String, bytes: Data) {
            let parts = request.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            self.init(file: file, path: parts.first.map(String.init) ?? "",
                      query: parts.count > 1 ? String(parts[1]) : "", sha256: SnapshotDigest.sha256(of: bytes))
        }

        /// The request: path, and `?query` when there is one.
        public var request: String {
            query.isEmpty ? path : path + "?" + query
        }

        /// Whether `bytes` are the bytes this record was made of.
        public func matches(_ bytes: Data) -> Bool {
            SnapshotDigest.sha256(of: bytes) == sha256
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try refuseUnknownKeys(in: decoder, known: CodingKeys.self)
            file = try container.decode(String.self, forKey: .file)
            path = try container.decode(String.self, forKey: .path)
            query = try container.decode(String.self, forKey: .query)
            sha256 = try container.decode(String.self, forKey: .sha256)
            // fetch writes its pages flat, as plain `.json` names: anything else could name a file elsewhere.
            guard Self.isPageName(file) else {
                throw DecodingError.dataCorruptedError(forKey: .file, in: container, debugDescription: """
                    "\(file)" is not a page file name (a .json file directly in the snapshot folder)
                    """)
            }
            guard sha256.utf8.count == 64,
                  sha256.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw DecodingError.dataCorruptedError(forKey: .sha256, in: container, debugDescription: """
                    "\(sha256)" is not a SHA-256 (64 lowercase hexadecimal digits)
                    """)
            }
        }

        /// A file name fetch could have written: not empty, not hidden, no folder, ending in `.json`. Told on the
        /// UTF-8 bytes, not with Foundation's `contains` (an `NSString` search each): a manifest of 10,000 products
        /// names 40,000 pages. Only a name that is not ASCII is lowercased and compared as characters.
        public static func isPageName(_ name: String) -> Bool {
            let bytes = name.utf8
            guard bytes.first != UInt8(ascii: "."), !bytes.contains(UInt8(ascii: "/")), !bytes.contains(0) else {
                return false
            }
            guard bytes.allSatisfy({ $0 < 0x80 }) else {
                return name.lowercased().hasSuffix(".json") && name.count > 5
            }
            // ASCII: lowercasing changes only A to Z, and `| 0x20` does it (a byte that is not a letter must be `.`).
            // A byte before the `.` is a character before it (a CR LF pair is one character, but never joins the
            // dot), so the bytes count here as the characters do (`name.count`, a pass of grapheme breaking).
            let last = bytes.suffix(5)
            return last.count == 5 && last.first == UInt8(ascii: ".")
                && zip(last, ".json".utf8).allSatisfy { $0 | 0x20 == $1 } && bytes.count > 5
        }
    }

    /// Creates a manifest of the current version; `pages` are sorted by file name.
    public init(store: SnapshotStore, subject: String, fetchedAt: Date, fetchedBy: String,
                kinds: [String: KindCount], pages: [Page]) {
        version = Self.currentVersion
        self.store = store
        self.subject = subject
        // Whole seconds: what the ISO 8601 text holds, so a manifest read back equals the one written.
        self.fetchedAt = Date(timeIntervalSince1970: fetchedAt.timeIntervalSince1970.rounded(.down))
        self.fetchedBy = fetchedBy
        self.kinds = kinds
        self.pages = pages.sorted { $0.file < $1.file }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // The version first: a manifest of another version is named as such, not by its first unknown key.
        version = try container.decode(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container, debugDescription: """
                the snapshot manifest is of version \(version), not of version \(Self.currentVersion), which this \
                catalogcheck reads\(version < Self.currentVersion ? " (and which records each page's SHA-256)" : ""); \
                fetch the snapshot again with this catalogcheck
                """)
        }
        try refuseUnknownKeys(in: decoder, known: CodingKeys.self)
        store = try container.decode(SnapshotStore.self, forKey: .store)
        subject = try container.decode(String.self, forKey: .subject)
        fetchedAt = try container.decode(Date.self, forKey: .fetchedAt)
        fetchedBy = try container.decode(String.self, forKey: .fetchedBy)
        kinds = try container.decode([String: KindCount].self, forKey: .kinds)
        pages = try container.decode([Page].self, forKey: .pages)
        var files: Set<String> = []
        for (index, page) in pages.enumerated() {
            guard files.insert(page.file).inserted else {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: container.codingPath + [CodingKeys.pages, IndexKey(index), Page.CodingKeys.file],
                    debugDescription: "the page \"\(page.file)\" is listed twice"))
            }
            // A page fetched from another store's API: the manifest's store was changed, or the page is not fetch's.
            if let api = store.apiPath, !page.path.hasPrefix(api) {
                throw DecodingError.dataCorrupted(DecodingError.Context(
                    codingPath: container.codingPath + [CodingKeys.pages, IndexKey(index), Page.CodingKeys.path],
                    debugDescription: "\"\(page.path)\" is not a request of \(store.title)'s API (\(api)…)"))
            }
        }
    }

    /// What an unfinished fetch must match to be resumed, and how messages name a fetch: `appstore app=123`.
    public var identity: String {
        Self.identity(store: store, subject: subject)
    }

    /// `appstore app=123`.
    public static func identity(store: SnapshotStore, subject: String) -> String {
        "\(store.rawValue) \(store.subjectName)=\(subject)"
    }

    /// The page recorded for `file`, if any.
    public func page(named file: String) -> Page? {
        pages.first { $0.file == file }
    }

    /// The manifest as `fetch` writes it: pretty-printed JSON, keys sorted, then a newline.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Decodes a manifest's bytes; throws `DecodingError` (or the JSON parser's error) saying what is wrong where.
    public static func decode(_ data: Data) throws -> SnapshotManifest {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(SnapshotManifest.self, from: data)
    }
}

/// A key of any name, to see the keys a container holds beyond the known ones.
private struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// An array index in a coding path.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// Throws at the first key (in sorted order) of the decoder's object that `known` does not name.
private func refuseUnknownKeys<Key: CodingKey & CaseIterable>(in decoder: any Decoder, known: Key.Type) throws {
    let keys = try decoder.container(keyedBy: AnyKey.self).allKeys
    // `Key(stringValue:)` tells a known key without building the set of names: this runs for every page, whose
    // keys are all known; only a manifest with an unknown key sorts them, to name the first.
    guard keys.contains(where: { Key(stringValue: $0.stringValue) == nil }),
          let unknown = keys.map(\.stringValue).filter({ Key(stringValue: $0) == nil }).sorted().first else {
        return
    }
    let names = Set(Key.allCases.map(\.stringValue))
    throw DecodingError.dataCorrupted(DecodingError.Context(
        codingPath: decoder.codingPath + [AnyKey(stringValue: unknown)],
        debugDescription: "unknown key \"\(unknown)\" (known: \(names.sorted().joined(separator: ", ")))"))
}

/// A count: a whole number, 0 or more.
private func decodeCount<Key: CodingKey>(_ container: KeyedDecodingContainer<Key>, _ key: Key) throws -> Int {
    let value = try container.decode(Int.self, forKey: key)
    guard value >= 0 else {
        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(value) is below 0")
    }
    return value
}
