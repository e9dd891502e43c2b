import Foundation
import TestSupport
import Testing

/// Every file of the bad-input corpus, through the built binary: exit 2, one line on standard error naming the
/// file and a line, nothing on standard output, never a crash.
@Suite("Malformed input")
struct MalformedInputTests {
    /// The corpus, less the XML files whose entities are read as nothing (DESIGN §5a.14) and the file one of
    /// them points at.
    static let corpus = Fixtures.files(in: "malformed").filter {
        !$0.hasPrefix("xml-xxe-") && $0 != "xml-billion-laughs.xml"
    }

    /// The format a corpus file is read as, from its name prefix.
    static func format(of name: String) -> String {
        let prefixes: [(String, String)] = [
            ("asc-", "asc-json"), ("config-", "catalog"), ("play-csv-", "play-csv"), ("play-", "play-json"),
            ("plist-", "plist"), ("storekit-", "storekit"), ("xml-", "appstore-xml"),
        ]
        return prefixes.first { name.hasPrefix($0.0) }?.1 ?? "catalog"
    }

    @Test("the corpus is not empty and covers every format")
    func coverage() {
        let formats = Set(Self.corpus.map(Self.format(of:)))
        #expect(formats == ["asc-json", "catalog", "play-csv", "play-json", "plist", "storekit", "appstore-xml"])
        #expect(Self.corpus.count >= 30)
    }

    @Test("exit 2 with file:line and one message", arguments: corpus)
    func malformed(name: String) throws {
        let path = "Tests/Fixtures/malformed/\(name)"
        let result = try CommandRunner.run(["export", path, "--store-format", Self.format(of: name),
                                            "--as-of", "2026-11-22"])
        #expect(result.exitCode == 2, "\(name): \(result.stderr)")
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        let pattern = #/^Tests/Fixtures/malformed/[^:]+:\d+(:\d+)?: error: .+/#
        #expect(lines.first.map { $0.wholeMatch(of: pattern) != nil } == true, "\(result.stderr)")
    }

    @Test("a malformed store in check exits 2 too, before any report")
    func malformedStoreInCheck() throws {
        let result = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml",
                                            "--store", "Tests/Fixtures/malformed/storekit-truncated.storekit",
                                            "--as-of", "2026-11-22"])
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Tests/Fixtures/malformed/storekit-truncated.storekit:"))
    }

    @Test("external entities are never loaded: their content appears in no output")
    func externalEntities() throws {
        let marker = try String(contentsOf: Fixtures.url("malformed/xml-xxe-marker.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        for format in ["json", "catalog"] {
            let result = try CommandRunner.run(["export", "Tests/Fixtures/malformed/xml-xxe-local-file.xml",
                                                "--format", format, "--as-of", "2026-11-22"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("com.example.xxe"))
            for output in [result.stdout, result.stderr] {
                #expect(!output.contains(marker))
                #expect(!output.contains("root:"))
                #expect(!output.contains("internal entity text"))
            }
        }
    }

    @Test("a finding on a product whose store record references entities never carries entity content")
    func findingsWithoutEntityContent() throws {
        let marker = try String(contentsOf: Fixtures.url("malformed/xml-xxe-marker.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let config = """
            version: 1
            groups:
              Group: {}
            products:
              com.example.xxe:
                type: auto-renewable
                name: Another name
                group: Group
                period: P1Y
            """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("catalogcheck-\(UUID()).yml")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(config.utf8).write(to: file)
        for format in ["text", "json", "sarif"] {
            let result = try CommandRunner.run(["check", "--config", file.path, "--store",
                                                "Tests/Fixtures/malformed/xml-xxe-local-file.xml", "--format", format,
                                                "--as-of", "2026-11-22"])
            #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("name-mismatch"))
            #expect(result.stdout.contains("period-mismatch"))
            for output in [result.stdout, result.stderr] {
                #expect(!output.contains(marker))
                #expect(!output.contains("root:"))
                #expect(!output.contains("internal entity text"))
            }
        }
    }

    @Test("billion laughs is read: its entities expand to nothing")
    func billionLaughs() throws {
        let result = try CommandRunner.run(["export", "Tests/Fixtures/malformed/xml-billion-laughs.xml",
                                            "--format", "json", "--as-of", "2026-11-22"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("com.example.laughs"))
        #expect(!result.stdout.contains("lol"))
        #expect(result.stderr.isEmpty)
    }
}
