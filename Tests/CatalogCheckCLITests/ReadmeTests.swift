import Foundation
import TestSupport
import Testing

/// The README's rules summary and docs/rules.md's reference are what the built binary lists (`catalogcheck rules`),
/// written by `scripts/readme-rules`; the README's shell blocks all say where CI runs them.
@Suite("README and docs agree with the binary")
struct ReadmeTests {
    /// `scripts/readme-rules ARGUMENTS` with this build's catalogcheck.
    private func readmeRules(_ arguments: [String]) throws -> CommandResult {
        let binary = CommandRunner.productsDirectory.appendingPathComponent("catalogcheck").path
        return try CommandRunner.run(["python3", "scripts/readme-rules"] + arguments,
                                     environment: ["CATALOGCHECK": binary],
                                     executable: URL(fileURLWithPath: "/usr/bin/env"))
    }

    @Test("the README's rules summary and docs/rules.md list every rule as `catalogcheck rules` does")
    func rulesAreTheBinarys() throws {
        let result = try readmeRules(["--check"])

        #expect(result.exitCode == 0, "run scripts/readme-rules:\n\(result.stdout)\(result.stderr)")
        let readme = try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let summary = readme.split(separator: "\n").filter { $0.hasPrefix("**") && $0.contains(":** `") }
        let rules = try CommandRunner.run(["rules"]).stdout.split(separator: "\n").map { $0.split(separator: " ") }
        var expected: [String] = []
        for severity in ["error", "warning", "note"] {
            expected += rules.filter { $0.count > 1 && $0[1] == severity }.map { String($0[0]) }
        }
        let listed: [String] = summary.flatMap { line in
            line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }

        #expect(listed == expected)
        #expect(summary.count == 3)
    }

    @Test("a README whose summary lacks a rule fails the check, naming the rule; the script then writes it back")
    func aStaleTableFails() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let root = Fixtures.repositoryRoot
        let readme = folder.appendingPathComponent("README.md"), reference = folder.appendingPathComponent("rules.md")
        let original = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let stale = original.replacingOccurrences(of: " · `offer-mismatch`", with: "")
        #expect(stale != original)
        try Data(stale.utf8).write(to: readme)
        try FileManager.default.copyItem(at: root.appendingPathComponent("docs/rules.md"), to: reference)
        let paths = ["--readme", readme.path, "--reference", reference.path]

        let check = try readmeRules(["--check"] + paths)
        let write = try readmeRules(paths)
        let after = try String(contentsOf: readme, encoding: .utf8)

        #expect(check.exitCode == 1)
        #expect(check.stdout.contains("· `offer-mismatch` ·"), "\(check.stdout)")
        #expect(check.stdout.contains("\n+**"), "\(check.stdout)")
        #expect(write.exitCode == 0, "\(write.stderr)")
        #expect(after == original)
    }

    @Test("every ```sh block of the README says where CI runs it (scripts/readme-commands --lint)")
    func everyReadmeBlockIsMarked() throws {
        let result = try CommandRunner.run(["python3", "scripts/readme-commands", "--lint"],
                                           executable: URL(fileURLWithPath: "/usr/bin/env"))

        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("ok: "))
    }
}

/// `scripts/readme-commands --lint` refuses a README block that does not say where it runs.
@Suite("README commands: markers")
struct ReadmeMarkerTests {
    @Test("an unmarked ```sh block in a README fails the lint, naming its line; a marked one passes")
    func unmarkedBlockFails() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let readme = folder.appendingPathComponent("README.md")
        try Data("# x\n\n<!-- ci: tmp -->\n```sh\ntrue\n```\n\n```sh\ncatalogcheck rules   # exit 0\n```\n".utf8)
            .write(to: readme)

        let result = try CommandRunner.run(["python3", "scripts/readme-commands", "--lint", readme.path],
                                           executable: URL(fileURLWithPath: "/usr/bin/env"))

        #expect(result.exitCode == 1)
        #expect(result.stdout == "FAIL: \(readme.path):8: a ```sh block without a <!-- ci: … --> marker: say where CI "
                + "runs it (see scripts/readme-commands --help)\n", "\(result.stdout)")
    }
}
