import Foundation
import TestSupport
import Testing

/// An output that is the same file as an input of the run is refused before anything is read or written
/// (DESIGN.md §2 "Output files"): before this, each of these replaced the config or a store catalog and exited 0.
@Suite("outputs never overwrite inputs", .serialized)
struct OutputGuardTests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let check = ["check", "--config", "demo/products.yml", "--store", "demo/appstore.storekit"]

    /// One case: the arguments, what to prepare in the folder, the file that must stay as it was, and stderr.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let link: (kind: String, path: String, target: String)?
        let protected: String
        let stderr: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "--output the config", arguments: check + ["--output", "demo/products.yml"], link: nil,
             protected: "demo/products.yml",
             stderr: "demo/products.yml: error: cannot write: it is the config demo/products.yml (the same file); "
                + "an output never replaces an input\n"),
        Case(name: "--output the config through ..", arguments: check + ["--output", "demo/../demo/products.yml"],
             link: nil, protected: "demo/products.yml",
             stderr: "demo/../demo/products.yml: error: cannot write: it is the config demo/products.yml (the same "
                + "file); an output never replaces an input\n"),
        Case(name: "--output a symbolic link to the config", arguments: check + ["--output", "link.txt"],
             link: ("symbolic", "link.txt", "demo/products.yml"), protected: "demo/products.yml",
             stderr: "link.txt: error: cannot write: it is the config demo/products.yml (the same file); an output "
                + "never replaces an input\n"),
        Case(name: "--report to a hard link of the store", arguments: check + ["--report", "json:hard.json"],
             link: ("hard", "hard.json", "demo/appstore.storekit"), protected: "demo/appstore.storekit",
             stderr: "hard.json: error: cannot write: it is the store demo/appstore.storekit (the same file); an "
                + "output never replaces an input\n"),
        Case(name: "--baseline the config with --update-baseline",
             arguments: check + ["--baseline", "demo/products.yml", "--update-baseline"], link: nil,
             protected: "demo/products.yml",
             stderr: "demo/products.yml: error: cannot write: it is the config demo/products.yml (the same file); "
                + "an output never replaces an input\n"),
        Case(name: "--report a file of a store folder",
             arguments: ["check", "--config", "demo/products.yml", "--store", "demo/asc",
                         "--report", "json:demo/asc/in-app-purchases.json"], link: nil,
             protected: "demo/asc/in-app-purchases.json",
             stderr: "demo/asc/in-app-purchases.json: error: cannot write: it is a file of the store demo/asc (the "
                + "same file); an output never replaces an input\n"),
        Case(name: "report --output the store",
             arguments: ["report", "--config", "demo/products.yml", "--store", "demo/appstore.storekit",
                         "--output", "demo/appstore.storekit"], link: nil, protected: "demo/appstore.storekit",
             stderr: "demo/appstore.storekit: error: cannot write: it is the store demo/appstore.storekit (the same "
                + "file); an output never replaces an input\n"),
        Case(name: "--output the rules file",
             arguments: check + ["--rules", "rules.yml", "--output", "rules.yml"], link: nil, protected: "rules.yml",
             stderr: "rules.yml: error: cannot write: it is the rules file rules.yml (the same file); an output "
                + "never replaces an input\n"),
        Case(name: "export --output its input",
             arguments: ["export", "demo/metadata.xml", "--output", "./demo/metadata.xml"], link: nil,
             protected: "demo/metadata.xml",
             stderr: "./demo/metadata.xml: error: cannot write: it is the input demo/metadata.xml (the same file); "
                + "an output never replaces an input\n"),
        Case(name: "diff --output its new side",
             arguments: ["diff", "demo/products.yml", "demo/play", "--output", "demo/play/subscriptions.json"],
             link: nil, protected: "demo/play/subscriptions.json",
             stderr: "demo/play/subscriptions.json: error: cannot write: it is a file of the input demo/play (the "
                + "same file); an output never replaces an input\n"),
    ]

    @Test("exit 2 naming both; the input is left as it was", arguments: cases)
    func refused(_ testCase: Case) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        try manager.copyItem(at: Fixtures.catalog("demo"), to: folder.appendingPathComponent("demo"))
        try Data("version: 1\n".utf8).write(to: folder.appendingPathComponent("rules.yml"))
        if let link = testCase.link {
            let target = folder.appendingPathComponent(link.target)
            let path = folder.appendingPathComponent(link.path)
            if link.kind == "hard" {
                try manager.linkItem(at: target, to: path)
            } else {
                try manager.createSymbolicLink(at: path, withDestinationURL: target)
            }
        }
        let protected = folder.appendingPathComponent(testCase.protected)
        let before = try Data(contentsOf: protected)

        let result = try CommandRunner.run(testCase.arguments + Self.asOf, in: folder)

        #expect(result.exitCode == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == testCase.stderr)
        #expect(try Data(contentsOf: protected) == before)
        let leftovers = try manager.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix(".") }
        #expect(leftovers == [])
    }

    @Test("the baseline being applied may not be an output, but --update-baseline rewrites its own file")
    func baselineItsOwnFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: Fixtures.catalog("demo"), to: folder.appendingPathComponent("demo"))

        let record = try CommandRunner.run(Self.check + ["--baseline", "b.json", "--update-baseline"] + Self.asOf,
                                           in: folder)
        let rerecord = try CommandRunner.run(Self.check + ["--baseline", "b.json", "--update-baseline"] + Self.asOf,
                                             in: folder)
        let overwrite = try CommandRunner.run(Self.check + ["--baseline", "b.json", "--output", "b.json"] + Self.asOf,
                                              in: folder)

        #expect(record.exitCode == 0, "\(record.stderr)")
        #expect(rerecord.exitCode == 0, "\(rerecord.stderr)")
        #expect(rerecord.stderr == "b.json: recorded 1 findings; runs with --baseline b.json fail only on new ones\n")
        #expect(overwrite.exitCode == 2)
        #expect(overwrite.stderr == "b.json: error: cannot write: it is the baseline b.json (the same file); an "
                + "output never replaces an input\n")
    }
}

