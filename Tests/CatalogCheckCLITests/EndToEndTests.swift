import Foundation
import TestSupport
import Testing

/// Runs the built binary on the example catalogs and asserts stdout, stderr and the exit code together.
@Suite("catalogcheck end to end")
struct EndToEndTests {
    static let asOf = ["--as-of", "2026-11-22"]

    @Test("the consistent demo passes against every store format", arguments: [
        "catalogs/demo/appstore.storekit", "catalogs/demo/asc", "catalogs/demo/metadata.xml", "catalogs/demo/play",
    ])
    func consistentDemo(store: String) throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo/products.yml", "--store", store] + Self.asOf)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.contains("error:"))
        #expect(result.stdout.contains("0 errors, 0 warnings"))
    }

    @Test("two stores in one run: a section and a summary per store")
    func twoStores() throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo/products.yml", "--store", "catalogs/demo/appstore.storekit",
             "--store", "play-json:catalogs/demo/play"] + Self.asOf)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("== catalogs/demo/appstore.storekit (storekit) =="))
        #expect(result.stdout.contains("== catalogs/demo/play (play-json) =="))
        #expect(result.stdout.contains("(store: play (play-json), config: products.yml)"))
        // The storekit-single-storefront note, and Play's prices-not-compared for the equalized in-app purchases.
        #expect(result.stdout.hasSuffix("in all: 0 errors, 0 warnings, 2 notes\n"))
    }

    @Test("a malformed config exits 2 with one line naming file, line and column")
    func malformedConfig() throws {
        let result = try CommandRunner.run(
            ["check", "--config", "Tests/Fixtures/malformed/config-duplicate-keys.yml",
             "--store", "catalogs/demo/appstore.storekit"] + Self.asOf)
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Tests/Fixtures/malformed/config-duplicate-keys.yml:") == true)
        #expect(result.stderr.contains("duplicate"))
    }

    @Test("a missing file exits 2 naming it")
    func missingFile() throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo/products.yml", "--store", "nope.storekit"] + Self.asOf)
        #expect(result.exitCode == 2)
        #expect(result.stderr == "nope.storekit: error: the file does not exist\n")
    }

    @Test("usage errors exit 64", arguments: [
        ["check", "--config", "catalogs/demo/products.yml", "--store", "x", "--format", "nope"],
        ["check", "--config", "catalogs/demo/products.yml"],
        ["check", "--config", "c", "--store", "a", "--store", "b", "--store-format", "storekit"],
        ["check", "--config", "c", "--store", "a", "--territory", "XX"],
        ["check", "--config", "c", "--store", "a", "--as-of", "2026-13-01"],
        ["rules", "price-mismatc"],
        ["frobnicate"],
    ])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.run(arguments)
        #expect(result.exitCode == 64, "\(arguments): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
    }

    @Test("rules lists every rule; one rule is explained")
    func rules() throws {
        let list = try CommandRunner.run(["rules"])
        #expect(list.exitCode == 0)
        #expect(list.stdout.split(separator: "\n").count == 46)
        // The ID column is as wide as the longest ID (subscription-price-matrix-incomplete) and two spaces.
        #expect(list.stdout.contains("price-missing-in-config               warning  "))
        let one = try CommandRunner.run(["rules", "storekit-single-storefront"])
        #expect(one.stdout.hasPrefix("storekit-single-storefront (note)\n"))
    }

    @Test("formats lists every format with its detection")
    func formats() throws {
        let result = try CommandRunner.run(["formats"])
        #expect(result.exitCode == 0)
        for name in ["appstore-xml", "storekit", "asc-json", "play-csv", "play-json", "plist", "catalog"] {
            #expect(result.stdout.contains("\n\(name) ") || result.stdout.hasPrefix("\(name) "), "\(name)")
        }
    }

    @Test("output is byte-identical across runs and --output writes the same bytes")
    func determinism() throws {
        let arguments = ["check", "--config", "catalogs/demo-drift/products.yml",
                         "--store", "catalogs/demo-drift/asc", "--store", "catalogs/demo-drift/play",
                         "--format", "json"] + Self.asOf
        let first = try CommandRunner.run(arguments)
        let second = try CommandRunner.run(arguments)
        #expect(first.exitCode == 1)
        #expect(first.stdout == second.stdout)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let written = try CommandRunner.run(arguments + ["--output", file.path])
        #expect(written.stdout.isEmpty)
        #expect(try String(contentsOf: file, encoding: .utf8) == first.stdout)
    }

    @Test("NO_COLOR and pipes give plain text")
    func noColor() throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo-drift/products.yml", "--store", "catalogs/demo-drift/appstore.storekit"]
                + Self.asOf, environment: ["NO_COLOR": "1"])
        #expect(result.exitCode == 1)
        #expect(!result.stdout.contains("\u{1B}["))
    }
}

@Suite("catalogcheck end to end: stores and export")
struct EndToEndStoresTests {
    static let asOf = ["--as-of", "2026-11-22"]

