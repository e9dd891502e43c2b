import Foundation
import TestSupport
import Testing

/// The export round trip of DESIGN.md §2, as a property of every catalog we have: each store input of the demo
/// sets (`catalogs/demo`, `catalogs/demo-drift`) and every real catalog file in `../shared/realworld`
/// (`CATALOGCHECK_REALWORLD`). Through the built binary, as a user runs it:
///
/// 1. `export SOURCE` exits 0 and says nothing on standard error (a warning there means products without a type:
///    not a config);
/// 2. the export is a valid config: `check --config EXPORT --store SOURCE --strict` (same `--as-of`) exits 0 —
///    or 1, only with findings the source raises about itself (an invalid config would be exit 2);
/// 3. exporting the export gives the same catalog: the same YAML bytes, comment lines aside;
/// 4. and export → read → export is a fixpoint (`expectFixpoint`): the JSON of the export is the JSON of the
///    source, its notes aside, and from the export of the export on, every export is the same to the byte.
///
/// Comment lines are left out of the comparison in 3 because they hold what a config cannot: the header names the
/// file exported (the source, then the export), and the source's uncompared prices, further intro offers,
/// repeated records and reader remarks are comments that a config — the export — no longer has to say.
///
/// A config (`products.yml`) is no store input (DESIGN.md §2); its property is 1, 3, and that
/// `diff CONFIG EXPORT --exit-code` reads the export as a config and finds no difference.
///
/// A `plist` states no type where it only lists IDs, so its export is not a config by design (the user chooses
/// each type): for plist the property is that every ID of every layout is exported, each untyped one with a
/// comment, and standard error says so — see `plistExportsEveryID`.
@Suite("export round trip (property): every demo catalog and every real catalog file")
struct ExportRoundTripTests {
    static let asOf = ["--as-of", "2026-11-22"]

    /// Findings a source raises about itself, which an export of it carries along (DESIGN.md §2): a repeated ID,
    /// a free trial longer than its period, the note that a .storekit file prices one storefront, and the lint
    /// rules of offers and billing plans, which run on each catalog on its own (§5), and a subscription the
    /// source leaves without a price where it is available, and the note that the source's price-point table
    /// lacks a territory it prices (issue #26).
    static let selfRaised: Set<String> = ["duplicate-product-id", "intro-offer-exceeds-period",
                                          "storekit-single-storefront", "offer-id-reused", "offer-free-with-price",
                                          "offer-not-a-discount", "billing-plan-out-of-range",
                                          "subscription-price-matrix-incomplete", "price-points-missing"]

    // MARK: - The sources

    /// The demo sets' entries (files and folders), as paths from the repository root.
    static let demoEntries: [String] = ["demo", "demo-drift"].flatMap { set in
        let folder = Fixtures.catalog(set)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { "catalogs/\(set)/\($0)" }
    }

    /// The demo sets' declared sources of `--config FORMAT:PATH` (DESIGN.md §4b): RevenueCat projects and a server
    /// config with its mapping file. They are never a store (`--store` refuses them), so `check --strict` against
    /// the source cannot close the round trip; their export is a `products.yml` to start from, which
    /// `ProductConfigSchemaTests` validates and `RevenueCatFetchTests` compares.
    static let demoDeclared: Set<String> = ["catalogs/demo/revenuecat", "catalogs/demo/server",
                                            "catalogs/demo-drift/revenuecat"]

    /// Every store input of the demo sets: each entry but the configs and the declared sources.
    static let demoStores = demoEntries.filter {
        !$0.hasSuffix("/products.yml") && !$0.hasSuffix("/products.previous.yml") && !demoDeclared.contains($0)
    }

    /// The demo sets' configs.
    static let demoConfigs = demoEntries.filter { $0.hasSuffix("/products.yml") || $0.hasSuffix("/products.previous.yml") }

