import Foundation
import TestSupport
import Testing

/// "Did you mean" hints end to end (bounded, naming look-alike characters; DESIGN.md §5) and the escaping of
/// what a hint is about: invisible characters shown in text, `@mentions` inert in Markdown (§6).
@Suite("Hints and escaping, end to end")
struct HintAndEscapingTests {
    private static let config = "Tests/Fixtures/hints/look-alikes/products.yml"
    private static let store = "Tests/Fixtures/hints/look-alikes/appstore.storekit"

    private static func check(_ format: String) throws -> CommandResult {
        try CommandRunner.run(["check", "--config", config, "--store", store, "--format", format,
                               "--as-of", "2026-11-22"])
    }

    private static func lines(_ text: String) -> Set<String> {
        Set(text.split(separator: "\n").map(String.init))
    }

    @Test("the drift demo's coins.5OO: the hint says letter O stands where the other has digit 0, both ways")
    func demoDrift() throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo-drift/products.yml", "--store", "catalogs/demo-drift/appstore.storekit",
             "--as-of", "2026-11-22"])

        #expect(result.exitCode == 1, "\(result.stderr)")
        let lines = Self.lines(result.stdout)
        #expect(lines.contains(
            "catalogs/demo-drift/products.yml:18:3: error: [product-missing-in-store] com.trailmate.app.coins.5OO: "
                + "is in the config but not in the store (catalogs/demo-drift/appstore.storekit); "
                + "did you mean 'com.trailmate.app.coins.500'? "
                + "(letter 'O' where the other has digit '0', twice, from character 26)"))
        #expect(lines.contains(
            "catalogs/demo-drift/appstore.storekit:51:5: error: [product-missing-in-config] com.trailmate.app.coins.500: "
                + "is in the store but not in the config (catalogs/demo-drift/products.yml); "
                + "did you mean 'com.trailmate.app.coins.5OO'? "
                + "(digit '0' where the other has letter 'O', twice, from character 26)"))
    }

    @Test("text: a zero-width space in an ID is shown as \\u{200B}, and the hint names it and the Cyrillic a")
    func text() throws {
        let result = try Self.check("text")

        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(!result.stdout.unicodeScalars.contains("\u{200B}"))
        let lines = Self.lines(result.stdout)
        #expect(lines.contains(
            "\(Self.config):12:3: error: [product-missing-in-store] com.example.gems.100: is in the config but not in "
                + "the store (\(Self.store)); did you mean 'com.example.gems\\u{200B}.100'? "
                + "(nothing where the other has zero-width space U+200B, at character 17)"))
        #expect(lines.contains(
            "\(Self.store):12:5: error: [product-missing-in-config] com.example.gems\\u{200B}.100: is in the store but "
                + "not in the config (\(Self.config)); did you mean 'com.example.gems.100'? "
                + "(zero-width space U+200B where the other has nothing, at character 17)"))
        #expect(lines.contains(
            "\(Self.store):21:5: error: [product-missing-in-config] com.example.p\u{430}ss: is in the store but "
                + "not in the config (\(Self.config)); did you mean 'com.example.pass'? "
                + "(Cyrillic letter '\u{430}' U+0430 where the other has letter 'a', at character 14)"))
    }

    @Test("markdown: 'ping @team' renders as text and mentions no one; the zero-width space is visible")
    func markdown() throws {
        let result = try Self.check("markdown")

        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(!result.stdout.contains("@team"))
        #expect(result.stdout.components(separatedBy: "ping @<!-- -->team").count - 1 == 2)
        #expect(!result.stdout.unicodeScalars.contains("\u{200B}"))
        #expect(result.stdout.contains("`com.example.gems\\u{200B}.100`"))
    }

    @Test("every other format: no raw zero-width space; JSON and SARIF give the exact ID back", arguments: [
        "json", "sarif", "junit", "html", "github",
    ])
    func otherFormats(format: String) throws {
        let result = try Self.check(format)

        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains("\u{200B}"))
        #expect(result.stdout.contains("ping @team"))  // only Markdown is rendered with mentions
        if format == "json" {
            let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let ids = try #require(document["findings"] as? [[String: Any]]).compactMap { $0["productId"] as? String }
            #expect(ids.contains("com.example.gems\u{200B}.100"))
            #expect(result.stdout.contains(#""productId" : "com.example.gems\u200b.100""#))
        }
        if format == "sarif" {
            #expect(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) is [String: Any])
        }
    }

    @Test("the look-alike clause reaches every format's hint text (the drift demo's coins.5OO)", arguments: [
        "text", "json", "sarif", "junit", "markdown", "github",
    ])
    func lookAlikeInEveryFormat(format: String) throws {
        let result = try CommandRunner.run(
            ["check", "--config", "catalogs/demo-drift/products.yml", "--store", "catalogs/demo-drift/appstore.storekit",
             "--format", format, "--as-of", "2026-11-22"])

        #expect(result.exitCode == 1, "\(result.stderr)")
        // Markdown escapes the parentheses; every other format keeps the clause as it is.
        let clause = "letter 'O' where the other has digit '0', twice, from character 26"
        #expect(result.stdout.contains("did you mean 'com.trailmate.app.coins.500'? "
                                       + (format == "markdown" ? "\\(\(clause)\\)" : "(\(clause))")))
    }

    @Test("export writes the zero-width space as an escape, and the export reads back as the same ID")
    func exportRoundTrip() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try CommandRunner.run(["export", Self.store])
        #expect(exported.exitCode == 0, "\(exported.stderr)")
        #expect(Self.lines(exported.stdout).contains(#"  "com.example.gems\u200B.100":"#))
        #expect(!exported.stdout.unicodeScalars.contains("\u{200B}"))
        let config = folder.appendingPathComponent("exported.yml")
        try Data(exported.stdout.utf8).write(to: config)

        let result = try CommandRunner.run(["check", "--config", config.path, "--store", Self.store,
                                            "--as-of", "2026-11-22"])

        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("missing"))
    }

    @Test("a Play CSV holding a 10 MB product ID is read and reported, with no hint for it, in bounded memory")
    func hugeProductID() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let demo = try String(contentsOf: Fixtures.catalog("demo/play-products.csv"), encoding: .utf8)
        let demoLines = demo.utf8.filter { $0 == UInt8(ascii: "\n") }.count
        let huge = "com.trailmate.app." + String(repeating: "x", count: 10 * 1024 * 1024)
        // A second store-only ID gives the store's unmatched IDs a short shared prefix, so the huge ID is not
        // hidden inside it: before the bound, its deletion variants asked for 34 GB (signal 6).
        let rows = [huge, "com.trailmate.app.extra"].map {
            "\($0),published,managed_by_android,false,\"en_US; Big; Big thing\",false,US; 990000,\n"
        }
        let csv = folder.appendingPathComponent("play-products.csv")
        try Data((demo + rows.joined()).utf8).write(to: csv)

        let result = try CommandRunner.run(["check", "--config", "catalogs/demo/products.yml", "--store", csv.path,
                                            "--as-of", "2026-11-22"])

        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        // Compared as booleans: a failure message must not print 10 MB.
        let lines = Self.lines(result.stdout)
        let hugeLine = lines.contains("\(csv.path):\(demoLines + 1): error: [product-missing-in-config] \(huge): "
                                      + "is in the store but not in the config (catalogs/demo/products.yml)")
        #expect(hugeLine)
        let extraLine = "\(csv.path):\(demoLines + 2): error: [product-missing-in-config] com.trailmate.app.extra: "
            + "is in the store but not in the config (catalogs/demo/products.yml)"
        #expect(lines.contains(extraLine))
        #if os(Linux)
        // The largest child this test process has waited for (kilobytes on Linux): the CLI read 10 MB.
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        #expect(usage.ru_maxrss < 1024 * 1024, "peak \(usage.ru_maxrss) KB")
        #endif
    }
}
