import CatalogCore

/// The release document's sections in the order DESIGN.md §2a gives (a release manager reads from the top and
/// may stop anywhere): who and when, the verdict per store, the picture at a glance counted per product, with
/// `--since` what the release changes, the products by name and ID with their findings, the price matrices
/// with each store's difference and a chart, and last the sources (inputs and every finding's location).
/// Without a `ReleaseOverview` (a reporter given only the findings) the product sections are left out and the
/// sources carry every finding.
struct HTMLReleaseSections: HTMLReportPieces {
    /// The verdict, counts per input and the findings that count.
    let check: ReportOverview
    /// Products, prices and changes; nil when only the findings are known.
    let release: ReleaseOverview?
    /// The config's path as given.
    let configPath: String
    /// The day prices were evaluated at.
    let asOf: CalendarDate?

    /// Every section, in reading order.
    var sections: [HTMLNode] {
        var sections = [about(), verdict(), glance()]
        if let release {
            if let changes = release.changes { sections.append(changesSection(changes)) }
            sections += [products(release), prices(release)]
        }
        sections.append(sources())
        return sections
    }

    /// `Release report: com.trailmate.app`, else the config's file name.
    var title: String {
        "Release report: " + (release?.appID ?? fileName(configPath))
    }

    // MARK: - Who and when

    private func about() -> HTMLNode {
        HTMLNode("header", HTMLAttribute("id", "about")) {
            HTMLNode("h1") {
                "Release report"
                if let app = release?.appID {
                    HTMLNode("span", .class("app")) { HTMLNode("code") { HTMLNode.breakable(app, after: ["."]) } }
                }
            }
            HTMLNode("p", .class("meta")) {
                if let asOf { "Prices as of \(asOf) · " }
                "config "
                HTMLNode("code") { breakablePath(configPath) }
                if let release {
                    " · " + release.stores.map(\.label).joined(separator: ", ")
                }
                " · \(ToolInfo.name) \(ToolInfo.version)"
            }
        }
    }

    // MARK: - Verdict per store

