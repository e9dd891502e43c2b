import Foundation
import TestSupport
import Testing

/// `check`, `report` and `diff` pair products through one matching (DESIGN.md §2a): on the same inputs the
/// report's statuses and `≠` cells agree with `check`'s findings cell by cell, and `diff` between the config
/// and a store changes exactly the products and fields `check` finds disagreeing.
@Suite("check, report and diff agree")
struct MatchingAgreementTests {
    /// A config and the store inputs checked against it.
    struct Scenario: CustomTestStringConvertible, Sendable {
        var name: String
        var config: String
        var stores: [String]
        var testDescription: String { name }
    }

    static let asOf = "2026-01-01"

    static let scenarios: [Scenario] = {
        let formats = ["appstore.storekit", "asc", "metadata.xml", "play", "play-products.csv"]
        return ["demo", "demo-drift"].map { set in
            Scenario(name: set, config: "catalogs/\(set)/products.yml",
                     stores: formats.map { "catalogs/\(set)/\($0)" })
        } + [
            Scenario(name: "two config products, one Play ID",
                     config: "Tests/Fixtures/matching/play-id-twice/products.yml",
                     stores: ["Tests/Fixtures/matching/play-id-twice/play-products.csv"]),
            Scenario(name: "hostile: duplicates on both sides, storeIds, stores:, Play groups",
                     config: "Tests/Fixtures/matching/hostile/products.yml",
                     stores: ["Tests/Fixtures/matching/hostile/appstore.storekit",
                              "Tests/Fixtures/matching/hostile/play-products.csv",
                              "Tests/Fixtures/matching/hostile/play"]),
        ]
    }()

    @Test("every status, every ≠ and every diff change agrees with check's findings", arguments: scenarios)
    func agree(_ scenario: Scenario) throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = try ConfigProducts(path: scenario.config)

        // Act
        let report = try Self.report(scenario, in: folder, configKeys: Set(config.products.keys))
        let checks = try scenario.stores.map { try Check(config: scenario.config, store: $0) }
        let diffs = try scenario.stores.map { try Diff(old: scenario.config, new: $0) }
        let together = try Self.storeSummaries(scenario)

