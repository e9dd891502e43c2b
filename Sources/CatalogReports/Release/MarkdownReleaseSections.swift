import CatalogCore

/// The release document in Markdown (DESIGN.md §2a), in the HTML document's order: who and when, the verdict
/// per store, the picture at a glance, with `--since` what the release changes, the products with their status
/// per store and then each one's findings, the price tables with each store's difference, and the sources.
/// Mismatched cells are marked `≠` (a text mark, not only a colour); a look-alike ID gets a line saying where it
/// differs. `MarkdownReporter` writes it when the context holds a `ReleaseOverview` (the `report` command).
struct MarkdownReleaseSections {
    /// The verdict, counts per input and the findings that count.
    let check: ReportOverview
    /// Products, prices and changes.
    let release: ReleaseOverview
    /// The config's path as given.
    let configPath: String
    /// The day prices were evaluated at.
    let asOf: CalendarDate?

    /// The whole document, ending in a newline.
    var document: String {
        var lines = about() + verdict() + glance()
        if let changes = release.changes { lines += self.changes(changes) }
        lines += products() + prices() + sources()
        return lines.joined(separator: "\n") + "\n"
    }

    private func about() -> [String] {
        var meta: [String] = []
        if let asOf { meta.append("Prices as of \(asOf)") }
        meta.append("config \(MarkdownEscaper.code(configPath))")
        if !release.stores.isEmpty { meta.append(release.stores.map { MarkdownEscaper.escape($0.label) }.joined(separator: ", ")) }
        meta.append("\(ToolInfo.name) \(ToolInfo.version)")
        let app = release.appID.map { ": " + MarkdownEscaper.code($0) } ?? ""
        return ["# Release report\(app)", "", meta.joined(separator: " · "), ""]
    }

    private func verdict() -> [String] {
        var lines = ["## \(check.failed ? "❌ Failed" : "✅ Passed") — \(check.counts.phrase)"
                     + (check.strict ? " (warnings fail: --strict)" : ""), ""]
        lines.append(row(["Where", "Result", "Errors", "Warnings", "Notes", "Matched"]))
        lines.append(row(["---", "---", "---:", "---:", "---:", "---:"]))
        for (index, input) in check.rows.enumerated() where !input.isConfig || input.counts != .zero {
            let label = index == 0 ? "Config and rules file" : MarkdownEscaper.escape(release.stores[index - 1].label)
            let matched = input.matchedProducts.map { "\($0) of \(input.configProducts)" } ?? "—"
            lines.append(row([label, input.failed ? "**failed**" : "passed", String(input.counts.errors),
                              String(input.counts.warnings), String(input.counts.notes), matched]))
        }
        if let policy = check.policyLine { lines += ["", policy + "."] }
        return lines + [""]
    }

    private func glance() -> [String] {
        let facts = release.glance
        return ["## At a glance", "", (["**\(facts.headline)**"] + facts.details).joined(separator: "; ") + ".", ""]
    }

    private func changes(_ diff: CatalogDiff) -> [String] {
        var lines = ["## What this release changes", "",
                     "Since \(MarkdownEscaper.code(diff.old.path)): "
                        + (diff.isEmpty ? "no differences" : DiffWording.counts(diff)) + ".", ""]
        for group in diff.groups { lines.append("- " + MarkdownEscaper.escape(DiffWording.group(group))) }
        if !diff.groups.isEmpty { lines.append("") }
        guard !diff.products.isEmpty else { return lines }
        lines += [row(["Product", "Change"]), row(["---", "---"])]
        for product in diff.products {
            var what: [String]
            switch product.change {
            case .changed:
                what = product.fields.map { field in
                    var text = "\(DiffWording.label(field)): \(field.old ?? "none") → \(field.new ?? "none")"
                    if let note = DiffWording.note(field) { text += " (\(note))" }
                    return MarkdownEscaper.escape(text)
                }
            case .added, .removed:
                var text = product.change == .added ? "**added**" : "**removed**"
                if let summary = product.summary { text += " — " + MarkdownEscaper.escape(summary) }
                if let rename = product.possibleRename {
                    text += (product.change == .added ? " (possibly a rename of " : " (possibly renamed to ")
                        + MarkdownEscaper.code(rename) + ")"
                }
                what = [text]
            }
            what += product.cautions.map { "⚠ **caution:** " + MarkdownEscaper.escape(DiffWording.caution($0)) }
            lines.append(row([title(product.productID), what.joined(separator: "<br>")]))
        }
        return lines + [""]
    }