    /// Real files that are not catalogs: context for the formats (FORMATS.md), never input. Each is refused
    /// (exit 2) — `skippedFilesAreRefused` keeps this list honest.
    static let realWorldContext: [String: String] = [
        "SOURCES.md": "provenance notes",
        "apple/SOURCES.md": "provenance notes",
        "apple/apple-docs_ASC_example_snippets.md": "documentation excerpts (truncated JSON in Markdown)",
        "apple/colinhumber_itunes_transporter_generator_README.md": "a README (its XML is the _extracted_ file)",
        "apple/minsOne_minsOne.github.io_2016-01-17-handling-inapppurcase-using-itmstransporter.md":
            "a blog post (its XML is the _extracted_ file)",
        "apple/DERIVED_asc_openapi_4.4.1_subscription_iap_extract.json": "an OpenAPI schema extract",
        "apple/DERIVED_legacy_price_tiers_USD_from_fastlane_pricing_tiers.csv": "a price-tier table",
        "apple/fastlane_fastlane_spaceship_tunes_fixtures_pricing_tiers.json": "a price-tier table",
        "google/apportable_IABV3Example_README.md": "a README (with a CSV inside)",
        "google/googleapis_google-api-python-client_androidpublisher.v3.json": "the API's discovery document",
        "google/guardian_mobile-purchases_google-subscription-extra.ts": "code (a response inside comments)",
        "google/needle-mirror_com.unity.purchasing_GooglePlayProductCatalogExporter.cs": "code",
        "google/Triple-T_gradle-play-publisher_subscription.metadata.json":
            "gradle-play-publisher's regionsVersion sidecar, no products",
        "other/guardian_mobile-purchases_productBillingPeriod.ts": "code",
        "other/needle-mirror_com.unity.purchasing_ApplePriceTiers.cs": "code",
        "other/trint-it_apple-pricing-matrix_pricing_matrix_20191003.csv": "a price-tier table",
    ]

    /// Real catalogs in formats catalogcheck does not read (DESIGN.md §2 names the formats): refused with exit 2,
    /// never read as something else.
    static let realWorldForeignFormats: [String: String] = [
        "apple/colinhumber_itunes_transporter_generator_example_config.yaml": "a Transporter generator's input",
        "apple/fastlane_fastlane_spaceship_tunes_fixtures_iap_detail_recurring.json":
            "the retired iTunes Connect web API (fastlane spaceship)",
        "apple/fastlane_fastlane_spaceship_tunes_fixtures_iap_family_detail.json":
            "the retired iTunes Connect web API (fastlane spaceship)",
        "apple/fastlane_fastlane_spaceship_tunes_fixtures_iap_list.json":
            "the retired iTunes Connect web API (fastlane spaceship)",
        "other/AmazonAppDev_amazon-iap-kotlin_amazon.sdktester.json": "Amazon App Tester",
        "other/sdkbox_sdkbox-amazon-sample_amazon.sdktester.json": "Amazon App Tester",
        "other/zype_zype-amazonfiretv-v2_amazon.sdktester.json": "Amazon App Tester",
        "other/llamacademy_unity-iap-2023_IAPProductCatalog.json": "Unity IAP catalog",
        "other/RiddhRam_Martian-Frontier_IAPProductCatalog.json": "Unity IAP catalog",
    ]

