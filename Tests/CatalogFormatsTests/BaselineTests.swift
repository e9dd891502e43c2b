import CatalogCore
import CatalogReports
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

@Suite("Baseline reading and writing")
struct BaselineTests {
    static func identity(_ rule: Rule, _ productID: String?, territory: String? = nil, store: StoreKind? = .appStore,
                         field: ProductField? = nil) -> FindingIdentity {
        FindingIdentity(rule: rule, productID: productID, field: field ?? rule.field,
                        territory: territory.flatMap { Territory(code: $0) }, store: store)
    }

    /// Identities of every shape: product-less, config-only (no store), territories, both stores, and product IDs
    /// that need escaping in JSON.
    static let identities: [FindingIdentity] = [
        identity(.priceMismatch, "com.example.pro", territory: "DE", store: .play),
        identity(.priceMismatch, "com.example.pro", territory: "DE"),
        identity(.priceMismatch, "com.example.pro", territory: "AT"),
        identity(.nameMismatch, "com.example.pro"),
        identity(.storekitSingleStorefront, nil, territory: "US"),
        identity(.groupMissingInStore, "premium"),
        identity(.introOfferExceedsPeriod, "com.example.weekly", store: nil),
        identity(.productMissingInConfig, "com.example.\"quoted\"\\back\tslash\u{1B}[31m\u{202E}é✓"),
        identity(.typeMismatch, "com.example.pro", field: .name),
        identity(.availabilityMismatch, "a.first"),
    ]

    static func text(_ string: String) -> Data { Data(string.utf8) }

    static func read(_ text: String, path: String = "baseline.json") throws(CatalogReadError) -> Baseline {
        try BaselineReader().read(data: Data(text.utf8), displayPath: path)
    }

    @Test("write then read gives the same baseline")
    func roundTrip() throws {
        let baseline = Baseline(path: "catalogcheck-baseline.json", entries: Self.identities.map { BaselineEntry($0) })
        let text = BaselineWriter().write(baseline)
        let read = try Self.read(text, path: "catalogcheck-baseline.json")
        #expect(read == baseline)
        #expect(BaselineWriter().write(read) == text)
    }

