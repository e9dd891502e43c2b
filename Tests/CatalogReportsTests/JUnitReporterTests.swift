import CatalogCore
import CatalogReports
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing

/// The JUnit report, read back with an XML parser: what CI systems see, not the bytes (the snapshots pin those).
@Suite("JUnit reporter")
struct JUnitReporterTests {
    private static let storekit = "catalogs/appstore.storekit"

    private static func parse(_ result: CheckResult) throws -> XMLElement {
        let output = JUnitReporter().report(result, context: ReportContext())
        let document = try XMLDocument(data: Data(output.utf8))
        return try #require(document.rootElement())
    }

    private static func attribute(_ element: XMLElement, _ name: String) -> String? {
        element.attribute(forName: name)?.stringValue
    }

    private static func testCase(_ root: XMLElement, classname: String, name: String) throws -> XMLElement {
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        return try #require(cases.first { attribute($0, "classname") == classname && attribute($0, "name") == name })
    }

    @Test("a suite per input, a case per compared product and per finding without a product, in order")
    func structure() throws {
        let root = try Self.parse(CanonicalResult.make(stores: 2))
        #expect(root.name == "testsuites")
        #expect(Self.attribute(root, "name") == "catalogcheck")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { Self.attribute($0, "name") } == [
            "catalogs/products.yml (catalog)", "catalogs/appstore.storekit (storekit)", "catalogs/play (play-json)",
        ])
        let names = suites.map { $0.elements(forName: "testcase").compactMap { Self.attribute($0, "name") } }
        #expect(names == [
            ["com.example.weekly"],
            ["storekit-single-storefront US", "com.example.app.premium.monthly", "com.example.coins.100",
             "com.example.coins.1OO", "com.example.lifetime", "com.example.weekly"],
            ["com.example.app.premium.monthly", "com.example.coins.100", "com.example.lifetime",
             "com.example.weekly"],
        ])
        for suite in suites {
            let classname = try #require(Self.attribute(suite, "name")?.components(separatedBy: " (").first)
            for testCase in suite.elements(forName: "testcase") {
                #expect(Self.attribute(testCase, "classname") == classname)
                #expect(Self.attribute(testCase, "time") == "0")
            }
        }
    }

    @Test("counts in the attributes are exact, no timestamps or host names", arguments: [1, 2])
    func counts(stores: Int) throws {
        let root = try Self.parse(CanonicalResult.make(stores: stores))
        var tests = 0
        var failures = 0
        for suite in root.elements(forName: "testsuite") {
            let cases = suite.elements(forName: "testcase")
            let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }
            #expect(Self.attribute(suite, "tests") == "\(cases.count)")
            #expect(Self.attribute(suite, "failures") == "\(failing.count)")
            #expect(Self.attribute(suite, "errors") == "0")
            #expect(Self.attribute(suite, "time") == "0")
            #expect(Self.attribute(suite, "timestamp") == nil)
            #expect(Self.attribute(suite, "hostname") == nil)
            tests += cases.count
            failures += failing.count
        }
        #expect(Self.attribute(root, "tests") == "\(tests)")
        #expect(Self.attribute(root, "failures") == "\(failures)")
        #expect(Self.attribute(root, "errors") == "0")
        #expect(Self.attribute(root, "time") == "0")
        // By hand: the DE price and the unknown coins in the StoreKit suite, plus the Play product missing there.
        #expect((tests, failures) == (stores == 1 ? (7, 2) : (11, 3)))
    }

    @Test("a failing case: one failure typed by its first failing finding, the others in system-out")
    func failure() throws {
        let root = try Self.parse(CanonicalResult.make())
        let premium = try Self.testCase(root, classname: Self.storekit, name: "com.example.app.premium.monthly")
        let failure = try #require(premium.elements(forName: "failure").first)
        #expect(premium.elements(forName: "failure").count == 1)
        #expect(Self.attribute(failure, "type") == "price-mismatch")
        let line = "catalogs/products.yml:14:5: error: [price-mismatch] com.example.app.premium.monthly: "
            + "DE is 8.99 EUR in the store (catalogs/appstore.storekit:88:9), 9.99 EUR in the config"
        #expect(Self.attribute(failure, "message") == line)
        #expect(failure.stringValue == line)
        #expect(premium.elements(forName: "system-out").isEmpty)

        let weekly = try Self.testCase(root, classname: "catalogs/products.yml", name: "com.example.weekly")
        #expect(weekly.elements(forName: "failure").isEmpty)
        let out = try #require(weekly.elements(forName: "system-out").first)
        #expect(out.stringValue?.hasPrefix("catalogs/products.yml:40:7: warning: [intro-offer-exceeds-period] ")
                == true)
        let clean = try Self.testCase(root, classname: Self.storekit, name: "com.example.coins.100")
        #expect(clean.childCount == 0)
    }

    @Test("--strict: warnings fail their case; several failing findings are one failure with a line each")
    func strict() throws {
        var result = CanonicalResult.make()
        result.strict = true
        result.findings.append(Finding(
            rule: .introOfferMismatch, productID: "com.example.app.premium.monthly", message: "offer differs",
            configLocation: SourceLocation(path: "catalogs/products.yml", line: 20, column: 5),
            store: "catalogs/appstore.storekit", storeInput: StoreInputID(position: 0), storeKind: .appStore))
        result.findings = CheckResult.outputOrder(result.findings, comparisons: result.comparisons)
        let root = try Self.parse(result)
        let weekly = try Self.testCase(root, classname: "catalogs/products.yml", name: "com.example.weekly")
        let weeklyFailure = try #require(weekly.elements(forName: "failure").first)
        #expect(Self.attribute(weeklyFailure, "type") == "intro-offer-exceeds-period")
        let premium = try Self.testCase(root, classname: Self.storekit, name: "com.example.app.premium.monthly")
        let failure = try #require(premium.elements(forName: "failure").first)
        #expect(Self.attribute(failure, "type") == "intro-offer-mismatch")
        let lines = failure.stringValue?.split(separator: "\n") ?? []
        #expect(lines.count == 2)
        #expect(lines.first?.contains("[intro-offer-mismatch]") == true)
        #expect(lines.last?.contains("[price-mismatch]") == true)
        #expect(Self.attribute(root, "failures") == "3")
    }

    @Test("the hostile reference name arrives as text: markup decoded, controls visible, one line per finding")
    func hostileName() throws {
        let visible = #"<script>alert("x")</script> & 'VIP' | 100% , a:b `tick` *bold*\u{A}file.swift:1:1: error: "#
            + #"forged \u{1B}[31mred\u{1B}[0m\u{7}"#
        let root = try Self.parse(CanonicalResult.make())
        let lifetime = try Self.testCase(root, classname: Self.storekit, name: "com.example.lifetime")
        let out = try #require(lifetime.elements(forName: "system-out").first?.stringValue)
        #expect(out == "catalogs/products.yml:30:5: note: [name-mismatch] com.example.lifetime: reference name is '"
                + visible + "' in the store (catalogs/appstore.storekit:30:7), 'Lifetime' in the config")

        // The same name failing lands in the failure's message attribute, decoded the same way.
        var result = CanonicalResult.make()
        for index in result.findings.indices where result.findings[index].rule == .nameMismatch {
            result.findings[index].severity = .error
        }
        let failing = try Self.testCase(try Self.parse(result), classname: Self.storekit,
                                        name: "com.example.lifetime")
        let failure = try #require(failing.elements(forName: "failure").first)
        #expect(Self.attribute(failure, "message")?.contains("reference name is '\(visible)'") == true)
        #expect(failure.stringValue?.contains("reference name is '\(visible)'") == true)

        let output = JUnitReporter().report(result, context: ReportContext())
        #expect(!output.contains("<script>"))
        #expect(!output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        #expect(!output.split(separator: "\n").contains { $0.hasPrefix("file.swift") })
    }

    @Test("characters XML 1.0 forbids never reach the document: it stays well-formed")
    func forbiddenCharacters() throws {
        let hostileID = "com.example.\u{0}nul\u{FFFE}\u{FFFF}\r\u{8}\u{202E}"
        var result = CanonicalResult.make()
        result.comparisons[0].productIDs.append(hostileID)
        result.findings.append(Finding(rule: .productMissingInConfig, productID: hostileID, message: "is \u{0} odd",
                                       store: "catalogs/appstore.storekit", storeInput: StoreInputID(position: 0), storeKind: .appStore))
        let root = try Self.parse(result)
        let names = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
            .compactMap { Self.attribute($0, "name") }
        #expect(names.contains(#"com.example.\u{0}nul\u{FFFE}\u{FFFF}\u{D}\u{8}\u{202E}"#))
    }

    @Test("names are unique per classname: findings sharing a name share a case, a repeated store is one suite")
    func uniqueNames() throws {
        var result = CanonicalResult.make(stores: 2)
        let rules = SourceLocation(path: ".catalogcheck.yml", line: 4, column: 5)
        for territory in ["IN", "BR"] {
            result.findings.append(Finding(rule: .ignoreUnused, productID: "com.example.legacy.*",
                                           territory: Territory(code: territory), message: "matched no finding",
                                           configLocation: rules, store: nil))
        }
        result.comparisons.append(result.comparisons[0])
        result.findings = CheckResult.outputOrder(result.findings, comparisons: result.comparisons)
        let root = try Self.parse(result)
        var seen: Set<[String]> = []
        for testCase in root.elements(forName: "testsuite").flatMap({ $0.elements(forName: "testcase") }) {
            let key = [Self.attribute(testCase, "classname") ?? "", Self.attribute(testCase, "name") ?? ""]
            #expect(seen.insert(key).inserted, "\(key) twice")
        }
        #expect(root.elements(forName: "testsuite").count == 3)
        let unused = try Self.testCase(root, classname: "catalogs/products.yml",
                                       name: "ignore-unused com.example.legacy.*")
        #expect(unused.elements(forName: "system-out").first?.stringValue?.split(separator: "\n").count == 2)
    }

    @Test("suppressed findings never appear")
    func suppressed() throws {
        let output = JUnitReporter().report(CanonicalResult.make(), context: ReportContext())
        #expect(!output.contains("GB is 7.99 GBP"))
        #expect(!output.contains("catalogcheck-baseline.json"))
        let root = try Self.parse(CanonicalResult.make())
        let premium = try Self.testCase(root, classname: Self.storekit, name: "com.example.app.premium.monthly")
        #expect(premium.elements(forName: "failure").first?.stringValue?.contains("GB") == false)
    }

    @Test("UTF-8 with an XML declaration, indented, byte-identical on two runs")
    func deterministic() {
        let first = JUnitReporter().report(CanonicalResult.make(stores: 2), context: ReportContext())
        let second = JUnitReporter().report(CanonicalResult.make(stores: 2), context: ReportContext())
        #expect(first == second)
        #expect(first.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "))
        #expect(first.contains("\n  <testsuite "))
        #expect(first.contains("\n    <testcase "))
        #expect(first.hasSuffix("</testsuites>\n"))
    }

    @Test("report files: .xml means junit")
    func inferredFormats() {
        #expect(ReportFormat(inferringFromPath: "reports/catalogcheck.xml") == .junit)
        #expect(ReportFormat(rawValue: "junit")?.reporter is JUnitReporter)
    }
}
