import Foundation
import TestSupport
import Testing

/// `catalogcheck diff` through the binary: git revisions, `--exit-code`, the JSON keys, the Markdown tables.
@Suite("diff end to end")
struct DiffCommandTests {
    static let demo = "catalogs/demo/products.yml"
    static let drift = "catalogs/demo-drift/products.yml"

    /// Runs git in `folder`, failing the test when git fails.
    private func git(_ arguments: [String], in folder: URL) throws {
        let result = try CommandRunner.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
                                           + arguments, in: folder, executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(result.exitCode == 0, "git \(arguments): \(result.stderr)")
    }

    @Test("git:HEAD:PATH against the edited working file; a bad revision or path exits 2 with git's reason")
    func gitRevision() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("products.yml")
        try git(["init", "-q"], in: folder)
        try FileManager.default.copyItem(at: Fixtures.repositoryRoot.appendingPathComponent(Self.demo), to: file)
        try git(["add", "products.yml"], in: folder)
        try git(["commit", "-q", "-m", "products"], in: folder)
        let edited = try String(contentsOf: file, encoding: .utf8)
            .replacingOccurrences(of: "DE: 59.99 EUR", with: "DE: 64.99 EUR")
        try #require(edited.contains("64.99 EUR"))
        try Data(edited.utf8).write(to: file)

        let result = try CommandRunner.run(["diff", "git:HEAD:products.yml", "products.yml"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == """
            ~ com.trailmate.app.pro.yearly
                price DE: 59.99 EUR -> 64.99 EUR (+8.3%; App Store: undecided (if not preserved: consent not-required); Play: new purchases only until decided (undecided))
            0 added, 0 removed, 1 changed (old: git:HEAD:products.yml, new: products.yml)

            """)

        let badRevision = try CommandRunner.run(["diff", "git:nope:products.yml", "products.yml"], in: folder)
        #expect(badRevision.exitCode == 2)
        #expect(badRevision.stderr == "git:nope:products.yml: error: git: fatal: invalid object name 'nope'.\n")
        let badPath = try CommandRunner.run(["diff", "git:HEAD:missing.yml", "products.yml"], in: folder)
        #expect(badPath.exitCode == 2)
        #expect(badPath.stderr.hasPrefix("git:HEAD:missing.yml: error: git: fatal: path 'missing.yml' does not exist"))
    }

    @Test("--exit-code: 1 when the catalogs differ, 0 when they do not")
    func exitCode() throws {
        let differ = try CommandRunner.run(["diff", Self.demo, Self.drift, "--exit-code"])
        #expect(differ.exitCode == 1)
        let same = try CommandRunner.run(["diff", Self.demo, Self.demo, "--exit-code"])
        #expect(same.exitCode == 0)
        #expect(same.stdout == "no differences (old: \(Self.demo), new: \(Self.demo))\n")
        let plain = try CommandRunner.run(["diff", Self.demo, Self.drift])
        #expect(plain.exitCode == 0)
    }

    @Test("json: the §2a keys, products sorted, fields with percent and subscriber impact")
    func json() throws {
        let result = try CommandRunner.run(["diff", Self.demo, Self.drift, "--format", "json"])
        #expect(result.exitCode == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["version", "old", "new", "summary", "groups", "products"])
        #expect(object["old"] as? [String: String] == ["path": Self.demo, "format": "catalog"])
        #expect(object["summary"] as? [String: Int] == ["added": 2, "removed": 1, "changed": 5])
        let products = try #require(object["products"] as? [[String: Any]])
        let ids = products.compactMap { $0["productId"] as? String }
        #expect(ids == ids.sorted())
        for product in products {
            #expect(Set(product.keys) == ["productId", "change", "possibleRename", "lookAlike", "summary", "fields",
                                          "cautions"])
        }
        let yearly = try #require(products.first { $0["productId"] as? String == "com.trailmate.app.pro.yearly" })
        let fields = try #require(yearly["fields"] as? [[String: Any]])
        let germany = try #require(fields.first { $0["territory"] as? String == "DE" })
        #expect(germany["old"] as? String == "59.99 EUR")
        #expect(germany["new"] as? String == "64.99 EUR")
        #expect((germany["percent"] as? NSNumber)?.doubleValue == 8.3)
        // DESIGN.md §2c: per store the run knows (both, with no store input), what existing subscribers get.
        let impact = try #require(germany["subscriberImpact"] as? [String: [String: String]])
        #expect(impact["appstore"]?["existing"] == "undecided")
        #expect(impact["appstore"]?["consent"] == "not-required")
        #expect(impact["play"]?["existing"] == "undecided")
        #expect(impact["play"]?["migration"] == "undecided")
        let renamed = try #require(products.first { $0["productId"] as? String == "com.trailmate.app.coins.500" })
        #expect(renamed["possibleRename"] as? String == "com.trailmate.app.coins.5OO")
        #expect(renamed["lookAlike"] as? String == "digit '0' where the other has letter 'O', twice, from character 26")
        #expect(renamed["cautions"] as? [String] == ["removed-sold"])
    }

    @Test("markdown: a summary line and tables whose rows all have the header's cell count")
    func markdown() throws {
        let result = try CommandRunner.run(["diff", Self.demo, Self.drift, "--format", "markdown"])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("**2 added, 1 removed, 5 changed, 1 group change, 3 cautions** (old: `\(Self.demo)`, new: `\(Self.drift)`)"))
        #expect(lines.contains("#### Changed") && lines.contains("#### Added") && lines.contains("#### Removed"))
        var expected: Int?
        for line in lines {
            guard line.hasPrefix("|") else {
                expected = nil
                continue
            }
            #expect(line.hasSuffix("|"))
            if let expected { #expect(MarkdownTable.separators(line) == expected, "\(line)") } else { expected = MarkdownTable.separators(line) }
        }
        #expect(result.stdout.contains("| `com.trailmate.app.pro.yearly` | price DE | 59.99 EUR | 64.99 EUR | \\+8.3%; App Store: undecided \\(if not preserved: consent not-required\\); Play: new purchases only until decided \\(undecided\\) |"))
    }

    @Test("inputs of different formats: a config against its App Store Connect snapshot")
    func differentFormats() throws {
        let result = try CommandRunner.run(["diff", Self.demo, "catalogs/demo/asc", "--as-of", "2026-11-22"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        // The config states one price per product (`price:`); the store's other territories are not changes.
        #expect(result.stdout == "no differences (old: \(Self.demo), new: catalogs/demo/asc)\n")
    }
}
