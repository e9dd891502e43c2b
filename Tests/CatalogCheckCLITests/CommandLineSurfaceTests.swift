import Foundation
import TestSupport
import Testing

/// What the command line shows before anything is read (issue 29, "Smaller"): usage lines that name what is
/// required, a `validate` that explains itself, `--quiet` without empty headers, shell completions that complete
/// paths and rule IDs, and no `--store-format` value that can only fail.
@Suite("the command line's surface: usage, help, completion")
struct CommandLineSurfaceTests {
    static let asOf = ["--as-of", "2026-11-22"]

    @Test("check's and report's usage lines name the required --store beside --config")
    func usageNamesStore() throws {
        for command in ["check", "report"] {
            let help = try CommandRunner.run([command, "--help"])
            let usage = help.stdout.split(separator: "\n").first { $0.hasPrefix("USAGE: ") }

            #expect(help.exitCode == 0)
            #expect(usage?.contains("--config <file>") == true, "\(command): \(usage ?? "no usage line")")
            #expect(usage?.contains("--store <file|dir> ...") == true, "\(command): \(usage ?? "no usage line")")
        }
        let missing = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml"])
        #expect(missing.exitCode == 64)
        #expect(missing.stderr.hasPrefix("Error: Missing expected argument '--store <file|dir> ...'\n"),
                "\(missing.stderr)")
    }

    @Test("validate with nothing to validate prints validate's own usage, not the root command's; exit 64")
    func validateWithoutArguments() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"),
                                                withIntermediateDirectories: true)

        let result = try CommandRunner.run(["validate"], in: folder)

        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: nothing to validate: give --config, --rules or --baseline (no "
                + ".catalogcheck.yml was found in the working directory or a parent either)")
        #expect(lines.dropFirst().first?.hasPrefix("Usage: catalogcheck validate [--config <file>]") == true,
                "\(result.stderr)")
        #expect(!result.stderr.contains("<subcommand>"))
    }

    @Test("--quiet heads only the stores it lists something for; every store keeps its summary line")
    func quietHasNoEmptyHeaders() throws {
        // The drifted App Store catalog fails against the demo config; the demo's Play folder has no finding.
        let arguments = ["check", "--config", "catalogs/demo/products.yml",
                         "--store", "catalogs/demo-drift/appstore.storekit", "--store", "catalogs/demo/play"] + Self.asOf
        let loud = try CommandRunner.run(arguments)
        let quiet = try CommandRunner.run(arguments + ["--quiet"])

        #expect(loud.exitCode == 1)
        #expect(quiet.exitCode == 1)
        #expect(loud.stdout.contains("== catalogs/demo/play (play-json) =="))
        #expect(quiet.stdout.contains("== catalogs/demo-drift/appstore.storekit (storekit) =="))
        #expect(!quiet.stdout.contains("== catalogs/demo/play (play-json) =="), "\(quiet.stdout)")
        #expect(quiet.stdout.contains("(store: play (play-json), config: products.yml)"))
        #expect(quiet.stdout.contains("(store: appstore.storekit (storekit), config: products.yml)"))
        let headers = quiet.stdout.split(separator: "\n").enumerated().filter { $0.element.hasPrefix("== ") }
        let lines = quiet.stdout.split(separator: "\n")
        for (index, header) in headers {
            let next = index + 1 < lines.count ? String(lines[index + 1]) : ""
            #expect(!next.hasPrefix("== ") && next.contains(": "), "\(header) heads nothing: \(quiet.stdout)")
        }
    }

    @Test("--store-format offers only store formats: no config format in the help, and given one it is a usage error")
    func storeFormatOffersNoCatalog() throws {
        let help = try CommandRunner.run(["check", "--help"], environment: ["COLUMNS": "1000"])
        let refused = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml",
                                             "--store", "catalogs/demo/products.yml", "--store-format", "catalog"])
        let zsh = try CommandRunner.run(["--generate-completion-script", "zsh"])

        #expect(help.stdout.contains("(values: appstore-xml, storekit, asc-json, play-csv, play-json, plist)"),
                "\(help.stdout)")
        #expect(refused.exitCode == 64)
        #expect(refused.stderr.contains("'--store-format <format>'"), "\(refused.stderr)")
        let check = zsh.stdout.components(separatedBy: "_catalogcheck_check()").dropFirst().first ?? ""
        let values = check.split(separator: "\n").first { $0.contains("___store_format=(") }
        #expect(values?.contains("'plist'") == true, "\(values ?? "no --store-format values in the zsh script")")
        #expect(values?.contains("'catalog'") == false, "\(values ?? "")")
        // The declared-only formats are --config formats (--config revenuecat:DIR, map:FILE), never a store's.
        #expect(values?.contains("'revenuecat'") == false, "\(values ?? "")")
        #expect(values?.contains("'map'") == false, "\(values ?? "")")
        let declared = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml",
                                              "--store", "catalogs/demo/revenuecat", "--store-format", "revenuecat"])
        #expect(declared.exitCode == 64)
        #expect(declared.stderr.contains("'--store-format <format>'"), "\(declared.stderr)")
        // export reads any catalog, the config included: its --store-format still takes catalog.
        let export = try CommandRunner.run(["export", "catalogs/demo/products.yml", "--store-format", "catalog"])
        #expect(export.exitCode == 0, "\(export.stderr)")
    }

    @Test("fetch appstore --help and fetch play --help name every kind of resource the fetch lists")
    func fetchHelpNamesEveryKind() throws {
        let appStore = try CommandRunner.run(["fetch", "appstore", "--help"], environment: ["COLUMNS": "1000"])
        let play = try CommandRunner.run(["fetch", "play", "--help"], environment: ["COLUMNS": "1000"])

        for label in ["apps", "in-app purchases", "in-app purchase availabilities", "in-app purchase price schedules",
                      "in-app purchase prices", "available territories", "in-app purchase offer codes",
                      "in-app purchase offer prices", "subscription groups", "subscriptions",
                      "subscription plan availabilities", "subscription prices", "introductory offers",
                      "promotional offers", "subscription offer codes", "win-back offers", "subscription offer prices"] {
            #expect(appStore.stdout.contains(label + ",") || appStore.stdout.contains(label + "."), "\(label)")
        }
        for label in ["subscriptions", "subscription offers", "in-app products (legacy)", "one-time products",
                      "one-time offers"] {
            #expect(play.stdout.contains(label + ",") || play.stdout.contains(label + "."), "\(label)")
        }
    }
}

