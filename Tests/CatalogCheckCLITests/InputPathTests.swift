import Foundation
import TestSupport
import Testing

/// Inputs that are not plain readable files — an empty path, a symbolic link loop, a folder, a FIFO, a device —
/// and XML past libxml2's limits: exit 2 (or a read) with a message in the user's words, never a hang.
@Suite("Input paths", .serialized)
struct InputPathTests {
    static let config = "catalogs/demo/products.yml"
    static let asOf = ["--as-of", "2026-11-22"]

    /// Runs the binary in a new folder prepared by `prepare`, removed afterwards.
    static func run(_ arguments: [String], prepare: (URL) throws -> Void = { _ in }) throws -> CommandResult {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try prepare(folder)
        return try CommandRunner.run(arguments + asOf, in: folder)
    }

    @Test("an empty --config path says the path is empty")
    func emptyConfigPath() throws {
        let store = Fixtures.catalog("demo/appstore.storekit").path
        let result = try Self.run(["check", "--config", "", "--store", store])
        #expect(result.exitCode == 2)
        #expect(result.stderr == "'': error: the path is empty\n")
        let export = try Self.run(["export", ""])
        #expect(export.stderr == "'': error: the path is empty\n")
    }

    @Test("a config spelled a//é (a double slash, then one two-byte character) is read, not trapped on",
          arguments: [["validate", "--config", "a//é"], ["export", "a//é", "--output", "-"],
                      ["check", "--config", "a//é", "--store", Fixtures.catalog("demo/appstore.storekit").path],
                      ["diff", "a//é", Fixtures.catalog("demo/products.yml").path, "--exit-code"]])
    func doubleSlashBeforeOneCharacter(arguments: [String]) throws {
        // NSString.pathExtension traps (SIGILL, exit 132) on such a path; the config reader asked it for ".json".
        let result = try Self.run(arguments) { folder in
            let named = folder.appendingPathComponent("a").appendingPathComponent("é")
            try FileManager.default.createDirectory(at: named.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Fixtures.catalog("demo/products.yml"), to: named)
        }
        #expect(result.exitCode == 0, "\(arguments): \(result.stderr)")
        #expect(arguments[0] != "validate" || result.stdout == "a//é: valid config, 7 products\n")
    }

    @Test("a symbolic link loop is named as one, not as a missing file", arguments: [
        ["check", "--config", "loop.yml", "--store", "loop.yml"], ["export", "loop.yml"],
        ["check", "--config", Fixtures.catalog("demo/products.yml").path,
         "--store", Fixtures.catalog("demo/appstore.storekit").path, "--rules", "loop.yml"],
        ["check", "--config", Fixtures.catalog("demo/products.yml").path,
         "--store", Fixtures.catalog("demo/appstore.storekit").path, "--baseline", "loop.yml"],
    ])
    func symlinkLoop(arguments: [String]) throws {
        let result = try Self.run(arguments) { folder in
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop.yml").path,
                                                       withDestinationPath: "loop.yml")
        }
        #expect(result.exitCode == 2)
        #expect(result.stderr == "loop.yml: error: too many levels of symbolic links\n")
    }

    @Test("a folder where a file is expected")
    func folder() throws {
        let result = try Self.run(["check", "--config", "products.yml", "--store", "products.yml"]) { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("products.yml"),
                                                    withIntermediateDirectories: false)
        }
        #expect(result.exitCode == 2)
        #expect(result.stderr == "products.yml: error: is a folder; the product config is one YAML or JSON file\n")
    }

    @Test("an unreadable file says permission denied", .enabled(if: geteuid() != 0, "root reads any file"))
    func unreadable() throws {
        let result = try Self.run(["export", "products.yml"]) { folder in
            let url = folder.appendingPathComponent("products.yml")
            try FileManager.default.copyItem(at: Fixtures.catalog("demo/products.yml"), to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path)
        }
        #expect(result.exitCode == 2)
        #expect(result.stderr == "products.yml: error: permission denied\n")
    }

    @Test("/dev/null is an empty file")
    func devNull() throws {
        let config = try Self.run(["check", "--config", "/dev/null", "--store", "/dev/null"])
        #expect(config.exitCode == 2)
        #expect(config.stderr.hasPrefix("/dev/null:1:1: error: the file is empty; a config needs"), "\(config.stderr)")
        let export = try Self.run(["export", "/dev/null"])
        #expect(export.exitCode == 2)
        #expect(export.stderr == "/dev/null: error: the file is empty\n")
    }

    @Test("a FIFO is read as a stream: with a writer it is read whole, without one it is empty")
    func fifo() throws {
        let original = try CommandRunner.run(["export", Fixtures.catalog("demo/products.yml").path, "--format", "json"])
        #expect(original.exitCode == 0)
        let contents = try Data(contentsOf: Fixtures.catalog("demo/products.yml"))
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("products.yml")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let written = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { written.signal() }
            // Opening for writing waits for the reader.
            guard let handle = try? FileHandle(forWritingTo: fifo) else { return }
            try? handle.write(contentsOf: contents)
            try? handle.close()
        }
        writer.start()
        // The writer is waiting in open(2) before the reader comes: a FIFO without a writer reads as empty.
        Thread.sleep(forTimeInterval: 0.2)
        let streamed = try CommandRunner.run(["export", "products.yml", "--format", "json"], in: folder)
        #expect(streamed.exitCode == 0, "\(streamed.stderr)")
        #expect(streamed.stdout == original.stdout.replacingOccurrences(
            of: Fixtures.catalog("demo/products.yml").path, with: "products.yml"))
        #expect(written.wait(timeout: .now() + 10) == .success)
        let unwritten = try CommandRunner.run(["export", "products.yml"], in: folder)
        #expect(unwritten.exitCode == 2)
        #expect(unwritten.stderr.hasPrefix("products.yml:1:1: error: the file is empty"))
    }

    @Test("deeply nested XML names the limit, not a libxml2 option")
    func deepXML() throws {
        let deep = "<?xml version=\"1.0\"?>\n<package xmlns=\"http://apple.com/itunes/importer\">"
            + String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300) + "</package>\n"
        let result = try Self.run(["export", "metadata.xml"]) { folder in
            try Data(deep.utf8).write(to: folder.appendingPathComponent("metadata.xml"))
        }
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("error: the document is nested too deeply (more than 256 levels)"),
                "\(result.stderr)")
        #expect(!result.stderr.contains("XML_PARSE"))
    }

    @Test("XML that declares no encoding and is not UTF-8 says so at the byte")
    func latin1XML() throws {
        let bytes = Array("<?xml version=\"1.0\"?>\n<package xmlns=\"http://apple.com/itunes/importer\">\n  <a>caf".utf8)
            + [0xE9] + Array("</a></package>\n".utf8)
        let result = try Self.run(["export", "metadata.xml"]) { folder in
            try Data(bytes).write(to: folder.appendingPathComponent("metadata.xml"))
        }
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("metadata.xml:3:9: error: the file is not UTF-8 text (byte 0xE9)"),
                "\(result.stderr)")
    }
}