        // Assert
        // One run over every store counts each store's findings as a run over that store alone does.
        #expect(together == checks.map(\.counts), "\(scenario.name)")
        for (column, check) in checks.enumerated() {
            let store = scenario.stores[column]
            try Self.assertStatuses(report, column: column, check: check, config: config, store: store)
            try Self.assertPrices(report, column: column, check: check, store: store)
            Self.assertDiff(diffs[column], check: check, config: config, store: store)
        }
    }

    @Test("report: a config product whose Play ID another one holds is a duplicate, with no store price beside it")
    func reportDuplicate() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = Self.scenarios[2]

        // Act
        let report = try Self.report(scenario, in: folder, configKeys: ["com.example.coins.a", "com.example.coins.b"])

        // Assert
        #expect(report.rows.map { "\($0.productID): \($0.statuses.joined(separator: ", "))" } == [
            "com.example.coins.a: ✓ ok",
            "com.example.coins.b: ✗ duplicate ID",
        ])
        #expect(report.prices["com.example.coins.a"]?.map { "\($0.territory) \($0.config) \($0.stores)" }
            == [#"US 4.99 USD ["4.99 USD"]"#])
        // Its ID in Play is another product's: Play did not compare its prices (n/c, not "no price").
        #expect(report.prices["com.example.coins.b"]?.map { "\($0.territory) \($0.config) \($0.stores)" }
            == [#"US 7.99 USD ["n/c"]"#])
    }

    @Test("diff of the demo config and its Play catalog: no group change, since check compares no group there")
    func diffPlayGroups() throws {
        // Act
        let result = try CommandRunner.run(["diff", "catalogs/demo/products.yml", "catalogs/demo/play"])

        // Assert
        #expect(result.exitCode == 0)
        #expect(result.stdout == "no differences (old: catalogs/demo/products.yml, new: catalogs/demo/play)\n")
        #expect(result.stderr.isEmpty)
    }

    @Test("diff keeps the first config product by key order of two with one Play ID, as check does")
    func diffDuplicateByKeyOrder() throws {
        // Act: gems.b comes first in the file, gems.a first by key; the store's gems is 4.99 USD like gems.a.
        let result = try CommandRunner.run(["diff", "Tests/Fixtures/matching/hostile/products.yml",
                                            "Tests/Fixtures/matching/hostile/play-products.csv"])

        // Assert
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            ~ android.only
                price US: 3.99 USD -> 4.49 USD (+12.5%)
            + coins  one-time, 0.99 USD
            - gone  consumable, 1.99 USD
            - plus:monthly  auto-renewable P1M, 9.99 USD
            1 added, 2 removed, 1 changed (old: Tests/Fixtures/matching/hostile/products.yml, \
            new: Tests/Fixtures/matching/hostile/play-products.csv)

            """)
    }

    // MARK: - Statuses

    private static func assertStatuses(_ report: ReleaseReport, column: Int, check: Check, config: ConfigProducts,
                                       store: String) throws {
        let kind = check.storeKind
        for row in report.rows {
            let status = row.statuses[column]
            let context = "\(store): \(row.productID) is '\(status)'"
            if row.inConfig {
                let key = row.productID
                let product = try #require(config.products[key])
                let findings = check.productFindings(key).filter { $0.rule != "product-missing-in-config" }
                let expected: String
                if findings.contains(where: { $0.rule == "product-missing-in-store" }) {
                    expected = "✗ missing in store"
                } else if findings.contains(where: { $0.rule == "duplicate-product-id" && $0.inConfig }) {
                    expected = "✗ duplicate ID"
                } else if let stores = product.stores, !stores.contains(kind) {
                    expected = "not sold here"
                } else if findings.isEmpty {
                    expected = "✓ ok"
                } else {
                    expected = "✗ \(findings.count) finding" + (findings.count == 1 ? "" : "s")
                }
                #expect(status == expected, "\(context), check says \(expected)")
            } else {
                let missing = check.findings.contains {
                    $0.rule == "product-missing-in-config" && $0.productID == row.productID
                }
                #expect(status == (missing ? "✗ not in config" : "not sold here"), "\(context)")
            }
        }
        // Every product finding of check has its row in the report.
        for finding in check.findings where finding.productID != nil && !finding.isProductless {
            let storeSide = finding.rule == "product-missing-in-config"
            #expect(report.rows.contains { $0.productID == finding.productID && $0.inConfig != storeSide },
                    "\(store): no report row for \(finding.rule) \(finding.productID ?? "")")
        }
    }

    // MARK: - Prices

    private static let priceRules: Set<String> = ["price-mismatch", "price-missing-in-store", "price-missing-in-config"]

    private static func assertPrices(_ report: ReleaseReport, column: Int, check: Check, store: String) throws {
        let priceFindings = check.findings.filter { priceRules.contains($0.rule) }
        for (productID, rows) in report.prices {
            for row in rows {
                let cell = row.stores[column]
                let finding = priceFindings.first { $0.productID == productID && $0.territory == row.territory }
                let context = "\(store): \(productID) \(row.territory) is '\(cell)' (config '\(row.config)')"
                #expect(cell.hasPrefix("≠ ") == (finding != nil), "\(context)")
                let storeValue = cell.hasPrefix("≠ ") ? String(cell.dropFirst(2)) : cell
                if let finding {
                    #expect(storeValue == (finding.actual ?? "—"), "\(context)")
                    #expect(row.config == (finding.expected ?? "—"), "\(context)")
                } else if storeValue != "—", storeValue != "n/c", row.config != "—" {
                    // An unmarked cell beside a config price shows the same price: it was compared (n/c: the
                    // store did not compare the territory).
                    #expect(storeValue == row.config, "\(context)")
                }
            }
        }
        for finding in priceFindings {
            let row = report.prices[finding.productID ?? ""]?.first { $0.territory == finding.territory }
            #expect(row != nil, "\(store): no price cell for \(finding.rule) \(finding.productID ?? "") \(finding.territory ?? "")")
        }
    }

    // MARK: - Diff

    /// The diff field each rule compares.
    private static let diffField: [String: String] = [
        "type-mismatch": "type", "name-mismatch": "name", "group-mismatch": "group",
        "group-level-mismatch": "level", "period-mismatch": "period", "intro-offer-mismatch": "introOffer",
        "family-sharing-mismatch": "familyShareable", "availability-mismatch": "availability",
        "price-mismatch": "price", "price-missing-in-store": "price", "price-missing-in-config": "price",
    ]

    /// Offers, billing plans and purchase options: the diff names the finding's field without its aspect
    /// (`offer:promotional:spring_promo:state` is a change of `offer:promotional:spring_promo`).
    private static func offerDiffField(_ finding: CheckFinding) -> String? {
        let compared = ["offer-missing-in-store", "offer-missing-in-config", "offer-mismatch",
                        "billing-plan-missing-in-store", "billing-plan-price-mismatch", "purchase-option-mismatch"]
        guard compared.contains(finding.rule) else { return nil }
        let parts = finding.field.split(separator: ":", omittingEmptySubsequences: false)
        return parts.first == "offer" ? parts.prefix(3).joined(separator: ":") : parts.prefix(2).joined(separator: ":")
    }

    private static func assertDiff(_ diff: Diff, check: Check, config: ConfigProducts, store: String) {
        let storeID = { (key: String) in config.products[key]?.storeIDs[check.storeKind] ?? key }
        let added = Set(check.findings.filter { $0.rule == "product-missing-in-config" }.compactMap(\.productID))
        let removed = Set(check.findings.filter { $0.rule == "product-missing-in-store" }
            .compactMap(\.productID).map(storeID))
        var changed: [String: Set<String>] = [:]
        for finding in check.findings {
            guard let field = diffField[finding.rule] ?? offerDiffField(finding), let key = finding.productID else {
                continue
            }
            changed[storeID(key), default: []].insert(field + " " + (finding.territory ?? ""))
        }
        #expect(diff.added == added, "\(store): diff adds \(diff.added.sorted()), check \(added.sorted())")
        #expect(diff.removed == removed, "\(store): diff removes \(diff.removed.sorted()), check \(removed.sorted())")
        #expect(diff.changed == changed, "\(store): diff changes \(diff.changed), check \(changed)")
        for finding in check.findings where finding.rule == "price-mismatch" {
            let change = diff.prices[storeID(finding.productID ?? "") + " " + (finding.territory ?? "")]
            #expect(change?.old == finding.expected && change?.new == finding.actual,
                    "\(store): \(finding.productID ?? "") \(finding.territory ?? "")")
        }
    }

    // MARK: - Running the commands

    private static func report(_ scenario: Scenario, in folder: URL, configKeys: Set<String>) throws -> ReleaseReport {
        let path = folder.appendingPathComponent("report.md").path
        let stores = scenario.stores.flatMap { ["--store", $0] }
        let result = try CommandRunner.run(["report", "--config", scenario.config] + stores
            + ["--as-of", asOf, "--format", "markdown", "--output", path])
        #expect(result.exitCode == 0 || result.exitCode == 1, "\(result.stderr)")
        return try ReleaseReport(markdown: try String(contentsOfFile: path, encoding: .utf8),
                                 storeCount: scenario.stores.count, configKeys: configKeys)
    }

    /// `check --format json` over every store of the scenario at once: errors, warnings and notes per store.
    private static func storeSummaries(_ scenario: Scenario) throws -> [[Int]] {
        let stores = scenario.stores.flatMap { ["--store", $0] }
        let result = try CommandRunner.run(["check", "--config", scenario.config] + stores
            + ["--as-of", asOf, "--format", "json"])
        #expect(result.exitCode == 0 || result.exitCode == 1, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        return try #require(summary["stores"] as? [[String: Any]]).map { store in
            ["errors", "warnings", "notes"].map { store[$0] as? Int ?? -1 }
        }
    }

    /// One finding of `check --format json`.
    struct CheckFinding {
        var rule: String
        var productID: String?
        var territory: String?
        var expected: String?
        var actual: String?
        /// Located in the config (a config-side duplicate, for instance).
        var inConfig: Bool
        /// The JSON `field` (`offer:promotional:spring_promo`, `billingPlan:monthly`, …).
        var field: String = ""
        var isProductless: Bool {
            ["group-missing-in-store", "storekit-single-storefront", "offer-id-reused"].contains(rule)
        }
    }

    /// `check --format json` on the config and one store: its findings about that store.
    struct Check {
        var storeKind: String
        var findings: [CheckFinding]
        /// The store's errors, warnings and notes in the summary.
        var counts: [Int]

        init(config: String, store: String) throws {
            let result = try CommandRunner.run(["check", "--config", config, "--store", store, "--as-of",
                                                MatchingAgreementTests.asOf, "--format", "json"])
            #expect(result.exitCode == 0 || result.exitCode == 1, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let inputs = try #require(object["inputs"] as? [[String: Any]])
            let format = try #require(inputs.last?["format"] as? String)
            storeKind = format.hasPrefix("play") ? "play" : "appstore"
            let summary = try #require(object["summary"] as? [String: Any])
            let store = try #require((summary["stores"] as? [[String: Any]])?.first)
            counts = ["errors", "warnings", "notes"].map { store[$0] as? Int ?? -1 }
            let all = try #require(object["findings"] as? [[String: Any]])
            // Findings on the config alone carry no store side; the report shows them per product, not per store.
            findings = all.filter { !($0["store"] is NSNull) && $0["suppression"] is NSNull }.map { finding in
                CheckFinding(rule: finding["rule"] as? String ?? "", productID: finding["productId"] as? String,
                             territory: finding["territory"] as? String, expected: finding["expected"] as? String,
                             actual: finding["actual"] as? String, inConfig: !(finding["config"] is NSNull),
                             field: finding["field"] as? String ?? "")
            }
        }

        /// The findings about a config product (not its group, not a whole file).
        func productFindings(_ key: String) -> [CheckFinding] {
            findings.filter { $0.productID == key && !$0.isProductless }
        }
    }

    /// `diff CONFIG STORE --format json`: products added, removed, and changed field by field.
    struct Diff {
        var added: Set<String> = []
        var removed: Set<String> = []
        /// Product → `field territory` for each changed field.
        var changed: [String: Set<String>] = [:]
        /// `product territory` → the price change.
        var prices: [String: (old: String?, new: String?)] = [:]

        init(old: String, new: String) throws {
            let result = try CommandRunner.run(["diff", old, new, "--format", "json"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            for product in try #require(object["products"] as? [[String: Any]]) {
                let id = try #require(product["productId"] as? String)
                switch product["change"] as? String {
                case "added": added.insert(id)
                case "removed": removed.insert(id)
                default:
                    for field in try #require(product["fields"] as? [[String: Any]]) {
                        let name = field["field"] as? String ?? ""
                        let territory = field["territory"] as? String ?? ""
                        changed[id, default: []].insert(name + " " + territory)
                        if name == "price" {
                            prices[id + " " + territory] = (field["old"] as? String, field["new"] as? String)
                        }
                    }
                }
            }
        }
    }

    /// The config's products as `export --format json` states them: stores and store IDs.
    struct ConfigProducts {
        struct Product {
            var stores: Set<String>?
            var storeIDs: [String: String]
        }

        var products: [String: Product] = [:]

        init(path: String) throws {
            let result = try CommandRunner.run(["export", path, "--format", "json"])
            #expect(result.exitCode == 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            for (id, product) in try #require(object["products"] as? [String: [String: Any]]) {
                products[id] = Product(stores: (product["stores"] as? [String]).map(Set.init),
                                       storeIDs: product["storeIds"] as? [String: String] ?? [:])
            }
        }
    }

    /// The Markdown release report's product table and price tables.
    struct ReleaseReport {
        struct Row {
            var productID: String
            /// A config product's row: the first row of a config key (rows are sorted config first); another
            /// row is a product only stores have.
            var inConfig: Bool
            var statuses: [String]
        }

        struct PriceRow {
            var territory: String
            var config: String
            var stores: [String]
        }

        var rows: [Row] = []
        var prices: [String: [PriceRow]] = [:]

        init(markdown: String, storeCount: Int, configKeys: Set<String>) throws {
            var section = ""
            var product = ""
            for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line.hasPrefix("## ") { section = String(line.prefix { $0 != "(" }); continue }
                if line.hasPrefix("### ") {
                    // `### `ID` — Name`: the ID's code spans, before the name.
                    let heading = line.dropFirst(4)
                    product = Self.unquote(heading.components(separatedBy: " — ")[0])
                    continue
                }
                guard line.hasPrefix("| "), !line.hasPrefix("| ---") else { continue }
                let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
                if section == "## Products ", cells.first != "Product" {
                    #expect(cells.count == 3 + storeCount, "\(line)")
                    let id = Self.unquote(cells[0])
                    let seen = rows.contains { $0.productID == id }
                    rows.append(Row(productID: id, inConfig: !seen && configKeys.contains(id),
                                    statuses: Array(cells.dropFirst(3))))
                } else if section == "## Prices", cells.first != "Territory" {
                    #expect(cells.count == 2 + storeCount, "\(line)")
                    // A cell is the price, then (a store's) its difference from the config in brackets, then after
                    // " · " how the price is set; a config cell that is only "equalized" states no price.
                    func price(_ cell: String) -> String {
                        let amount = cell.components(separatedBy: " · ")[0].components(separatedBy: " (")[0]
                        return amount == "equalized" ? "—" : amount
                    }
                    prices[product, default: []].append(PriceRow(territory: cells[0], config: price(cells[1]),
                                                                 stores: cells.dropFirst(2).map(price)))
                }
            }
        }

        /// An ID's code spans joined (a look-alike ID's differing characters are a bold span of their own).
        private static func unquote(_ cell: String) -> String {
            let spans = cell.replacingOccurrences(of: "**", with: "")
            guard spans.hasPrefix("`") && spans.hasSuffix("`") else { return cell }
            return String(spans.dropFirst().dropLast()).replacingOccurrences(of: "``", with: "")
        }
    }
}