    private func products() -> [String] {
        var lines = ["## Products (\(release.products.count))", ""]
        lines.append(row(["Product", "Name", "Type"] + release.stores.map { MarkdownEscaper.escape($0.label) }))
        lines.append(row(Array(repeating: "---", count: 3 + release.stores.count)))
        for product in release.products {
            var kind = product.type ?? "—"
            if let group = product.group { kind += ", " + MarkdownEscaper.escape(group) + (product.level.map { " / \($0)" } ?? "") }
            if let period = product.period { kind += ", \(period)" }
            if let intro = product.introOffer { kind += ", intro offer \(intro)" }
            let statuses = zip(product.statuses, product.findings).map { status, count in
                switch status {
                case .ok: "✓ ok"
                case .mismatch: "✗ " + plural(count, "finding", "findings")
                case .missingInStore, .notInConfig, .duplicate: "✗ " + status.rawValue
                case .notSold: status.rawValue
                }
            }
            lines.append(row([markedCode(product.productID, offsets: product.lookAlike?.offsets),
                              product.name.map(MarkdownEscaper.escape) ?? "—", kind] + statuses))
        }
        lines.append("")
        for product in release.products
        where !product.details.isEmpty || !product.offers.isEmpty || product.lookAlike != nil {
            lines += ["### " + title(product.productID), ""]
            if let lookAlike = product.lookAlike {
                lines.append("- ⚠ **looks like** \(MarkdownEscaper.code(lookAlike.other)): "
                             + MarkdownEscaper.escape(lookAlike.description))
            }
            if !product.offers.isEmpty {
                lines.append("- Offers: " + MarkdownEscaper.escape(product.offers.joined(separator: "; ")))
            }
            lines += product.details.map { "- " + findingLine($0, hint: product.lookAlike == nil) }
            lines.append("")
        }
        if !release.otherFindings.isEmpty {
            lines += ["### Groups, storefronts and rules", ""]
            lines += release.otherFindings.map { "- " + findingLine($0) }
            lines.append("")
        }
        return lines
    }

    /// `**error** App Store `price-mismatch` US: config 6.99 USD → store 7.99 USD`, else the message; the
    /// hint in italics.
    private func findingLine(_ finding: Finding, hint showsHint: Bool = true) -> String {
        let source = finding.storeInput.map { input in
            release.stores.first { $0.input == input }?.label ?? "store"
        } ?? "config"
        var line = "**\(finding.severity.rawValue)** \(MarkdownEscaper.escape(source)) "
            + MarkdownEscaper.code(finding.rule.rawValue)
        if let territory = finding.territory { line += " \(territory.alpha2)" }
        if let presence = finding.presence {
            line += ": " + presence
        } else if finding.configValue != nil || finding.storeValue != nil {
            line += ": " + MarkdownEscaper.escape("config \(finding.configValue ?? "none") → store \(finding.storeValue ?? "none")")
        } else {
            line += ": " + MarkdownEscaper.escape(finding.message)
        }
        if showsHint, let hint = finding.hint { line += " — *\(MarkdownEscaper.escape(hint))*" }
        return line
    }

