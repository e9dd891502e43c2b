import CatalogCore
import CatalogReports
import Foundation
import TestSupport
import Testing

/// `catalogcheck report`: the release document, parsed as a browser would read it.
@Suite("report end to end")
struct ReportCommandTests {
    /// An element's text without the document's indentation: each line break and the spaces after it dropped.
    static func flat(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { $0.offset == 0 ? $0.element : $0.element.drop(while: { $0 == " " }) }
            .joined()
    }

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
        #expect(result.stdout.isEmpty)
        let page = try ParsedHTML(html)
        #expect(page.all("script").isEmpty)
        for element in page.elements {
            for name in ["src", "href", "action", "srcset", "xlink:href", "xmlns"] {
                #expect(element.attributes[name] == nil, "\(element.name) \(name)")
            }
        }
        #expect(!html.contains("url("))
        #expect(!html.contains("@import"))
        #expect(!html.contains("://"))
        let text = page.bodyText
        for product in ["com.trailmate.app.basic.weekly", "com.trailmate.app.coins.100", "com.trailmate.app.gems.1000",
                        "com.trailmate.app.offline_maps", "com.trailmate.app.plus.monthly",
                        "com.trailmate.app.pro.yearly", "com.trailmate.app.season_pass"] {
            #expect(text.contains(product), "\(product)")
        }
        // Mismatched cells carry the class and the text mark; one for each price finding in each store, with the
        // store's difference from the config where both have a price.
        let marked = page.all("td").filter { ($0.attributes["class"] ?? "").contains("mismatch") }
        #expect(marked.map(\.text).sorted() == ["≠ 1000 JPY", "≠ 59.99 EUR-5.00 EUR, -7.7%",
                                                "≠ 7.99 USD+1.00 USD, +14.3%", "≠ 7.99 USD+1.00 USD, +14.3%", "≠ —",
                                                "≠ —"])
        #expect(text.contains("Prices as of 2026-11-22"))
    }

    @Test("report --output FILE says on standard error where the report went, with its verdict and counts")
    func writtenLine() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.html").path

        // Act
        let (result, html) = try report(in: folder)

        // Assert
        #expect(result.exitCode == 1)
        #expect(!html.isEmpty)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "\(path): release report written; failed: 26 errors, 15 warnings, 3 notes; "
                + "8 of 9 products need attention\n")
    }

    @Test("a price a store did not compare is n/c, a price a store lacks is —, and the legend tells them apart")
    func notComparedCells() throws {
        // Arrange: the .storekit file prices its storefront (US) only; Play lacks Pro Yearly's FR price.
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Act
        let (_, html) = try report(in: folder)

        // Assert
        let page = try ParsedHTML(html)
        let yearly = try #require(page.elements.first { $0.name == "div" && $0.attributes["class"] == "matrix differs"
            && $0.text.contains("com.trailmate.app.pro.yearly") })
        #expect(Self.flat(yearly.text).contains("DE64.99 EURn/c≠ 59.99 EUR-5.00 EUR, -7.7%"))
        #expect(Self.flat(yearly.text).contains("FR59.99 EURn/c≠ —"))
        // The config's US price with its next scheduled change.
        #expect(Self.flat(yearly.text).contains("US59.99 USD60.99 USD from 2027-02-0159.99 USD59.99 USD"))
        let legend = try #require(page.all("p").first { $0.attributes["class"] == "legend" })
        #expect(Self.flat(legend.text).contains(
            "— means no price there; n/c means not compared: the store input does not have "
                + "the product, or cannot price that territory (a .storekit file prices one storefront)."))
    }

    @Test("beside the prices of a product in no store, the report says they were not compared")
    func productInNoStoreNotCompared() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Act
        let (_, html) = try report(in: folder)

        // Assert: 1000 Gems is missing in both stores; Basic Weekly is in both, the App Store pricing US only.
        let page = try ParsedHTML(html)
        let matrices = page.elements.filter { $0.name == "div" && $0.attributes["class"] == "matrix" }
        let gems = try #require(matrices.first { $0.text.contains("com.trailmate.app.gems.1000") })
        #expect(Self.flat(gems.text).hasSuffix("Not compared: the product is in no store."))
        let weekly = try #require(matrices.first { $0.text.contains("com.trailmate.app.basic.weekly") })
        #expect(Self.flat(weekly.text).hasSuffix("No store price differs from the config's in the territories compared."))
        #expect(!html.contains("No store price differs from the config's.<"))
    }

    @Test("the chart: a band per territory, its code at the middle of its lines, a mark on every store's line")
    func chartRowsAligned() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Act
        let (_, html) = try report(in: folder)

        // Assert: each chart's elements, in document order.
        var charts: [[ParsedHTML.Element]] = []
        var inChart = false
        for element in try ParsedHTML(html).elements {
            if element.name == "svg" {
                charts.append([])
                inChart = true
            } else if inChart, ["title", "rect", "text", "line"].contains(element.name) {
                charts[charts.count - 1].append(element)
            } else {
                inChart = false
            }
        }
        #expect(charts.count == 2)
        for chart in charts {
            func y(_ element: ParsedHTML.Element) -> Double { Double(element.attributes["y"] ?? element.attributes["y1"] ?? "") ?? -1 }
            let texts = chart.filter { $0.name == "text" }
            let axis = try #require(texts.first { $0.text == "config" }).attributes["y"].flatMap(Double.init) ?? 0
            let territories = texts.filter { $0.attributes["class"] == "territory" }
            let marks = texts.filter { ["label", "tick"].contains($0.attributes["class"] ?? "") && y($0) > axis }
            let rules = chart.filter { $0.name == "line" && $0.attributes["class"] == "band" }.map(y)
            #expect(rules.count == territories.count - 1)
            let bounds = [axis] + rules + [.infinity]
            for (index, territory) in territories.enumerated() {
                let band = marks.filter { y($0) > bounds[index] && y($0) < bounds[index + 1] }.map(y)
                #expect(band.count == 2, "\(territory.text): one mark per store")
                let middle = ((band.min() ?? 0) + (band.max() ?? 0)) / 2
                #expect(abs(y(territory) - middle) <= 1, "\(territory.text) at \(y(territory)), its lines at \(band)")
                #expect(y(territory) > bounds[index] && y(territory) < bounds[index + 1])
            }
        }
    }

    @Test("HTML in §2a's order: the app, verdict per store, picture per product, changes, products, prices, sources")
    func releaseDocument() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, html) = try report(["--since", "catalogs/demo/products.yml"], in: folder)
        #expect(result.exitCode == 1, "\(result.stderr)")
        let page = try ParsedHTML(html)
        func section(_ id: String) throws -> ParsedHTML.Element {
            try #require(page.elements.first { $0.attributes["id"] == id })
        }
        #expect(page.elements.filter { ["header", "section"].contains($0.name) }.compactMap { $0.attributes["id"] }
                == ["about", "verdict", "glance", "changes", "products", "prices", "sources"])

        // Who and when.
        #expect(page.all("h1").map(\.text) == ["Release reportcom.trailmate.app"])
        #expect(page.all("p").first { $0.attributes["class"] == "meta" }?.text == ("Prices as of 2026-11-22 · config catalogs/demo-drift/products.yml "
                                                    + "· App Store, Google Play · catalogcheck \(ToolInfo.version)"))
        // The verdict per store.
        #expect(page.all("ul").first { $0.attributes["class"] == "stores" }.map { list in
            page.elements.drop { $0.text != list.text }.filter { $0.name == "li" }.prefix(3).map(\.text)
        } == ["✗ failed Config and rules file — 1 error, 3 warnings, 0 notes",
              "✗ failed App Store — 18 errors, 9 warnings, 2 notes · 6 of 8 config products matched",
              "✗ failed Google Play — 12 errors, 3 warnings, 1 note · 5 of 7 config products matched"])
        // The picture at a glance, counted per product.
        #expect(page.all("p").first { $0.attributes["class"] == "glance" }?.text
                == "8 of 9 products need attention; 6 prices differ; 2 products are in no store; "
                    + "1 product is in a store but not in the config")
        // What the release changes, from the same differ as `diff`.
        let changes = try section("changes").text
        #expect(changes.contains("Since catalogs/demo/products.yml: 2 added, 1 removed, 5 changed, 1 group change, "
                                 + "3 cautions."))
        #expect(changes.contains("price DE: 59.99 EUR → 64.99 EUR (+8.3%; App Store: undecided (if not preserved: "
                                 + "consent not-required); Play: new purchases only until decided (undecided))"))
        // The cautions the counts name are shown under their products.
        #expect(changes.contains("⚠ caution: removed while on sale: customers bought it"))
        #expect(changes.contains("⚠ caution: period of a live subscription changed: it reaches existing subscribers"))
        #expect(changes.contains("⚠ caution: type changed while on sale: what customers bought under this ID changes "
                                 + "meaning"))
        #expect(changes.contains("− removed — consumable, 4.99 USDpossibly renamed to com.trailmate.app.coins.5OO"))
        // Products by name and ID, with a status per store.
        let products = page.all("th").filter { $0.attributes["class"] == "product" }.map(\.text)
        #expect(products == [
            "Basic Weeklycom.trailmate.app.basic.weeklyauto-renewable · Trailmate Plus / 3 · P1M",
            "Coins x100com.trailmate.app.coins.100consumable",
            "500 Coinscom.trailmate.app.coins.500consumable · only in a store",
            "500 Coinscom.trailmate.app.coins.5OOconsumable",
            "1000 Gemscom.trailmate.app.gems.1000consumable",
            "Offline Mapscom.trailmate.app.offline_mapsconsumable",
            "Plus Monthlycom.trailmate.app.plus.monthlyauto-renewable · Trailmate Plus / 3 · P1M · intro offer "
                + "free-trial P2M",
            "Pro Yearlycom.trailmate.app.pro.yearlyauto-renewable · Trailmate Plus / 1 · P1Y · intro offer "
                + "free-trial P2W",
            "Season Passcom.trailmate.app.season_passnon-renewing",
        ])
        #expect(page.all("td").filter { $0.attributes["class"] == "status-cell" }.map(\.text) == [
            "✗ 2 findings", "✗ 1 finding", "✗ 2 findings", "✓ ok", "✗ not in config", "✗ not in config",
            "✗ missing in store", "✗ missing in store", "✗ missing in store", "✗ missing in store",
            // Pro Yearly: with --since, the undecided price changes (App Store: DE, US from 2027-02-01 and the GB
            // monthly plan; Play: DE and US) are findings of its own.
            "✗ 2 findings", "✗ 1 finding", "✗ 8 findings", "✗ 3 findings", "✗ 9 findings", "✗ 7 findings",
            "✓ ok", "not sold here",
        ])
        #expect(try section("products").text.contains(
            "error Google Play price-mismatch DE: config 64.99 EUR → store 59.99 EUR (-5.00 EUR, -7.7%)"))
        // A chart per product whose prices differ, drawn in SVG with its numbers written out.
        let charts = page.all("svg")
        #expect(charts.count == 2)
        #expect(charts.allSatisfy { $0.attributes["role"] == "img" && $0.attributes["class"] == "chart" })
        #expect(page.all("text").filter { $0.attributes["class"] == "label" }.map(\.text)
                == ["≠ not in config", "≠ +14.3%", "≠ +14.3%", "≠ no price", "≠ -7.7%", "≠ no price"])
        // The products whose prices differ come first.
        #expect(page.all("div").filter { $0.attributes["class"]?.hasPrefix("matrix") == true
            && $0.attributes["class"] != "matrix-body" }.prefix(3).map { $0.attributes["class"] ?? "" }
                == ["matrix differs", "matrix differs", "matrix"])
        // Sources last: every finding with its locations.
        #expect(try section("sources").text.contains("config catalogs/demo-drift/products.yml:57:11 · "
                                                      + "store catalogs/demo-drift/play/subscriptions.json:29:13"))
    }

    @Test("the demo's look-alike IDs are marked where they differ, in every place the report names them")
    func lookAlikesMarked() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (_, html) = try report(in: folder)
        let page = try ParsedHTML(html)
        let marks = page.all("mark").filter { $0.attributes["class"] == "lookalike" }
        // Both IDs in the product table, coins.5OO's price matrix heading: two characters each.
        #expect(marks.map(\.text) == ["0", "0", "O", "O", "O", "O"])
        #expect(marks.first?.attributes["title"] == "digit '0' where the other has letter 'O', twice, from character 26")
        #expect(page.bodyText.contains("⚠ Looks like com.trailmate.app.coins.5OO: digit '0' where the other has "
                                       + "letter 'O', twice, from character 26."))
    }

    @Test("standard output: without --output and with --output -, the same document")
    func standardOutput() throws {
        let plain = try CommandRunner.run(["report"] + Self.inputs + ["--format", "markdown"])
        let dash = try CommandRunner.run(["report"] + Self.inputs + ["--format", "markdown", "--output", "-"])
        #expect(plain.exitCode == 1 && dash.exitCode == 1, "\(plain.stderr)\(dash.stderr)")
        #expect(plain.stdout.hasPrefix("# Release report: `com.trailmate.app`\n\nPrices as of 2026-11-22 · "))
        #expect(plain.stdout == dash.stdout)
        #expect(!FileManager.default.fileExists(atPath: "-"))
        let html = try CommandRunner.run(["report"] + Self.inputs)
        #expect(html.stdout.hasPrefix("<!DOCTYPE html>\n"))
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

    @Test("Markdown: the document in the HTML's order; products, changes, price tables with differences")
    func markdown() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (result, markdown) = try report(["--format", "markdown", "--since", "catalogs/demo/products.yml"], in: folder,
                                            name: "report.md")
        #expect(result.exitCode == 1)
        #expect(markdown.contains("## At a glance\n\n**8 of 9 products need attention**; 6 prices differ; "
                                  + "2 products are in no store; 1 product is in a store but not in the config.\n"))
        #expect(markdown.contains("| `com.trailmate.app.season_pass` | Season Pass | non-renewing | ✓ ok | not sold here |"))
        #expect(markdown.contains("| `com.trailmate.app.coins.5`**`OO`** | 500 Coins | consumable | ✗ missing in store |"))
        #expect(markdown.contains("| DE | 64.99 EUR | n/c | ≠ 59.99 EUR (-5.00 EUR, -7.7%) |"))
        #expect(markdown.contains("## What this release changes\n\nSince `catalogs/demo/products.yml`: 2 added, "
                                  + "1 removed, 5 changed, 1 group change, 3 cautions.\n"))
        let yearlyChanges = [
            "billingPlan:monthly GB: 4.99 GBP → 6.99 GBP \\(\\+40.1%; App Store: undecided \\(if not preserved: consent "
                + "not-required\\)\\)",
            "introOffer: free-trial P1W → free-trial P2W",
            "offer:play:first-year-half: pay-as-you-go P1Y -50% → pay-as-you-go P1Y -40%",
            "offer:promotional:spring\\_promo US: pay-up-front P3M 29.99 USD → pay-up-front P3M 24.97 USD "
                + "\\(-16.7%, price cut on a live offer\\)",
            "price BG: none → 99.99 BGN",
            "price DE: 59.99 EUR → 64.99 EUR \\(\\+8.3%; App Store: undecided \\(if not preserved: consent not-required\\); "
                + "Play: new purchases only until decided \\(undecided\\)\\)",
            "price FR: none → 59.99 EUR",
            "price US from 2027-02-01: 59.99 USD → 60.99 USD \\(\\+1.7%; App Store: undecided \\(if not preserved: "
                + "consent not-required\\); Play: new purchases only until decided \\(undecided\\)\\)",
        ].joined(separator: "<br>")
        #expect(markdown.contains("| `com.trailmate.app.pro.yearly` — Pro Yearly | \(yearlyChanges) |"))
        #expect(markdown.contains("<br>⚠ **caution:** period of a live subscription changed: it reaches existing "
                                  + "subscribers |"))
        let order = ["# Release report", "## ❌ Failed", "## At a glance", "## What this release changes", "## Products",
                     "## Prices", "## Sources"].map { markdown.range(of: $0)?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted())
        #expect(markdown.contains("- **error** Google Play `price-mismatch` DE: config 64.99 EUR → store 59.99 EUR\n"))
    }

    @Test("the consistent demo: exit 0 and a passed verdict")
    func consistent() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = ["--config", "catalogs/demo/products.yml", "--store", "catalogs/demo/asc", "--as-of", "2026-11-22"]
        let (result, html) = try report(in: folder, inputs: inputs)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let page = try ParsedHTML(html)
        #expect(page.bodyText.contains("✓ Passed"))
        #expect(page.all("p").first { $0.attributes["class"] == "glance" }?.text == "All 7 products agree with every store")
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
        #expect(page.all("section").compactMap { $0.attributes["id"] } == ["verdict", "glance", "products", "prices",
                                                                             "sources"])
        let text = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(text.contains("| Severity | Rule |"))
        #expect(!text.contains("## Products"))
    }
}