/// `--quiet` changes the console only (DESIGN.md §2): before, it removed warnings and notes from every report
/// file of the run (SARIF 26 → 17 results, closing code-scanning alerts).
@Suite("--quiet is the console only")
struct QuietOutputTests {
    static let check = ["check", "--config", "catalogs/demo-drift/products.yml",
                        "--store", "catalogs/demo-drift/appstore.storekit", "--store", "catalogs/demo-drift/play",
                        "--as-of", "2026-11-22"]

    /// The reports one run writes, by format, read back.
    private func reports(quiet: Bool) throws -> (stdout: String, files: [String: String]) {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formats = ["sarif", "json", "junit", "markdown", "html"]
        let reportArguments = formats.flatMap { ["--report", "\($0):\(folder.appendingPathComponent($0).path)"] }
        let result = try CommandRunner.run(Self.check + reportArguments + ["--format", "github"]
                                           + (quiet ? ["--quiet"] : []),
                                           environment: ["GITHUB_STEP_SUMMARY": folder.appendingPathComponent("summary").path])
        #expect(result.exitCode == 1, "\(result.stderr)")
        var files: [String: String] = [:]
        for name in formats + ["summary"] {
            files[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return (result.stdout, files)
    }

    @Test("every report file and the step summary are the same with and without --quiet; the console is not")
    func sameFiles() throws {
        let loud = try reports(quiet: false)
        let quiet = try reports(quiet: true)

        for (name, text) in loud.files {
            #expect(quiet.files[name] == text, "\(name) differs with --quiet")
        }
        let sarif = try #require(loud.files["sarif"]?.data(using: .utf8))
        let runs = try #require((try JSONSerialization.jsonObject(with: sarif) as? [String: Any])?["runs"] as? [[String: Any]])
        #expect((runs.first?["results"] as? [Any])?.count == 44)
        let loudLines = loud.stdout.split(separator: "\n")
        let quietLines = quiet.stdout.split(separator: "\n")
        // 15 warnings: nine annotated and a tenth that says 6 more; 3 notes.
        #expect(loudLines.filter { $0.hasPrefix("::warning") || $0.hasPrefix("::notice") }.count == 13)
        #expect(quietLines.filter { $0.hasPrefix("::warning") || $0.hasPrefix("::notice") }.count == 0)
        // 26 errors: nine annotated, a tenth says 17 more (GitHub shows ten per type), those 17 as plain lines.
        #expect(quietLines.filter { $0.hasPrefix("::error") }.count == 10)
        #expect(quietLines.filter { $0.hasPrefix("::error title=[catalogcheck] 17 more::17 more errors") }.count == 1)
        #expect(quietLines.filter { $0.contains(": error: [") && !$0.hasPrefix("::") }.count == 17)
        #expect(quietLines.last == loudLines.last)
    }

    @Test("the quiet console lists the failing findings and counts every finding; JSON on standard output keeps all")
    func quietConsoleCounts() throws {
        // Before, the quiet summary counted only what it showed: "in all: 17 errors, 0 warnings, 0 notes".
        let quiet = try CommandRunner.run(Self.check + ["--quiet"])
        let json = try CommandRunner.run(Self.check + ["--quiet", "--format", "json"])

        let lines = quiet.stdout.split(separator: "\n").map(String.init)
        #expect(quiet.exitCode == 1)
        #expect(lines.filter { $0.contains(": error: [") }.count == 26)
        #expect(lines.filter { $0.contains(": warning: [") || $0.contains(": note: [") }.isEmpty)
        // The config's own warning counts in its own line, not in the first store's (as in every other format).
        #expect(lines.suffix(4) == [
            "1 error, 3 warnings, 0 notes — on the config and the rules file alone (config: products.yml)",
            "15 errors, 9 warnings, 2 notes — 6 products compared (store: appstore.storekit (storekit), "
                + "config: products.yml)",
            "10 errors, 3 warnings, 1 note — 5 products compared (store: play (play-json), config: products.yml)",
            "in all: 26 errors, 15 warnings, 3 notes",
        ])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((document?["findings"] as? [Any])?.count == 44)
    }

    @Test("--output of a non-text format carries every finding with --quiet; a text --output is the console's")
    func outputFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("out.sarif")
        let text = folder.appendingPathComponent("out.txt")

        let quietSARIF = try CommandRunner.run(Self.check + ["--format", "sarif", "--output", sarif.path, "--quiet"])
        let quietText = try CommandRunner.run(Self.check + ["--output", text.path, "--quiet"])

        #expect(quietSARIF.exitCode == 1)
        #expect(quietText.exitCode == 1)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: sarif)) as? [String: Any]
        let runs = try #require(document?["runs"] as? [[String: Any]])
        #expect((runs.first?["results"] as? [Any])?.count == 44)
        let lines = try String(contentsOf: text, encoding: .utf8).split(separator: "\n")
        #expect(lines.filter { $0.contains(": warning: ") || $0.contains(": note: ") }.isEmpty)
        #expect(lines.filter { $0.contains(": error: ") }.count == 26)
    }
}
