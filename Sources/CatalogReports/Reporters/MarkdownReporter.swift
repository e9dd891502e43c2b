import CatalogCore

/// GitHub-flavoured Markdown for PR comments, step summaries and release notes (DESIGN.md §6): a verdict
/// line, the subscription price changes that wait for a decision or may need consent (`check --since`, so a pull
/// request comment leads with them), a summary table with a row per input, the store remarks, then one findings
/// table, errors first.
/// Every cell is escaped with `MarkdownEscaper`, so catalog text never becomes a new cell, row, link or HTML.
/// Suppressed findings are left out (a line counts them). The report is capped: when the findings would
/// make it reach `characterLimit`, the table stops and a line says how many findings were left out. With a
/// `ReleaseOverview` in the context (the `report` command) it writes the release document instead, whole
/// (`MarkdownReleaseSections`).
public struct MarkdownReporter: Reporter {
    /// The report stays under this many characters, counted as UTF-16 code units. That is what a browser's
    /// `maxlength` counts, and never less than the count of Unicode scalars or of Swift `Character`s, so
    /// the report stays under the limit however GitHub counts (its comment limit is 65,536 characters).
    public let characterLimit: Int

    private let budget: Budget

    /// How the cap measures text.
    private enum Budget {
        /// Fewer UTF-16 code units than this.
        case utf16(Int)
        /// Fewer UTF-8 bytes than this (a step summary's limit is in bytes).
        case utf8(Int)

        func size(of text: String) -> Int {
            switch self {
            case .utf16: text.utf16.count
            case .utf8: text.utf8.count
            }
        }

        var limit: Int {
            switch self {
            case .utf16(let limit), .utf8(let limit): limit
            }
        }
    }

    /// Creates the reporter; the report stays under `characterLimit` UTF-16 code units.
    public init(characterLimit: Int = 65_000) {
        self.characterLimit = characterLimit
        budget = .utf16(characterLimit)
    }

    /// A reporter whose report stays under `byteLimit` bytes of UTF-8 (`GitHubReporter.stepSummary`).
    init(byteLimit: Int) {
        characterLimit = byteLimit
        budget = .utf8(byteLimit)
    }

    public func report(_ result: CheckResult, context: ReportContext) -> String {
        let overview = ReportOverview(result)
        if let release = context.overview {
            // The `report` command: the release document, whole (a file or standard output, not a comment).
            return MarkdownReleaseSections(check: overview, release: release, configPath: result.configPath,
                                           asOf: context.asOf).document
        }
        let verdict = verdictLine(overview)
        var head = [verdict, ""] + existingSubscribers(overview.findings)
        if let asOf = context.asOf {
            head += ["Prices and `ignore … until` dates as of \(asOf).", ""]
        }
        head += summaryTable(overview) + [""]
        let remarks = overview.rows.flatMap { row in
            row.remarks.map { "- \(MarkdownEscaper.code(row.path)): \(MarkdownEscaper.escape($0))" }
        }
        if !remarks.isEmpty {
            head += ["Store remarks:", ""] + remarks + [""]
        }
        if let policy = overview.policyLine {
            head += [policy + ".", ""]
        }
        guard !overview.findings.isEmpty else { return lines(head + ["No findings."]) }
        let table = [
            "| Severity | Rule | Product | Territory | Config | Store | Message |",
            "| --- | --- | --- | --- | --- | --- | --- |",
        ]
        let rows = overview.findings.map(row)
        let whole = lines(head + table + rows)
        if budget.size(of: whole) < budget.limit { return whole }

        // Too long: keep the rows that fit with room for the closing line, which is longest when no row fits.
        let reserve = budget.size(of: lines(["", moreLine(rows.count)]))
        let fixed = budget.size(of: lines(head + table))
        guard fixed + reserve < budget.limit else {
            // Even the summary does not fit (a limit this small is a caller's choice): the verdict alone.
            return lines([verdict, "", moreLine(rows.count)])
        }
        var size = fixed
        var kept = 0
        for row in rows {
            let rowSize = budget.size(of: row) + 1
            if size + rowSize + reserve >= budget.limit { break }
            size += rowSize
            kept += 1
        }
        let shown = kept > 0 ? table + rows[..<kept] + [""] : []
        return lines(head + shown + [moreLine(rows.count - kept)])
    }

