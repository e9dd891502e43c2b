import Foundation
import TestSupport
import Testing

/// Every write is checked (DESIGN.md §2): failures exit 2 with one line naming the target, files are replaced
/// atomically, devices are written in place, nothing traps.
@Suite("output files and standard output")
struct OutputTests {
    static let check = ["check", "--config", "catalogs/demo-drift/products.yml",
                        "--store", "catalogs/demo-drift/appstore.storekit", "--as-of", "2026-11-22"]

    /// Runs the binary through bash so a test can close, redirect or pipe its standard output.
    private func shell(_ arguments: [String], redirect: String) throws -> CommandResult {
        let binary = CommandRunner.productsDirectory.appendingPathComponent("catalogcheck").path
        let quoted = ([binary] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try CommandRunner.run(["-c", quoted.joined(separator: " ") + " " + redirect],
                                     executable: URL(fileURLWithPath: "/bin/bash"))
    }

    @Test("standard output closed: exit 2 and a message, never a trap")
    func closedStandardOutput() throws {
        let result = try shell(Self.check, redirect: ">&-")
        #expect(result.exitCode == 2)
        #expect(result.stderr == "standard output: error: cannot write: it is closed\n")
    }

    @Test("standard output full: exit 2, not a silent pass or fail")
    func fullStandardOutput() throws {
        let result = try shell(Self.check, redirect: ">/dev/full")
        #expect(result.exitCode == 2)
        #expect(result.stderr == "standard output: error: cannot write: no space left on the device\n")
    }

    @Test("a reader that goes away: exit 2, said on standard error, not a silent death by SIGPIPE")
    func brokenPipe() throws {
        // `true` exits at once, long before the catalog is read: the report then meets a pipe without a reader.
        let args = ["export", "catalogs/demo/asc", "--format", "json", "--as-of", "2026-11-22"]
        let result = try shell(args, redirect: "| true; exit \"${PIPESTATUS[0]}\"")
        #expect(result.exitCode == 2)
        #expect(result.stderr == "standard output: error: cannot write: the reader went away (broken pipe)\n")
    }

    @Test("--output /dev/full: exit 2 naming the device, which is not replaced")
    func outputToDevice() throws {
        let result = try CommandRunner.run(Self.check + ["--output", "/dev/full"])
        #expect(result.exitCode == 2)
        #expect(result.stderr == "/dev/full: error: cannot write: no space left on the device\n")
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
    }

    @Test("--output naming a folder, a missing folder, or a symlink loop: exit 2 in plain words")
    func outputErrors() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let loop = folder.appendingPathComponent("loop").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        let cases: [(String, String)] = [
            (folder.path, "\(folder.path): error: cannot write: is a directory\n"),
            (folder.path + "/missing/report.txt",
             "\(folder.path)/missing/report.txt: error: cannot write: the folder '\(folder.path)/missing' does not "
                + "exist (folders are not created)\n"),
            (loop, "\(loop): error: cannot write: too many levels of symbolic links\n"),
        ]
        for (target, message) in cases {
            let result = try CommandRunner.run(Self.check + ["--output", target])
            #expect(result.exitCode == 2, "\(target)")
            #expect(result.stderr == message)
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
    }

    @Test("a report file is replaced whole, and no temporary file is left beside it")
    func atomicReplace() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("report.json")
        try Data(String(repeating: "old ", count: 100_000).utf8).write(to: target)
        let result = try CommandRunner.run(Self.check + ["--report", target.path])
        #expect(result.exitCode == 1)
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.hasPrefix("{\n") && written.hasSuffix("}\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.json"])
    }

    @Test("--report infers the format from the extension, or says it cannot")
    func reportInference() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("r.json").path
        let ok = try CommandRunner.run(Self.check + ["--report", json])
        #expect(ok.exitCode == 1)
        #expect((try? String(contentsOfFile: json, encoding: .utf8))?.contains("\"findings\"") == true)

        let bad = try CommandRunner.run(Self.check + ["--report", folder.appendingPathComponent("r.pdf").path])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.contains("cannot tell the format from the extension"))
    }

    @Test("every format: two runs write the same bytes, with no date or host name in them")
    func deterministic() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let formats = ["text", "json", "junit", "sarif", "github", "markdown", "html"]
        var runs: [[String]] = []
        for run in 0..<2 {
            let reports = formats.map { "\($0):" + folder.appendingPathComponent("\(run).\($0)").path }
            let result = try CommandRunner.run(Self.check + ["--store", "catalogs/demo-drift/play"]
                                               + reports.flatMap { ["--report", $0] })
            #expect(result.exitCode == 1, "\(result.stderr)")
            runs.append(try formats.map { try String(contentsOf: folder.appendingPathComponent("\(run).\($0)"),
                                                     encoding: .utf8) })
        }
        #expect(runs[0] == runs[1])
        let host = ProcessInfo.processInfo.hostName
        for text in runs[0] {
            #expect(!text.contains("2026-11-23"))
            // A very short host name (`vm`) could be any word; longer ones must not appear.
            #expect(host.count < 4 || host == "localhost" || !text.contains(host))
        }
    }
}