    @Test("the canonical text: version, then one finding a line in baseline order, keys in a fixed order, nulls written")
    func canonicalText() {
        let baseline = Baseline(path: "b.json", entries: [
            Self.identity(.priceMismatch, "com.example.pro", territory: "DEU", store: .play),
            Self.identity(.storekitSingleStorefront, nil, territory: "US"),
            Self.identity(.introOfferExceedsPeriod, "com.example.weekly", store: nil),
        ].map { BaselineEntry($0) })
        #expect(BaselineWriter().write(baseline) == """
            {
              "version": 1,
              "findings": [
                {"rule": "storekit-single-storefront", "productId": null, "field": "price", "territory": "US", "store": "appstore"},
                {"rule": "price-mismatch", "productId": "com.example.pro", "field": "price", "territory": "DE", "store": "play"},
                {"rule": "intro-offer-exceeds-period", "productId": "com.example.weekly", "field": "introOffer", "territory": null, "store": null}
              ]
            }

            """)
        #expect(BaselineWriter().write(Baseline(path: "b.json", entries: [])) == """
            {
              "version": 1,
              "findings": []
            }

            """)
    }

    @Test("entries record expected and actual after the identity keys, null where the finding has none")
    func canonicalTextWithValues() throws {
        let price = Self.identity(.priceMismatch, "com.example.pro.yearly", territory: "DE", store: .play)
        let missing = Self.identity(.productMissingInStore, "com.example.\"gone\"")
        let baseline = Baseline(path: "b.json", entries: [
            BaselineEntry(price, values: BaselineEntry.Values(expected: "64.99 EUR", actual: "59.99 EUR")),
            BaselineEntry(missing, values: BaselineEntry.Values(expected: nil, actual: nil)),
        ])
        let text = BaselineWriter().write(baseline)
        #expect(text == """
            {
              "version": 1,
              "findings": [
                {"rule": "product-missing-in-store", "productId": "com.example.\\"gone\\"", "field": "id", "territory": null, "store": "appstore", "expected": null, "actual": null},
                {"rule": "price-mismatch", "productId": "com.example.pro.yearly", "field": "price", "territory": "DE", "store": "play", "expected": "64.99 EUR", "actual": "59.99 EUR"}
              ]
            }

            """)
        #expect(try Self.read(text, path: "b.json") == baseline)
    }

    @Test("entries of one identity sort by values: none first, then expected, then actual; null before text")
    func valuesOrder() {
        let id = Self.identity(.priceMismatch, "x", territory: "DE")
        func entry(_ expected: String?, _ actual: String?) -> BaselineEntry {
            BaselineEntry(id, values: BaselineEntry.Values(expected: expected, actual: actual))
        }
        let sorted = [BaselineEntry(id), entry(nil, nil), entry(nil, "1.99 EUR"), entry("", nil),
                      entry("9.99 EUR", "1.99 EUR"), entry("9.99 EUR", "8.99 EUR")]
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<5 {
            #expect(Baseline(path: "b", entries: sorted.shuffled(using: &generator)).entries == sorted)
        }
    }

    @Test("expected and actual are read as strings or null; an entry without them matches on identity alone")
    func readValues() throws {
        let baseline = try Self.read("""
            {"version": 1, "findings": [
              {"rule": "price-mismatch", "productId": "x", "field": "price", "territory": "DE", "store": "play",
               "expected": "64.99 EUR", "actual": "59.99 EUR"},
              {"rule": "price-missing-in-store", "productId": "x", "field": "price", "territory": "FR", "store": "play",
               "expected": "59.99 EUR", "actual": null},
              {"rule": "name-mismatch", "productId": "x", "field": "name", "store": "play"}
            ]}
            """)
        #expect(baseline.entries == [
            BaselineEntry(Self.identity(.nameMismatch, "x", store: .play)),
            BaselineEntry(Self.identity(.priceMismatch, "x", territory: "DE", store: .play),
                          values: BaselineEntry.Values(expected: "64.99 EUR", actual: "59.99 EUR")),
            BaselineEntry(Self.identity(.priceMissingInStore, "x", territory: "FR", store: .play),
                          values: BaselineEntry.Values(expected: "59.99 EUR", actual: nil)),
        ])
    }

    @Test("a malformed value is an error naming line and column", arguments: [
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"expected\": \"9.99 EUR\"}\n]}",
         2, 3, #"findings[0]: "expected" without "actual"; give both (null where the finding has none), or neither to match the finding whatever its values"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"actual\": null}\n]}",
         2, 3, #"findings[0]: "actual" without "expected""#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"expected\": 9.99, \"actual\": null}\n]}",
         2, 60, #"findings[0].expected: "9.99" is not a string"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"expected\": null, \"actual\": [\"x\"]}\n]}",
         2, 76, #"findings[0].actual: "#),
    ])
    func malformedValues(text: String, line: Int, column: Int, message: String) {
        guard let error = Self.refusal(text, line: line, column: column) else { return }
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test("entries are sorted: product-less first, then product ID, rule, territory, field, store")
    func sortedOrder() throws {
        let expected: [FindingIdentity] = [
            Self.identity(.storekitSingleStorefront, nil, territory: "US"),
            Self.identity(.availabilityMismatch, "a.first"),
            // `"` sorts before letters.
            Self.identity(.productMissingInConfig, "com.example.\"quoted\"\\back\tslash\u{1B}[31m\u{202E}é✓"),
            Self.identity(.nameMismatch, "com.example.pro"),
            Self.identity(.priceMismatch, "com.example.pro", territory: "AT"),
            Self.identity(.priceMismatch, "com.example.pro", territory: "DE"),
            Self.identity(.priceMismatch, "com.example.pro", territory: "DE", store: .play),
            Self.identity(.typeMismatch, "com.example.pro", field: .name),
            Self.identity(.introOfferExceedsPeriod, "com.example.weekly", store: nil),
            Self.identity(.groupMissingInStore, "premium"),
        ]
        #expect(Baseline(path: "b", entries: Self.identities.map { BaselineEntry($0) }).entries == expected.map { BaselineEntry($0) })
        // Field before store within one rule, product and territory.
        let byField = [Self.identity(.typeMismatch, "x", store: .appStore, field: .type),
                       Self.identity(.typeMismatch, "x", store: .play, field: .name)]
        #expect(Baseline(path: "b", entries: byField.map { BaselineEntry($0) }).entries.map(\.identity) == byField.reversed())

        // Whatever order the findings come in, the bytes are the same; repeats are written once.
        var generator = SeededGenerator(seed: 7)
        let text = BaselineWriter().write(Baseline(path: "b", entries: Self.identities.map { BaselineEntry($0) }))
        for _ in 0..<5 {
            let shuffled = (Self.identities + Self.identities.prefix(3)).shuffled(using: &generator)
            #expect(BaselineWriter().write(Baseline(path: "b", entries: shuffled.map { BaselineEntry($0) })) == text)
        }
        let lines = text.split(separator: "\n").filter { $0.hasPrefix("    {") }
        #expect(lines.count == Self.identities.count)
    }

    @Test("escaped product IDs are valid JSON that other readers decode to the same text")
    func escapingIsValidJSON() throws {
        let id = "com.example.\"quoted\"\\back\tslash\u{1B}[31m\u{202E}é✓\n\u{7F}"
        let text = BaselineWriter().write(Baseline(path: "b", entries: [BaselineEntry(Self.identity(.nameMismatch, id))]))
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{7F}" })
        #expect(text.contains(#"\u001b[31m\u202eé✓\n\u007f"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(findings.first?["productId"] as? String == id)
        #expect(findings.first?["territory"] is NSNull)
    }

    @Test("a recorded result survives the trip through the file")
    func recordedResultRoundTrip() throws {
        let result = CanonicalResult.make(stores: 2)
        let recorded = Baseline(path: "catalogcheck-baseline.json", recording: result)
        #expect(!recorded.entries.isEmpty)
        let read = try Self.read(BaselineWriter().write(recorded), path: "catalogcheck-baseline.json")
        #expect(read == recorded)
    }

    @Test("alpha-3 territories, absent optional keys and repeated entries are read")
    func lenientWhereHarmless() throws {
        let baseline = try Self.read("""
            {"version": 1, "findings": [
              {"rule": "price-mismatch", "productId": "x", "field": "price", "territory": "DEU", "store": "play"},
              {"rule": "price-mismatch", "productId": "x", "field": "price", "territory": "DE", "store": "play"},
              {"rule": "storekit-single-storefront", "field": "price"}
            ]}
            """)
        #expect(baseline.entries == [
            BaselineEntry(Self.identity(.storekitSingleStorefront, nil, store: nil)),
            BaselineEntry(Self.identity(.priceMismatch, "x", territory: "DE", store: .play)),
        ])
        #expect(baseline.path == "baseline.json")
    }

    @Test("a malformed baseline is an error naming line and column", arguments: [
        ("", 1, 1, "the file is empty; a baseline is the JSON that --update-baseline writes"),
        ("{\"version\": 1,\n \"findings\": [\n", 3, 1, "invalid JSON: unexpected end of file, expected a value"),
        ("[]", 1, 1, "the baseline must be an object with the keys version and findings, not a list"),
        ("{\"findings\": []}", 1, 1, #"version: missing; the baseline must start with "version: 1""#),
        ("{\"version\": 2, \"findings\": []}", 1, 13, #"version: "2" is not supported"#),
        ("{\"version\": \"1\", \"findings\": []}", 1, 13, #"version: "1" is a string"#),
        ("{\"version\": 1}", 1, 1, #"findings: missing; list the recorded findings under "findings" (it may be empty: [])"#),
        ("{\"version\": 1, \"findings\": {}}", 1, 28, "findings: a mapping is not a list of findings"),
        ("{\"version\": 1,\n \"finding\": []}", 2, 2, #"finding: unknown key; did you mean "findings"?"#),
        ("{\"version\": 1, \"findings\": [\n  \"price-mismatch\"\n]}", 2, 3,
         #"findings[0]: "price-mismatch" is not a mapping (keys: rule, productId, field, territory, store, expected, actual)"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismach\", \"field\": \"price\"}\n]}", 2, 12,
         #"findings[0].rule: "price-mismach" is not a rule; did you mean "price-mismatch"?"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": null, \"field\": \"price\"}\n]}", 2, 12,
         "findings[0].rule: has no value"),
        ("{\"version\": 1, \"findings\": [\n  {\"field\": \"price\"}\n]}", 2, 3, #"findings[0]: missing "rule""#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\"}\n]}", 2, 3,
         #"findings[0]: missing "field" (price for price-mismatch)"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"prices\"}\n]}", 2, 39,
         #"findings[0].field: "prices" is not a field (id, type, name, group, level, period, price, introOffer, familyShareable, clearedForSale, ignore, app)"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"territory\": \"de\"}\n]}",
         2, 61, #"findings[0].territory: "de" is not an ISO 3166-1 territory code (codes are upper case: DE)"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"store\": \"google\"}\n]}",
         2, 57, #"findings[0].store: "google" is not a store (appstore, play)"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"productId\": \"\"}\n]}",
         2, 61, "findings[0].productId: must not be empty (null for a finding without a product)"),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"productId\": 12}\n]}",
         2, 61, #"findings[0].productId: "12" is not a string"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"field\": \"price\", \"Store\": null}\n]}",
         2, 48, #"findings[0].Store: unknown key; did you mean "store"?"#),
        ("{\"version\": 1, \"findings\": [\n  {\"rule\": \"price-mismatch\", \"rule\": \"price-mismatch\"}\n]}",
         2, 30, #"invalid JSON: duplicate key "rule""#),
        ("version: 1\nfindings: []\n", 1, 1, "invalid JSON: unexpected 'v', expected a value"),
    ])
    func malformed(text: String, line: Int, column: Int, message: String) {
        guard let error = Self.refusal(text, line: line, column: column) else { return }
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.problems.count == 1, "\(error)")
    }

    /// The error reading `text` gives, checked to be at `line`:`column`; nil (recorded) when it reads.
    private static func refusal(_ text: String, line: Int, column: Int) -> CatalogReadError? {
        do {
            let baseline = try read(text)
            Issue.record("read \(baseline)")
            return nil
        } catch {
            #expect(error.location == SourceLocation(path: "baseline.json", line: line, column: column),
                    "\(error)")
            return error
        }
    }

    @Test("a missing file: read says how to create it, readIfPresent returns nil; a folder is an error")
    func files() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("catalogcheck-baseline.json")
        #expect(throws: CatalogReadError(
            "no baseline at catalogcheck-baseline.json; create it with --update-baseline",
            at: SourceLocation(path: "catalogcheck-baseline.json"))) {
            try BaselineReader().read(contentsOf: missing, displayPath: "catalogcheck-baseline.json")
        }
        #expect(try BaselineReader().readIfPresent(contentsOf: missing, displayPath: "b.json") == nil)
        #expect(throws: CatalogReadError("is a folder; the baseline is one JSON file", at: SourceLocation(path: "dir"))) {
            try BaselineReader().readIfPresent(contentsOf: folder, displayPath: "dir")
        }

        let baseline = Baseline(path: "b.json", entries: Self.identities.map { BaselineEntry($0) })
        try Data(BaselineWriter().write(baseline).utf8).write(to: missing)
        #expect(try BaselineReader().read(contentsOf: missing, displayPath: "b.json") == baseline)
        #expect(try BaselineReader().readIfPresent(contentsOf: missing, displayPath: "b.json") == baseline)
    }
}
