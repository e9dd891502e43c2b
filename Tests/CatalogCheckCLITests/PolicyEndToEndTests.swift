import Foundation
import TestSupport
import Testing

/// The rules file and the baseline through the binary: discovery, severities, ignores, the adoption workflow.
@Suite("rules file and baseline end to end")
struct PolicyEndToEndTests {
    /// A temporary repository holding a copy of the drifted demo (config and StoreKit file).
    private func repository() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"),
                                                withIntermediateDirectories: true)
        for name in ["products.yml", "appstore.storekit"] {
            try FileManager.default.copyItem(at: Fixtures.catalog("demo-drift/\(name)"),
                                             to: folder.appendingPathComponent(name))
        }
        return folder
    }

    private let check = ["check", "--config", "products.yml", "--store", "appstore.storekit", "--as-of", "2026-11-22"]

    @Test("a .catalogcheck.yml at the repository root is found from a sub-folder and applied")
    func discovery() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("""
            version: 1
            rules:
              name-mismatch: off
              family-sharing-mismatch: error
            ignore:
              - rule: price-mismatch
                product: "com.trailmate.app.plus.*"
                reason: "US price test, PRICING-7"
                until: 2026-12-31
              - rule: type-mismatch
                product: "com.nothing.*"
                reason: "left over"
            """.utf8).write(to: root.appendingPathComponent(".catalogcheck.yml"))
        let nested = root.appendingPathComponent("app/sub")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let result = try CommandRunner.run(
            ["check", "--config", "../../products.yml", "--store", "../../appstore.storekit", "--as-of", "2026-11-22",
             "--format", "json"], in: nested)
        #expect(result.exitCode == 1, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        #expect(!findings.contains { $0["rule"] as? String == "name-mismatch" })
        let family = try #require(findings.first { $0["rule"] as? String == "family-sharing-mismatch" })
        #expect(family["severity"] as? String == "error")
        let price = try #require(findings.first { $0["rule"] as? String == "price-mismatch" })
        #expect(price["suppression"] as? [String: String] == ["kind": "ignore", "reason": "US price test, PRICING-7"])
        let unused = try #require(findings.first { $0["rule"] as? String == "ignore-unused" })
        #expect(unused["productId"] as? String == "com.nothing.*")
        let location = try #require(unused["config"] as? [String: Any])
        #expect(location["line"] as? Int == 10)
        #expect((location["path"] as? String)?.hasSuffix(".catalogcheck.yml") == true)
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["suppressed"] as? Int == 1)

        // The day after `until`, the entry expires: a warning at the entry, and the price finding counts again.
        let later = try CommandRunner.run(
            ["check", "--config", "../../products.yml", "--store", "../../appstore.storekit", "--as-of", "2027-01-01"],
            in: nested)
        #expect(later.stdout.contains(".catalogcheck.yml:6:5: warning: [ignore-expired] com.trailmate.app.plus.*: "
                                      + "ignore entry for price-mismatch on 'com.trailmate.app.plus.*' expired on "
                                      + "2026-12-31 (as of 2027-01-01)"))
        #expect(later.stdout.contains("error: [price-mismatch] com.trailmate.app.plus.monthly"))
    }

    @Test("an invalid rules file exits 2 naming file, line and column")
    func invalidRules() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("version: 1\nrules:\n  price-mismatc: off\n".utf8).write(to: root.appendingPathComponent("rules.yml"))
        let result = try CommandRunner.run(check + ["--rules", "rules.yml"], in: root)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("rules.yml:3:3: error: "))
        #expect(result.stderr.contains("price-mismatc"))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test("adopt with --update-baseline, then only new drift fails; moved lines stay suppressed; stale counted")
    func baselineWorkflow() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(at: root) }
        // --quiet shows only failing findings but records every one (warnings and notes too).
        let record = try CommandRunner.run(check + ["--baseline", "baseline.json", "--update-baseline", "--quiet"],
                                           in: root)
        #expect(record.exitCode == 0, "\(record.stderr)")
        #expect(record.stderr == "baseline.json: recorded 30 findings; runs with --baseline baseline.json fail only on new ones\n")
        let baseline = try String(contentsOf: root.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(baseline.hasPrefix("{\n"))
        #expect(baseline.contains("\"rule\" : \"price-mismatch\"") || baseline.contains("\"rule\": \"price-mismatch\""))

        let clean = try CommandRunner.run(check + ["--baseline", "baseline.json"], in: root)
        #expect(clean.exitCode == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(!clean.stdout.contains("error:"))

        // Lines move (two comment lines on top), one drift is fixed (the name), one is new (the season pass's
        // price): only the new finding fails, the fixed one leaves a stale entry.
        let config = root.appendingPathComponent("products.yml")
        let text = try String(contentsOf: config, encoding: .utf8)
        let edited = "# moved\n# down\n" + text.replacingOccurrences(of: "price: 14.99 USD", with: "price: 15.99 USD")
            .replacingOccurrences(of: "name: Coins x100", with: "name: 100 Coins")
        try #require(edited.contains("15.99 USD") && edited.contains("name: 100 Coins"))
        try Data(edited.utf8).write(to: config)
        let after = try CommandRunner.run(check + ["--baseline", "baseline.json", "--format", "json"], in: root)
        #expect(after.exitCode == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        let active = (object["findings"] as? [[String: Any]] ?? []).filter { $0["suppression"] is NSNull }
        #expect(active.map { "\($0["rule"] as? String ?? "") \($0["productId"] as? String ?? "")" }
                == ["price-mismatch com.trailmate.app.season_pass"])
        let moved = (object["findings"] as? [[String: Any]] ?? []).filter { !($0["suppression"] is NSNull) }
        #expect(moved.allSatisfy { ($0["suppression"] as? [String: String])?["kind"] == "baseline" })
        #expect(summary["stale"] as? Int == 1)
        #expect(summary["suppressed"] as? Int == moved.count)
    }

    @Test("a baselined DE price that moves again (64.99 → 59.99, then 19.99 EUR) fails the gate and counts as changed")
    func baselinedPriceMovesAgain() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent(".git"),
                                                withIntermediateDirectories: true)
        for name in ["products.yml", "play"] {
            try FileManager.default.copyItem(at: Fixtures.catalog("demo-drift/\(name)"),
                                             to: root.appendingPathComponent(name))
        }
        let play = ["check", "--config", "products.yml", "--store", "play", "--as-of", "2026-11-22",
                    "--baseline", "baseline.json"]
        let record = try CommandRunner.run(play + ["--update-baseline"], in: root)
        #expect(record.exitCode == 0, "\(record.stderr)")
        let baseline = try String(contentsOf: root.appendingPathComponent("baseline.json"), encoding: .utf8)
        #expect(baseline.contains(#"    {"rule": "price-mismatch", "productId": "com.trailmate.app.pro.yearly", "#
                                  + #""field": "price", "territory": "DE", "store": "play", "expected": "64.99 EUR", "#
                                  + #""actual": "59.99 EUR"}"#))
        let clean = try CommandRunner.run(play, in: root)
        #expect(clean.exitCode == 0, "\(clean.stdout)\(clean.stderr)")

        // The store moves the DE price of pro-yearly from 59.99 to 19.99 EUR.
        let store = root.appendingPathComponent("play/subscriptions.json")
        let text = try String(contentsOf: store, encoding: .utf8)
        let before = #""regionCode": "DE",\#n              "newSubscriberAvailability": true,\#n              "price": {\#n                "currencyCode": "EUR",\#n                "units": "59""#
        let range = try #require(text.range(of: before))
        try Data(text.replacingCharacters(in: range, with: before.dropLast(3) + #"19""#).utf8).write(to: store)

        let after = try CommandRunner.run(play + ["--format", "json"], in: root)
        #expect(after.exitCode == 1, "\(after.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Any])
        #expect(summary["changed"] as? Int == 1)
        #expect(summary["stale"] as? Int == 1)
        #expect(summary["errors"] as? Int == 1)
        let active = (object["findings"] as? [[String: Any]] ?? []).filter { $0["suppression"] is NSNull }
        #expect(active.map { "\($0["rule"] as? String ?? "") \($0["productId"] as? String ?? "") "
                             + "\($0["territory"] as? String ?? "") \($0["actual"] as? String ?? "")" }
                == ["price-mismatch com.trailmate.app.pro.yearly DE 19.99 EUR"])
        let textRun = try CommandRunner.run(play, in: root)
        #expect(textRun.exitCode == 1)
        #expect(textRun.stdout.hasSuffix("; 1 baseline entry matches no finding (stale); 1 finding changed since the "
                                         + "baseline recorded it (new drift)\n"))

        // A baseline from before values were recorded matches on identity alone: the moved price stays hidden.
        let identityOnly = baseline.replacingOccurrences(of: #", "expected": [^{}]*\}"#, with: "}",
                                                         options: .regularExpression)
        try #require(!identityOnly.contains("expected") && identityOnly.contains(#""territory": "DE", "store": "play"}"#))
        try Data(identityOnly.utf8).write(to: root.appendingPathComponent("baseline.json"))
        let old = try CommandRunner.run(play + ["--format", "json"], in: root)
        #expect(old.exitCode == 0, "\(old.stderr)")
        let oldSummary = try #require(
            (try JSONSerialization.jsonObject(with: Data(old.stdout.utf8)) as? [String: Any])?["summary"] as? [String: Any])
        #expect(oldSummary["changed"] as? Int == 0)
        #expect(oldSummary["stale"] as? Int == 0)
    }

    @Test("--strict fails a run whose only finding is a warning; a baselined warning does not fail it")
    func strictThroughThePolicy() throws {
        let root = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: Fixtures.catalog("demo/products.yml"),
                                         to: root.appendingPathComponent("products.yml"))
        // The consistent demo, but the store makes Basic Weekly family-shareable: one warning.
        let storeKit = try String(contentsOf: Fixtures.catalog("demo/appstore.storekit"), encoding: .utf8)
        let weekly = #""familyShareable" : false,\#n          "groupNumber" : 3,"#
        let range = try #require(storeKit.range(of: weekly))
        try Data(storeKit.replacingCharacters(in: range, with: weekly.replacingOccurrences(of: "false", with: "true"))
            .utf8).write(to: root.appendingPathComponent("appstore.storekit"))
        let check = ["check", "--config", "products.yml", "--store", "appstore.storekit", "--as-of", "2026-11-22"]

        let lenient = try CommandRunner.run(check, in: root)
        let strict = try CommandRunner.run(check + ["--strict"], in: root)
        _ = try CommandRunner.run(check + ["--baseline", "b.json", "--update-baseline"], in: root)
        let baselined = try CommandRunner.run(check + ["--strict", "--baseline", "b.json"], in: root)

        #expect(lenient.exitCode == 0, "\(lenient.stdout)\(lenient.stderr)")
        #expect(lenient.stdout.contains("warning: [family-sharing-mismatch] com.trailmate.app.basic.weekly"))
        #expect(lenient.stdout.contains("0 errors, 1 warning, 1 note"))
        #expect(strict.exitCode == 1)
        #expect(baselined.exitCode == 0, "\(baselined.stdout)\(baselined.stderr)")
    }

    @Test("--update-baseline without --baseline is a usage error; a missing baseline exits 2")
    func baselineErrors() throws {
        let root = try repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let usage = try CommandRunner.run(check + ["--update-baseline"], in: root)
        #expect(usage.exitCode == 64)
        let missing = try CommandRunner.run(check + ["--baseline", "nope.json"], in: root)
        #expect(missing.exitCode == 2)
        #expect(missing.stderr.hasPrefix("nope.json: error: "))
    }
}
