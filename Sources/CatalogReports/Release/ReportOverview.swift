import CatalogCore

/// What the reports for people (Markdown, HTML, the GitHub summary line) say about a result around its
/// findings: the verdict, a row per input with its counts, the suppressed, stale and changed counts, and the findings
/// that count in the order people read them (errors first). Computed once, rendered by each format.
struct ReportOverview {
    /// Error, warning and note counts of some findings.
    struct Counts: Equatable {
        var errors = 0
        var warnings = 0
        var notes = 0

        init(_ findings: [Finding]) {
            for finding in findings {
                switch finding.severity {
                case .error: errors += 1
                case .warning: warnings += 1
                case .note: notes += 1
                }
            }
        }

        /// `2 errors, 1 warning, 0 notes`.
        var phrase: String {
            [plural(errors, "error"), plural(warnings, "warning"), plural(notes, "note")].joined(separator: ", ")
        }
    }

    /// One input: the config (with the findings on the config alone) or a store input (with its findings).
    struct Row {
        /// The input's path as given.
        let path: String
        /// Its format name (`catalog`, `storekit`, …).
        let format: String
        /// Whether this is the config.
        let isConfig: Bool
        /// Config products (for a store: those meant for it).
        let configProducts: Int
        /// Products in the store input; nil for the config.
        let storeProducts: Int?
        /// Products found on both sides; nil for the config.
        let matchedProducts: Int?
        /// The counts of the findings that concern this input.
        let counts: Counts
        /// Whether one of them fails the run.
        let failed: Bool
        /// Reader remarks (assumptions made while reading the input).
        let remarks: [String]
    }

    /// Whether the run fails (exit code 1).
    let failed: Bool
    /// Whether warnings fail the run (`--strict`).
    let strict: Bool
    /// All findings that count.
    let counts: Counts
    /// The config first, then the stores in input order.
    let rows: [Row]
    /// Findings suppressed by `ignore` entries or the baseline.
    let suppressed: Int
    /// Baseline entries that matched no finding.
    let stale: Int
    /// Findings the baseline records with other values (new drift).
    let changed: Int
    /// The findings that count: errors, then warnings, then notes, each in output order.
    let findings: [Finding]

    init(_ result: CheckResult) {
        failed = !result.isConsistent
        strict = result.strict
        let active = result.activeFindings
        counts = Counts(active)
        let configOnly = result.activeFindings(forStore: nil)
        let configRow = Row(path: result.configPath, format: result.configFormat.rawValue, isConfig: true,
                            configProducts: result.configProducts, storeProducts: nil, matchedProducts: nil,
                            counts: Counts(configOnly), failed: configOnly.contains(where: result.fails),
                            remarks: [])
        rows = [configRow] + result.comparisons.map { comparison in
            let mine = result.activeFindings(forStore: comparison.input)
            return Row(path: comparison.storePath, format: comparison.storeFormat.rawValue, isConfig: false,
                       configProducts: comparison.configProducts, storeProducts: comparison.storeProducts,
                       matchedProducts: comparison.matchedProducts, counts: Counts(mine),
                       failed: mine.contains(where: result.fails), remarks: comparison.remarks)
        }
        suppressed = result.suppressedCount
        stale = result.staleBaselineEntries
        changed = result.changedBaselineFindings
        findings = active.enumerated()
            .sorted { ($1.element.severity, $0.offset) < ($0.element.severity, $1.offset) }
            .map(\.element)
    }

    /// `passed` or `failed`.
    var verdict: String { failed ? "failed" : "passed" }

    /// `failed: 2 errors, 1 warning, 2 notes`, with `--strict` named when it applies.
    var verdictLine: String {
        "\(verdict): \(counts.phrase)" + (strict ? " (warnings fail: --strict)" : "")
    }

    /// `1 finding suppressed (…); 1 baseline entry matches no finding (stale); 1 finding changed since the
    /// baseline recorded it (new drift)`, when there are any.
    var policyLine: String? {
        var parts: [String] = []
        if suppressed > 0 {
            parts.append("\(plural(suppressed, "finding")) suppressed (rules-file ignore entries or the baseline) "
                         + "and not shown")
        }
        if stale > 0 {
            parts.append("\(plural(stale, "baseline entry", "baseline entries")) "
                         + "\(stale == 1 ? "matches" : "match") no finding (stale)")
        }
        if changed > 0 {
            parts.append("\(plural(changed, "finding")) changed since the baseline recorded "
                         + "\(changed == 1 ? "it" : "them") (new drift)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}

extension Finding {
    /// The config's value, when `expected` is one: some rules put other things there (a limit, an ID).
    var configValue: String? { rule.comparesSides ? expected : nil }

    /// The store's value, when `actual` is one.
    var storeValue: String? { rule.comparesSides ? actual : nil }
}

extension Rule {
    /// Whether `expected` and `actual` are the config's and the store's value. The other rules look at one
    /// catalog (a trial against its own period, an ID listed twice, a storefront, an ignore entry's date)
    /// and say what they found in the message; a report that heads its columns "Config" and "Store" leaves
    /// their values out.
    fileprivate var comparesSides: Bool {
        switch self {
        case .productMissingInStore, .productMissingInConfig, .appMismatch, .typeMismatch, .priceMismatch,
             .priceMissingInStore,
             .priceMissingInConfig, .periodMismatch, .groupMismatch, .groupLevelMismatch, .groupMissingInStore,
             .introOfferMismatch, .familySharingMismatch, .availabilityMismatch, .nameMismatch, .offerMissingInStore,
             .offerMissingInConfig, .offerMismatch, .billingPlanMissingInStore, .billingPlanPriceMismatch,
             .purchaseOptionMismatch, .priceNotEqualized, .priceScheduleMismatch:
            true
        case .duplicateProductID, .introOfferExceedsPeriod, .storekitSingleStorefront, .ignoreExpired, .ignoreUnused,
             .offerIDReused, .offerFreeWithPrice, .offerNotADiscount, .billingPlanOutOfRange, .pricesNotCompared,
             .currencyNotValidAtDate, .currencyChangeoverAhead, .subscriptionPriceMatrixIncomplete:
            false
        }
    }
}

/// `1 error`, `2 errors`.
func plural(_ count: Int, _ singular: String, _ pluralForm: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : pluralForm ?? singular + "s")"
}