    private func verdictLine(_ overview: ReportOverview) -> String {
        "### \(overview.failed ? "❌" : "✅") catalogcheck \(overview.verdictLine)"
    }

    /// The change rules that need a reviewer's decision (DESIGN.md §2c): undecided price changes and App Store
    /// consent, one row each; nothing when there are none.
    private func existingSubscribers(_ findings: [Finding]) -> [String] {
        let decide = findings.filter {
            $0.rule == .subscriptionPriceChangeUndecided || $0.rule == .subscriptionPriceConsentRequired
        }
        guard !decide.isEmpty else { return [] }
        let undecided = decide.filter { $0.rule == .subscriptionPriceChangeUndecided }.count
        let consent = decide.count - undecided
        var counts: [String] = []
        if undecided > 0 { counts.append(plural(undecided, "price change waits", "price changes wait") + " for a decision") }
        if consent > 0 { counts.append(plural(consent, "App Store increase", "App Store increases") + " may need consent") }
        var lines = [
            "**Existing subscribers: \(counts.joined(separator: "; ")).** Decide in `priceChange` before merging "
                + "(docs/price-changes.md).",
            "",
            "| Store | Product | Territory | Change | Rule |",
            "| --- | --- | --- | --- | --- |",
        ]
        // By store, product and territory: a reviewer reads one store's decisions together.
        func store(_ finding: Finding) -> String { finding.storeKind == .play ? "Google Play" : "App Store" }
        let ordered = decide.sorted {
            (store($0), $0.productID ?? "", $0.territory?.alpha2 ?? "", $0.rule.rawValue)
                < (store($1), $1.productID ?? "", $1.territory?.alpha2 ?? "", $1.rule.rawValue)
        }
        for finding in ordered {
            let store = store(finding)
            let change = [finding.actual, finding.expected].compactMap { $0 }.map(MarkdownEscaper.escape)
                .joined(separator: " → ")
            lines.append(tableRow([
                store, finding.productID.map(MarkdownEscaper.code) ?? "—",
                finding.territory.map { MarkdownEscaper.escape($0.alpha2) } ?? "—", change.isEmpty ? "—" : change,
                MarkdownEscaper.code(finding.rule.rawValue),
            ]))
        }
        return lines + [""]
    }

    private func summaryTable(_ overview: ReportOverview) -> [String] {
        var table = [
            "| Input | Format | Config products | Store products | Matched | Result | Errors | Warnings | Notes |",
            "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
        ]
        for row in overview.rows {
            let input = MarkdownEscaper.code(row.path) + (row.isConfig ? " (config)" : "")
            let cells = [
                input, MarkdownEscaper.escape(row.format), String(row.configProducts),
                row.storeProducts.map(String.init) ?? "—", row.matchedProducts.map(String.init) ?? "—",
                row.failed ? "**failed**" : "passed",
                String(row.counts.errors), String(row.counts.warnings), String(row.counts.notes),
            ]
            table.append(tableRow(cells))
        }
        return table
    }

    private func row(_ finding: Finding) -> String {
        var message = MarkdownEscaper.escape(finding.message)
        if let hint = finding.hint {
            message += "<br>*\(MarkdownEscaper.escape(hint))*"
        }
        return tableRow([
            finding.severity.rawValue,
            MarkdownEscaper.code(finding.rule.rawValue),
            finding.productID.map(MarkdownEscaper.code) ?? "—",
            finding.territory.map { MarkdownEscaper.escape($0.alpha2) } ?? "—",
            side(finding.configValue, finding.configLocation),
            side(finding.storeValue, finding.storeSide),
            message,
        ])
    }

    /// A value over its location (`9.99 EUR<br>` `` `products.yml:14:5` ``), or a dash when neither is known.
    private func side(_ value: String?, _ location: SourceLocation?) -> String {
        let parts = [value.map(MarkdownEscaper.escape), location.map { MarkdownEscaper.code($0.description) }]
        let known = parts.compactMap { $0 }
        return known.isEmpty ? "—" : known.joined(separator: "<br>")
    }

    private func tableRow(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }

    private func moreLine(_ count: Int) -> String {
        "… and \(plural(count, "more finding", "more findings")) (see the full report)"
    }

    private func lines(_ lines: [String]) -> String {
        lines.joined(separator: "\n") + "\n"
    }
}
