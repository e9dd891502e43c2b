import CatalogCore
import Foundation
import Testing

/// Hand-built findings and results, so each policy test states only what it is about.
private enum Build {
    static let config = "products.yml"
    static let appStore = "appstore.storekit"
    static let play = "play"
    static let rulesFile = ".catalogcheck.yml"

    static func finding(_ rule: Rule, _ productID: String?, territory: String? = nil, store: StoreKind? = .appStore,
                        expected: String? = nil, actual: String? = nil, line: Int = 10) -> Finding {
        Finding(rule: rule, productID: productID, territory: territory.flatMap { Territory(code: $0) },
                expected: expected, actual: actual, message: "\(rule.rawValue) on \(productID ?? "-") \(territory ?? "")",
                configLocation: SourceLocation(path: config, line: line, column: 5),
                storeLocation: store.map { SourceLocation(path: path(of: $0), line: line + 100, column: 9) },
                store: store.map(path(of:)), storeInput: store.map { StoreInputID(position: $0 == .play ? 1 : 0) },
                storeKind: store)
    }

    static func path(of store: StoreKind) -> String {
        store == .play ? play : appStore
    }

    static func result(_ findings: [Finding]) -> CheckResult {
        let comparisons = [
            StoreComparison(input: StoreInputID(position: 0), storePath: appStore, storeFormat: .storekit, configProducts: 3, storeProducts: 3,
                            matchedProducts: 3),
            StoreComparison(input: StoreInputID(position: 1), storePath: play, storeFormat: .playJSON, configProducts: 3, storeProducts: 3,
                            matchedProducts: 3),
        ]
        return CheckResult(configPath: config, configFormat: .catalog, configProducts: 3, comparisons: comparisons,
                           findings: CheckResult.outputOrder(findings, comparisons: comparisons))
    }

    static func day(_ text: String) throws -> CalendarDate {
        try #require(CalendarDate(iso: text))
    }

