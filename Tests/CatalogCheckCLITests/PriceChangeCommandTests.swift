import Foundation
import TestSupport
import Testing

/// `check --since`, `diff` and `report --since` on the drift demo's two configs (DESIGN.md §2c): the change rules
/// fire, count, gate and baseline like every finding, whatever spelling names the old config.
@Suite("Price changes and existing subscribers (CLI)")
struct PriceChangeCommandTests {
    static let config = "catalogs/demo-drift/products.yml"
    static let previous = "catalogs/demo-drift/products.previous.yml"
    static let stores = ["--store", "catalogs/demo-drift/asc", "--store", "catalogs/demo-drift/play"]
    static let asOf = ["--as-of", "2026-11-22"]

    /// The change findings of the demo, `rule product territory store-path expected actual`, in output order.
    static let changeFindings = [
        "price-preserve-mismatch com.trailmate.app.basic.weekly DE "
            + "catalogs/demo-drift/asc/subscription-6450000006-prices.json update preserve",
        "subscription-price-consent-required com.trailmate.app.basic.weekly DE catalogs/demo-drift/asc 1.99 EUR 0.99 EUR",
        "subscription-price-decrease-applies com.trailmate.app.basic.weekly GB catalogs/demo-drift/asc 1.99 GBP 2.49 GBP",
        "subscription-price-consent-required com.trailmate.app.plus.monthly US catalogs/demo-drift/asc 6.99 USD 1.49 USD",
        "subscription-price-change-undecided com.trailmate.app.pro.yearly DE catalogs/demo-drift/asc 64.99 EUR 59.99 EUR",
        "play-cohort-migration-needed com.trailmate.app.basic.weekly - catalogs/demo-drift/play DE opt-in; GB decrease -",
        "play-cohort-migration-needed com.trailmate.app.plus.monthly - catalogs/demo-drift/play US opt-in -",
        "subscription-price-change-undecided com.trailmate.app.pro.yearly DE catalogs/demo-drift/play 64.99 EUR 59.99 EUR",
    ]
    static let changeRules: Set<String> = [
        "subscription-price-change-undecided", "subscription-price-consent-required",
        "subscription-price-decrease-applies", "play-cohort-migration-needed", "price-preserve-mismatch",
    ]

