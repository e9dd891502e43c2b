import Foundation
import TestSupport
import Testing

/// How outputs are spelled (DESIGN.md §2 "Output files", issue #25 "Outputs"), through the built binary: a
/// one-character name is a file like any other (it trapped: SIGILL, exit 132, in Foundation's
/// `deletingLastPathComponent`), `-` is standard output for every output option, and two outputs of one run that
/// write one file — or both standard output — are a usage error before anything is read or written.
@Suite("output spellings: one-character names, - for standard output, one file per output", .serialized)
struct OutputSpellingTests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let drift = ["--config", "demo-drift/products.yml", "--store", "demo-drift/appstore.storekit"]

    /// A folder holding copies of the demo sets (`demo/`, `demo-drift/`), for a test to write in.
    private static func folder() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        for set in ["demo", "demo-drift"] {
            try FileManager.default.copyItem(at: Fixtures.catalog(set), to: folder.appendingPathComponent(set))
        }
        return folder
    }

    /// The entries of `folder`'s top level, sorted (hidden ones too: a temporary file left behind shows).
    private static func entries(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    // MARK: - One-character names

    /// A command writing to an output named `r`, the exit code it gives, and what the file starts with.
    struct Writer: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        let exitCode: Int32
        let prefix: String
        var testDescription: String { name }
    }

    static let writers: [Writer] = [
        Writer(name: "check --output", arguments: ["check"] + drift + ["--output"], exitCode: 1,
               prefix: "demo-drift/products.yml:"),
        Writer(name: "check --report json:", arguments: ["check"] + drift + ["--quiet", "--report"], exitCode: 1,
               prefix: "{\n"),
        Writer(name: "export --output", arguments: ["export", "demo/metadata.xml", "--output"], exitCode: 0,
               prefix: "# catalogcheck export of demo/metadata.xml"),
        Writer(name: "diff --output", arguments: ["diff", "demo/products.yml", "demo-drift/products.yml", "--output"],
               exitCode: 0, prefix: "* group added: "),
        Writer(name: "report --output", arguments: ["report"] + drift + ["--format", "markdown", "--output"],
               exitCode: 1, prefix: "# "),
    ]

    @Test("a one-character output name that does not exist yet is written (r, ./r, the absolute path)",
          arguments: writers)
    func oneCharacterName(_ writer: Writer) throws {
        for spelling in ["r", "./r", "absolute"] {
            // Arrange
            let folder = try Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = spelling == "absolute" ? folder.appendingPathComponent("r").path : spelling
            let value = writer.name.hasSuffix("json:") ? "json:" + path : path
            // Act
            let result = try CommandRunner.run(writer.arguments + [value] + Self.asOf, in: folder)
            // Assert
            #expect(result.exitCode == writer.exitCode, "\(writer.name) \(value): \(result.stderr)")
            let written = try String(contentsOf: folder.appendingPathComponent("r"), encoding: .utf8)
            #expect(written.hasPrefix(writer.prefix), "\(writer.name) \(value): \(written.prefix(200))")
            #expect(try Self.entries(folder) == ["demo", "demo-drift", "r"], "\(writer.name) \(value)")
        }
    }

    @Test("an output spelled with a trailing slash names a folder: exit 2 in plain words, nothing written")
    func trailingSlash() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("kept\n".utf8).write(to: folder.appendingPathComponent("f"))
        for value in ["r/", "f/", "x/r/"] {
            let result = try CommandRunner.run(["export", "demo/metadata.xml", "--output", value] + Self.asOf,
                                               in: folder)
            #expect(result.exitCode == 2, "\(value): \(result.stderr)")
            #expect(result.stderr == "\(value): error: cannot write: ends in '/', so it names a folder; an output is a "
                    + "file\n")
        }
        #expect(try Self.entries(folder) == ["demo", "demo-drift", "f"])
        #expect(try String(contentsOf: folder.appendingPathComponent("f"), encoding: .utf8) == "kept\n")
    }

    // MARK: - `-` is standard output

    @Test("--output - is standard output in check, export, diff and report; no file named - appears")
    func dashIsStandardOutput() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let runs: [([String], Int32, String)] = [
            (["check"] + Self.drift, 1, "demo-drift/products.yml:"),
            (["export", "demo/metadata.xml"], 0, "# catalogcheck export of demo/metadata.xml"),
            (["diff", "demo/products.yml", "demo-drift/products.yml"], 0, "* group added: "),
            (["report"] + Self.drift + ["--format", "markdown"], 1, "# "),
        ]
        for (arguments, exitCode, prefix) in runs {
            let dash = try CommandRunner.run(arguments + ["--output", "-"] + Self.asOf, in: folder)
            let plain = try CommandRunner.run(arguments + Self.asOf, in: folder)
            #expect(dash.exitCode == exitCode, "\(arguments): \(dash.stderr)")
            #expect(dash.stdout.hasPrefix(prefix), "\(arguments): \(dash.stdout.prefix(200))")
            #expect(dash.stdout == plain.stdout, "\(arguments)")
            #expect(dash.stderr == plain.stderr, "\(arguments)")
        }
        #expect(try Self.entries(folder) == ["demo", "demo-drift"])
    }

    @Test("--report FORMAT:- is standard output when the main report goes to a file")
    func reportToStandardOutput() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(["check"] + Self.drift + ["--output", "t", "--report", "json:-"] + Self.asOf,
                                           in: folder)
        #expect(result.exitCode == 1, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        #expect((object?["findings"] as? [Any])?.isEmpty == false)
        let text = try String(contentsOf: folder.appendingPathComponent("t"), encoding: .utf8)
        #expect(text.hasPrefix("demo-drift/products.yml:"))
        #expect(try Self.entries(folder) == ["demo", "demo-drift", "t"])
    }

    /// Two outputs of one `check` that both write standard output, and the line that says so.
    static let twiceStandardOutput: [([String], String)] = [
        (["--report", "json:-"], "Error: --format text (no --output) and --report json:- both write to standard "
            + "output; write one of them to a file\n"),
        (["--format", "sarif", "--output", "-", "--report", "junit:-"], "Error: --output - and --report junit:- both "
            + "write to standard output; write one of them to a file\n"),
    ]

    @Test("standard output is written once a run: exit 64 naming both, before anything is read",
          arguments: twiceStandardOutput)
    func standardOutputOnce(_ arguments: [String], stderr: String) throws {
        // The config does not exist: the usage error comes before any input is read.
        let result = try CommandRunner.run(["check", "--config", "missing.yml", "--store", "missing.storekit"]
                                           + arguments + Self.asOf)
        #expect(result.exitCode == 64)
        #expect(result.stdout == "")
        #expect(result.stderr == stderr)
    }

    @Test("fetch --output - is refused (a snapshot is a folder): exit 64 before any request",
          arguments: [["appstore", "--app", "1234567890"], ["play", "--package", "com.example.app"]])
    func fetchRefusesStandardOutput(_ arguments: [String]) throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandRunner.run(
            ["fetch"] + arguments + ["--output", "-", "--base-url", "http://127.0.0.1:9"], in: folder)
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains(
            "--output -: fetch writes a snapshot folder, not standard output; give a folder"), "\(result.stderr)")
        #expect(try Self.entries(folder) == [])
    }

    @Test("--baseline - --update-baseline is refused: the baseline is a file later runs read")
    func baselineIsAFile() throws {
        let result = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml", "--store",
                                            "catalogs/demo/appstore.storekit", "--baseline", "-", "--update-baseline",
                                            "--output", "/dev/null"] + Self.asOf)
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("--baseline - --update-baseline: the baseline is a file that later runs read"),
                "\(result.stderr)")
    }

    // MARK: - One file, one output

    /// Two outputs of one run naming one file: the arguments, what to prepare, and the line on standard error.
    struct SharedCase: Sendable, CustomTestStringConvertible {
        let name: String
        let arguments: [String]
        /// Files to create first (path → contents), and links (path → target; `hard:` before the target for a
        /// hard link).
        let files: [String: String]
        let links: [String: String]
        let environment: [String: String]
        let stderr: String
        var testDescription: String { name }
    }

    static let sharedCases: [SharedCase] = [
        SharedCase(name: "--output X --report json:X", arguments: ["--output", "x.json", "--report", "json:x.json"],
                   files: [:], links: [:], environment: [:],
                   stderr: "Error: --output x.json and --report json:x.json write the same file; give each output its "
                    + "own file\n"),
        SharedCase(name: "two --report, one through ./",
                   arguments: ["--report", "a.json", "--report", "sarif:./a.json"], files: [:], links: [:],
                   environment: [:],
                   stderr: "Error: --report a.json and --report sarif:./a.json write the same file; give each output "
                    + "its own file\n"),
        SharedCase(name: "a report over the baseline being recorded",
                   arguments: ["--baseline", "b.json", "--update-baseline", "--report", "json:b.json"],
                   files: [:], links: [:], environment: [:],
                   stderr: "Error: --report json:b.json and --baseline b.json (--update-baseline) write the same file; "
                    + "give each output its own file\n"),
        SharedCase(name: "through a folder and ..",
                   arguments: ["--output", "r.txt", "--report", "markdown:sub/../r.txt"],
                   files: ["sub/keep": ""], links: [:], environment: [:],
                   stderr: "Error: --output r.txt and --report markdown:sub/../r.txt write the same file; give each "
                    + "output its own file\n"),
        SharedCase(name: "through a symbolic link", arguments: ["--output", "t.txt", "--report", "json:link.json"],
                   files: ["t.txt": "old\n"], links: ["link.json": "t.txt"], environment: [:],
                   stderr: "Error: --output t.txt and --report json:link.json write the same file; give each output "
                    + "its own file\n"),
        SharedCase(name: "through a hard link", arguments: ["--report", "html:t.html", "--report", "json:hard.json"],
                   files: ["t.html": "old\n"], links: ["hard.json": "hard:t.html"], environment: [:],
                   stderr: "Error: --report html:t.html and --report json:hard.json write the same file; give each "
                    + "output its own file\n"),
        SharedCase(name: "a report over the step summary",
                   arguments: ["--format", "github", "--report", "markdown:summary.md"], files: ["summary.md": "old\n"],
                   links: [:], environment: ["GITHUB_STEP_SUMMARY": "summary.md"],
                   stderr: "Error: --report markdown:summary.md and $GITHUB_STEP_SUMMARY (summary.md) write the same "
                    + "file; give each output its own file\n"),
    ]

    @Test("one file named by two outputs: exit 64 naming both, nothing read or written", arguments: sharedCases)
    func oneFileTwoOutputs(_ testCase: SharedCase) throws {
        // Arrange
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        for (path, contents) in testCase.files {
            let url = folder.appendingPathComponent(path)
            try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: url)
        }
        for (path, target) in testCase.links {
            let url = folder.appendingPathComponent(path)
            if target.hasPrefix("hard:") {
                try manager.linkItem(at: folder.appendingPathComponent(String(target.dropFirst(5))), to: url)
            } else {
                try manager.createSymbolicLink(atPath: url.path, withDestinationPath: target)
            }
        }
        let before = try Self.entries(folder)
        // Act: with a config that does not exist, so that "before anything is read" shows too.
        let result = try CommandRunner.run(["check", "--config", "missing.yml", "--store", "missing.storekit"]
                                           + testCase.arguments + Self.asOf, in: folder,
                                           environment: testCase.environment)
        // Assert
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(result.stderr == testCase.stderr)
        #expect(try Self.entries(folder) == before)
        for (path, contents) in testCase.files {
            #expect(try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8) == contents)
        }
    }

    @Test("--update-baseline still writes every report asked for, and the baseline")
    func updateBaselineWritesReports() throws {
        // Arrange
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Act
        let result = try CommandRunner.run(["check"] + Self.drift + ["--baseline", "b.json", "--update-baseline",
                                                                     "--report", "json:r.json", "--output", "o"]
                                           + Self.asOf, in: folder)
        // Assert
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "")
        #expect(try Self.entries(folder) == ["b.json", "demo", "demo-drift", "o", "r.json"])
        let baseline = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("b.json")))
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("r.json")))
        let recorded = ((baseline as? [String: Any])?["findings"] as? [Any])?.count ?? 0
        let reported = ((report as? [String: Any])?["findings"] as? [Any])?.count ?? -1
        #expect(recorded > 0)
        #expect(reported == recorded)
        let text = try String(contentsOf: folder.appendingPathComponent("o"), encoding: .utf8)
        #expect(text.hasPrefix("demo-drift/products.yml:"))
        #expect(result.stderr == "b.json: recorded \(recorded) findings; runs with --baseline b.json fail only on new "
                + "ones\n")
    }
}