    @Test("config + App Store + Play in one run: findings of both stores in one report")
    func threeInputs() throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo-drift/products.yml", "--store", "catalogs/demo-drift/appstore.storekit",
             "--store", "catalogs/demo-drift/play", "--format", "json"] + Self.asOf)
        #expect(result.exitCode == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let inputs = try #require(document["inputs"] as? [[String: String]])
        #expect(inputs.map { $0["format"] ?? "" } == ["catalog", "storekit", "play-json"])
        let summary = try #require(document["summary"] as? [String: Any])
        let stores = try #require(summary["stores"] as? [[String: Any]])
        #expect(stores.map { $0["path"] as? String } == ["catalogs/demo-drift/appstore.storekit", "catalogs/demo-drift/play"])
        #expect(stores.map { $0["errors"] as? Int } == [15, 10])
        let findings = try #require(document["findings"] as? [[String: Any]])
        let storePaths = findings.compactMap { ($0["store"] as? [String: Any])?["path"] as? String }
        #expect(storePaths.contains { $0.hasPrefix("catalogs/demo-drift/appstore.storekit") })
        #expect(storePaths.contains { $0.hasPrefix("catalogs/demo-drift/play") })
        // The config-only finding is reported once, not once per store.
        #expect(findings.filter { $0["rule"] as? String == "intro-offer-exceeds-period" }.count == 1)
    }

    @Test("a store export bootstraps a config that is consistent with that store", arguments: [
        "catalogs/demo/asc", "catalogs/demo/appstore.storekit", "catalogs/demo/metadata.xml",
    ])
    func bootstrap(store: String) throws {
        let exported = try CommandRunner.run(["export", store] + Self.asOf)
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID()).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(exported.stdout.utf8).write(to: file)
        let result = try CommandRunner.run(["check", "--config", file.path, "--store", store] + Self.asOf)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("0 errors, 0 warnings"))
    }

    @Test("export takes diff's input forms: FORMAT:PATH and git:REV:PATH read what the plain path reads")
    func exportInputForms() throws {
        // Arrange
        let plain = try CommandRunner.run(["export", "catalogs/demo/asc", "--format", "json"] + Self.asOf)
        // Act
        let named = try CommandRunner.run(["export", "asc-json:catalogs/demo/asc", "--format", "json"] + Self.asOf)
        let committed = try CommandRunner.run(["export", "git:HEAD:catalogs/demo/products.yml"] + Self.asOf)
        let wrong = try CommandRunner.run(["export", "play-json:catalogs/demo/asc"] + Self.asOf)
        // Assert
        #expect(plain.exitCode == 0, "\(plain.stderr)")
        #expect(named.exitCode == 0, "\(named.stderr)")
        #expect(named.stdout == plain.stdout)
        #expect(committed.exitCode == 0, "\(committed.stderr)")
        #expect(committed.stdout.contains("com.trailmate.app.coins.100:"))
        #expect(wrong.exitCode == 2)
    }

    @Test("export --format yaml is the internal config; catalog is its synonym; --help lists yaml")
    func exportFormatYAML() throws {
        let store = "Tests/Fixtures/storekit/all-sections-v3.storekit"
        let yaml = try CommandRunner.run(["export", store, "--format", "yaml"] + Self.asOf)
        let catalog = try CommandRunner.run(["export", store, "--format", "catalog"] + Self.asOf)
        let plain = try CommandRunner.run(["export", store] + Self.asOf)
        #expect(yaml.exitCode == 0, "\(yaml.stderr)")
        #expect(yaml.stdout.contains("\nversion: 1\n"))
        #expect(yaml.stdout == catalog.stdout)
        #expect(yaml.stdout == plain.stdout)
        let help = try CommandRunner.run(["export", "--help"])
        #expect(help.stdout.contains("values: yaml, json; default: yaml"))
    }

    @Test("a StoreKit file of a non-US storefront bootstraps a config priced in that storefront")
    func storeKitStorefrontBootstrap() throws {
        let store = "Tests/Fixtures/storekit/all-sections-v3.storekit"
        let exported = try CommandRunner.run(["export", store] + Self.asOf)
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(exported.stdout.contains("  baseTerritory: GB\n"))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID()).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(exported.stdout.utf8).write(to: file)
        let result = try CommandRunner.run(["check", "--config", file.path, "--store", store] + Self.asOf)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("export of the demo config reads back and still matches every store")
    func configRoundTrip() throws {
        let exported = try CommandRunner.run(["export", "catalogs/demo/products.yml"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID()).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(exported.stdout.utf8).write(to: file)
        let again = try CommandRunner.run(["export", file.path])
        #expect(again.stdout.split(separator: "\n").dropFirst() == exported.stdout.split(separator: "\n").dropFirst())
        let result = try CommandRunner.run(["check", "--config", file.path, "--store", "catalogs/demo/asc",
                                            "--store", "catalogs/demo/play"] + Self.asOf)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test("Play CSV auto-filled prices: the remark says they are not compared, whatever --play-currency says")
    func playCurrencyRemark() throws {
        let csv = "Tests/Fixtures/play/csv/twelve-columns.csv"
        let arguments = ["check", "--config", "catalogs/demo/products.yml", "--store", csv] + Self.asOf

        let implied = try CommandRunner.run(arguments)
        let given = try CommandRunner.run(arguments + ["--play-currency", "EUR"])

        func remarks(_ output: String) -> [String] { output.split(separator: "\n").map(String.init).filter { $0.contains("remark:") } }
        let expected = "\(csv): remark: 1 auto-filled price is not compared: with Auto Fill Prices true, Price is "
            + "one amount in the merchant's home currency, not a price for a country"
        #expect(remarks(implied.stdout) == [expected])
        #expect(remarks(given.stdout) == [expected])
    }
}

/// Shell completions come from swift-argument-parser and know every subcommand.
@Suite("completions")
struct CompletionTests {
    @Test("bash, zsh and fish scripts name every subcommand", arguments: ["bash", "zsh", "fish"])
    func completions(shell: String) throws {
        let result = try CommandRunner.run(["--generate-completion-script", shell])
        #expect(result.exitCode == 0)
        for command in ["check", "diff", "report", "validate", "export", "formats", "rules"] {
            #expect(result.stdout.contains(command), "\(shell): \(command)")
        }
    }
}
