import CatalogCore
import CatalogReports
import Foundation
import TestSupport
import Testing

/// The SARIF report, read back with `JSONSerialization` (what code scanning reads) and validated against the
/// OASIS schema.
@Suite("SARIF reporter")
struct SARIFReporterTests {
    private static func parse(_ result: CheckResult, context: ReportContext = ReportContext()) throws -> [String: Any] {
        let output = SARIFReporter().report(result, context: context)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    private static func run(_ log: [String: Any]) throws -> [String: Any] {
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        return try #require(runs.first)
    }

    private static func results(_ log: [String: Any]) throws -> [[String: Any]] {
        try #require(try run(log)["results"] as? [[String: Any]])
    }

    /// The first result of a rule, and whose message holds `text` when given.
    private static func result(_ results: [[String: Any]], rule: String, containing text: String? = nil) throws
        -> [String: Any] {
        try #require(results.first { result in
            let message = (result["message"] as? [String: Any])?["text"] as? String ?? ""
            return result["ruleId"] as? String == rule && text.map(message.contains) ?? true
        })
    }

    /// `locations[0].physicalLocation` (or a related location's) as `[uri, uriBaseId, startLine, startColumn]`.
    private static func place(_ location: [String: Any]?) -> [String?] {
        let physical = location?["physicalLocation"] as? [String: Any]
        let artifact = physical?["artifactLocation"] as? [String: Any]
        let region = physical?["region"] as? [String: Any]
        return [artifact?["uri"] as? String, artifact?["uriBaseId"] as? String,
                (region?["startLine"] as? Int).map(String.init), (region?["startColumn"] as? Int).map(String.init)]
    }

    @Test("one run; the driver names the tool and lists every rule in order")
    func driver() throws {
        let log = try Self.parse(CanonicalResult.make())
        #expect(log["$schema"] as? String == "https://json.schemastore.org/sarif-2.1.0.json")
        #expect(log["version"] as? String == "2.1.0")
        let tool = try #require(try Self.run(log)["tool"] as? [String: Any])
        let driver = try #require(tool["driver"] as? [String: Any])
        #expect(driver["name"] as? String == ToolInfo.name)
        #expect(driver["version"] as? String == ToolInfo.version)
        #expect(driver["informationUri"] as? String == ToolInfo.informationURI)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.map { $0["id"] as? String } == Rule.allCases.map(\.rawValue))
        for (rule, descriptor) in zip(Rule.allCases, rules) {
            #expect((descriptor["shortDescription"] as? [String: String])?["text"] == rule.summary)
            #expect((descriptor["fullDescription"] as? [String: String])?["text"] == rule.explanation)
            #expect((descriptor["help"] as? [String: String])?["text"]?.contains(rule.explanation) == true)
            let level = (descriptor["defaultConfiguration"] as? [String: String])?["level"]
            #expect(level == ["error": "error", "warning": "warning", "note": "note"][rule.defaultSeverity.rawValue])
        }
        #expect(rules.first { $0["id"] as? String == "name-mismatch" }
                    .flatMap { ($0["defaultConfiguration"] as? [String: String])?["level"] } == "note")
    }

    @Test("every finding is a result, suppressed ones included; ruleIndex points at its rule; levels follow severity")
    func results() throws {
        let canonical = CanonicalResult.make()
        let log = try Self.parse(canonical)
        let results = try Self.results(log)
        #expect(results.count == canonical.findings.count)
        let rules = try #require(((try Self.run(log)["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"]
            as? [[String: Any]])
        for (finding, result) in zip(canonical.findings, results) {
            #expect(result["ruleId"] as? String == finding.rule.rawValue)
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == finding.rule.rawValue)
            #expect(result["level"] as? String == finding.severity.rawValue)
        }
        #expect(try Self.result(results, rule: "price-mismatch", containing: "DE is")["level"] as? String == "error")
        #expect(try Self.result(results, rule: "intro-offer-exceeds-period")["level"] as? String == "warning")
        #expect(try Self.result(results, rule: "name-mismatch")["level"] as? String == "note")
        #expect(try Self.result(results, rule: "storekit-single-storefront")["ruleIndex"] as? Int
                == Rule.allCases.firstIndex(of: .storekitSingleStorefront))
    }

    @Test("message: product ID, message and hint")
    func message() throws {
        let results = try Self.results(try Self.parse(CanonicalResult.make()))
        let missing = try Self.result(results, rule: "product-missing-in-config")
        #expect((missing["message"] as? [String: String])?["text"]
                == "com.example.coins.1OO: is in the store but not in the config (catalogs/products.yml); "
                + "did you mean 'com.example.coins.100'?")
    }

    @Test("the hostile name: controls visible, brackets escaped so no embedded link can be forged")
    func hostileName() throws {
        let results = try Self.results(try Self.parse(CanonicalResult.make()))
        let named = try Self.result(results, rule: "name-mismatch")
        let visible = #"<script>alert("x")</script> & 'VIP' | 100% , a:b `tick` *bold*\u{A}file.swift:1:1: error: "#
            + #"forged \u{1B}\[31mred\u{1B}\[0m\u{7}"#
        #expect((named["message"] as? [String: String])?["text"]
                == "com.example.lifetime: reference name is '\(visible)' in the store "
                + "(catalogs/appstore.storekit:30:7), 'Lifetime' in the config")
        #expect(SARIFEscaper.message(#"see [here](1) \[x\] a\b"#) == #"see \[here\](1) \\\[x\\\] a\b"#)
    }

    @Test("locations: the config's relative to %SRCROOT% with its region, the store's as a related location")
    func locations() throws {
        let results = try Self.results(try Self.parse(CanonicalResult.make()))
        let price = try Self.result(results, rule: "price-mismatch", containing: "DE is")
        let locations = try #require(price["locations"] as? [[String: Any]])
        #expect(locations.count == 1)
        #expect(Self.place(locations.first) == ["catalogs/products.yml", "%SRCROOT%", "14", "5"])
        let related = try #require(price["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1)
        #expect(Self.place(related.first) == ["catalogs/appstore.storekit", "%SRCROOT%", "88", "9"])
        #expect(related.first?["id"] is Int)
        #expect((related.first?["message"] as? [String: String])?["text"] == "store")

        // No config location: the store's is the location, with no related one.
        let missing = try Self.result(results, rule: "product-missing-in-config")
        #expect(Self.place((missing["locations"] as? [[String: Any]])?.first)
                == ["catalogs/appstore.storekit", "%SRCROOT%", "12", "7"])
        #expect(missing["relatedLocations"] == nil)
        // A location without a line has no region.
        let note = try Self.result(results, rule: "storekit-single-storefront")
        #expect(Self.place((note["locations"] as? [[String: Any]])?.first)
                == ["catalogs/appstore.storekit", "%SRCROOT%", nil, nil])
        let notePhysical = (note["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
        #expect(notePhysical?["region"] == nil)

        // Neither side located, no store: no locations at all.
        var result = CanonicalResult.make()
        result.findings.append(Finding(rule: .ignoreUnused, productID: "com.example.legacy.*",
                                       message: "matched no finding", store: nil))
        let unlocated = try Self.result(try Self.results(try Self.parse(result)), rule: "ignore-unused")
        #expect(unlocated["locations"] == nil)
        #expect(unlocated["relatedLocations"] == nil)
    }

    @Test("absolute paths: under the working directory relative to %SRCROOT%, elsewhere file:// URIs; percent-encoded")
    func paths() throws {
        let result = Self.pathResult()
        let log = try Self.parse(result, context: ReportContext(workingDirectory: "/work/my app/"))
        let results = try Self.results(log)
        func places(_ rule: String) throws -> [[String?]] {
            let result = try Self.result(results, rule: rule)
            return [Self.place((result["locations"] as? [[String: Any]])?.first),
                    Self.place((result["relatedLocations"] as? [[String: Any]])?.first)]
        }
        #expect(try places("price-mismatch") == [
            ["catalogs/products%20v2.yml", "%SRCROOT%", "3", "1"],
            ["file:///elsewhere/%C3%9Cber%23store%3A1.storekit", nil, "7", nil],
        ])
        #expect(try places("product-missing-in-store") == [
            ["file:///work/up.yml", nil, "2", "2"],
            ["a%3Ab/%5Bx%5D%25.json", "%SRCROOT%", nil, nil],
        ])
        // The working directory itself is written nowhere: two checkouts give the same bytes.
        #expect(try Self.run(log)["originalUriBaseIds"] == nil)
        #expect(!SARIFReporter().report(result, context: ReportContext(workingDirectory: "/work/my app/")).contains("my%20app"))
        let uris = results.flatMap { result in
            ((result["locations"] as? [[String: Any]]) ?? []) + ((result["relatedLocations"] as? [[String: Any]]) ?? [])
        }.compactMap { Self.place($0)[0] }
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
            .union(CharacterSet(charactersIn: "0123456789-._~/%:"))
        #expect(uris.allSatisfy { $0.unicodeScalars.allSatisfy(unreserved.contains) })

        // Without a working directory absolute paths stay absolute and nothing names %SRCROOT%'s place.
        let plain = try Self.parse(result)
        #expect(try Self.run(plain)["originalUriBaseIds"] == nil)
        let first = try #require(try Self.results(plain).first { $0["ruleId"] as? String == "price-mismatch" })
        #expect(Self.place((first["locations"] as? [[String: Any]])?.first)[0]
                == "file:///work/my%20app/catalogs/products%20v2.yml")
    }

    /// Absolute paths inside and outside `/work/my app`, a relative one that climbs out of it, and URI-unsafe
    /// characters.
    private static func pathResult() -> CheckResult {
        let config = "/work/my app/./catalogs//products v2.yml"
        let store = "/elsewhere/Über#store:1.storekit"
        let findings = [
            Finding(rule: .priceMismatch, productID: "a", territory: Territory(code: "US"), message: "differs",
                    configLocation: SourceLocation(path: config, line: 3, column: 1),
                    storeLocation: SourceLocation(path: store, line: 7), store: store,
                    storeInput: StoreInputID(position: 0), storeKind: .appStore),
            Finding(rule: .productMissingInStore, productID: "b", message: "missing",
                    configLocation: SourceLocation(path: "../up.yml", line: 2, column: 2),
                    store: "a:b/[x]%.json", storeInput: StoreInputID(position: 0), storeKind: .play),
        ]
        return CheckResult(configPath: config, configFormat: .catalog, configProducts: 2,
                           comparisons: [StoreComparison(input: StoreInputID(position: 0), storePath: store, storeFormat: .storekit, configProducts: 2,
                                                         storeProducts: 1, matchedProducts: 1)],
                           findings: findings, strict: false)
    }

    @Test("fingerprints: the finding identity's, present on every result and stable across runs")
    func fingerprints() throws {
        let canonical = CanonicalResult.make(stores: 2)
        let first = try Self.results(try Self.parse(canonical))
        let second = try Self.results(try Self.parse(CanonicalResult.make(stores: 2)))
        let prints = first.map { ($0["partialFingerprints"] as? [String: String])?["catalogcheck/v1"] }
        #expect(prints == canonical.findings.map { $0.identity.fingerprint })
        #expect(prints == second.map { ($0["partialFingerprints"] as? [String: String])?["catalogcheck/v1"] })
        #expect(prints.allSatisfy { $0?.count == 16 })
        #expect(Set(prints).count == prints.count)
    }

    @Test("the suppressed finding carries suppressions; the others none")
    func suppressions() throws {
        let results = try Self.results(try Self.parse(CanonicalResult.make()))
        let suppressed = results.filter { $0["suppressions"] != nil }
        #expect(suppressed.count == 1)
        let gb = try #require(suppressed.first)
        #expect(((gb["message"] as? [String: String])?["text"])?.contains("GB is 7.99 GBP") == true)
        #expect(gb["suppressions"] as? [[String: String]] == [
            ["kind": "external", "justification": "recorded in catalogcheck-baseline.json"],
        ])
    }

    @Test("report files: .sarif means sarif")
    func inferredFormat() {
        #expect(ReportFormat(inferringFromPath: "out/catalogcheck.SARIF") == .sarif)
        #expect(ReportFormat(rawValue: "sarif")?.reporter is SARIFReporter)
    }

    @Test("byte-identical on two runs")
    func deterministic() {
        let context = ReportContext(workingDirectory: "/work")
        #expect(SARIFReporter().report(CanonicalResult.make(stores: 2), context: context)
                == SARIFReporter().report(CanonicalResult.make(stores: 2), context: context))
    }

    @Test("validates against the OASIS SARIF 2.1.0 schema",
          .enabled(if: JSONSchemaValidator.isAvailable, "needs check-jsonschema, or python3 with jsonschema"))
    func schema() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputs = [
            ("canonical", CanonicalResult.make(), ReportContext()),
            ("two-stores", CanonicalResult.make(stores: 2), ReportContext(workingDirectory: "/work")),
            ("paths", Self.pathResult(), ReportContext(workingDirectory: "/work/my app")),
            ("clean", CheckResult(configPath: "products.yml", configFormat: .catalog, configProducts: 0,
                                  comparisons: [], findings: [], strict: false), ReportContext()),
        ]
        var files: [URL] = []
        for (name, result, context) in outputs {
            let file = folder.appendingPathComponent("\(name).sarif")
            try Data(SARIFReporter().report(result, context: context).utf8).write(to: file)
            files.append(file)
        }
        let validation = try JSONSchemaValidator.validate(schema: Fixtures.url("schemas/sarif-schema-2.1.0.json"),
                                                          files: files)
        #expect(validation.status == 0, "\(validation.output)")
    }
}