    static func ignore(_ rule: Rule, _ pattern: String? = nil, territories: [String]? = nil, store: StoreKind? = nil,
                       until: String? = nil, line: Int = 4) throws -> IgnoreEntry {
        var places: Set<Territory>?
        if let territories {
            places = Set(try territories.map { code in try #require(Territory(code: code)) })
        }
        return IgnoreEntry(rule: rule, productPattern: pattern, territories: places, store: store,
                           reason: "accepted, TICKET-\(line)", until: try until.map(day),
                           location: SourceLocation(path: rulesFile, line: line, column: 5))
    }

    /// A policy evaluated on `asOf` (default 2026-11-22).
    static func policy(severities: [Rule: RuleSetting] = [:], ignores: [IgnoreEntry] = [], baseline: Baseline? = nil,
                       strict: Bool = false, asOf: String = "2026-11-22") throws -> Policy {
        Policy(rules: RuleConfiguration(path: rulesFile, severities: severities, ignores: ignores), baseline: baseline,
               strict: strict, asOf: try day(asOf))
    }

    /// The product IDs of the findings that count, in output order.
    static func active(_ result: CheckResult) -> [String] {
        result.activeFindings.map { "\($0.rule.rawValue) \($0.productID ?? "-")" }
    }

    /// The findings the rules file itself fired.
    static func ignoreFindings(_ result: CheckResult) -> [Finding] {
        result.findings.filter { $0.rule == .ignoreExpired || $0.rule == .ignoreUnused }
    }
}

@Suite("Policy")
struct PolicyTests {
    static let findings = [
        Build.finding(.priceMismatch, "com.example.pro.monthly", territory: "DE"),
        Build.finding(.priceMismatch, "com.example.pro.monthly", territory: "IN", store: .play),
        Build.finding(.priceMissingInConfig, "com.example.pro.yearly", territory: "BR", store: .play),
        Build.finding(.nameMismatch, "com.example.coins"),
        Build.finding(.introOfferExceedsPeriod, "com.example.weekly", store: nil),
    ]

    @Test("the default policy changes nothing")
    func defaultPolicy() throws {
        let result = Build.result(Self.findings)
        #expect(Policy(asOf: try Build.day("2026-11-22")).apply(to: result) == result)
        #expect(try Build.policy().apply(to: result) == result)
    }

    @Test("off removes a rule's findings; other settings replace the severity")
    func severities() throws {
        let result = Build.result(Self.findings)
        let applied = try Build.policy(severities: [.priceMismatch: .off, .nameMismatch: .error,
                                                .introOfferExceedsPeriod: .note]).apply(to: result)
        #expect(!applied.findings.contains { $0.rule == .priceMismatch })
        #expect(applied.findings.count == 3)
        #expect(applied.findings.first { $0.rule == .nameMismatch }?.severity == .error)
        #expect(applied.findings.first { $0.rule == .introOfferExceedsPeriod }?.severity == .note)
        #expect(applied.findings.first { $0.rule == .priceMissingInConfig }?.severity == .warning)
        #expect(applied.count(.error) == 1)
        #expect(applied.count(.warning) == 1)
        #expect(applied.count(.note) == 1)
    }

    @Test("a warning raised to error fails the run; an error lowered to a note does not")
    func raisingAndLowering() throws {
        let warningsOnly = Build.result([Build.finding(.priceMissingInConfig, "com.example.pro", territory: "BR")])
        #expect(warningsOnly.exitCode == 0)
        let raised = try Build.policy(severities: [.priceMissingInConfig: .error]).apply(to: warningsOnly)
        #expect(raised.exitCode == 1)
        #expect(raised.count(.error) == 1)
        #expect(raised.count(.warning) == 0)

        let errors = Build.result([Build.finding(.priceMismatch, "com.example.pro", territory: "DE")])
        #expect(errors.exitCode == 1)
        let lowered = try Build.policy(severities: [.priceMismatch: .note]).apply(to: errors)
        #expect(lowered.exitCode == 0)
        #expect(lowered.count(.note) == 1)
        // --strict fails on warnings, still not on notes.
        #expect(try Build.policy(severities: [.priceMismatch: .warning], strict: true).apply(to: errors).exitCode == 1)
        #expect(try Build.policy(severities: [.priceMismatch: .note], strict: true).apply(to: errors).exitCode == 0)
    }

    @Test("ignore globs: * any run of characters, ? exactly one", arguments: [
        ("com.example.*", ["com.example.a", "com.example.a.b", "com.example."], ["com.examplea", "org.example.a"]),
        ("com.example.?", ["com.example.a", "com.example.é"], ["com.example.ab", "com.example."]),
        ("*.monthly", ["com.example.pro.monthly", ".monthly"], ["com.example.pro.monthly2"]),
        ("com.example.pro.monthly", ["com.example.pro.monthly"], ["com.example.pro.monthly.x", "com.example.pro"]),
    ])
    func globs(pattern: String, matching: [String], notMatching: [String]) throws {
        let findings = (matching + notMatching).map { Build.finding(.productMissingInStore, $0) }
        let applied = try Build.policy(ignores: [try Build.ignore(.productMissingInStore, pattern)])
            .apply(to: Build.result(findings))
        let suppressed = applied.findings.filter(\.isSuppressed).compactMap(\.productID)
        #expect(suppressed.sorted() == matching.sorted())
        for finding in applied.findings where finding.isSuppressed {
            #expect(finding.suppression == Suppression(kind: .ignore, reason: "accepted, TICKET-4"))
        }
        #expect(Build.ignoreFindings(applied).isEmpty)
    }

    @Test("an entry without a product matches every finding of its rule, also product-less ones")
    func noProductPattern() throws {
        let result = Build.result([
            Build.finding(.storekitSingleStorefront, nil, territory: "US"),
            Build.finding(.groupMissingInStore, "premium"),
            Build.finding(.priceMismatch, "com.example.pro", territory: "DE"),
        ])
        let applied = try Build.policy(ignores: [try Build.ignore(.storekitSingleStorefront),
                                             try Build.ignore(.groupMissingInStore, "prem*", line: 8)]).apply(to: result)
        #expect(Build.active(applied) == ["price-mismatch com.example.pro"])
        #expect(applied.suppressedCount == 2)
    }

    @Test("territory and store filters")
    func territoryAndStore() throws {
        let result = Build.result(Self.findings)
        let byTerritory = try Build.policy(ignores: [try Build.ignore(.priceMismatch, "com.example.*", territories: ["IN", "BRA"])])
            .apply(to: result)
        #expect(byTerritory.findings.filter(\.isSuppressed).map(\.territory?.alpha2) == ["IN"])

        let byStore = try Build.policy(ignores: [try Build.ignore(.priceMismatch, store: .appStore)]).apply(to: result)
        #expect(byStore.findings.filter(\.isSuppressed).map(\.storeKind) == [.appStore])
        #expect(byStore.findings.filter(\.isSuppressed).map(\.territory?.alpha2) == ["DE"])

        // A territory filter never matches a finding without a territory; a store filter never matches a
        // finding on the config alone.
        let noTerritory = try Build.policy(ignores: [try Build.ignore(.nameMismatch, territories: ["US"])]).apply(to: result)
        #expect(noTerritory.suppressedCount == 0)
        let configOnly = try Build.policy(ignores: [try Build.ignore(.introOfferExceedsPeriod, store: .appStore)])
            .apply(to: result)
        #expect(configOnly.suppressedCount == 0)
        #expect(Build.ignoreFindings(configOnly).map(\.rule) == [.ignoreUnused])
    }

    @Test("until: on the day the entry still applies; the day after it expires, the finding counts again and ignore-expired points at the entry")
    func until() throws {
        let result = Build.result([Build.finding(.priceMismatch, "com.example.pro", territory: "DE")])
        let entry = try Build.ignore(.priceMismatch, "com.example.*", territories: ["DE"], store: .appStore,
                                 until: "2026-12-31", line: 7)

        let onTheDay = try Build.policy(ignores: [entry], asOf: "2026-12-31").apply(to: result)
        #expect(onTheDay.suppressedCount == 1)
        #expect(onTheDay.exitCode == 0)
        #expect(Build.ignoreFindings(onTheDay).isEmpty)

        let dayAfter = try Build.policy(ignores: [entry], asOf: "2027-01-01").apply(to: result)
        #expect(dayAfter.suppressedCount == 0)
        #expect(dayAfter.exitCode == 1)
        #expect(dayAfter.count(.error) == 1)
        #expect(dayAfter.count(.warning) == 1)
        let expired = try #require(Build.ignoreFindings(dayAfter).first)
        #expect(Build.ignoreFindings(dayAfter).count == 1)
        #expect(expired.rule == .ignoreExpired)
        #expect(expired.severity == .warning)
        #expect(expired.configLocation == SourceLocation(path: Build.rulesFile, line: 7, column: 5))
        #expect(expired.productID == "com.example.*")
        #expect(expired.field == .ignore)
        #expect(expired.expected == "2026-12-31")
        #expect(expired.actual == "2027-01-01")
        #expect(expired.storeKind == .appStore)
        #expect(expired.store == nil)
        #expect(expired.message == "ignore entry for price-mismatch on 'com.example.*' in DE (appstore) expired on "
                    + "2026-12-31 (as of 2027-01-01); the findings it hid count again. Reason given: accepted, TICKET-7")
        // The ignore rules judge the rules file: findings on the config alone, listed first.
        #expect(dayAfter.findings.first?.rule == .ignoreExpired)

        // An expired entry is not also reported unused, even when nothing would match it.
        let nothing = try Build.policy(ignores: [entry], asOf: "2027-01-01").apply(to: Build.result([]))
        #expect(Build.ignoreFindings(nothing).map(\.rule) == [.ignoreExpired])
    }

    @Test("an entry that matched nothing fires ignore-unused, a note at the entry")
    func unused() throws {
        let result = Build.result(Self.findings)
        let applied = try Build.policy(ignores: [try Build.ignore(.priceMismatch, "com.other.*", line: 12)]).apply(to: result)
        let unused = try #require(Build.ignoreFindings(applied).first)
        #expect(Build.ignoreFindings(applied).count == 1)
        #expect(unused.rule == .ignoreUnused)
        #expect(unused.severity == .note)
        #expect(unused.configLocation == SourceLocation(path: Build.rulesFile, line: 12, column: 5))
        #expect(unused.message == "ignore entry for price-mismatch on 'com.other.*' matched no finding; remove it or "
                    + "fix its pattern")
        #expect(applied.exitCode == result.exitCode)
        // Its severity can be set like any rule's, and it cannot be ignored.
        let raised = try Build.policy(severities: [.ignoreUnused: .error],
                                  ignores: [try Build.ignore(.priceMismatch, "com.other.*")]).apply(to: result)
        #expect(Build.ignoreFindings(raised).first?.severity == .error)
        let off = try Build.policy(severities: [.ignoreUnused: .off],
                               ignores: [try Build.ignore(.priceMismatch, "com.other.*")]).apply(to: result)
        #expect(Build.ignoreFindings(off).isEmpty)
    }