    private func verdict() -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "verdict"), .class("verdict \(check.verdict)")) {
            HTMLNode("p", .class("verdict-line")) {
                HTMLNode("strong") { check.failed ? "✗ Failed" : "✓ Passed" }
                " — \(check.counts.phrase)"
                if check.strict { " (warnings fail: --strict)" }
            }
            HTMLNode("ul", .class("stores")) {
                for (index, row) in check.rows.enumerated() where !row.isConfig || row.counts != .zero {
                    HTMLNode("li") {
                        HTMLNode("span", .class("result \(row.failed ? "failed" : "passed")")) {
                            row.failed ? "✗ failed" : "✓ passed"
                        }
                        " "
                        HTMLNode("strong") { label(ofRow: index) }
                        " — \(row.counts.phrase)"
                        if let matched = row.matchedProducts {
                            HTMLNode("span", .class("muted")) {
                                " · \(matched) of \(plural(row.configProducts, "config product")) matched"
                            }
                        }
                    }
                }
            }
            if let policy = check.policyLine {
                HTMLNode("p", .class("policy")) { policy + "." }
            }
        }
    }

    /// The config's row is "config and rules file"; a store's row its label.
    private func label(ofRow index: Int) -> String {
        guard index > 0 else { return "Config and rules file" }
        return release?.stores[index - 1].label ?? check.rows[index].path
    }

    // MARK: - At a glance

    private func glance() -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "glance")) {
            HTMLNode("h2") { "At a glance" }
            if let release {
                let facts = release.glance
                HTMLNode("p", .class("glance")) {
                    HTMLNode("strong") { facts.headline }
                    if !facts.details.isEmpty { "; " + facts.details.joined(separator: "; ") }
                }
            } else {
                HTMLNode("p", .class("glance")) {
                    HTMLNode("strong") { plural(check.findings.count, "finding") }
                }
            }
        }
    }

    // MARK: - What this release changes

    private func changesSection(_ diff: CatalogDiff) -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "changes")) {
            HTMLNode("h2") { "What this release changes" }
            HTMLNode("p", .class("meta")) {
                "Since "
                HTMLNode("code") { breakablePath(diff.old.path) }
                ": " + (diff.isEmpty ? "no differences" : DiffWording.counts(diff)) + "."
            }
            if !diff.groups.isEmpty {
                HTMLNode("ul", .class("plain")) {
                    for group in diff.groups { HTMLNode("li") { DiffWording.group(group) } }
                }
            }
            if !diff.products.isEmpty {
                scrolling {
                    HTMLNode("table", .class("changes")) {
                        HTMLNode("thead") {
                            HTMLNode("tr") { header("Product"); header("Change") }
                        }
                        HTMLNode("tbody") {
                            for product in diff.products { changeRow(product) }
                        }
                    }
                }
            }
        }
    }

    private func changeRow(_ product: ProductChange) -> HTMLNode {
        HTMLNode("tr", .class("change \(product.change.rawValue)")) {
            HTMLNode("td", .class("product")) {
                let row = release?.product(product.productID)
                productTitle(row?.name, product.productID, lookAlike: row?.lookAlike)
            }
            HTMLNode("td") {
                switch product.change {
                case .changed:
                    HTMLNode("ul", .class("plain")) {
                        for field in product.fields { HTMLNode("li") { fieldChange(field) } }
                    }
                case .added, .removed:
                    HTMLNode("strong") { product.change == .added ? "+ added" : "− removed" }
                    if let summary = product.summary { " — \(summary)" }
                    if let rename = product.possibleRename {
                        HTMLNode("div", .class("muted")) {
                            product.change == .added ? "possibly a rename of " : "possibly renamed to "
                            HTMLNode("code") {
                                markedID(rename, offsets: LookAlikes.markedOffsets(rename, from: product.productID),
                                         description: LookAlikes.difference(rename, from: product.productID))
                            }
                        }
                    }
                }
                // What reaches customers who already paid, under the change it is about (DESIGN §2a).
                for caution in product.cautions {
                    HTMLNode("div", .class("caution")) {
                        HTMLNode("strong") { "⚠ caution: " }
                        DiffWording.caution(caution)
                    }
                }
            }
        }
    }

    private func fieldChange(_ field: FieldChange) -> [HTMLNode] {
        var nodes: [HTMLNode] = [
            .text("\(DiffWording.label(field)): \(field.old ?? "none") → \(field.new ?? "none")"),
        ]
        if let note = DiffWording.note(field) {
            // Bold where existing subscribers wait for a decision or may have to consent (DESIGN.md §2c).
            let urgent = field.subscriberImpact.map { $0.isUndecided || $0.mayNeedConsent } ?? false
            let kind = urgent ? "impact attention" : "impact"
            nodes.append(HTMLNode("span", .class(kind)) { " (\(note))" })
        }
        return nodes
    }

    // MARK: - Products

    private func products(_ release: ReleaseOverview) -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "products")) {
            HTMLNode("h2") { "Products (\(release.products.count))" }
            if release.products.isEmpty {
                HTMLNode("p") { "No products." }
            } else {
                HTMLNode("div", .class("frame")) {
                    HTMLNode("table", .class("products")) {
                        HTMLNode("thead") {
                            HTMLNode("tr") {
                                header("Product")
                                for store in release.stores { storeHeader(store) }
                            }
                        }
                        for product in release.products { productBody(product, stores: release.stores) }
                    }
                }
            }
            if !release.otherFindings.isEmpty {
                HTMLNode("h3") { "Groups, storefronts and rules" }
                HTMLNode("ul", .class("details")) {
                    for finding in release.otherFindings { HTMLNode("li") { findingLine(finding, release) } }
                }
            }
        }
    }

    private func storeHeader(_ store: ReleaseOverview.Store) -> HTMLNode {
        HTMLNode("th", HTMLAttribute("scope", "col"), .class("store")) {
            store.label
            HTMLNode("div", .class("muted format")) { store.format.rawValue }
        }
    }

    /// A product's row (name, ID, what it is; a status per store) and, when it has any, a row below with its
    /// offers, the look-alike ID and its findings: one `tbody` per product keeps the two together in print.
    private func productBody(_ product: ReleaseOverview.ProductRow, stores: [ReleaseOverview.Store]) -> HTMLNode {
        let hasDetails = !product.details.isEmpty || !product.offers.isEmpty || product.lookAlike != nil
        return HTMLNode("tbody", attributes: [.class(product.needsAttention ? "product attention" : "product"),
                                               HTMLAttribute("id", (product.inConfig ? "product-" : "store-product-") + anchor(product.productID))]) {
            HTMLNode("tr") {
                HTMLNode("th", HTMLAttribute("scope", "row"), .class("product")) {
                    productTitle(product.name, product.productID, lookAlike: product.lookAlike)
                    HTMLNode("div", .class("muted kind")) { describe(product) }
                }
                for (status, count) in zip(product.statuses, product.findings) { statusCell(status, findings: count) }
            }
            if hasDetails {
                HTMLNode("tr", .class("details")) {
                    HTMLNode("td", HTMLAttribute("colspan", String(stores.count + 1))) {
                        if let lookAlike = product.lookAlike {
                            HTMLNode("p", .class("lookalike-note")) {
                                HTMLNode("strong") { "⚠ Looks like " }
                                HTMLNode("code") { HTMLNode.breakable(lookAlike.other, after: ["."]) }
                                ": \(lookAlike.description)."
                            }
                        }
                        if !product.offers.isEmpty {
                            HTMLNode("p", .class("offers")) {
                                HTMLNode("span", .class("muted")) { "Offers: " }
                                product.offers.joined(separator: "; ")
                            }
                        }
                        if !product.details.isEmpty {
                            HTMLNode("ul", .class("details")) {
                                for finding in product.details {
                                    HTMLNode("li") { findingLine(finding, release, hint: product.lookAlike == nil) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `auto-renewable · Trailmate Plus / 1 · P1Y`.
    private func describe(_ product: ReleaseOverview.ProductRow) -> String {
        var parts = [product.type ?? "type unknown"]
        if let group = product.group { parts.append(group + (product.level.map { " / \($0)" } ?? "")) }
        if let period = product.period { parts.append(period) }
        if let intro = product.introOffer { parts.append("intro offer \(intro)") }
        if !product.inConfig { parts.append("only in a store") }
        return parts.joined(separator: " · ")
    }

    private func statusCell(_ status: ReleaseOverview.Status, findings: Int) -> HTMLNode {
        let (kind, text): (String, String) = switch status {
        case .ok: ("ok", "✓ ok")
        case .mismatch: ("mismatch", "✗ \(plural(findings, "finding", "findings"))")
        case .missingInStore: ("missing", "✗ missing in store")
        case .notInConfig: ("missing", "✗ not in config")
        case .duplicate: ("missing", "✗ duplicate ID")
        case .notSold: ("other", "not sold here")
        }
        return HTMLNode("td", .class("status-cell")) { HTMLNode("span", .class("status \(kind)")) { text } }
    }

    /// One finding, short: severity, where (config or a store), rule and territory, then both values
    /// (`config 6.99 USD → store 7.99 USD (+1.00 USD, +14.3%)`), else the message; the hint below. Locations are
    /// in the sources section.
    private func findingLine(_ finding: Finding, _ release: ReleaseOverview?, hint showsHint: Bool = true) -> [HTMLNode] {
        let severity = finding.severity.rawValue
        var nodes: [HTMLNode] = [
            HTMLNode("span", .class("badge \(severity)")) { severity },
            .text(" "),
            HTMLNode("span", .class("where")) { source(of: finding, release) },
            .text(" "),
            HTMLNode("code", .class("rule")) { finding.rule.rawValue },
        ]
        if let territory = finding.territory { nodes.append(.text(" \(territory.alpha2)")) }
        nodes.append(.text(": "))
        if let presence = finding.presence {
            nodes.append(.text(presence))
        } else if finding.configValue != nil || finding.storeValue != nil {
            nodes.append(.text("config \(finding.configValue ?? "none") → store \(finding.storeValue ?? "none")"))
            if let config = finding.configValue.flatMap(Self.money), let store = finding.storeValue.flatMap(Self.money),
               config != store {
                nodes.append(.text(" (\(PriceDifference(config: config, store: store).text))"))
            }
        } else {
            nodes.append(.text(finding.message))
        }
        if showsHint, let hint = finding.hint {
            nodes.append(HTMLNode("div", .class("hint")) { hint })
        }
        return nodes
    }

    /// `App Store`, `Google Play`, or `config` for a finding on the config alone.
    private func source(of finding: Finding, _ release: ReleaseOverview?) -> String {
        guard let input = finding.storeInput else { return "config" }
        return release?.stores.first { $0.input == input }?.label ?? finding.store ?? "store"
    }

    // MARK: - Prices

    private func prices(_ release: ReleaseOverview) -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "prices")) {
            HTMLNode("h2") { "Prices" }
            if release.priceMatrices.isEmpty {
                HTMLNode("p") { "No product states a price." }
            } else {
                HTMLNode("p", .class("legend")) {
                    PriceMarks.legend(difference: "under a store's price, its difference from the config")
                }
                for store in release.stores {
                    if let points = store.pricePoints { HTMLNode("p", .class("legend")) { "\(store.label): \(points)." } }
                }
                for matrix in release.matricesDifferingFirst { priceBlock(matrix, release: release) }
            }
        }
    }

    private func priceBlock(_ matrix: ReleaseOverview.PriceMatrix, release: ReleaseOverview) -> HTMLNode {
        let lookAlike = release.product(matrix.productID)?.lookAlike
        return HTMLNode("div", .class(matrix.differs ? "matrix differs" : "matrix")) {
            HTMLNode("h3") { productTitle(matrix.name, matrix.productID, lookAlike: lookAlike) }
            HTMLNode("div", .class("matrix-body")) {
                HTMLNode("div", .class("frame")) {
                    HTMLNode("table", .class("prices")) {
                        HTMLNode("thead") {
                            HTMLNode("tr") {
                                header("Territory")
                                header("Config", numeric: true)
                                for store in release.stores { header(store.label, numeric: true) }
                            }
                        }
                        HTMLNode("tbody") {
                            for row in matrix.rows { priceRow(row) }
                        }
                    }
                }
                if matrix.differs {
                    PriceChart(matrix: matrix, stores: release.stores).svg()
                } else {
                    HTMLNode("p", .class("muted agree")) { release.agreement(of: matrix) }
                }
            }
        }
    }

    private func priceRow(_ row: ReleaseOverview.PriceRow) -> HTMLNode {
        HTMLNode("tr") {
            HTMLNode("th", HTMLAttribute("scope", "row")) { row.territory.alpha2 }
            HTMLNode("td", .class("price")) {
                if let config = row.config { config.description } else if row.configOrigin == nil { dash() }
                if let origin = row.configOrigin { HTMLNode("div", .class("origin muted")) { origin } }
            }
            for index in row.stores.indices {
                HTMLNode("td", .class(row.mismatched[index] ? "price mismatch" : "price")) {
                    if row.mismatched[index] { "≠ " }
                    if let price = row.stores[index] {
                        price.description
                    } else if row.compared[index] {
                        dash()
                    } else {
                        HTMLNode("span", .class("muted nc"), HTMLAttribute("title", PriceMarks.notComparedTitle)) {
                            PriceMarks.notCompared
                        }
                    }
                    if let difference = row.difference(store: index) {
                        HTMLNode("div", .class("difference")) { difference.text }
                    }
                    if let origin = row.storeOrigins[index] { HTMLNode("div", .class("origin muted")) { origin } }
                }
            }
        }
    }

    // MARK: - Sources

    /// The inputs with their formats and counts, the readers' remarks, and every finding with both locations.
    private func sources() -> HTMLNode {
        let remarks = check.rows.flatMap { row in row.remarks.map { (row.path, $0) } }
        return HTMLNode("section", HTMLAttribute("id", "sources")) {
            HTMLNode("h2") { "Sources" }
            scrolling {
                HTMLNode("table", .class("summary")) {
                    HTMLNode("thead") {
                        HTMLNode("tr") {
                            header("Input")
                            header("Format")
                            header("Products", numeric: true)
                            header("Matched", numeric: true)
                            header("Findings")
                        }
                    }
                    HTMLNode("tbody") {
                        for row in check.rows {
                            HTMLNode("tr") {
                                HTMLNode("td") {
                                    HTMLNode("code") { breakablePath(row.path) }
                                    if row.isConfig { HTMLNode("span", .class("muted")) { " (config)" } }
                                }
                                HTMLNode("td") { row.format }
                                HTMLNode("td", .class("num")) { String(row.storeProducts ?? row.configProducts) }
                                HTMLNode("td", .class("num")) {
                                    if let matched = row.matchedProducts { String(matched) } else { dash() }
                                }
                                HTMLNode("td") { row.counts.phrase }
                            }
                        }
                    }
                }
            }
            if !remarks.isEmpty {
                HTMLNode("h3") { "Store remarks" }
                HTMLNode("ul", .class("remarks")) {
                    for (path, remark) in remarks {
                        HTMLNode("li") {
                            HTMLNode("code") { breakablePath(path) }
                            ": \(remark)"
                        }
                    }
                }
            }
            HTMLNode("h3") { "Findings (\(check.findings.count))" }
            if check.findings.isEmpty {
                HTMLNode("p") { "No findings." }
            } else {
                HTMLNode("ol", .class("findings")) {
                    for finding in check.findings { sourceLine(finding) }
                }
            }
        }
    }

    /// A finding as `check` prints it, with both locations: what to open to fix it.
    private func sourceLine(_ finding: Finding) -> HTMLNode {
        let severity = finding.severity.rawValue
        return HTMLNode("li", .class(severity)) {
            HTMLNode("span", .class("badge \(severity)")) { severity }
            " "
            HTMLNode("code", .class("rule")) { finding.rule.rawValue }
            if let product = finding.productID {
                " "
                HTMLNode("code", .class("product")) { HTMLNode.breakable(product, after: ["."]) }
            }
            HTMLNode("div", .class("message")) { finding.message }
            if let hint = finding.hint { HTMLNode("div", .class("hint")) { "Hint: \(hint)" } }
            HTMLNode("div", .class("locations")) {
                if let config = finding.configLocation {
                    HTMLNode("span", .class("muted")) { "config " }
                    HTMLNode("code") { breakablePath(config.description) }
                }
                if let store = finding.storeSide {
                    HTMLNode("span", .class("muted")) { finding.configLocation == nil ? "store " : " · store " }
                    HTMLNode("code") { breakablePath(store.description) }
                }
            }
        }
    }

    // MARK: - Pieces

    /// The product's name over its ID; characters where the ID differs from a look-alike one are marked.
    private func productTitle(_ name: String?, _ id: String, lookAlike: ReleaseOverview.LookAlike?) -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        if let name { nodes.append(HTMLNode("span", .class("name")) { name }) }
        nodes.append(HTMLNode("code", .class("id")) {
            markedID(id, offsets: lookAlike?.offsets, description: lookAlike?.description)
        })
        return nodes
    }

    /// The ID with a `<mark>` around each character at `offsets` (where it differs from a look-alike ID; an
    /// invisible one shown as its code point), titled with `description`, and break opportunities after its dots.
    private func markedID(_ id: String, offsets: [Int]?, description: String?) -> [HTMLNode] {
        guard let offsets, let description else { return HTMLNode.breakable(id, after: ["."]) }
        let marked = Set(offsets)
        var nodes: [HTMLNode] = []
        var plain = ""
        for (offset, scalar) in id.unicodeScalars.enumerated() {
            guard marked.contains(offset) else {
                plain.unicodeScalars.append(scalar)
                if scalar == "." {
                    nodes += [.text(plain), HTMLNode("wbr")]
                    plain = ""
                }
                continue
            }
            if !plain.isEmpty { nodes.append(.text(plain)) }
            plain = ""
            let visible = scalar.properties.generalCategory == .format
                ? "[U+\(String(scalar.value, radix: 16, uppercase: true))]" : String(scalar)
            nodes.append(HTMLNode("mark", HTMLAttribute("title", description), .class("lookalike")) {
                visible
            })
        }
        if !plain.isEmpty { nodes.append(.text(plain)) }
        return nodes
    }

    /// An ID as a fragment name: ASCII letters, digits, `.`, `-` and `_` kept, anything else `_`.
    private func anchor(_ id: String) -> String {
        var name = ""
        for scalar in id.unicodeScalars {
            let kept = scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                                          || scalar == "." || scalar == "-" || scalar == "_")
            name.unicodeScalars.append(kept ? scalar : "_")
        }
        return name
    }

    /// A price finding's canonical value (`6.99 USD`) as money; nil for any other value.
    private static func money(_ text: String) -> Money? {
        let parts = text.split(separator: " ")
        guard parts.count == 2, let amount = Money.parseAmount(parts[0]), let currency = CurrencyCode(String(parts[1]))
        else { return nil }
        return Money(amount: amount, currency: currency)
    }

    private func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}

extension Finding {
    /// A missing product said in a few words (the status column already says which store, the sources section
    /// where): `in the config, not in this store`; nil for rules about something else (`Rule.sides`).
    var presence: String? {
        switch rule.sides {
        case .configProductOnly: "in the config, not in this store"
        case .storeProductOnly: "in this store, not in the config"
        case .compared, .repeatedRecords, .oneCatalog: nil
        }
    }
}

extension ReportOverview.Counts {
    /// No findings.
    static let zero = ReportOverview.Counts([])
}