/// Validates JSON files against a JSON Schema with `check-jsonschema`, or Python's `jsonschema` (draft 4, as
/// the SARIF schema declares) when only that is installed.
enum JSONSchemaValidator {
    private static let python = """
        import json, sys, jsonschema
        with open(sys.argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
        failed = False
        for path in sys.argv[2:]:
            with open(path, encoding="utf-8") as f:
                for error in validator.iter_errors(json.load(f)):
                    failed = True
                    print(path + ": " + "/".join(str(p) for p in error.absolute_path) + ": " + error.message)
        sys.exit(1 if failed else 0)
        """

    /// The command, to be followed by the schema and the files; nil when neither tool is installed.
    private static let command: [String]? = {
        if (try? ToolRunner.run(["check-jsonschema", "--version"]))?.status == 0 {
            return ["check-jsonschema", "--schemafile"]
        }
        if (try? ToolRunner.run(["python3", "-c", "import jsonschema"]))?.status == 0 {
            return ["python3", "-c", python]
        }
        return nil
    }()

    /// Whether a validator is installed.
    static var isAvailable: Bool { command != nil }

    /// Validates the files; status 0 when every one is valid, the tool's report in `output`.
    static func validate(schema: URL, files: [URL]) throws -> (status: Int32, output: String) {
        try ToolRunner.run((command ?? ["false"]) + [schema.path] + files.map(\.path))
    }
}
