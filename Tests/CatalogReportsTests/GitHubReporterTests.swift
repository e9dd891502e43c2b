import CatalogCore
import CatalogReports
import TestSupport
import Testing

@Suite("GitHub reporter")
struct GitHubReporterTests {
    private let output = GitHubReporter().report(CanonicalResult.make(stores: 2), context: ReportContext())

    /// The lines, without the empty piece after the final newline.
    private var lines: [Substring] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }

    @Test("one command line per finding that counts, then a plain summary line")
    func oneLinePerFinding() {
        #expect(output.hasSuffix("\n"))
        #expect(lines.count == 6 + 1)  // 6 active findings (the GB price is suppressed), the summary
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("::") })
        let summary = "catalogcheck failed: 3 errors, 1 warning, 2 notes; 1 finding suppressed "
            + "(rules-file ignore entries or the baseline) and not shown; 1 baseline entry matches no finding (stale)"
        #expect(lines.last.map(String.init) == summary)
        #expect(!output.contains("GB is 7.99 GBP"))
    }

    @Test("no raw CR, LF or escape sequence inside a command; the hostile name cannot forge one")
    func hostileName() throws {
        #expect(!output.contains("\r"))
        #expect(!output.contains("\u{1B}"))
        #expect(!output.contains("\u{7}"))
        let named = try #require(lines.first { $0.contains("[name-mismatch]") })
        #expect(named.hasPrefix("::notice file=catalogs/products.yml,line=30,col=5,"
                                + "title=[name-mismatch] com.example.lifetime::"))
        #expect(named.contains(#"100%25 , a:b `tick` *bold*%0Afile.swift:1:1: error: forged \u{1B}[31mred"#))
        #expect(lines.filter { $0.hasPrefix("file.swift") }.isEmpty)
    }

    @Test("errors, then warnings, then notices")
    func order() {
        let kinds = lines.dropLast().compactMap { line in line.split(separator: " ").first }
        #expect(kinds == ["::error", "::error", "::error", "::warning", "::notice", "::notice"])
    }

    @Test("properties escape %, : and , (and CR, LF); the message escapes % and line breaks only")
    func propertyEscaping() throws {
        let path = "cat:alogs,100%/products\n.yml"
        let finding = Finding(rule: .typeMismatch, productID: "com.example:a,b%", message: "a:b, 100%\r\nnext",
                              configLocation: SourceLocation(path: path, line: 3, column: 7), store: "s.storekit",
                              storeInput: StoreInputID(position: 0), storeKind: .appStore)
        let result = CheckResult(configPath: path, configFormat: .catalog, configProducts: 1,
                                 comparisons: [StoreComparison(input: StoreInputID(position: 0), storePath: "s.storekit", storeFormat: .storekit,
                                                               configProducts: 1, storeProducts: 1,
                                                               matchedProducts: 1)],
                                 findings: [finding], strict: false)
        let line = try #require(GitHubReporter().report(result, context: ReportContext()).split(separator: "\n").first)
        #expect(line == "::error file=cat%3Aalogs%2C100%25/products%0A.yml,line=3,col=7,"
                + "title=[type-mismatch] com.example%3Aa%2Cb%25::a:b, 100%25%0D%0Anext")
    }

    @Test("file from the config, else the store location; omitted with line and column when there is none")
    func fileProperty() throws {
        let storeOnly = try #require(lines.first { $0.contains("[product-missing-in-config]") })
        #expect(storeOnly.hasPrefix("::error file=catalogs/appstore.storekit,line=12,col=7,"))
        #expect(storeOnly.hasSuffix("(catalogs/products.yml); did you mean 'com.example.coins.100'?"))
        let fileOnly = try #require(lines.first { $0.contains("[storekit-single-storefront]") })
        #expect(fileOnly.hasPrefix("::notice file=catalogs/appstore.storekit,title=[storekit-single-storefront]::"))
        let nowhere = Finding(rule: .ignoreUnused, productID: "com.example.*", message: "matched no finding",
                              store: nil)
        var result = cleanResult()
        result.findings = [nowhere]
        let line = GitHubReporter().report(result, context: ReportContext()).split(separator: "\n").first
        #expect(line == "::notice title=[ignore-unused] com.example.*::matched no finding")
    }

    @Test("the step summary is the Markdown report, capped under 1 MiB of UTF-8")
    func stepSummary() throws {
        let small = GitHubReporter.stepSummary(CanonicalResult.make(), context: ReportContext())
        #expect(small == MarkdownReporter().report(CanonicalResult.make(), context: ReportContext()))
        // Three-byte characters: a UTF-16 count would let this reach three times the limit.
        let huge = manyFindings(8_000, message: String(repeating: "価格が違います。", count: 20))
        let summary = GitHubReporter.stepSummary(huge, context: ReportContext())
        #expect(summary.utf8.count < 1_048_576)
        #expect(summary.utf8.count > 1_000_000)
        let last = try #require(summary.split(separator: "\n").last)
        #expect(last.hasPrefix("… and ") && last.hasSuffix(" more findings (see the full report)"))
    }

    @Test("the same result gives the same bytes")
    func deterministic() {
        #expect(GitHubReporter().report(CanonicalResult.make(stores: 2), context: ReportContext()) == output)
    }

    /// 12 errors and 10 warnings on products p01…p12, each at its own config line.
    private static func twelveErrorsTenWarnings() -> CheckResult {
        let store = StoreInputID(position: 0)
        func finding(_ index: Int, _ rule: Rule, _ severity: Severity) -> Finding {
            var finding = Finding(rule: rule, productID: String(format: "p%02d", index), message: "m\(index)",
                                  configLocation: SourceLocation(path: "products.yml", line: index, column: 3),
                                  store: "s.storekit", storeInput: store, storeKind: .appStore)
            finding.severity = severity
            return finding
        }
        let findings = (1...12).map { finding($0, .typeMismatch, .error) }
            + (1...10).map { finding($0, .familySharingMismatch, .warning) }
        return CheckResult(configPath: "products.yml", configFormat: .catalog, configProducts: 12,
                           comparisons: [StoreComparison(input: store, storePath: "s.storekit", storeFormat: .storekit,
                                                         configProducts: 12, storeProducts: 12, matchedProducts: 12)],
                           findings: findings)
    }

    @Test("more than ten errors: nine annotated, a tenth says how many more and where; the rest as plain lines")
    func annotationCap() {
        let output = GitHubReporter().report(Self.twelveErrorsTenWarnings(), context: ReportContext())

        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("::error ") }.count == 10)
        #expect(lines.filter { $0.hasPrefix("::warning ") }.count == 10)  // ten fit: no cap line
        #expect(lines[8] == "::error file=products.yml,line=9,col=3,title=[type-mismatch] p09::m9")
        #expect(lines[9] == "::error title=[catalogcheck] 3 more::3 more errors not annotated (GitHub shows 10 "
                + "annotations of a type per step): the full list is in this step's log, after the annotations, "
                + "and in the job summary")
        #expect(lines[10].hasPrefix("::warning file=products.yml,line=1,"))
        #expect(Array(lines[20...]) == [
            "products.yml:10:3: error: [type-mismatch] p10: m10",
            "products.yml:11:3: error: [type-mismatch] p11: m11",
            "products.yml:12:3: error: [type-mismatch] p12: m12",
            "catalogcheck failed: 12 errors, 10 warnings, 0 notes",
        ])
    }
}
