/// Applies the rules file, the baseline and `--strict` to the checker's findings, once, after checking (as
/// swift-format's DiagnosticsEngine applies severities): severities and `off`, then `ignore` entries, then the
/// baseline; then the rules file's own findings (`ignore-expired`, `ignore-unused`). Pure.
public struct Policy: Hashable, Sendable {
    /// The rules file's settings.
    public var rules: RuleConfiguration
    /// The baseline, when one is in use.
    public var baseline: Baseline?
    /// Whether warnings fail the run too (`--strict`).
    public var strict: Bool
    /// The day `until` dates are evaluated at.
    public var asOf: CalendarDate

    /// Creates a policy.
    public init(rules: RuleConfiguration = RuleConfiguration(), baseline: Baseline? = nil, strict: Bool = false,
                asOf: CalendarDate) {
        self.rules = rules
        self.baseline = baseline
        self.strict = strict
        self.asOf = asOf
    }

    /// The result with severities set, suppressions marked, the ignore rules' findings added, `strict` set,
    /// `stale` and `changed` counted, and the findings in output order again.
    public func apply(to result: CheckResult) -> CheckResult {
        var usedIgnores = Set<Int>()
        let entries = baseline?.entries ?? []
        // Entries by identity (usually one each), so matching stays linear in findings + entries.
        var entriesByIdentity: [FindingIdentity: [Int]] = [:]
        for (index, entry) in entries.enumerated() {
            entriesByIdentity[entry.identity, default: []].append(index)
        }
        var matchedEntries = Set<Int>()
        var changed = 0
        var findings: [Finding] = []
        findings.reserveCapacity(result.findings.count)

        for original in result.findings {
            guard var finding = configured(original) else { continue }
            if finding.rule.isSuppressible {
                if let index = rules.ignores.indices.first(where: { index in
                    rules.ignores[index].isActive(on: asOf) && rules.ignores[index].matches(finding)
                }) {
                    usedIgnores.insert(index)
                    finding.suppression = Suppression(kind: .ignore, reason: rules.ignores[index].reason)
                }
                if let baseline, let recorded = entriesByIdentity[finding.identity] {
                    let matching = recorded.filter { entries[$0].matches(finding) }
                    matchedEntries.formUnion(matching)
                    if matching.isEmpty {
                        // Recorded with other values: the accepted drift moved on, so this is new drift.
                        if finding.suppression == nil { changed += 1 }
                    } else if finding.suppression == nil {
                        finding.suppression = Suppression(kind: .baseline, reason: "recorded in \(baseline.path)")
                    }
                }
            }
            findings.append(finding)
        }

        for (index, entry) in rules.ignores.enumerated() {
            if !entry.isActive(on: asOf), let until = entry.until {
                let finding = Finding(
                    rule: .ignoreExpired, productID: entry.productPattern, territory: nil,
                    expected: until.description, actual: asOf.description,
                    message: "ignore entry for \(entry.summary) expired on \(until) (as of \(asOf)); the findings "
                        + "it hid count again. Reason given: \(entry.reason)",
                    configLocation: entry.location, store: nil, storeKind: entry.store)
                configured(finding).map { findings.append($0) }
            } else if entry.isActive(on: asOf), !usedIgnores.contains(index) {
                let finding = Finding(
                    rule: .ignoreUnused, productID: entry.productPattern,
                    message: "ignore entry for \(entry.summary) matched no finding; remove it or fix its pattern",
                    configLocation: entry.location, store: nil, storeKind: entry.store)
                configured(finding).map { findings.append($0) }
            }
        }

        var applied = result
        applied.findings = CheckResult.outputOrder(findings, comparisons: result.comparisons)
        applied.strict = strict
        applied.staleBaselineEntries = entries.count - matchedEntries.count
        applied.changedBaselineFindings = changed
        return applied
    }

    /// The finding with its configured severity, or nil when its rule is `off`.
    private func configured(_ finding: Finding) -> Finding? {
        guard let setting = rules.severities[finding.rule] else { return finding }
        guard let severity = setting.severity else { return nil }
        var finding = finding
        finding.severity = severity
        return finding
    }
}
