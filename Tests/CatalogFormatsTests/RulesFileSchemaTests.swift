import CatalogCore
import CatalogReports
import Foundation
import TestSupport
import Testing

@Suite("Rules file and baseline JSON Schemas")
struct RulesFileSchemaTests {
    static let rulesSchema = Fixtures.repositoryRoot
        .appendingPathComponent("catalogs/schema/catalogcheck-rules-v1.schema.json")
    static let baselineSchema = Fixtures.repositoryRoot
        .appendingPathComponent("catalogs/schema/catalogcheck-baseline-v1.schema.json")

    /// Invalid rules files whose problem a JSON Schema can express (the others need catalogcheck: a territory
    /// code that only looks like one, one written twice as alpha-2 and alpha-3, a duplicate key, YAML syntax).
    static let rejectedBySchema = [
        "bad-date.yml", "bad-setting.yml", "bad-store.yml", "comments-only.yml", "empty-reason.yml", "empty.yml",
        "ignore-bad-territory.yml", "ignore-entry-not-a-mapping.yml", "ignore-not-a-list.yml",
        "ignore-unsuppressible-rule.yml", "missing-reason.yml", "missing-rule.yml", "missing-version.yml",
        "non-mapping-root.yml", "rules-not-a-mapping.yml", "territories-string.yml", "unknown-ignore-key-far.yml",
        "unknown-ignore-key.yml", "unknown-ignore-rule.yml", "unknown-key.json", "unknown-root-key.yml",
        "unknown-rule.yml", "until-not-a-date.yml", "version-string.yml", "wrong-version.yml",
    ]

    static func object(_ url: URL) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    /// The `enum` at a path of object keys.
    static func enumeration(_ schema: [String: Any], _ path: [String]) -> [String]? {
        var node: Any? = schema
        for key in path { node = (node as? [String: Any])?[key] }
        return (node as? [String: Any])?["enum"] as? [String]
    }

    @Test("both schemas are JSON, draft 2020-12, and list exactly catalogcheck's rule IDs, settings and fields")
    func schemasMatchTheModel() throws {
        let rules = try Self.object(Self.rulesSchema)
        let baseline = try Self.object(Self.baselineSchema)
        for schema in [rules, baseline] {
            #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        }
        let ruleIDs = Rule.allCases.map(\.rawValue)
        #expect(Self.enumeration(rules, ["$defs", "rule"]) == ruleIDs)
        #expect(Self.enumeration(rules, ["$defs", "suppressibleRule"])
                    == Rule.allCases.filter(\.isSuppressible).map(\.rawValue))
        #expect(Self.enumeration(rules, ["$defs", "setting"]) == RuleSetting.allCases.map(\.rawValue))
        #expect(Self.enumeration(rules, ["$defs", "ignoreEntry", "properties", "store"])
                    == StoreKind.allCases.map(\.rawValue))
        #expect(Self.enumeration(baseline, ["$defs", "finding", "properties", "rule"]) == ruleIDs)
        let defs = baseline["$defs"] as? [String: Any]
        let finding = (defs?["finding"] as? [String: Any])?["properties"] as? [String: Any]
        let fieldForms = (finding?["field"] as? [String: Any])?["anyOf"] as? [[String: Any]]
        #expect(fieldForms?.first?["enum"] as? [String] == ProductField.allCases.map(\.rawValue))
        #expect(fieldForms?.last?["pattern"] as? String == "^(offer|billingPlan|purchaseOption):.+$")
    }

    @Test("every valid rules file validates",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func validRulesFilesValidate() throws {
        let files = Fixtures.files(in: "rules/valid").map { Fixtures.url("rules/valid/\($0)") }
        #expect(files.count >= 5)
        try PythonJSONSchema.expect("valid", files: files, schema: Self.rulesSchema)
    }

    @Test("the rules schema rejects what it can express of the invalid fixtures",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func invalidRulesFilesFail() throws {
        #expect(Set(Self.rejectedBySchema).isSubset(of: Fixtures.files(in: "rules/invalid")))
        let files = Self.rejectedBySchema.map { Fixtures.url("rules/invalid/\($0)") }
        try PythonJSONSchema.expect("invalid", files: files, schema: Self.rulesSchema)
    }

    @Test("a written baseline validates; malformed ones do not",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func baselineSchema() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [(file: URL, verdict: String)] = []
        func add(_ name: String, _ text: String, _ verdict: String) throws {
            let url = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            files.append((url, verdict))
        }
        let recorded = Baseline(path: "b.json", recording: CanonicalResult.make(stores: 2))
        try add("recorded.json", BaselineWriter().write(recorded), "valid")
        try add("empty.json", BaselineWriter().write(Baseline(path: "b.json", entries: [])), "valid")
        try add("unknown-rule.json", #"{"version": 1, "findings": [{"rule": "price-mismach", "field": "price"}]}"#,
                "invalid")
        try add("unknown-field.json", #"{"version": 1, "findings": [{"rule": "price-mismatch", "field": "prices"}]}"#,
                "invalid")
        try add("bad-store.json",
                #"{"version": 1, "findings": [{"rule": "price-mismatch", "field": "price", "store": "google"}]}"#,
                "invalid")
        try add("extra-key.json",
                #"{"version": 1, "findings": [{"rule": "price-mismatch", "field": "price", "line": 3}]}"#, "invalid")
        try add("no-values.json",
                #"{"version": 1, "findings": [{"rule": "price-mismatch", "field": "price", "store": "play"}]}"#, "valid")
        try add("half-values.json",
                #"{"version": 1, "findings": [{"rule": "price-mismatch", "field": "price", "expected": "9.99 EUR"}]}"#,
                "invalid")
        try add("number-value.json", #"{"version": 1, "findings": [{"rule": "price-mismatch", "field": "price", "#
                    + #""expected": 9.99, "actual": null}]}"#, "invalid")
        try add("no-findings.json", #"{"version": 1}"#, "invalid")
        try add("version-2.json", #"{"version": 2, "findings": []}"#, "invalid")
        try PythonJSONSchema.expect(files, schema: Self.baselineSchema)
    }
}
