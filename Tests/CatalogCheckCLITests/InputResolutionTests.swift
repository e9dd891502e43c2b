import Foundation
import TestSupport
import Testing

/// Inputs resolved once (DESIGN.md §2): every command takes every spelling, and an input that is not what the
/// run needs — a folder of several catalogs, the config as a store, one store given twice — stops the run.
@Suite("input resolution and refusals", .serialized)
struct InputResolutionTests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let config = "catalogs/demo/products.yml"

    /// Runs the binary through bash, standard input redirected from `input` (a path relative to `directory`).
    private func runReading(_ arguments: [String], from input: String,
                            in directory: URL = Fixtures.repositoryRoot) throws -> CommandResult {
        let binary = CommandRunner.productsDirectory.appendingPathComponent("catalogcheck").path
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try CommandRunner.run(["-c", quoted.joined(separator: " ") + " < '\(input)'"], in: directory,
                                     executable: URL(fileURLWithPath: "/bin/bash"))
    }

    /// A new git repository holding a copy of `catalogs/demo`, committed; the caller removes it.
    private func demoRepository() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.copyItem(at: Fixtures.catalog("demo"), to: folder.appendingPathComponent("demo"))
        for arguments in [["init", "-q"], ["add", "demo"], ["commit", "-q", "-m", "demo"]] {
            let result = try CommandRunner.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
                                                   + arguments, in: folder,
                                               executable: URL(fileURLWithPath: "/usr/bin/env"))
            try #require(result.exitCode == 0, "git \(arguments): \(result.stderr)")
        }
        return folder
    }

    @Test("a folder holding catalogs of several formats is refused, listing them, whatever its drift",
          arguments: ["catalogs/demo-drift", "catalogs/demo"])
    func severalFormatsInOneFolder(folder: String) throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--store", folder] + Self.asOf)

        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        // The drift demo also holds the config before its price changes (`check --since`); both a RevenueCat
        // project, the demo a server config with its mapping file too (declared formats: `--config FORMAT:PATH`).
        let previous = folder == "catalogs/demo-drift" ? "products.previous.yml (catalog), " : ""
        let declared = ", revenuecat/ (revenuecat)" + (folder == "catalogs/demo" ? ", server/ (map)" : "")
        #expect(result.stderr == "\(folder): error: holds catalogs of several formats: appstore.storekit (storekit), "
                + "asc/ (asc-json), metadata.xml (appstore-xml), play-products.csv (play-csv), play/ (play-json), "
                + "\(previous)products.yml (catalog)\(declared); a folder is read as one catalog, give one --store per "
                + "catalog\n")
    }

    @Test("a folder of several formats is refused by diff and export too, and by a store whose format is named")
    func severalFormatsEverywhere() throws {
        let export = try CommandRunner.run(["export", "catalogs/demo-drift"] + Self.asOf)
        let diff = try CommandRunner.run(["diff", Self.config, "catalogs/demo-drift"] + Self.asOf)
        let named = try CommandRunner.run(["check", "--config", Self.config, "--store", "appstore-xml:catalogs/demo"]
                                          + Self.asOf)

        #expect(export.exitCode == 2)
        #expect(export.stderr.hasSuffix("products.yml (catalog), revenuecat/ (revenuecat); a folder is read as one "
                                        + "catalog, name one of them\n"))
        #expect(diff.exitCode == 2)
        #expect(diff.stderr.hasPrefix("catalogs/demo-drift: error: holds catalogs of several formats: "))
        #expect(named.exitCode == 2)
        #expect(named.stderr.hasPrefix("catalogs/demo: error: holds catalogs of several formats: "))
    }

    @Test("the product config given as a store exits 2 and points to diff", arguments: [
        "catalogs/demo/products.yml", "catalog:catalogs/demo-drift/products.yml",
    ])
    func configAsStore(store: String) throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--store", store] + Self.asOf)

        let path = store.hasPrefix("catalog:") ? String(store.dropFirst("catalog:".count)) : store
        #expect(result.exitCode == 2)
        #expect(result.stderr == "\(path): error: a product config, not a store catalog; compare two configs with "
                + "`diff`\n")
    }

    @Test("one store given twice, whatever the spelling, is a usage error (exit 64)", arguments: [
        "./catalogs/demo/appstore.storekit", "catalogs/../catalogs/demo/appstore.storekit",
        "storekit:catalogs/demo/appstore.storekit",
    ])
    func sameStoreTwice(second: String) throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--store",
                                            "catalogs/demo/appstore.storekit", "--store", second] + Self.asOf)

        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == "Error: --store catalogs/demo/appstore.storekit and --store \(second) are the same "
                + "store input; give each store once\n")
    }

    @Test("one store folder given twice through a symbolic link is a usage error too")
    func sameStoreThroughLink() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("play"),
                                                   withDestinationURL: Fixtures.catalog("demo/play"))

        let result = try CommandRunner.run(["check", "--config", Fixtures.catalog("demo/products.yml").path,
                                            "--store", Fixtures.catalog("demo/play").path, "--store", "play/"]
                                           + Self.asOf, in: folder)

        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--store play/ are the same store input"))
    }

    @Test("the text output names the store and its format, also when there is one store")
    func textNamesTheFormat() throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--store", "catalogs/demo/play"]
                                           + Self.asOf)

        #expect(result.exitCode == 0)
        #expect(result.stdout.hasSuffix("\n0 errors, 0 warnings, 1 note — 6 products compared "
                + "(store: play (play-json), config: products.yml)\n"))
    }

    @Test("export git:REV:PATH with --store-format reads what it reads without (it said the file does not exist)")
    func exportGitWithStoreFormat() throws {
        let repository = try demoRepository()
        defer { try? FileManager.default.removeItem(at: repository) }

        let detected = try CommandRunner.run(["export", "git:HEAD:demo/products.yml"] + Self.asOf, in: repository)
        let named = try CommandRunner.run(["export", "git:HEAD:demo/products.yml", "--store-format", "catalog"]
                                          + Self.asOf, in: repository)
        let prefixed = try CommandRunner.run(["export", "catalog:git:HEAD:demo/products.yml"] + Self.asOf,
                                             in: repository)

        #expect(detected.exitCode == 0, "\(detected.stderr)")
        #expect(named.exitCode == 0, "\(named.stderr)")
        #expect(named.stdout == detected.stdout)
        #expect(prefixed.stdout == detected.stdout)
        #expect(detected.stdout.hasPrefix("# catalogcheck export of git:HEAD:demo/products.yml (catalog)\n"))
    }

    @Test("check and report take every spelling: git:REV:PATH and FORMAT:git:REV:PATH for config and stores")
    func checkTakesGitSpellings() throws {
        let repository = try demoRepository()
        defer { try? FileManager.default.removeItem(at: repository) }
        let inputs = ["--config", "git:HEAD:demo/products.yml", "--store", "storekit:git:HEAD:demo/appstore.storekit",
                      "--store", "git:HEAD:demo/play"]

        let check = try CommandRunner.run(["check"] + inputs + Self.asOf, in: repository)
        let report = try CommandRunner.run(["report", "--format", "markdown"] + inputs + Self.asOf, in: repository)

        #expect(check.exitCode == 0, "\(check.stderr)")
        #expect(check.stdout.contains("== git:HEAD:demo/appstore.storekit (storekit) =="))
        #expect(check.stdout.contains("(store: play (play-json), config: products.yml)\n"))
        #expect(report.exitCode == 0, "\(report.stderr)")
        #expect(report.stdout.contains("git:HEAD:demo/play"))
    }

    @Test("- reads standard input, for a store, the config or export; it may be named once per run")
    func standardInput() throws {
        let fromFile = try CommandRunner.run(["export", Self.config, "--format", "json"] + Self.asOf)
        let store = try runReading(["check", "--config", Self.config, "--store", "storekit:-"] + Self.asOf,
                                   from: "catalogs/demo/appstore.storekit")
        let config = try runReading(["check", "--config", "-", "--store", "catalogs/demo/play"] + Self.asOf,
                                    from: Self.config)
        let export = try runReading(["export", "-", "--format", "json"] + Self.asOf, from: Self.config)
        let twice = try runReading(["check", "--config", "-", "--store", "-"] + Self.asOf, from: Self.config)

        #expect(store.exitCode == 0, "\(store.stderr)")
        #expect(store.stdout.contains("(store: - (storekit), config: products.yml)"))
        #expect(config.exitCode == 0, "\(config.stderr)")
        #expect(config.stdout.hasSuffix("\n0 errors, 0 warnings, 1 note — 6 products compared "
                + "(store: play (play-json), config: -)\n"))
        #expect(export.exitCode == 0, "\(export.stderr)")
        #expect(export.stdout == fromFile.stdout.replacingOccurrences(of: "export of \(Self.config) (",
                                                                      with: "export of - ("))
        #expect(twice.exitCode == 64)
        #expect(twice.stderr == "Error: standard input (-) can be read once; give it to one --config or --store\n")
    }

    @Test("report --help offers no --update-baseline; check, report, diff and export each offer --output once")
    func help() throws {
        let report = try CommandRunner.run(["report", "--help"])
        let check = try CommandRunner.run(["check", "--help"])

        #expect(!report.stdout.contains("--update-baseline"))
        #expect(check.stdout.contains("--update-baseline"))
        for command in ["check", "report", "diff", "export"] {
            let help = try CommandRunner.run([command, "--help"])
            let lines = help.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.filter { $0.hasPrefix("--output <file>") }.count == 1, "\(command)")
            #expect(help.stdout.contains("Write to this file instead of standard output."), "\(command)")
        }
    }

    /// A store catalog given as the config is named for what it is, instead of failing on its first key
    /// (a .storekit file used to say "version: a mapping is not supported").
    @Test("a store catalog given as --config says what it is and where it goes", arguments: [
        ("catalogs/demo/appstore.storekit", "storekit"), ("catalogs/demo/metadata.xml", "appstore-xml"),
        ("catalogs/demo/play-products.csv", "play-csv"), ("catalogs/demo/asc/subscription-groups.json", "asc-json"),
    ])
    func storeCatalogAsConfig(path: String, format: String) throws {
        let check = try CommandRunner.run(["check", "--config", path, "--store", "catalogs/demo/play"])
        let validate = try CommandRunner.run(["validate", "--config", path])

        let message = "\(path): error: a store catalog (\(format)), not a product config; give it with --store and "
            + "the config with --config, or name its format to check against it as the declared catalog: "
            + "--config \(format):\(path)\n"
        #expect(check.exitCode == 2)
        #expect(check.stderr == message)
        #expect(validate.exitCode == 2)
        #expect(validate.stdout + validate.stderr == message)
    }

    /// Issue #25 item 5: a JSON config whose products hold `purchaseOptions` was taken for a Play catalog (exit 2),
    /// even when named `catalog:`.
    @Test("a JSON config with purchase options is a config, detected or named catalog:", arguments: [false, true])
    func jsonConfigWithPurchaseOptions(named: Bool) throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("products.json")
        try Data(#"""
            {"version": 1, "app": {"bundleId": "com.trailmate.app"},
             "products": {"com.trailmate.app.offline_maps": {"type": "non-consumable",
                          "purchaseOptions": {"rent-30d": {"rent": "P30D"}}}}}
            """#.utf8).write(to: config)
        // Act
        let result = try CommandRunner.run(["validate", "--config", (named ? "catalog:" : "") + config.path])
        // Assert
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stderr.contains("not a product config"))
    }
}
