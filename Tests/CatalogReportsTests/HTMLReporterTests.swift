import CLibXML2
import CatalogCore
@testable import CatalogReports
import TestSupport
import Testing

@Suite("HTML reporter")
struct HTMLReporterTests {
    private let output = HTMLReporter().report(CanonicalResult.make(stores: 2), context: ReportContext())

    @Test("a self-contained page: doctype, lang, charset, viewport, title, inline CSS with a print style")
    func page() throws {
        #expect(output.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">\n"))
        let html = try ParsedHTML(output)
        #expect(html.all("html").first?.attributes["lang"] == "en")
        #expect(html.all("meta").contains { $0.attributes["charset"]?.lowercased() == "utf-8" })
        #expect(html.all("meta").contains {
            $0.attributes["name"] == "viewport" && $0.attributes["content"]?.contains("width=device-width") == true
        })
        #expect(html.all("title").first?.text == "Release report: products.yml — failed")
        let style = try #require(html.all("style").first?.text)
        #expect(style.contains("@media print"))
        #expect(!style.contains("url("))
        #expect(!style.contains("@import"))
        #expect(!style.contains("@font-face"))
    }

    @Test("no script, no event handler, no reference outside the file")
    func inert() throws {
        let html = try ParsedHTML(output)
        #expect(html.all("script").isEmpty)
        #expect(html.all("link").isEmpty)
        #expect(html.all("img").isEmpty)
        #expect(html.all("iframe").isEmpty)
        for element in html.elements {
            for (name, value) in element.attributes {
                #expect(!name.lowercased().hasPrefix("on"), "\(element.name) has \(name)")
                if ["src", "href", "action", "srcset", "poster", "data"].contains(name.lowercased()) {
                    #expect(!value.contains("http") && !value.contains("//"), "\(element.name) \(name)=\(value)")
                }
            }
        }
    }

    @Test("the hostile name arrives as text, its control characters as visible escapes")
    func hostileName() throws {
        let html = try ParsedHTML(output)
        let visible = TerminalEscaper.escape(CanonicalResult.hostileName)
        #expect(visible.contains(#"\u{A}file.swift:1:1: error: forged \u{1B}[31mred\u{1B}[0m\u{7}"#))
        #expect(html.all("div").contains { $0.attributes["class"] == "message" && $0.text.contains(visible) })
        #expect(html.bodyText.contains("reference name is '\(visible)' in the store"))
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{7}"))
    }

    @Test("every finding that counts is in the sources' findings list, errors first; the suppressed one is not")
    func findings() throws {
        let html = try ParsedHTML(output)
        let rows = html.all("li").filter { ["error", "warning", "note"].contains($0.attributes["class"] ?? "") }
        #expect(rows.map { $0.attributes["class"] ?? "" } == ["error", "error", "error", "warning", "note", "note"])
        let result = CanonicalResult.make(stores: 2)
        for finding in result.activeFindings {
            #expect(rows.contains { $0.text.contains(TerminalEscaper.escape(finding.message)) }, "\(finding.rule)")
            if let product = finding.productID {
                #expect(html.all("code").contains { $0.text == product }, "\(product)")
            }
        }
        #expect(!html.bodyText.contains("GB is 7.99 GBP"))
        #expect(!html.bodyText.contains("8.99 GBP"))
        #expect(html.bodyText.contains("1 finding suppressed"))
        #expect(html.bodyText.contains("Hint: did you mean 'com.example.coins.100'?"))
        // Both locations, as path:line:col; severity as a word (it must survive black-and-white printing).
        #expect(html.all("code").contains { $0.text == "catalogs/products.yml:14:5" })
        #expect(html.all("code").contains { $0.text == "catalogs/appstore.storekit:88:9" })
        #expect(rows.allSatisfy { row in ["error", "warning", "note"].contains { row.text.contains($0) } })
    }

    @Test("a verdict with a line per store and its own result; the sources list every input and the remarks")
    func summary() throws {
        let html = try ParsedHTML(output)
        let verdict = try #require(html.elements.first { $0.attributes["id"] == "verdict" })
        #expect(verdict.attributes["class"] == "verdict failed")
        #expect(verdict.text.contains("Failed — 3 errors, 1 warning, 2 notes"))
        let stores = html.all("ul").first { $0.attributes["class"] == "stores" }
        #expect(stores?.text.contains("✗ failed catalogs/play — ") == true)
        let summary = try #require(html.all("table").first { $0.attributes["class"] == "summary" })
        #expect(summary.text.contains("catalogs/play"))
        let remarks = html.all("li").filter { $0.text.hasPrefix("catalogs/play: ") }
        #expect(remarks.map(\.text) == ["catalogs/play: 2 auto-filled prices are not compared: with Auto Fill "
                    + "Prices true, Price is one amount in the merchant's home currency, not a price for a country"])
    }

    @Test("without a release overview: who and when, the verdict, a count, and the sources; no product sections")
    func sectionsWithoutOverview() throws {
        let html = try ParsedHTML(output)
        #expect(html.elements.compactMap { $0.attributes["id"] } == ["about", "verdict", "glance", "sources"])
        #expect(html.all("p").first { $0.attributes["class"] == "glance" }?.text == "6 findings")
    }

    @Test("the as-of date is shown when given")
    func asOf() throws {
        let dated = HTMLReporter().report(CanonicalResult.make(),
                                          context: ReportContext(asOf: CalendarDate(year: 2026, month: 3, day: 1)))
        #expect(try ParsedHTML(dated).bodyText.contains("as of 2026-03-01"))
        #expect(!output.contains("as of"))
    }

    @Test("a clean run passes")
    func clean() throws {
        let html = try ParsedHTML(HTMLReporter().report(cleanResult(), context: ReportContext()))
        #expect(html.elements.first { $0.attributes["id"] == "verdict" }?.attributes["class"] == "verdict passed")
        #expect(html.bodyText.contains("No findings."))
    }

    @Test("the builder escapes text and attribute values, never names")
    func builder() {
        let node = HTMLNode("p", HTMLAttribute("title", "\"><script>x</script>"), .class("a'b&c")) {
            "<b>&amp;\u{1B}[0m"
            HTMLNode("br")
        }
        #expect(HTMLNode("div") { node }.document() == "<!DOCTYPE html>\n<div>\n  <p title=\"&quot;&gt;&lt;script&gt;x&lt;/script&gt;\" "
                + "class=\"a&#39;b&amp;c\">&lt;b&gt;&amp;amp;\\u{1B}[0m<br></p>\n</div>\n")
    }

    @Test("a report path's extension names the format", arguments: [
        ("out/report.html", ReportFormat.html), ("report.HTM", .html), ("summary.md", .markdown),
        ("notes.markdown", .markdown),
    ])
    func inferredFormat(path: String, format: ReportFormat) {
        #expect(ReportFormat(inferringFromPath: path) == format)
    }

    @Test("the same result gives the same bytes")
    func deterministic() {
        #expect(HTMLReporter().report(CanonicalResult.make(stores: 2), context: ReportContext()) == output)
    }
}