    private func prices() -> [String] {
        guard !release.priceMatrices.isEmpty else { return [] }
        var lines = ["## Prices", "",
                     PriceMarks.legend(difference: "in brackets, the store's difference from the config"), ""]
        for store in release.stores {
            guard let points = store.pricePoints else { continue }
            lines += [MarkdownEscaper.escape("\(store.label): \(points)."), ""]
        }
        for matrix in release.matricesDifferingFirst {
            lines += ["### " + title(matrix.productID), ""]
            lines.append(row(["Territory", "Config"] + release.stores.map { MarkdownEscaper.escape($0.label) }))
            lines.append(row(["---", "---:"] + Array(repeating: "---:", count: release.stores.count)))
            for price in matrix.rows {
                let stores = price.stores.indices.map { index in
                    let missing = price.compared[index] ? "—" : PriceMarks.notCompared
                    var cell = (price.mismatched[index] ? "≠ " : "") + (price.stores[index]?.description ?? missing)
                    if let difference = price.difference(store: index) { cell += " (\(difference.text))" }
                    if let origin = price.storeOrigins[index] { cell += " · " + MarkdownEscaper.escape(origin) }
                    return cell
                }
                var config = price.config?.description ?? (price.configOrigin == nil ? "—" : "")
                if let origin = price.configOrigin {
                    config += (config.isEmpty ? "" : " · ") + MarkdownEscaper.escape(origin)
                }
                lines.append(row([price.territory.alpha2, config] + stores))
            }
            if !matrix.differs { lines += ["", MarkdownEscaper.escape(release.agreement(of: matrix))] }
            lines.append("")
        }
        return lines
    }

    private func sources() -> [String] {
        var lines = ["## Sources", "", row(["Input", "Format", "Products", "Matched", "Findings"]),
                     row(["---", "---", "---:", "---:", "---"])]
        for input in check.rows {
            lines.append(row([MarkdownEscaper.code(input.path) + (input.isConfig ? " (config)" : ""),
                              MarkdownEscaper.escape(input.format), String(input.storeProducts ?? input.configProducts),
                              input.matchedProducts.map(String.init) ?? "—", input.counts.phrase]))
        }
        lines.append("")
        let remarks = check.rows.flatMap { input in
            input.remarks.map { "- \(MarkdownEscaper.code(input.path)): \(MarkdownEscaper.escape($0))" }
        }
        if !remarks.isEmpty { lines += ["Store remarks:", ""] + remarks + [""] }
        lines += ["### Findings (\(check.findings.count))", ""]
        if check.findings.isEmpty { return lines + ["No findings."] }
        for (number, finding) in check.findings.enumerated() {
            let locations = [finding.configLocation, finding.storeSide].compactMap { $0 }
                .map { MarkdownEscaper.code($0.description) }.joined(separator: ", ")
            var line = "\(number + 1). \(finding.severity.rawValue) \(MarkdownEscaper.code(finding.rule.rawValue))"
            if let product = finding.productID { line += " \(MarkdownEscaper.code(product))" }
            line += ": " + MarkdownEscaper.escape(finding.message)
            if !locations.isEmpty { line += " — " + locations }
            lines.append(line)
        }
        return lines
    }

    /// A product's ID and name: `` `com.trailmate.app.pro.yearly` — Pro Yearly ``; an ID that looks like
    /// another has the characters where they differ in bold (`` `com.trailmate.app.coins.5`**`OO`** ``).
    private func title(_ id: String) -> String {
        let row = release.product(id)
        return markedCode(id, offsets: row?.lookAlike?.offsets) + (row?.name.map { " — " + MarkdownEscaper.escape($0) } ?? "")
    }

    /// `id` as code spans, the runs at `offsets` in bold (an invisible character written as its code point).
    private func markedCode(_ id: String, offsets: [Int]?) -> String {
        guard let offsets, !offsets.isEmpty else { return MarkdownEscaper.code(id) }
        let marked = Set(offsets)
        var runs: [(text: String, marked: Bool)] = []
        for (offset, scalar) in id.unicodeScalars.enumerated() {
            let isMarked = marked.contains(offset)
            let piece = isMarked && scalar.properties.generalCategory == .format
                ? "[U+\(String(scalar.value, radix: 16, uppercase: true))]" : String(scalar)
            if let last = runs.last, last.marked == isMarked {
                runs[runs.count - 1].text += piece
            } else {
                runs.append((piece, isMarked))
            }
        }
        return runs.map { $0.marked ? "**" + MarkdownEscaper.code($0.text) + "**" : MarkdownEscaper.code($0.text) }
            .joined()
    }

    private func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }
}