/// Shell completion completes paths after the options that take files or folders, and rule IDs after `rules`.
@Suite("completion of paths and rule IDs")
struct PathCompletionTests {
    /// The options of `check` that name files or folders.
    static let pathOptions = ["--config", "--store", "--rules", "--baseline", "--output", "--report"]
    /// Every rule ID, as `catalogcheck rules` lists them.
    static var ruleIDs: [String] {
        get throws {
            try CommandRunner.run(["rules"]).stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first }
                .map(String.init)
        }
    }

    @Test("zsh: _files after every path option of check, _files -/ after fetch's --output, every rule ID after rules")
    func zsh() throws {
        let script = try CommandRunner.run(["--generate-completion-script", "zsh"]).stdout
        let check = try #require(section(of: script, from: "_catalogcheck_check()", to: "\n}\n"))
        for option in Self.pathOptions {
            let line = check.split(separator: "\n").first { $0.contains("\(option)[") }
            #expect(line?.hasSuffix(":_files'") == true || line?.contains(":_files -g ") == true,
                    "\(option): \(line ?? "not in the script")")
        }
        let fetch = try #require(section(of: script, from: "_catalogcheck_fetch_appstore()", to: "\n}\n"))
        #expect(fetch.split(separator: "\n").first { $0.contains("--output[") }?.hasSuffix(":_files -/'") == true,
                "\(fetch)")
        let rules = try #require(section(of: script, from: "_catalogcheck_rules()", to: "\n}\n"))
        let ids = try Self.ruleIDs
        #expect(ids.count >= 30)
        for id in ids { #expect(rules.contains("'\(id)'"), "\(id) is not completed after rules") }
    }

    @Test("bash: compgen -f after every path option of check; every rule ID after rules")
    func bash() throws {
        let script = try CommandRunner.run(["--generate-completion-script", "bash"]).stdout
        let check = try #require(section(of: script, from: "_catalogcheck_check()", to: "\n}\n"))
        let lines = check.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for option in Self.pathOptions {
            let index = try #require(lines.firstIndex(of: "'\(option)')"), "\(option) has no case")
            #expect(lines[index + 1].hasPrefix("__catalogcheck_add_completions ") && lines[index + 1].contains("-f"),
                    "\(option): \(lines[index + 1])")
        }
        let rules = try #require(section(of: script, from: "_catalogcheck_rules()", to: "\n}\n"))
        for id in try Self.ruleIDs { #expect(rules.contains("'\(id)'"), "\(id) is not completed after rules") }
    }

    @Test("fish: -F (files) after every path option of check; every rule ID after rules")
    func fish() throws {
        let script = try CommandRunner.run(["--generate-completion-script", "fish"]).stdout
        let lines = script.split(separator: "\n")
        for option in Self.pathOptions {
            let name = option.dropFirst(2)
            // Repeatable options (--store, --report) are offered without their name after the command's.
            let line = lines.first { $0.contains("\"catalogcheck check\"") && $0.contains(" -l '\(name)' ") }
            #expect(line?.hasSuffix(" -rF") == true || line?.contains("__fish_complete_directories") == true,
                    "\(option): \(line ?? "not in the script")")
        }
        let rules = try #require(lines.first { $0.contains("\"catalogcheck rules\" -eq 1") })
        for id in try Self.ruleIDs { #expect(rules.contains(" \(id)") || rules.contains("'\(id)"), "\(id)") }
    }

    /// The text of `script` from `start` up to and including the next `end`.
    private func section(of script: String, from start: String, to end: String) -> String? {
        guard let begin = script.range(of: start),
              let finish = script.range(of: end, range: begin.upperBound..<script.endIndex) else { return nil }
        return String(script[begin.lowerBound..<finish.upperBound])
    }
}

