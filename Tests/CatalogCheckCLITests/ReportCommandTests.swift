import Foundation
import TestSupport
import Testing

/// `catalogcheck report`: the release document, parsed as a browser would read it.
@Suite("report end to end")
struct ReportCommandTests {
    static let inputs = ["--config", "catalogs/demo-drift/products.yml",
                         "--store", "catalogs/demo-drift/appstore.storekit", "--store", "catalogs/demo-drift/play",
                         "--as-of", "2026-11-22"]

    private func report(_ extra: [String] = [], in folder: URL, name: String = "report.html",
                        inputs: [String] = ReportCommandTests.inputs) throws -> (CommandResult, String) {
        let path = folder.appendingPathComponent(name).path
        let result = try CommandRunner.run(["report"] + inputs + ["--output", path] + extra)
        return (result, (try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
    }

    @Test("HTML: no script, no network reference, every product and every mismatched price; exit 1 like check")
    func html() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, html) = try report(in: folder)
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty && result.stderr.isEmpty)
        let page = try ParsedHTML(html)
        #expect(page.all("script").isEmpty)
        for element in page.elements {
            for name in ["src", "href", "action", "srcset"] { #expect(element.attributes[name] == nil) }
        }
        #expect(!html.contains("url("))
        #expect(!html.contains("@import"))
        let text = page.bodyText
        for product in ["com.trailmate.app.basic.weekly", "com.trailmate.app.coins.100", "com.trailmate.app.coins.500",
                        "com.trailmate.app.coins.5OO", "com.trailmate.app.gems.1000", "com.trailmate.app.offline_maps",
                        "com.trailmate.app.plus.monthly", "com.trailmate.app.pro.yearly",
                        "com.trailmate.app.season_pass"] {
            #expect(text.contains(product), "\(product)")
        }
        // Mismatched cells carry the class and the text mark; one for each price finding in each store.
        let marked = page.all("td").filter { ($0.attributes["class"] ?? "").contains("mismatch") }
        #expect(marked.map(\.text).sorted() == ["≠ 1000 JPY", "≠ 59.99 EUR", "≠ 7.99 USD", "≠ 7.99 USD", "≠ —"])
        #expect(text.contains("Prices and ignore dates as of 2026-11-22."))
    }

    @Test("two runs give the same bytes")
    func deterministic() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, first) = try report(in: folder, name: "a.html")
        let (_, second) = try report(in: folder, name: "b.html")
        #expect(!first.isEmpty && first == second)
    }

    @Test("a hostile reference name arrives as text")
    func hostileName() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try String(contentsOf: Fixtures.catalog("demo-drift/appstore.storekit"), encoding: .utf8)
        let hostile = #"<script>alert(1)</script> \" & | \u001b[31m"#
        let storekit = folder.appendingPathComponent("hostile.storekit")
        try Data(source.replacingOccurrences(of: "\"Season Pass\"", with: "\"\(hostile)\"").utf8).write(to: storekit)
        let inputs = ["--config", "catalogs/demo-drift/products.yml", "--store", storekit.path, "--as-of", "2026-11-22"]
        let (result, html) = try report(in: folder, inputs: inputs)
        #expect(result.exitCode == 1, "\(result.stderr)")
        let page = try ParsedHTML(html)
        #expect(page.all("script").isEmpty)
        #expect(page.bodyText.contains("<script>alert(1)</script> \" & | \\u{1B}[31m"))
        #expect(!html.contains("\u{1B}"))
    }

    @Test("Markdown: the product table and the price tables, mismatches marked")
    func markdown() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, markdown) = try report(["--format", "markdown"], in: folder, name: "report.md")
        #expect(result.exitCode == 1)
        #expect(markdown.contains("#### Products"))
        #expect(markdown.contains("| `com.trailmate.app.season_pass` | non-renewing | — | — | ✓ ok | not sold here |"))
        #expect(markdown.contains("| DE | 64.99 EUR | — | ≠ 59.99 EUR |"))
    }

    @Test("the consistent demo: exit 0 and a passed verdict")
    func consistent() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = ["--config", "catalogs/demo/products.yml", "--store", "catalogs/demo/asc", "--as-of", "2026-11-22"]
        let (result, html) = try report(in: folder, inputs: inputs)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try ParsedHTML(html).bodyText.contains("✓ Passed"))
    }

    @Test("check --report x.html writes the release document; check's Markdown stays PR-comment sized")
    func checkReports() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let html = folder.appendingPathComponent("r.html").path
        let markdown = folder.appendingPathComponent("r.md").path
        let result = try CommandRunner.run(["check"] + Self.inputs + ["--report", html, "--report", markdown])
        #expect(result.exitCode == 1)
        let page = try ParsedHTML(try String(contentsOfFile: html, encoding: .utf8))
        #expect(page.all("section").compactMap { $0.attributes["id"] } == ["verdict", "summary", "findings",
                                                                             "products", "prices"])
        let text = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(text.contains("| Severity | Rule |"))
        #expect(!text.contains("#### Products"))
    }
}