    @Test("suppressed findings stay in findings with their suppression but never count")
    func suppressedDoNotCount() throws {
        let result = Build.result(Self.findings)
        let applied = try Build.policy(ignores: [try Build.ignore(.priceMismatch), try Build.ignore(.priceMissingInConfig, line: 5),
                                             try Build.ignore(.introOfferExceedsPeriod, line: 6)],
                                   strict: true).apply(to: result)
        #expect(applied.findings.count == Self.findings.count)
        #expect(applied.suppressedCount == 4)
        #expect(applied.count(.error) == 0)
        #expect(applied.count(.warning) == 0)
        #expect(applied.count(.note) == 1)
        for finding in applied.findings where finding.isSuppressed {
            #expect(!applied.fails(finding))
            #expect(finding.suppression?.kind == .ignore)
        }
        #expect(applied.exitCode == 0)
        #expect(Build.active(applied) == ["name-mismatch com.example.coins"])
    }

    // MARK: - Baseline

    @Test("record a result, apply the baseline: everything is suppressed and the run passes")
    func baselineRoundTrip() throws {
        let result = Build.result(Self.findings)
        #expect(result.exitCode == 1)
        let baseline = Baseline(path: "catalogcheck-baseline.json", recording: try Build.policy().apply(to: result))
        #expect(baseline.entries.count == Self.findings.count)
        let applied = try Build.policy(baseline: baseline).apply(to: result)
        #expect(applied.findings.allSatisfy {
            $0.suppression == Suppression(kind: .baseline, reason: "recorded in catalogcheck-baseline.json")
        })
        #expect(applied.exitCode == 0)
        #expect(applied.count(.error) + applied.count(.warning) + applied.count(.note) == 0)
        #expect(applied.suppressedCount == Self.findings.count)
        #expect(applied.staleBaselineEntries == 0)
    }

    @Test("a finding whose lines moved stays suppressed; a new finding fails; a gone one is stale")
    func baselineAcrossEdits() throws {
        let baseline = Baseline(path: "b.json", recording: Build.result(Self.findings))
        var moved = Self.findings.map { finding in
            var finding = finding
            finding.configLocation?.line = 200
            finding.storeLocation = SourceLocation(path: "renamed.storekit", line: 3, column: 1)
            finding.message += " (reworded)"
            return finding
        }
        moved.removeLast(2)  // name-mismatch and intro-offer-exceeds-period are fixed
        moved.append(Build.finding(.priceMismatch, "com.example.pro.monthly", territory: "FR"))
        let applied = try Build.policy(baseline: baseline).apply(to: Build.result(moved))
        #expect(Build.active(applied) == ["price-mismatch com.example.pro.monthly"])
        #expect(applied.activeFindings.first?.territory == Territory(code: "FR"))
        #expect(applied.suppressedCount == 3)
        #expect(applied.staleBaselineEntries == 2)
        #expect(applied.exitCode == 1)
    }

    @Test("the same finding against the other store is a different finding")
    func storeIsPartOfIdentity() throws {
        let appStore = Build.finding(.priceMismatch, "com.example.pro", territory: "DE", store: .appStore)
        let play = Build.finding(.priceMismatch, "com.example.pro", territory: "DE", store: .play)
        let baseline = Baseline(path: "b.json", recording: Build.result([appStore]))
        let applied = try Build.policy(baseline: baseline).apply(to: Build.result([appStore, play]))
        #expect(applied.activeFindings.map(\.storeKind) == [.play])
    }

    @Test("ignore and baseline together: the ignore's reason wins, the baseline entry is still used")
    func ignoreAndBaseline() throws {
        let result = Build.result(Self.findings)
        let baseline = Baseline(path: "b.json", recording: result)
        let applied = try Build.policy(ignores: [try Build.ignore(.nameMismatch)], baseline: baseline).apply(to: result)
        #expect(applied.findings.first { $0.rule == .nameMismatch }?.suppression?.kind == .ignore)
        #expect(applied.staleBaselineEntries == 0)
        #expect(applied.suppressedCount == Self.findings.count)
        #expect(Build.ignoreFindings(applied).isEmpty)
    }

    @Test("recording leaves out findings an ignore entry suppresses and the rules file's own findings")
    func recordingLeavesOutIgnored() throws {
        let result = Build.result(Self.findings)
        let applied = try Build.policy(ignores: [try Build.ignore(.nameMismatch),
                                             try Build.ignore(.periodMismatch, until: "2026-01-01", line: 9),
                                             try Build.ignore(.typeMismatch, line: 10)]).apply(to: result)
        #expect(Build.ignoreFindings(applied).map(\.rule) == [.ignoreExpired, .ignoreUnused])
        let baseline = Baseline(path: "b.json", recording: applied)
        #expect(baseline.entries.count == Self.findings.count - 1)
        #expect(!baseline.entries.contains { $0.identity.rule == .nameMismatch || !$0.identity.rule.isSuppressible })
        // The baseline never suppresses the rules file's own findings, even when they are recorded by hand.
        let handMade = Baseline(path: "b.json", entries: Build.ignoreFindings(applied).map(BaselineEntry.init(recording:)))
        let again = try Build.policy(ignores: [try Build.ignore(.periodMismatch, until: "2026-01-01", line: 9)],
                                 baseline: handMade).apply(to: result)
        #expect(Build.ignoreFindings(again).allSatisfy { !$0.isSuppressed })
    }

    @Test("a baselined price that moves again is new drift: it fails and counts as changed; its entry is stale")
    func baselinedValueChanged() throws {
        // The DE price drifted 64.99 → 59.99 EUR and was baselined; then the store moved to 19.99 EUR.
        let drifted = Build.finding(.priceMismatch, "com.example.pro.yearly", territory: "DE", store: .play,
                                    expected: "64.99 EUR", actual: "59.99 EUR")
        let baseline = Baseline(path: "b.json", recording: Build.result([drifted]))
        #expect(baseline.entries == [BaselineEntry(drifted.identity, values: BaselineEntry.Values(
            expected: "64.99 EUR", actual: "59.99 EUR"))])
        let same = try Build.policy(baseline: baseline).apply(to: Build.result([drifted]))
        #expect(same.exitCode == 0)
        #expect(same.suppressedCount == 1)
        #expect(same.changedBaselineFindings == 0)
        #expect(same.staleBaselineEntries == 0)

        var moved = drifted
        moved.actual = "19.99 EUR"
        let applied = try Build.policy(baseline: baseline).apply(to: Build.result([moved]))

        #expect(applied.exitCode == 1)
        #expect(applied.activeFindings == [moved])
        #expect(applied.suppressedCount == 0)
        #expect(applied.changedBaselineFindings == 1)
        #expect(applied.staleBaselineEntries == 1)
        #expect(applied.count(.error) == 1)
    }

    @Test("the config side moving counts too; a changed finding an ignore entry suppresses is not counted")
    func changedExpectedAndIgnored() throws {
        let recorded = Build.finding(.nameMismatch, "com.example.coins", expected: "Coins", actual: "Coins x100")
        let baseline = Baseline(path: "b.json", recording: Build.result([recorded]))
        var renamed = recorded
        renamed.expected = "100 Coins"

        let applied = try Build.policy(baseline: baseline).apply(to: Build.result([renamed]))
        #expect(Build.active(applied) == ["name-mismatch com.example.coins"])
        #expect(applied.changedBaselineFindings == 1)
        #expect(applied.exitCode == 0)  // a note: new drift fails by its severity, like any new finding

        let ignored = try Build.policy(ignores: [try Build.ignore(.nameMismatch)], baseline: baseline)
            .apply(to: Build.result([renamed]))
        #expect(ignored.activeFindings.isEmpty)
        #expect(ignored.findings.first?.suppression?.kind == .ignore)
        #expect(ignored.changedBaselineFindings == 0)
        #expect(ignored.staleBaselineEntries == 1)
    }

    @Test("an entry without values (a file from before they were recorded) matches on identity alone")
    func entryWithoutValues() throws {
        let finding = Build.finding(.priceMismatch, "com.example.pro", territory: "DE",
                                    expected: "9.99 EUR", actual: "19.99 EUR")
        let baseline = Baseline(path: "old.json", entries: [BaselineEntry(finding.identity)])
        let applied = try Build.policy(baseline: baseline).apply(to: Build.result([finding]))
        #expect(applied.findings.map(\.suppression) == [Suppression(kind: .baseline, reason: "recorded in old.json")])
        #expect(applied.exitCode == 0)
        #expect(applied.changedBaselineFindings == 0)
        #expect(applied.staleBaselineEntries == 0)
    }

    @Test("two entries of one identity: the one with the finding's values matches, the other is stale")
    func twoEntriesOneIdentity() throws {
        let finding = Build.finding(.priceMismatch, "com.example.pro", territory: "DE",
                                    expected: "9.99 EUR", actual: "8.99 EUR")
        var older = finding
        older.actual = "7.99 EUR"
        let baseline = Baseline(path: "b.json", entries: [BaselineEntry(recording: older),
                                                          BaselineEntry(recording: finding)])
        let applied = try Build.policy(baseline: baseline).apply(to: Build.result([finding, finding]))
        #expect(applied.suppressedCount == 2)
        #expect(applied.changedBaselineFindings == 0)
        #expect(applied.staleBaselineEntries == 1)
    }

    @Test("--strict is the policy's: warnings fail only with it; notes never; the checker knows nothing of it")
    func strict() throws {
        let warning = Build.result([Build.finding(.priceMissingInConfig, "com.example.pro", territory: "BR")])
        let note = Build.result([Build.finding(.nameMismatch, "com.example.pro")])
        #expect(!warning.strict)

        let strict = try Build.policy(strict: true)
        #expect(strict.apply(to: warning).strict)
        #expect(strict.apply(to: warning).exitCode == 1)
        #expect(strict.apply(to: note).exitCode == 0)
        #expect(try Build.policy().apply(to: warning).exitCode == 0)
        // A warning suppressed by the baseline does not fail a strict run.
        let baseline = Baseline(path: "b.json", recording: warning)
        #expect(try Build.policy(baseline: baseline, strict: true).apply(to: warning).exitCode == 0)
    }

    @Test("applying is deterministic: shuffled findings give the same result")
    func deterministic() throws {
        let policy = try Build.policy(severities: [.nameMismatch: .warning],
                                  ignores: [try Build.ignore(.priceMismatch, "*.monthly", territories: ["IN"]),
                                            try Build.ignore(.typeMismatch, line: 8)])
        let expected = policy.apply(to: Build.result(Self.findings))
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10 {
            #expect(policy.apply(to: Build.result(Self.findings.shuffled(using: &generator))) == expected)
        }
    }
}
