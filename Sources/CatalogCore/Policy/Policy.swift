/// Applies the rules file and the baseline to the checker's findings, once, after checking (as swift-format's
/// DiagnosticsEngine applies severities): severities and `off`, then `ignore` entries, then the baseline; then
/// the rules file's own findings (`ignore-expired`, `ignore-unused`). Pure.
public struct Policy: Hashable, Sendable {
    /// The rules file's settings.
    public var rules: RuleConfiguration
    /// The baseline, when one is in use.
    public var baseline: Baseline?
    /// The day `until` dates are evaluated at.
    public var asOf: CalendarDate

    /// Creates a policy.
    public init(rules: RuleConfiguration = RuleConfiguration(), baseline: Baseline? = nil, asOf: CalendarDate) {
        self.rules = rules
        self.baseline = baseline
        self.asOf = asOf
    }

    /// The result with severities set, suppressions marked, the ignore rules' findings added, `stale` counted,
    /// and the findings in output order again.
    public func apply(to result: CheckResult) -> CheckResult {
        var usedIgnores = Set<Int>()
        let recorded = Set(baseline?.entries ?? [])
        var matchedBaseline = Set<FindingIdentity>()
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
                let identity = finding.identity
                if let baseline, recorded.contains(identity) {
                    matchedBaseline.insert(identity)
                    if finding.suppression == nil {
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
        applied.staleBaselineEntries = recorded.subtracting(matchedBaseline).count
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
