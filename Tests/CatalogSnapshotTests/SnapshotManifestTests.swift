import CatalogSnapshot
import Foundation
import Testing

/// The SHA-256 the manifest records: FIPS 180-4's examples and every padding case (one or two last blocks).
@Suite("SnapshotDigest")
struct SnapshotDigestTests {
    @Test func fipsExamples() {
        #expect(SnapshotDigest.sha256(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SnapshotDigest.sha256(of: Data("abc".utf8))
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SnapshotDigest.sha256(of: Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SnapshotDigest.sha256(of: Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the block size (values from Python's hashlib over bytes `i % 251`).
    @Test(arguments: [
        (55, "463eb28e72f82e0a96c0a4cc53690c571281131f672aa229e0d45ae59b598b59"),
        (56, "da2ae4d6b36748f2a318f23e7ab1dfdf45acdc9d049bd80e59de82a60895f562"),
        (63, "29af2686fd53374a36b0846694cc342177e428d1647515f078784d69cdb9e488"),
        (64, "fdeab9acf3710362bd2658cdc9a29e8f9c757fcf9811603a8c447cd1d9151108"),
        (65, "4bfd2c8b6f1eec7a2afeb48b934ee4b2694182027e6d0fc075074f2fabb31781"),
        (119, "da18797ed7c3a777f0847f429724a2d8cd5138e6ed2895c3fa1a6d39d18f7ec6"),
        (120, "f52b23db1fbb6ded89ef42a23ce0c8922c45f25c50b568a93bf1c075420bbb7c"),
    ])
    func paddingAroundTheBlockSize(length: Int, expected: String) {
        #expect(SnapshotDigest.sha256(of: Data((0..<length).map { UInt8($0 % 251) })) == expected)
    }
}

/// `.fetch.json`: what fetch writes reads back equal; anything else is refused naming the coding path.
@Suite("SnapshotManifest")
struct SnapshotManifestTests {
    static let page = SnapshotManifest.Page(file: "subscriptions-0001.json",
                                            request: "/androidpublisher/v3/applications/a.b/subscriptions?pageSize=1000",
                                            bytes: Data("{}".utf8))
    static let manifest = SnapshotManifest(
        store: .play, subject: "a.b", fetchedAt: Date(timeIntervalSince1970: 1_795_000_000.7),
        fetchedBy: "catalogcheck 1.1.0",
        kinds: ["subscriptions": .init(pages: 1, resources: 0), "inappproducts": .init(pages: 0, resources: 0)],
        pages: [page])

    @Test func whatFetchWritesReadsBackEqual() throws {
        // Act
        let data = try Self.manifest.encoded()
        let decoded = try SnapshotManifest.decode(data)

        // Assert
        #expect(decoded == Self.manifest)
        #expect(String(decoding: data, as: UTF8.self) == """
            {
              "fetchedAt" : "2026-11-18T11:06:40Z",
              "fetchedBy" : "catalogcheck 1.1.0",
              "kinds" : {
                "inappproducts" : {
                  "pages" : 0,
                  "resources" : 0
                },
                "subscriptions" : {
                  "pages" : 1,
                  "resources" : 0
                }
              },
              "pages" : [
                {
                  "file" : "subscriptions-0001.json",
                  "path" : "/androidpublisher/v3/applications/a.b/subscriptions",
                  "query" : "pageSize=1000",
                  "sha256" : "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
                }
              ],
              "store" : "play",
              "subject" : "a.b",
              "version" : 2
            }

            """)
        #expect(Self.page.request == "/androidpublisher/v3/applications/a.b/subscriptions?pageSize=1000")
        #expect(Self.page.matches(Data("{}".utf8)))
        #expect(!Self.page.matches(Data("{ }".utf8)))
        #expect(Self.manifest.identity == "play package=a.b")
    }

    @Test func aStoreThisVersionDoesNotKnowStillDecodes() throws {
        let text = try String(decoding: Self.manifest.encoded(), as: UTF8.self)
            .replacingOccurrences(of: "\"store\" : \"play\"", with: "\"store\" : \"galaxy\"")

        let decoded = try SnapshotManifest.decode(Data(text.utf8))

        #expect(decoded.store == SnapshotStore(rawValue: "galaxy"))
        #expect(decoded.store.title == "the store \"galaxy\"")
    }

    /// Each damage, the coding path it is named at, and what is said.
    @Test(arguments: [
        (#""version" : 2"#, #""version" : 1"#, "version",
         "the snapshot manifest is of version 1, not of version 2, which this catalogcheck reads (and which "
            + "records each page's SHA-256); fetch the snapshot again with this catalogcheck"),
        (#""store" : "play""#, #""store" : "appstore""#, "pages.0.path",
         "\"/androidpublisher/v3/applications/a.b/subscriptions\" is not a request of App Store Connect's API (/v…)"),
        (#""subject" : "a.b","#, #""subject" : "a.b", "app" : "1","#, "app",
         "unknown key \"app\" (known: fetchedAt, fetchedBy, kinds, pages, store, subject, version)"),
        (#""pages" : 1,"#, #""pages" : -1,"#, "kinds.subscriptions.pages", "-1 is below 0"),
        (#""file" : "subscriptions-0001.json""#, #""zone" : 1, "file" : "subscriptions-0001.json", "size" : 2"#,
         "pages.0.size", "unknown key \"size\" (known: file, path, query, sha256)"),
        (#""sha256" : "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a""#, #""sha256" : "44""#,
         "pages.0.sha256", "\"44\" is not a SHA-256 (64 lowercase hexadecimal digits)"),
        (#""file" : "subscriptions-0001.json""#, #""file" : "../x.json""#, "pages.0.file",
         "\"../x.json\" is not a page file name (a .json file directly in the snapshot folder)"),
    ])
    func aDamagedManifestIsRefusedAtItsCodingPath(original: String, damaged: String, path: String, message: String)
        throws
    {
        // Arrange
        let text = try String(decoding: Self.manifest.encoded(), as: UTF8.self)
        try #require(text.contains(original))

        // Act
        let error = #expect(throws: DecodingError.self) {
            try SnapshotManifest.decode(Data(text.replacingOccurrences(of: original, with: damaged).utf8))
        }

        // Assert
        guard case let .dataCorrupted(context) = error else {
            Issue.record("not dataCorrupted: \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") == path)
        #expect(context.debugDescription == message)
    }

    /// A page name fetch could have written, told on its bytes: each name and whether it is one.
    @Test(arguments: [
        ("subscriptions-0001.json", true), ("A.JSON", true), ("x.Json", true), ("é.json", true),
        (".json", false), (".a.json", false), ("a/b.json", false), ("a\0.json", false), ("a.jsonx", false),
        ("a.jso", false), ("json", false), ("", false), ("a\u{0E}json", false), ("a.jsoＮ", false),
        ("\u{0600}.json", false), ("x\u{0600}.json", false), ("İ.JSON", true), ("a.JSON\u{301}", false),
        ("a\r\n.json", true),
    ])
    func pageNames(name: String, isPage: Bool) {
        #expect(SnapshotManifest.Page.isPageName(name) == isPage)
    }

    @Test func aPageNamedTwiceIsRefused() throws {
        let twice = SnapshotManifest(store: .play, subject: "a.b", fetchedAt: Date(timeIntervalSince1970: 0),
                                     fetchedBy: "catalogcheck", kinds: [:], pages: [Self.page, Self.page])

        let error = #expect(throws: DecodingError.self) { try SnapshotManifest.decode(try twice.encoded()) }

        guard case let .dataCorrupted(context) = error else {
            Issue.record("not dataCorrupted: \(String(describing: error))")
            return
        }
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["pages", "1", "file"])
        #expect(context.debugDescription == "the page \"subscriptions-0001.json\" is listed twice")
    }

    @Test func anArrayOrAWrongTypeIsATypeMismatch() {
        #expect(throws: DecodingError.self) { try SnapshotManifest.decode(Data("[]".utf8)) }
        let text = (try? String(decoding: Self.manifest.encoded(), as: UTF8.self)) ?? ""
        #expect(throws: DecodingError.self) {
            try SnapshotManifest.decode(Data(text.replacingOccurrences(of: #""subject" : "a.b""#, with: #""subject" : 7"#).utf8))
        }
    }
}
