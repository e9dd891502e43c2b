import Foundation
import TestSupport
import Testing

/// `catalogcheck validate` (no store needed) and the "did you mean" of the command line: a mistyped option,
/// also a required one, and a mistyped rule ID.
@Suite("validate and did-you-mean, end to end")
struct ValidateCommandTests {
    @Test("every problem of the config, the rules file and the baseline, then exit 2; no store read")
    func everyProblem() throws {
        let result = try CommandRunner.run([
            "validate", "--config", "Tests/Fixtures/config/several-problems/three-products.yml",
            "--rules", "Tests/Fixtures/rules/invalid/unknown-ignore-key.yml",
            "--baseline", "Tests/Fixtures/baseline/several-bad-entries.json",
        ])

        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(result.stderr)")
        #expect(lines.first == "Tests/Fixtures/config/several-problems/three-products.yml:5:12: error: "
                + "products.\"com.example.coins.100\".price: \"0,99\" is not a decimal amount (digits with an optional "
                + "\".\" and decimals, like 9.99)")
        #expect(lines.contains("Tests/Fixtures/rules/invalid/unknown-ignore-key.yml:4:5: error: ignore[0].reasons: "
                               + "unknown key; did you mean \"reason\"?"))
        #expect(lines.contains("Tests/Fixtures/baseline/several-bad-entries.json:5:94: error: findings[3].store: "
                               + "\"amazon\" is not a store (appstore, play)"))
    }

    @Test("valid files: one line each, exit 0")
    func valid() throws {
        let result = try CommandRunner.run([
            "validate", "--config", "catalogs/demo/products.yml", "--rules", "Tests/Fixtures/rules/valid/full.yml",
        ])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            catalogs/demo/products.yml: valid config, 7 products
            Tests/Fixtures/rules/valid/full.yml: valid rules file

            """)
    }

    @Test("the nearest .catalogcheck.yml is validated without --rules; with nothing to validate, a usage error")
    func nearestRulesFile() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"),
                                                withIntermediateDirectories: true)
        let empty = try CommandRunner.run(["validate"], in: folder)
        try Data("version: 1\nrules: { price-mismach: off }\n".utf8)
            .write(to: folder.appendingPathComponent(".catalogcheck.yml"))

        let result = try CommandRunner.run(["validate"], in: folder)

        #expect(empty.exitCode == 64)
        #expect(empty.stderr.hasPrefix("Error: nothing to validate: give --config, --rules or --baseline"))
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix(".catalogcheck.yml:2:10: error: "), "\(result.stderr)")
        #expect(result.stderr.contains("price-mismatch"))
    }

    @Test("a mistyped option names the near one, also a required one (before: '--config' is missing)",
          arguments: [
              (["check", "--confg", "p.yml", "--store", "s.storekit"], "--confg", "--config", "check"),
              (["check", "--config", "p.yml", "--store", "s.storekit", "--strcit"], "--strcit", "--strict", "check"),
              (["report", "--config=p.yml", "--stor", "s.storekit"], "--stor", "--store", "report"),
              (["validate", "--baselin", "b.json"], "--baselin", "--baseline", "validate"),
              (["fetch", "play", "--package", "p", "--outpt", "x"], "--outpt", "--output", "fetch play"),
          ])
    func mistypedOption(arguments: [String], typed: String, meant: String, command: String) throws {
        let result = try CommandRunner.run(arguments)

        #expect(result.exitCode == 64)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.first == "Error: Unknown option '\(typed)'. Did you mean '\(meant)'?")
        #expect(lines.last == "  See 'catalogcheck \(command) --help' for more information.")
    }

    @Test("an unknown option with no near one and a known one after -- are left to the argument parser")
    func farOption() throws {
        let far = try CommandRunner.run(["check", "--config", "p.yml", "--store", "s.storekit", "--zzzzzz"])

        #expect(far.exitCode == 64)
        #expect(far.stderr.hasPrefix("Error: Unknown option '--zzzzzz'\n"), "\(far.stderr)")
    }

    @Test("rules price-mismach: did you mean 'price-mismatch'?")
    func mistypedRule() throws {
        let result = try CommandRunner.run(["rules", "price-mismach"])

        #expect(result.exitCode == 64)
        #expect(result.stderr.hasPrefix("Error: unknown rule 'price-mismach'; did you mean 'price-mismatch'? "
                                        + "Run `catalogcheck rules` for the list.\n"))
    }
}