/// Without `/proc`, Swift's runtime on Linux cannot find the process's arguments: the run must stop (exit 2)
/// rather than see no arguments, print the root help and exit 0 — a gate that fails open.
@Suite("without /proc")
struct WithoutProcTests {
    /// `unshare` can give a child a private mount namespace with an empty `/proc` (Linux, as root).
    static let canHideProc: Bool = {
        guard let result = try? CommandRunner.run(
            ["--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs none /proc && test ! -e /proc/self"],
            executable: URL(fileURLWithPath: "/usr/bin/unshare")) else { return false }
        return result.exitCode == 0
    }()

    @Test("check with /proc hidden exits 2 saying why, instead of the root help and exit 0",
          .enabled(if: canHideProc, "needs unshare(1) and root to hide /proc"))
    func checkWithoutProc() throws {
        let binary = CommandRunner.productsDirectory.appendingPathComponent("catalogcheck").path
        let result = try CommandRunner.run(
            ["--mount", "--propagation", "private", "sh", "-c", "mount -t tmpfs none /proc && exec \"$0\" \"$@\"",
             binary, "check", "--config", "catalogs/demo-drift/products.yml",
             "--store", "catalogs/demo-drift/appstore.storekit"],
            executable: URL(fileURLWithPath: "/usr/bin/unshare"))

        #expect(result.exitCode == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("catalogcheck: error: cannot read its command-line arguments: "),
                "\(result.stderr)")
        #expect(result.stderr.contains("/proc is not mounted here; nothing was checked"))
    }
}
