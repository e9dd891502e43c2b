import Foundation
import TestSupport
import Testing

/// How outputs are spelled (DESIGN.md §2 "Output files", issue #25 "Outputs"), through the built binary: a
/// one-character name is a file like any other (it trapped: SIGILL, exit 132, in Foundation's
/// `deletingLastPathComponent`).
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
}
