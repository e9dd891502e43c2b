import CLibXML2
import CatalogCore

/// JUnit XML for the test-report views of CI systems (GitLab, Jenkins, Azure Pipelines): a test suite per
/// store input, a test case per compared product (and per finding without a product), failing when it has a
/// failing finding (DESIGN.md §6). Findings on the config alone get a suite of their own, named after the
/// config. Suppressed findings are left out. Written with libxml2's `xmlTextWriter`, never by concatenating
/// markup; no timestamps or host names, so the same result always gives the same bytes.
public struct JUnitReporter: Reporter {
    /// Creates the reporter.
    public init() {}

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        let suites = Self.suites(of: result)
        guard let writer = XMLWriter() else { return Self.unwritable }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        writer.element("testsuites", [("name", ToolInfo.name), ("tests", "\(tests)"), ("failures", "\(failures)"),
                                      ("errors", "0"), ("time", "0")]) {
            for suite in suites {
                writer.element("testsuite", [("name", suite.name), ("tests", "\(suite.cases.count)"),
                                             ("failures", "\(suite.failures)"), ("errors", "0"), ("time", "0")]) {
                    for testCase in suite.cases {
                        write(testCase, classname: suite.classname, to: writer)
                    }
                }
            }
        }
        return writer.finish() ?? Self.unwritable
    }

    private func write(_ testCase: TestCase, classname: String, to writer: XMLWriter) {
        writer.element("testcase", [("classname", classname), ("name", testCase.name), ("time", "0")]) {
            if let first = testCase.failing.first {
                writer.element("failure", [("type", first.rule.rawValue), ("message", Self.line(first))],
                               text: testCase.failing.map(Self.line).joined(separator: "\n"))
            }
            if !testCase.passing.isEmpty {
                writer.element("system-out", [], text: testCase.passing.map(Self.line).joined(separator: "\n"))
            }
        }
    }

    /// A finding as one compiler-style line: `path:line:col: error: [rule] product: message; hint`. Catalog
    /// text may hold line breaks: they are made visible, as in an attribute, so one finding stays one line.
    private static func line(_ finding: Finding) -> String {
        let location = finding.primaryLocation.map { "\($0.description): " } ?? ""
        let subject = finding.productID.map { "\($0): " } ?? ""
        let hint = finding.hint.map { "; \($0)" } ?? ""
        return XMLEscaper.attribute(
            "\(location)\(finding.severity.rawValue): [\(finding.rule.rawValue)] \(subject)\(finding.message)\(hint)")
    }

    /// What is written when libxml2 cannot allocate its writer: a report that no CI reads as a pass.
    private static let unwritable = """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites name="\(ToolInfo.name)" tests="0" failures="0" errors="1" time="0"/>

        """

    // MARK: - Suites and cases

    private struct TestSuite {
        var name: String
        var classname: String
        var cases: [TestCase]

        var failures: Int { cases.reduce(0) { $0 + ($1.failing.isEmpty ? 0 : 1) } }
    }

    private struct TestCase {
        var name: String
        /// The findings that fail the run: the `<failure>`.
        var failing: [Finding]
        /// The others (notes, warnings without `--strict`): `<system-out>`.
        var passing: [Finding]
    }

    /// The config's own suite (only when it has findings), then a suite per store input; an input listed twice
    /// is one suite, so test case names stay unique per classname.
    private static func suites(of result: CheckResult) -> [TestSuite] {
        var suites: [TestSuite] = []
        let configFindings = result.activeFindings(forStore: nil)
        if !configFindings.isEmpty {
            suites.append(TestSuite(name: "\(result.configPath) (\(result.configFormat.rawValue))",
                                    classname: result.configPath,
                                    cases: cases(configFindings, products: [], result: result)))
        }
        var seen: Set<StoreInputID> = []
        for comparison in result.comparisons where seen.insert(comparison.input).inserted {
            let findings = result.activeFindings(forStore: comparison.input)
            suites.append(TestSuite(name: "\(comparison.storePath) (\(comparison.storeFormat.rawValue))",
                                    classname: comparison.storePath,
                                    cases: cases(findings, products: comparison.productIDs, result: result)))
        }
        return suites
    }

    /// Findings without a product first, one case per `<rule> <key>` in finding order, then one case per
    /// product, sorted; findings that share a name share a case, so names are unique.
    private static func cases(_ findings: [Finding], products: [String], result: CheckResult) -> [TestCase] {
        var productless: [String] = []
        var productIDs = Set(products)
        var findingsByName: [String: [Finding]] = [:]
        for finding in findings {
            let name: String
            if finding.concernsProduct, let productID = finding.productID {
                name = productID
                productIDs.insert(productID)
            } else {
                let key = finding.productID ?? finding.territory?.alpha2
                name = key.map { "\(finding.rule.rawValue) \($0)" } ?? finding.rule.rawValue
                if findingsByName[name] == nil { productless.append(name) }
            }
            findingsByName[name, default: []].append(finding)
        }
        let names = productless + productIDs.subtracting(productless).sorted()
        return names.map { name in
            let mine = findingsByName[name] ?? []
            return TestCase(name: name, failing: mine.filter(result.fails), passing: mine.filter { !result.fails($0) })
        }
    }
}