    /// Every file under the real-world folder, as paths relative to it, sorted; empty without the folder.
    static let realWorldFiles: [String] = {
        guard let folder = RealWorld.folder,
              let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        let prefix = folder.standardizedFileURL.path + "/"
        var files: [String] = []
        for case let url as URL in walker
        where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            let path = url.standardizedFileURL.path
            if path.hasPrefix(prefix), !url.lastPathComponent.hasPrefix(".") {
                files.append(String(path.dropFirst(prefix.count)))
            }
        }
        return files.sorted()
    }()

    /// The real catalogs: every real file not listed as context or as a foreign format. A new file is a catalog
    /// until someone lists it, so it cannot be skipped silently.
    static let realWorldCatalogs = realWorldFiles.filter {
        realWorldContext[$0] == nil && realWorldForeignFormats[$0] == nil
    }

    // MARK: - The property

    @Test("demo store input: export, check --strict against the source, export again (a fixpoint)",
          arguments: demoStores)
    func demoStore(path: String) throws {
        try Self.expectRoundTrip(store: Fixtures.repositoryRoot.appendingPathComponent(path).path)
    }

    @Test("demo store input: export --format json is a config; check --strict against the source; the same as YAML",
          arguments: demoStores)
    func demoStoreJSON(path: String) throws {
        try Self.expectJSONRoundTrip(store: Fixtures.repositoryRoot.appendingPathComponent(path).path)
    }

    @Test("real catalog: export --format json is a config; check --strict against the source; the same as YAML",
          .enabled(if: RealWorld.isAvailable, "set CATALOGCHECK_REALWORLD"), arguments: realWorldCatalogs)
    func realCatalogJSON(path: String) throws {
        try Self.expectJSONRoundTrip(store: RealWorld.url(path).path)
    }

    @Test("real catalog: export, check --strict against the source, export again (a fixpoint)",
          .enabled(if: RealWorld.isAvailable, "set CATALOGCHECK_REALWORLD"), arguments: realWorldCatalogs)
    func realCatalog(path: String) throws {
        try Self.expectRoundTrip(store: RealWorld.url(path).path)
    }

    @Test("demo config: export, diff against the source, export again", arguments: demoConfigs)
    func demoConfig(path: String) throws {
        // Arrange
        let source = Fixtures.repositoryRoot.appendingPathComponent(path).path
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Act
        let first = try Self.export(source, to: folder.appendingPathComponent("export.yml"))
        let diff = try CommandRunner.run(["diff", source, first.path, "--exit-code"] + Self.asOf, in: folder)
        // Assert
        #expect(diff.exitCode == 0, "\(diff.stdout)\(diff.stderr)")
        try Self.expectStable(first, in: folder)
    }

    @Test("every skipped real file exists and is refused (exit 2), so the lists stay true",
          .enabled(if: RealWorld.isAvailable, "set CATALOGCHECK_REALWORLD"))
    func skippedFilesAreRefused() throws {
        let skipped = Array(Self.realWorldContext.keys) + Array(Self.realWorldForeignFormats.keys)
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in skipped.sorted() where path.hasSuffix("SOURCES.md") == false {
            #expect(Self.realWorldFiles.contains(path), "\(path) is listed but not in the real-world folder")
            let result = try CommandRunner.run(["export", RealWorld.url(path).path] + Self.asOf, in: folder)
            #expect(result.exitCode == 2, "\(path) is listed as not a catalog but exports:\n\(result.stdout)")
        }
        #expect(Self.realWorldCatalogs.count >= 20, "\(Self.realWorldCatalogs)")
    }

    // MARK: - Plist: every ID of every layout

    @Test("plist: every ID of every layout is exported; untyped ones are marked, and standard error says so",
          arguments: Fixtures.files(in: "plist").filter { $0.hasSuffix(".plist") })
    func plistExportsEveryID(name: String) throws {
        // Arrange
        let source = Fixtures.url("plist/\(name)").path
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let yaml = folder.appendingPathComponent("export.yml")
        // Act
        let exported = try CommandRunner.run(["export", source, "--output", yaml.path] + Self.asOf, in: folder)
        let read = try CommandRunner.run(["export", source, "--format", "json"] + Self.asOf, in: folder)
        // Assert: the IDs the reader read ...
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(read.exitCode == 0, "\(read.stderr)")
        let ids = Set(try Self.productIDs(inExportJSON: read.stdout))
        #expect(!ids.isEmpty)
        let untyped = try Self.untypedCount(inExportJSON: read.stdout)
        var text = try String(contentsOf: yaml, encoding: .utf8)
        let marker = "    # type: not stated by plist; set consumable, non-consumable, auto-renewable or non-renewing\n"
        #expect(text.components(separatedBy: marker).count - 1 == untyped)
        #expect(exported.stderr == (untyped == 0 ? "" : "\(source): warning: \(untyped) product"
            + (untyped == 1 ? "" : "s") + " of this plist catalog state" + (untyped == 1 ? "s" : "")
            + " no type; the export leaves \"type\" out, so it is not a valid config until you set each one "
            + "(consumable, non-consumable, auto-renewable or non-renewing)\n"))
        // ... are the products of the YAML export, once the user has chosen each type: then it is a config,
        // which checks clean against the plist.
        text = text.replacingOccurrences(of: marker, with: "    type: non-consumable\n")
        try Data(text.utf8).write(to: yaml)
        let back = try CommandRunner.run(["export", yaml.path, "--format", "json"] + Self.asOf, in: folder)
        #expect(back.exitCode == 0, "\(back.stderr)")
        #expect(Set(try Self.productIDs(inExportJSON: back.stdout)) == ids)
        let checked = try CommandRunner.run(
            ["check", "--config", yaml.path, "--store", source, "--strict", "--format", "json"] + Self.asOf, in: folder)
        #expect(checked.exitCode == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(try Self.findings(inReport: checked.stdout).isEmpty)
    }

    // MARK: - Steps

    /// The whole property for one store input.
    static func expectRoundTrip(store: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try export(store, to: folder.appendingPathComponent("export.yml"), sourceLocation: sourceLocation)
        let check = try CommandRunner.run(
            ["check", "--config", first.path, "--store", store, "--strict", "--format", "json"] + asOf, in: folder)
        #expect(check.stderr.isEmpty, "\(check.stderr)", sourceLocation: sourceLocation)
        let findings = try self.findings(inReport: check.stdout)
        let foreign = findings.filter { !selfRaised.contains($0.rule) }
        #expect(foreign.isEmpty, "findings the source does not raise about itself:\n\(check.stdout)",
                sourceLocation: sourceLocation)
        let failing = findings.contains { $0.severity != "note" }
        #expect(check.exitCode == (failing ? 1 : 0), "\(check.stdout)", sourceLocation: sourceLocation)
        try expectStable(first, in: folder, sourceLocation: sourceLocation)
        try expectFixpoint(store: store, sourceLocation: sourceLocation)
    }

    /// The catalog of an `export --format json` document: its `$comment` notes left out, at the top and on each
    /// product — what an export says beside the catalog (the file exported, the reader's remarks, prices never
    /// compared, further intro offers, offers the config's shape cannot hold), which the YAML export writes as
    /// comments and a config therefore cannot say back.
    static func catalogPart(ofExportJSON json: String) throws -> NSDictionary {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                                  "not an export:\n\(json)")
        object["$comment"] = nil
        object["products"] = try products(inExportJSON: json).mapValues { product -> [String: Any] in
            var product = product
            product["$comment"] = nil
            return product
        }
        return object as NSDictionary
    }

    /// The export round trip as a fixpoint (issue #25): the config an export writes, read back and exported again,
    ///
    /// 1. gives the JSON export of the source, its notes aside (an intro offer's territory was in one and not in
    ///    the other);
    /// 2. and is then stable to the byte: exporting the export of the export, under the same file name, writes the
    ///    same YAML and the same JSON.
    static func expectFixpoint(store: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let steps = ["first", "second", "third"].map { folder.appendingPathComponent($0) }
        for step in steps { try manager.createDirectory(at: step, withIntermediateDirectories: false) }
        // export SOURCE, as YAML and as JSON
        _ = try export(store, to: steps[0].appendingPathComponent("export.yml"), sourceLocation: sourceLocation)
        let sourceJSON = try CommandRunner.run(["export", store, "--format", "json"] + asOf, in: folder)
        #expect(sourceJSON.exitCode == 0, "\(sourceJSON.stderr)", sourceLocation: sourceLocation)
        // read the export back and export it again, twice, each time as export.yml beside it
        var yaml: [String] = []
        var json: [String] = []
        for (index, step) in steps.enumerated() {
            let again = try CommandRunner.run(["export", "export.yml", "--format", "json"] + asOf, in: step)
            #expect(again.exitCode == 0 && again.stderr.isEmpty, "\(again.stderr)", sourceLocation: sourceLocation)
            json.append(again.stdout)
            guard index + 1 < steps.count else { break }
            let next = steps[index + 1].appendingPathComponent("export.yml")
            _ = try export("export.yml", to: next, in: step, sourceLocation: sourceLocation)
            yaml.append(try String(contentsOf: next, encoding: .utf8))
        }
        #expect(try catalogPart(ofExportJSON: json[0]) == catalogPart(ofExportJSON: sourceJSON.stdout),
                "JSON of the source:\n\(sourceJSON.stdout)\nJSON of its export:\n\(json[0])",
                sourceLocation: sourceLocation)
        #expect(yaml.count == 2 && yaml.first == yaml.last,
                "export of the export:\n\(yaml.first ?? "")\nagain:\n\(yaml.last ?? "")",
                sourceLocation: sourceLocation)
        #expect(json[1] == json[2], sourceLocation: sourceLocation)
    }

    /// `export --format json SOURCE` is a config too: `check --config` reads it and raises what the YAML export
    /// raises (the source's findings about itself), and it holds what the YAML export holds (exported again as
    /// YAML, the same content lines).
    static func expectJSONRoundTrip(store: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("export.json")
        let exported = try CommandRunner.run(["export", store, "--format", "json", "--output", json.path] + asOf,
                                             in: folder)
        #expect(exported.exitCode == 0 && exported.stderr.isEmpty, "\(exported.stderr)", sourceLocation: sourceLocation)
        let check = try CommandRunner.run(
            ["check", "--config", json.path, "--store", store, "--strict", "--format", "json"] + asOf, in: folder)
        #expect(check.stderr.isEmpty, "\(check.stderr)", sourceLocation: sourceLocation)
        let findings = try self.findings(inReport: check.stdout)
        #expect(findings.allSatisfy { selfRaised.contains($0.rule) }, "\(check.stdout)", sourceLocation: sourceLocation)
        let failing = findings.contains { $0.severity != "note" }
        #expect(check.exitCode == (failing ? 1 : 0), "\(check.stdout)", sourceLocation: sourceLocation)
        let yaml = try export(store, to: folder.appendingPathComponent("export.yml"), sourceLocation: sourceLocation)
        let fromJSON = try export(json.path, to: folder.appendingPathComponent("export-of-json.yml"),
                                  sourceLocation: sourceLocation)
        let expected = contentLines(try String(contentsOf: yaml, encoding: .utf8))
        #expect(contentLines(try String(contentsOf: fromJSON, encoding: .utf8)) == expected,
                sourceLocation: sourceLocation)
    }

    /// `export SOURCE --output FILE`: exit 0, nothing on standard error; returns FILE.
    static func export(_ source: String, to file: URL, in folder: URL? = nil,
                       sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        let result = try CommandRunner.run(["export", source, "--output", file.path] + asOf,
                                           in: folder ?? file.deletingLastPathComponent())
        #expect(result.exitCode == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, "\(result.stderr)", sourceLocation: sourceLocation)
        return file
    }

    /// Exporting the export gives the same YAML, comment lines aside.
    static func expectStable(_ export: URL, in folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let again = try self.export(export.path, to: folder.appendingPathComponent("export-of-export.yml"),
                                    sourceLocation: sourceLocation)
        let before = try String(contentsOf: export, encoding: .utf8)
        let after = try String(contentsOf: again, encoding: .utf8)
        #expect(!contentLines(before).isEmpty, sourceLocation: sourceLocation)
        #expect(contentLines(after) == contentLines(before), "export:\n\(before)\nexport of the export:\n\(after)",
                sourceLocation: sourceLocation)
    }

    /// The lines of a YAML text that are not comment lines.
    static func contentLines(_ text: String) -> [Substring] {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter {
            !$0.drop(while: { $0 == " " }).hasPrefix("#")
        }
    }

    /// A finding of a JSON report: its rule and severity.
    struct ReportedFinding: Equatable {
        var rule: String
        var severity: String
    }

    /// The findings of a `--format json` report.
    static func findings(inReport json: String) throws -> [ReportedFinding] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let findings = try #require(object?["findings"] as? [[String: Any]], "not a JSON report:\n\(json)")
        return findings.map {
            ReportedFinding(rule: $0["rule"] as? String ?? "?", severity: $0["severity"] as? String ?? "?")
        }
    }

    /// The products of `export --format json`, by ID.
    static func products(inExportJSON json: String) throws -> [String: [String: Any]] {
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(object?["products"] as? [String: [String: Any]], "not an export:\n\(json)")
    }

    /// The product IDs of `export --format json`.
    static func productIDs(inExportJSON json: String) throws -> [String] {
        Array(try products(inExportJSON: json).keys)
    }

    /// How many product IDs of `export --format json` have no type.
    static func untypedCount(inExportJSON json: String) throws -> Int {
        try products(inExportJSON: json).values.count { $0["type"] == nil }
    }
}
