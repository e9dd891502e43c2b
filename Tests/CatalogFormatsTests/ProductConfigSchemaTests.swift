import CatalogCore
import CatalogFormats
import CatalogReports
import Foundation
import TestSupport
import Testing

/// Runs Python's `jsonschema` (with PyYAML for YAML files) on config files, through `Process`.
enum PythonJSONSchema {
    /// Whether `python3` with the `jsonschema` and `yaml` modules is installed.
    static let isAvailable: Bool = {
        (try? run(["-c", "import jsonschema, yaml"]))?.status == 0
    }()

    /// Loads YAML as catalogcheck reads it — mapping keys as their source text (`NO` is Norway), booleans only
    /// `true`/`false` (`off` is a rules-file setting), no timestamps (`2026-12-31` is a string) — then validates
    /// every file, printing `<path>: valid|invalid|unreadable` and the problems.
    static let script = """
        import json, re, sys, yaml, jsonschema

        class Loader(yaml.SafeLoader):
            pass

        # YAML 1.2 core: PyYAML's YAML 1.1 resolvers would read `off`, `no` and `yes` as booleans and dates as dates.
        Loader.yaml_implicit_resolvers = {
            first: [(tag, regexp) for tag, regexp in resolvers
                    if tag not in ("tag:yaml.org,2002:bool", "tag:yaml.org,2002:timestamp")]
            for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}
        Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|false)$"), list("tf"))

        def mapping(loader, node):
            loader.flatten_mapping(node)
            return {(key.value if isinstance(key, yaml.ScalarNode) else repr(key)):
                    loader.construct_object(value, deep=True) for key, value in node.value}

        Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
        with open(sys.argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(schema)
        validator = jsonschema.Draft202012Validator(schema)
        for path in sys.argv[2:]:
            try:
                with open(path, encoding="utf-8") as f:
                    document = json.load(f) if path.endswith(".json") else yaml.load(f, Loader=Loader)
            except Exception as error:
                print(path + ": unreadable " + str(error).replace("\\n", " "))
                continue
            errors = sorted(validator.iter_errors(document), key=lambda e: [str(p) for p in e.absolute_path])
            print(path + ": " + ("invalid" if errors else "valid"))
            for error in errors:
                print("    " + "/".join(str(p) for p in error.absolute_path) + ": " + error.message)
        """

    /// Validates files against the schema; returns each file's verdict and the whole output.
    static func validate(schema: URL, files: [URL]) throws -> (verdicts: [String: String], output: String) {
        let result = try run(["-c", script, schema.path] + files.map(\.path))
        var verdicts: [String: String] = [:]
        for line in result.output.split(separator: "\n") where !line.hasPrefix(" ") {
            guard let range = line.range(of: ": ", options: .backwards) else { continue }
            let path = String(line[..<range.lowerBound])
            let verdict = line[range.upperBound...].split(separator: " ").first.map(String.init) ?? ""
            verdicts[path] = verdict
        }
        return (verdicts, result.output)
    }

    /// Validates files against the schema and expects each file's verdict (`valid` or `invalid`).
    static func expect(_ expected: [(file: URL, verdict: String)], schema: URL,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let (verdicts, output) = try validate(schema: schema, files: expected.map(\.file))
        for (file, verdict) in expected {
            #expect(verdicts[file.path] == verdict, "\(file.lastPathComponent): \(output)",
                    sourceLocation: sourceLocation)
        }
    }

    /// Expects every file to get `verdict`.
    static func expect(_ verdict: String, files: [URL], schema: URL,
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        try expect(files.map { ($0, verdict) }, schema: schema, sourceLocation: sourceLocation)
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try ToolRunner.run(["python3"] + arguments)
    }
}

@Suite("ProductConfig JSON Schema")
struct ProductConfigSchemaTests {
    static let schema = Fixtures.repositoryRoot.appendingPathComponent("catalogs/schema/catalog-v1.schema.json")