/// libxml2's `xmlTextWriter` over a memory buffer, indented by two spaces. libxml2 escapes markup (`<`, `&`,
/// quotes, and line breaks in attributes); every string passes `XMLEscaper` first for the characters XML 1.0
/// forbids, which libxml2 would pass through.
private final class XMLWriter {
    private let buffer: xmlBufferPtr
    private let writer: xmlTextWriterPtr
    private var failed = false

    /// Starts a UTF-8 document with its XML declaration; nil when libxml2 cannot allocate.
    init?() {
        guard let buffer = xmlBufferCreate() else { return nil }
        guard let writer = xmlNewTextWriterMemory(buffer, 0) else {
            xmlBufferFree(buffer)
            return nil
        }
        self.buffer = buffer
        self.writer = writer
        check(xmlTextWriterSetIndent(writer, 1))
        check(Self.withXMLString("  ") { xmlTextWriterSetIndentString(writer, $0) })
        check(xmlTextWriterStartDocument(writer, "1.0", "UTF-8", nil))
    }

    deinit {
        xmlFreeTextWriter(writer)
        xmlBufferFree(buffer)
    }

    /// `<name attributes…>` with what `content` writes, then its end tag (`<name …/>` when it writes nothing).
    func element(_ name: String, _ attributes: [(String, String)], content: () -> Void = {}) {
        start(name, attributes)
        content()
        check(xmlTextWriterEndElement(writer))
    }

    /// `<name attributes…>text</name>`.
    func element(_ name: String, _ attributes: [(String, String)], text: String) {
        start(name, attributes)
        check(Self.withXMLString(XMLEscaper.text(text)) { xmlTextWriterWriteString(writer, $0) })
        check(xmlTextWriterEndElement(writer))
    }

    /// Ends the document and returns its bytes; nil when any libxml2 call failed.
    func finish() -> String? {
        check(xmlTextWriterEndDocument(writer))
        check(xmlTextWriterFlush(writer))
        guard !failed, let content = xmlBufferContent(buffer) else { return nil }
        let bytes = UnsafeBufferPointer(start: content, count: Int(xmlBufferLength(buffer)))
        return String(decoding: bytes, as: UTF8.self)
    }

    private func start(_ name: String, _ attributes: [(String, String)]) {
        check(Self.withXMLString(name) { xmlTextWriterStartElement(writer, $0) })
        for (attribute, value) in attributes {
            check(Self.withXMLString(attribute) { attributeName in
                Self.withXMLString(XMLEscaper.attribute(value)) { escaped in
                    xmlTextWriterWriteAttribute(writer, attributeName, escaped)
                }
            })
        }
    }

    private func check(_ status: Int32) {
        if status < 0 { failed = true }
    }

    /// `string` as the NUL-terminated `xmlChar` string libxml2 takes. The escapers turn U+0000 into visible
    /// text, so no string is cut short.
    private static func withXMLString<Result>(_ string: String, _ body: (UnsafePointer<xmlChar>) -> Result) -> Result {
        string.withCString { pointer in
            pointer.withMemoryRebound(to: xmlChar.self, capacity: string.utf8.count + 1, body)
        }
    }
}