    /// The JSON findings of the change rules as `changeFindings` writes them.
    static func changeLines(_ json: String) throws -> [String] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        return findings.filter { changeRules.contains($0["rule"] as? String ?? "") }.map { finding in
            let store = (finding["store"] as? [String: Any])?["path"] as? String
            return [finding["rule"], finding["productId"], finding["territory"], store, finding["expected"],
                    finding["actual"]].map { ($0 as? String) ?? "-" }.joined(separator: " ")
        }
    }

    @Test("check --since fires each change rule once per product, territory and store, and fails the gate")
    func demo() throws {
        // Act
        let result = try CommandRunner.run(["check", "--config", Self.config, "--since", Self.previous]
            + Self.stores + Self.asOf + ["--format", "json"])
        // Assert
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(try Self.changeLines(result.stdout) == Self.changeFindings)
    }

    @Test("without --since no change rule runs")
    func withoutSince() throws {
        let result = try CommandRunner.run(["check", "--config", Self.config] + Self.stores + Self.asOf
            + ["--format", "json"])
        #expect(result.exitCode == 1)
        #expect(try Self.changeLines(result.stdout).isEmpty)
    }

    @Test("text: each finding at the new config's price; the Play note at the product, with regions and steps")
    func text() throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--since", Self.previous]
            + Self.stores + Self.asOf)
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        // Typed apart from the expectations: literals joined by `+` inside the macro took 9 s to type-check.
        let undecided: String = "catalogs/demo-drift/products.yml:57:11: error: [subscription-price-change-undecided] "
            + "com.trailmate.app.pro.yearly: DE 59.99 EUR -> 64.99 EUR (+8.3%): no priceChange decides what "
            + "existing App Store subscribers pay; existing: preserve keeps them on 59.99 EUR "
            + "(preserveCurrentPrice), existing: update gives them 64.99 EUR (consent: not-required)"
        let consent: String = "catalogs/demo-drift/products.yml:117:11: warning: [subscription-price-consent-required] "
            + "com.trailmate.app.plus.monthly: US 1.49 USD -> 6.99 USD (+369.1%) reaches existing App Store "
            + "subscribers (existing: update), and Apple asks for their consent (required): the increase is "
            + "above 50 % (+369.1%) and above USD 5 per period (+5.50 USD per P1M period): Apple asks every "
            + "existing subscriber to consent, and without consent the subscription expires"
        #expect(lines.contains(undecided))
        #expect(lines.contains(consent))
        let note = try #require(lines.first { $0.contains("[play-cohort-migration-needed] com.trailmate.app.basic.weekly") })
        #expect(note.hasPrefix("catalogs/demo-drift/products.yml:149:3: note: "))
        for step in ["needs a price cohort migration in DE, GB", "in Play Console or with "
                     + "monetization.subscriptions.basePlans.migratePrices for subscription trailmate_plus, base plan "
                     + "basic-weekly (regionalPriceMigrations: DE, GB)", "opt-in (DE)", "decrease (GB)",
                     "offer phases (free trials, introductory prices) are not migrated"] {
            #expect(note.contains(step), "\(step)")
        }
    }

    @Test("every spelling of the old config: PATH, FORMAT:PATH, git:REV:PATH and standard input")
    func spellings() throws {
        // Arrange: a repository with the previous config committed, and the stores given by absolute path.
        let repository = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: repository) }
        let root = Fixtures.repositoryRoot.path
        try FileManager.default.copyItem(atPath: "\(root)/\(Self.previous)",
                                         toPath: repository.appendingPathComponent("products.yml").path)
        for arguments in [["init", "-q"], ["add", "products.yml"],
                          ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "release"]] {
            let git = try ToolRunner.run(["git", "-C", repository.path] + arguments)
            #expect(git.status == 0, "\(git.output)")
        }
        try FileManager.default.removeItem(at: repository.appendingPathComponent("products.yml"))
        try FileManager.default.copyItem(atPath: "\(root)/\(Self.config)",
                                         toPath: repository.appendingPathComponent("products.yml").path)
        let stores = ["--store", "\(root)/catalogs/demo-drift/asc", "--store", "\(root)/catalogs/demo-drift/play"]
        let base = ["check", "--config", "products.yml"] + stores + Self.asOf + ["--format", "json", "--since"]
        // Act
        let spellings = [
            try CommandRunner.run(base + ["\(root)/\(Self.previous)"], in: repository),
            try CommandRunner.run(base + ["catalog:\(root)/\(Self.previous)"], in: repository),
            try CommandRunner.run(base + ["git:HEAD:products.yml"], in: repository),
            try CommandRunner.run(["-c", "exec \"$0\" \"$@\" < \"\(root)/\(Self.previous)\"",
                                   CommandRunner.productsDirectory.appendingPathComponent("catalogcheck").path]
                                  + base + ["-"], in: repository, executable: URL(fileURLWithPath: "/bin/sh")),
        ]
        // Assert: the same findings whatever the spelling (the paths as given).
        for result in spellings {
            #expect(result.exitCode == 1, "\(result.stderr)")
            let lines = try Self.changeLines(result.stdout).map { $0.replacingOccurrences(of: "\(root)/", with: "") }
            #expect(lines == Self.changeFindings)
        }
        let missing = try CommandRunner.run(base + ["git:HEAD:nope.yml"], in: repository)
        #expect(missing.exitCode == 2)
    }

    @Test("baselined by store: a recorded undecided change passes, the same change at another price fails again")
    func baseline() throws {
        // Arrange
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("baseline.json").path
        let check = ["check", "--config", Self.config, "--since", Self.previous] + Self.stores + Self.asOf
            + ["--baseline", baseline]
        // Act
        let record = try CommandRunner.run(check + ["--update-baseline"])
        let again = try CommandRunner.run(check)
        // Assert
        #expect(record.exitCode == 0, "\(record.stderr)")
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(text.contains(#"{"rule": "subscription-price-change-undecided", "productId": "com.trailmate.app.pro.yearly", "field": "price", "territory": "DE", "store": "appstore", "expected": "64.99 EUR", "actual": "59.99 EUR"}"#))
        #expect(text.contains(#"{"rule": "subscription-price-change-undecided", "productId": "com.trailmate.app.pro.yearly", "field": "price", "territory": "DE", "store": "play", "expected": "64.99 EUR", "actual": "59.99 EUR"}"#))
        #expect(again.exitCode == 0, "\(again.stdout)")
        // Another old price: the recorded values no longer match, so the undecided change counts again.
        let older = folder.appendingPathComponent("older.yml").path
        let previous = try String(contentsOfFile: Fixtures.catalog("demo-drift/products.previous.yml").path, encoding: .utf8)
        try previous.replacingOccurrences(of: "DE: 59.99 EUR", with: "DE: 54.99 EUR")
            .write(toFile: older, atomically: true, encoding: .utf8)
        let moved = try CommandRunner.run(["check", "--config", Self.config, "--since", older] + Self.stores
            + Self.asOf + ["--baseline", baseline])
        #expect(moved.exitCode == 1)
        #expect(moved.stdout.contains("[subscription-price-change-undecided] com.trailmate.app.pro.yearly: DE 54.99 EUR"))
    }

    @Test("a rules-file ignore entry for one store silences that store's finding only")
    func ignoreByStore() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("rules.yml")
        try """
            version: 1
            ignore:
              - rule: subscription-price-change-undecided
                product: com.trailmate.app.pro.yearly
                store: play
                reason: "Play keeps the legacy cohort until PRICING-7 decides"
            """.write(to: rules, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(["check", "--config", Self.config, "--since", Self.previous]
            + Self.stores + Self.asOf + ["--rules", rules.path, "--format", "json"])
        let lines = try Self.changeLines(result.stdout)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(document["findings"] as? [[String: Any]])
        // The JSON report writes `"suppression": null` for a finding no entry silences.
        let suppressed = findings.filter { $0["suppression"] is [String: Any] }.map { ($0["store"] as? [String: Any])?["path"] as? String }
        #expect(lines.count == Self.changeFindings.count)
        #expect(suppressed == ["catalogs/demo-drift/play"])
    }

    @Test("--territory limits the change rules like every price rule")
    func territories() throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--since", Self.previous]
            + Self.stores + Self.asOf + ["--territory", "US", "--format", "json"])
        #expect(try Self.changeLines(result.stdout) == [
            "subscription-price-consent-required com.trailmate.app.plus.monthly US catalogs/demo-drift/asc 6.99 USD 1.49 USD",
            "play-cohort-migration-needed com.trailmate.app.plus.monthly - catalogs/demo-drift/play US opt-in -",
        ])
    }

    @Test("diff: per store what the change does to existing subscribers (text and JSON)")
    func diff() throws {
        // Act
        let text = try CommandRunner.run(["diff", Self.previous, Self.config] + Self.asOf)
        let json = try CommandRunner.run(["diff", Self.previous, Self.config] + Self.asOf + ["--format", "json"])
        // Assert
        #expect(text.exitCode == 0)
        #expect(text.stdout.contains("""
            ~ com.trailmate.app.plus.monthly
                price GB: 3.49 GBP -> 5.99 GBP (+71.6%; App Store: existing keep 3.49 (preserve); Play: new purchases only (preserve))
                price US: 1.49 USD -> 6.99 USD (+369.1%; App Store: existing pay 6.99 (update; consent required); Play: existing after opt-in migration (update))

            """))
        #expect(text.stdout.contains("    price FR: (none) -> 59.99 EUR\n"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let products = try #require(document["products"] as? [[String: Any]])
        let yearly = try #require(products.first { $0["productId"] as? String == "com.trailmate.app.pro.yearly" })
        let fields = try #require(yearly["fields"] as? [[String: Any]])
        let germany = try #require(fields.first { $0["territory"] as? String == "DE" })
        let impact = try #require(germany["subscriberImpact"] as? [String: [String: String]])
        #expect(impact["appstore"]?["existing"] == "undecided")
        #expect(impact["appstore"]?["consent"] == "not-required")
        #expect(impact["play"]?["existing"] == "undecided")
        #expect(impact["play"]?["migration"] == "undecided")
        #expect(impact["play"]?["reason"] == "new purchases pay 64.99 EUR within hours; existing subscribers stay in a "
            + "legacy price cohort at 59.99 EUR until priceChange decides whether to migrate them (existing: "
            + "preserve keeps them there; existing: update migrates them)")
        let france = try #require(fields.first { $0["territory"] as? String == "FR" })
        #expect(france["subscriberImpact"] is NSNull)
    }

    @Test("the old blanket wording is gone from every diff and report format")
    func noBlanketWording() throws {
        for format in ["text", "json", "markdown"] {
            let result = try CommandRunner.run(["diff", "catalogs/demo/products.yml", Self.config, "--format", format]
                + Self.asOf)
            #expect(!result.stdout.contains("increase for existing subscribers"), "\(format)")
        }
        let report = try CommandRunner.run(["report", "--config", Self.config, "--since", Self.previous]
            + Self.stores + Self.asOf + ["--format", "markdown"])
        #expect(!report.stdout.contains("increase for existing subscribers"))
    }

    @Test("report --since: the change findings are the report's findings, and the changes say what they do")
    func report() throws {
        for format in ["markdown", "html"] {
            let result = try CommandRunner.run(["report", "--config", Self.config, "--since", Self.previous]
                + Self.stores + Self.asOf + ["--format", format])
            #expect(result.exitCode == 1)
            for text in ["subscription-price-change-undecided", "play-cohort-migration-needed",
                         "price-preserve-mismatch",
                         "App Store: existing keep 3.49 (preserve); Play: new purchases only (preserve)"] {
                // Markdown escapes the punctuation of its text (`\(preserve\)`): compare the words.
                #expect(result.stdout.replacingOccurrences(of: "\\", with: "").contains(text), "\(format): \(text)")
            }
        }
    }

    @Test("Markdown of check --since leads with the changes that wait for a decision or for consent")
    func markdownLeads() throws {
        let result = try CommandRunner.run(["check", "--config", Self.config, "--since", Self.previous]
            + Self.stores + Self.asOf + ["--format", "markdown"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(9)) == [
            lines[0],
            "",
            "**Existing subscribers: 2 price changes wait for a decision; 2 App Store increases may need consent.** "
                + "Decide in `priceChange` before merging (docs/price-changes.md).",
            "",
            "| Store | Product | Territory | Change | Rule |",
            "| --- | --- | --- | --- | --- |",
            "| App Store | `com.trailmate.app.basic.weekly` | DE | 0.99 EUR → 1.99 EUR | `subscription-price-consent-required` |",
            "| App Store | `com.trailmate.app.plus.monthly` | US | 1.49 USD → 6.99 USD | `subscription-price-consent-required` |",
            "| App Store | `com.trailmate.app.pro.yearly` | DE | 59.99 EUR → 64.99 EUR | `subscription-price-change-undecided` |",
        ])
        #expect(lines[9] == "| Google Play | `com.trailmate.app.pro.yearly` | DE | 59.99 EUR → 64.99 EUR | `subscription-price-change-undecided` |")
    }

    @Test("rules explains each change rule", arguments: [
        ("subscription-price-change-undecided", "error", "existing: preserve"),
        ("subscription-price-consent-required", "warning", "more than 50 % of the current price and more than USD 5"),
        ("subscription-price-decrease-applies", "note", "the higher price cannot be preserved"),
        ("play-cohort-migration-needed", "note", "an app's first one must be started in Play Console"),
        ("price-preserve-mismatch", "warning", "preserved: true"),
    ])
    func rules(rule: String, severity: String, fragment: String) throws {
        let result = try CommandRunner.run(["rules", rule])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains(rule) && result.stdout.contains(severity))
        #expect(result.stdout.contains(fragment), "\(result.stdout)")
    }

    @Test("validate refuses priceChange on a product that is not auto-renewable (exit 2, file:line:column)")
    func validate() throws {
        let result = try CommandRunner.run(["validate", "--config", "Tests/Fixtures/config/invalid/price-change-on-consumable.yml"])
        #expect(result.exitCode == 2)
        #expect(result.stderr.contains("Tests/Fixtures/config/invalid/price-change-on-consumable.yml:5:5: error: "
            + "products.\"com.example.coins\".priceChange: only auto-renewable subscriptions have a price change "
            + "decision for existing subscribers (type is consumable)"))
    }
}
