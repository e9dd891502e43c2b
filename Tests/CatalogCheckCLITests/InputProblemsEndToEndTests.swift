import Foundation
import TestSupport
import Testing

/// DESIGN.md §5a.1 through the binary: a config, rules file or baseline with several problems prints each on its
/// own compiler-style line on standard error, in file order, at most 50 and then how many more; exit 2.
@Suite("every input problem end to end")
struct InputProblemsEndToEndTests {
    static let store = "catalogs/demo/appstore.storekit"

    @Test("a config with three mistakes prints all three, one line each, and exits 2")
    func threeMistakes() throws {
        let config = "Tests/Fixtures/config/several-problems/three-products.yml"
        let result = try CommandRunner.run(["check", "--config", config, "--store", Self.store,
                                            "--as-of", "2026-11-22"])
        // Typed apart from the expectation: string literals joined by `+` inside the macro took 15 s to type-check.
        let expected: [String] = [
            #"\#(config):5:12: error: products."com.example.coins.100".price: "0,99" is not a decimal amount "#
                + #"(digits with an optional "." and decimals, like 9.99)"#,
            #"\#(config):8:13: error: products."com.example.premium.monthly".period: "P0M" is not a period "#
                + #"(use P1W, P1M, … or "1 month")"#,
            #"\#(config):11:22: error: products."com.example.unlock".familyShareable: "yes" is not true or false"#,
        ]
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").map(String.init) == expected)
    }

    @Test("a config with 60 problems prints 50 and says 10 more")
    func sixtyProblems() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "version: 1\nproducts:\n"
        for index in 0..<60 {
            text += "  p\(index): {type: subscription}\n"
        }
        try Data(text.utf8).write(to: folder.appendingPathComponent("products.yml"))
        let result = try CommandRunner.run(["check", "--config", "products.yml",
                                            "--store", Fixtures.repositoryRoot.path + "/" + Self.store,
                                            "--as-of", "2026-11-22"], in: folder)
        #expect(result.exitCode == 2)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 51)
        #expect(lines.first == #"products.yml:3:14: error: products.p0.type: "subscription" is not a product type "#
            + "(consumable, non-consumable, auto-renewable, non-renewing or one-time)")
        #expect(lines.dropLast().last?.hasPrefix("products.yml:52:15: error: products.p49.type: ") == true)
        #expect(lines.last == "… and 10 more problems in products.yml")
    }

    @Test("a rules file and a baseline print each problem too")
    func rulesAndBaseline() throws {
        let rules = "Tests/Fixtures/rules/several-problems/three-problems.yml"
        let rulesResult = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml",
                                                 "--store", Self.store, "--rules", rules, "--as-of", "2026-11-22"])
        #expect(rulesResult.exitCode == 2)
        #expect(rulesResult.stderr.split(separator: "\n").map { $0.prefix(rules.count + 5) } == [
            "\(rules):4:3:", "\(rules):8:12", "\(rules):9:5:",
        ])
        let baseline = "Tests/Fixtures/baseline/several-bad-entries.json"
        let baselineResult = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml",
                                                    "--store", Self.store, "--baseline", baseline,
                                                    "--as-of", "2026-11-22"])
        #expect(baselineResult.exitCode == 2)
        #expect(baselineResult.stderr.split(separator: "\n").map { $0.prefix(baseline.count + 5) } == [
            "\(baseline):3:12", "\(baseline):4:56", "\(baseline):5:94",
        ])
    }
}