    /// Invalid fixtures whose problem a JSON Schema can express (the others need catalogcheck: an unknown group,
    /// a territory written twice, a territory that only looks like one, YAML syntax).
    static let rejectedBySchema = [
        "amount-without-currency.yml", "bad-base-territory.yml", "bad-currency.yml", "bad-period-words.yml",
        "bad-period.yml", "bad-type.yml", "bool-quoted.yml", "comma-amount.yml", "empty-prices.yml",
        "exponent-amount.yml", "free-trial-with-price.yml", "group-on-consumable.yml", "intro-offer-bad-mode.yml",
        "intro-offer-on-consumable.yml", "intro-offer-zero-periods.yml", "level-without-group.yml",
        "level-zero.yml", "lowercase-currency.yml", "missing-products.yml", "missing-type.yml",
        "missing-version.yml", "negative-amount.yml", "non-mapping-root.yml", "period-on-non-consumable.yml",
        "price-and-prices.yml", "price-and-tier.yml", "product-without-fields.yml", "products-not-mapping.yml",
        "storeids-appstore.yml", "stores-not-a-list.yml", "stores-unknown.yml", "tier-out-of-range.yml",
        "unknown-intro-offer-key.yml", "unknown-product-key.yml", "unknown-root-key.yml", "version-not-a-number.yml",
        "wrong-version.yml",
        // Offers, billing plans and purchase options (an unknown territory that looks like one, EU, passes).
        "billing-plan-on-consumable.yml", "offer-bad-currency.yml", "offer-bad-period.yml",
        "offer-code-on-one-time.yml", "offer-discount-over-100.yml", "offer-free-phase-with-price.yml",
        "offer-free-trial-with-price.yml", "offer-iap-code-with-mode.yml", "offer-play-on-non-renewing.yml",
        "offer-promotional-on-consumable.yml", "offer-three-phases.yml", "offer-unknown-key.yml",
        "offer-unknown-kind.yml", "purchase-option-bad-rent.yml",
        // priceChange (a territory that only looks like one, EU, and one written twice pass).
        "price-change-bad-existing.yml", "price-change-bad-increase.yml", "price-change-bad-since.yml",
        "price-change-empty.yml", "price-change-on-consumable.yml", "price-change-unknown-key.yml",
    ]

    @Test("the schema is valid JSON, draft 2020-12")
    func schemaIsJSON() throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schema)) as? [String: Any]
        #expect(object?["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
    }

    @Test("every valid config, the example catalogs' products.yml and the canonical export validate",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func validConfigsValidate() throws {
        let valid = Fixtures.files(in: "config/valid").filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml")
            || $0.hasSuffix(".json") }
        #expect(!valid.isEmpty)
        // Every products.yml in the repository's example catalogs too.
        let examples = ["demo/products.yml", "demo-drift/products.yml", "demo-drift/products.previous.yml"]
            .map { Fixtures.catalog($0) }
        let files = valid.map { Fixtures.url("config/valid/\($0)") } + examples
            // The store-like export leaves a type out on purpose (the user chooses), so it is no config yet.
            + ["yml", "json"].map { Fixtures.url("snapshots/export-rich.expected.\($0)") }
        try PythonJSONSchema.expect("valid", files: files, schema: Self.schema)
    }

    @Test("the JSON export of every demo store input is a config the schema validates",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func demoStoreExportsValidate() throws {
        // Arrange: every store input of the demo sets, read as `export` reads it
        let loader = CatalogLoader(options: ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11,
                                                                                          day: 22))))
        // and the demo's declared sources (`--config FORMAT:PATH`), whose export is a products.yml to start from:
        // the server config by its mapping file (the folder holds the source and a rules file beside it).
        let stores = try ["demo", "demo-drift"].flatMap { set in
            try FileManager.default.contentsOfDirectory(atPath: Fixtures.catalog(set).path)
                .filter { !$0.hasPrefix(".") && !$0.hasPrefix("products.") }.sorted().map { "\(set)/\($0)" }
        }.map { $0 == "demo/server" ? "demo/server/catalogcheck.map.yml" : $0 }
        #expect(stores.count >= 10, "\(stores)")
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Act: export each as JSON
        let files = try stores.map { store in
            let file = folder.appendingPathComponent(store.replacingOccurrences(of: "/", with: "_") + ".json")
            try Data(CatalogJSONExporter().export(loader.load(Fixtures.catalog(store).path)).utf8).write(to: file)
            return file
        }
        // Assert
        try PythonJSONSchema.expect("valid", files: files, schema: Self.schema)
    }

    @Test("the schema rejects what it can express of the invalid fixtures",
          .enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func invalidConfigsFail() throws {
        let files = Self.rejectedBySchema.map { Fixtures.url("config/invalid/\($0)") }
        try PythonJSONSchema.expect("invalid", files: files, schema: Self.schema)
    }
}
