import CatalogCore
import CatalogReports
import TestSupport
import Testing

@Suite("Markdown reporter")
struct MarkdownReporterTests {
    private let output = MarkdownReporter().report(CanonicalResult.make(stores: 2), context: ReportContext())

    @Test("every table row has one cell per column, even with the hostile name")
    func tableShape() {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        // A table is a run of lines starting with `|`; its header fixes the number of columns.
        var expected: Int?
        var rows = 0
        for line in lines {
            guard line.hasPrefix("|") else {
                expected = nil
                continue
            }
            #expect(line.hasSuffix(" |"), "row without a trailing pipe: \(line)")
            let count = MarkdownTable.separators(line)
            if let expected {
                #expect(count == expected, "\(line)")
                rows += 1
            } else {
                expected = count
            }
        }
        #expect(rows == 4 + 7)  // summary: delimiter, config, 2 stores; findings: delimiter, 6 findings
        let named = lines.first { $0.contains("`name-mismatch`") } ?? ""
        #expect(MarkdownTable.separators(named) == 8)
    }

    @Test("the hostile name is inert: no raw HTML, no line break, no escape sequence, no code span broken")
    func hostileName() {
        #expect(!output.contains("<script>"))
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{7}"))
        #expect(output.contains(#"&lt;script&gt;alert\("x"\)&lt;/script&gt; &amp; 'VIP' \| 100% , a:b \`tick\` \*bold\* file.swift:1:1: error: forged \u{1B}\[31mred\u{1B}\[0m\u{7}"#))
        let lines = output.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("file.swift") }.isEmpty)
    }

    @Test("bare URLs stay text: GitHub's autolinker does not see through an escaped `://` or `www.`", arguments: [
        ("see https://evil.example/x", #"see https\://evil.example/x"#),
        ("HTTP://x.y and ftp://a.b", #"HTTP\://x.y and ftp\://a.b"#),
        ("www.evil.example, WWW.evil.example", #"www\.evil.example, WWW\.evil.example"#),
        (#"a\://b"#, #"a\\\://b"#),
        ("a:b, 10:30, com.example.www", "a:b, 10:30, com.example.www"),
    ])
    func bareURLs(text: String, escaped: String) {
        #expect(MarkdownEscaper.escape(text) == escaped)
    }

    @Test("verdict, counts, per-input rows, remarks; suppressed findings counted but never shown")
    func content() {
        #expect(output.hasPrefix("### ❌ catalogcheck failed: 3 errors, 1 warning, 2 notes\n"))
        #expect(output.contains("| `catalogs/products.yml` (config) | catalog | 4 | — | — | passed | 0 | 1 | 0 |"))
        #expect(output.contains("| `catalogs/appstore.storekit` | storekit | 4 | 4 | 3 | **failed** | 2 | 0 | 2 |"))
        #expect(output.contains("| `catalogs/play` | play-json | 4 | 3 | 3 | **failed** | 1 | 0 | 0 |"))
        #expect(output.contains("- `catalogs/play`: 2 auto-filled prices are not compared"))
        #expect(output.contains("1 finding suppressed"))
        #expect(output.contains("1 baseline entry matches no finding (stale)"))
        #expect(!output.contains("GB is 7.99 GBP"))
        #expect(!output.contains("8.99 GBP"))
        // Locations as path:line:col, the store side falling back to the store input.
        #expect(output.contains("9.99 EUR<br>`catalogs/products.yml:14:5`"))
        #expect(output.contains("8.99 EUR<br>`catalogs/appstore.storekit:88:9`"))
    }

    @Test("errors first, then warnings, then notes")
    func order() {
        let severities = output.split(separator: "\n")
            .filter { $0.hasPrefix("| error |") || $0.hasPrefix("| warning |") || $0.hasPrefix("| note |") }
            .map { $0.split(separator: " ")[1] }
        #expect(severities == ["error", "error", "error", "warning", "note", "note"])
    }

    @Test("a clean run passes and says there is nothing to show")
    func clean() {
        let clean = MarkdownReporter().report(cleanResult(), context: ReportContext())
        #expect(clean.hasPrefix("### ✅ catalogcheck passed: 0 errors, 0 warnings, 0 notes\n"))
        #expect(clean.hasSuffix("\nNo findings.\n"))
    }

    @Test("the as-of date is stated when given")
    func asOf() {
        let dated = MarkdownReporter().report(CanonicalResult.make(),
                                              context: ReportContext(asOf: CalendarDate(year: 2026, month: 3, day: 1)))
        #expect(dated.contains("as of 2026-03-01."))
        #expect(!output.contains("as of"))
    }

    @Test("5,000 findings: capped under GitHub's comment limit with a line counting the rest")
    func cap() throws {
        let result = manyFindings(5_000)
        let capped = MarkdownReporter().report(result, context: ReportContext())
        #expect(capped.utf16.count < 65_000)
        let last = try #require(capped.split(separator: "\n").last)
        let shown = capped.split(separator: "\n").filter { $0.contains("`price-mismatch`") }.count
        #expect(shown > 100)
        #expect(last == "… and \(5_000 - shown) more findings (see the full report)")
        // The line stands apart from the table, so GitHub does not read it as a row.
        #expect(capped.hasSuffix(" |\n\n" + last + "\n"))
    }

    @Test("the cap counts UTF-16 code units, so wide characters cannot push it over", arguments: [2_000, 9_999, 20_000])
    func capWideCharacters(limit: Int) {
        let result = manyFindings(500, message: "価格が違います 🇩🇪 — e\u{301}")
        let capped = MarkdownReporter(characterLimit: limit).report(result, context: ReportContext())
        #expect(capped.utf16.count < limit)
        #expect(capped.unicodeScalars.count < limit)
        #expect(capped.hasSuffix("(see the full report)\n"))
    }

    @Test("a limit too small for the summary keeps the verdict and the count")
    func tinyLimit() {
        let capped = MarkdownReporter(characterLimit: 200).report(manyFindings(30), context: ReportContext())
        #expect(capped == "### ❌ catalogcheck failed: 10 errors, 10 warnings, 10 notes\n\n"
                + "… and 30 more findings (see the full report)\n")
    }

    @Test("a report under the limit is whole")
    func underLimit() {
        let whole = MarkdownReporter(characterLimit: output.utf16.count + 1)
            .report(CanonicalResult.make(stores: 2), context: ReportContext())
        #expect(whole == output)
        let cut = MarkdownReporter(characterLimit: output.utf16.count)
            .report(CanonicalResult.make(stores: 2), context: ReportContext())
        #expect(cut.hasSuffix("… and 1 more finding (see the full report)\n"))
    }

    @Test("the same result gives the same bytes")
    func deterministic() {
        #expect(MarkdownReporter().report(CanonicalResult.make(stores: 2), context: ReportContext()) == output)
    }
}
