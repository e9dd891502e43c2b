import CatalogCore

/// The diff as Markdown for a pull-request comment: a summary line, the subscription price changes that wait for a
/// decision for existing subscribers or may need their consent, the cautions (changes that reach customers who
/// already paid), then one table per change kind (changed fields, added, removed, groups). Every cell is escaped; the text stays under `characterLimit` (GitHub's
/// comment limit is 65,536 characters), ending with a line that says how many rows were left out.
public struct DiffMarkdownRenderer: Sendable {
    /// The most characters (Swift `Character`s) the output may have.
    public var characterLimit: Int

    /// Creates a renderer.
    public init(characterLimit: Int = 65_000) {
        self.characterLimit = characterLimit
    }

    /// The Markdown, ending in a newline.
    public func render(_ diff: CatalogDiff) -> String {
        var out = MarkdownBudget(limit: characterLimit)
        out.line("### catalogcheck diff")
        out.line("")
        let inputs = "old: \(MarkdownEscaper.code(diff.old.path)), new: \(MarkdownEscaper.code(diff.new.path))"
        out.line(diff.isEmpty ? "**No differences** (\(inputs))" : "**\(DiffWording.counts(diff))** (\(inputs))")
        // Price changes that wait for a decision for existing subscribers, or may need their consent, lead:
        // they reach the most people (DESIGN.md §2c).
        let urgent = diff.products.flatMap { product in
            product.fields.compactMap { field in
                field.subscriberImpact.flatMap { $0.isUndecided || $0.mayNeedConsent ? (product, field, $0) : nil }
            }
        }
        if !urgent.isEmpty {
            let undecided = urgent.filter { $0.2.isUndecided }.count
            let consent = urgent.filter { $0.2.mayNeedConsent }.count
            var counts: [String] = []
            if undecided > 0 {
                counts.append("\(undecided) \(undecided == 1 ? "price change waits" : "price changes wait") for a "
                              + "decision (priceChange)")
            }
            if consent > 0 {
                counts.append("\(consent) may need existing App Store subscribers' consent")
            }
            out.line("")
            out.line("> **Existing subscribers: \(counts.joined(separator: "; ")).**")
            out.table(title: "⚠️ Existing subscribers", header: ["Product", "Change", "App Store", "Play"],
                      rows: urgent.map { product, field, impact in
                          let head = "\(DiffWording.label(field)): \(field.old ?? "—") → \(field.new ?? "—")"
                              + (field.percent.map { " (\($0 > 0 ? "+" : "")\($0)%)" } ?? "")
                          return [MarkdownEscaper.code(product.productID), MarkdownEscaper.escape(head),
                                  MarkdownEscaper.escape(impact.appStore?.summary ?? "—"),
                                  MarkdownEscaper.escape(impact.play?.summary ?? "—")]
                      })
        }
        // The cautions come next: what a reviewer must not approve without a second look.
        let cautioned = diff.products.filter { !$0.cautions.isEmpty }
        if !cautioned.isEmpty {
            out.table(title: "⚠️ Cautions", header: ["Product", "Change", "Caution"],
                      rows: cautioned.flatMap { product in
                          product.cautions.map { caution in
                              [MarkdownEscaper.code(product.productID), product.change.rawValue,
                               MarkdownEscaper.escape(DiffWording.caution(caution))]
                          }
                      })
        }

        let changed = diff.products.filter { $0.change == .changed }
        if !changed.isEmpty {
            out.table(title: "Changed", header: ["Product", "Field", "Old", "New", "Note"],
                      rows: changed.flatMap { product in
                          product.fields.map { field in
                              [MarkdownEscaper.code(product.productID), MarkdownEscaper.escape(DiffWording.label(field)),
                               MarkdownEscaper.escape(field.old ?? "—"), MarkdownEscaper.escape(field.new ?? "—"),
                               MarkdownEscaper.escape(DiffWording.note(field) ?? "")]
                          }
                      })
        }
        for kind in [Change.added, .removed] {
            let products = diff.products.filter { $0.change == kind }
            guard !products.isEmpty else { continue }
            out.table(title: kind == .added ? "Added" : "Removed", header: ["Product", "Summary", "Possible rename"],
                      rows: products.map { product in
                          [MarkdownEscaper.code(product.productID), MarkdownEscaper.escape(product.summary ?? ""),
                           renameCell(product)]
                      })
        }
        if !diff.groups.isEmpty {
            out.table(title: "Groups", header: ["Change", "Key", "Old name", "New name"],
                      rows: diff.groups.map { group in
                          [group.change.rawValue, MarkdownEscaper.code(group.key),
                           MarkdownEscaper.escape(group.oldName ?? "—"), MarkdownEscaper.escape(group.newName ?? "—")]
                      })
        }
        return out.finish()
    }

    /// The other ID, and where the two differ when only look-alike characters tell them apart.
    private func renameCell(_ product: ProductChange) -> String {
        guard let other = product.possibleRename else { return "" }
        return MarkdownEscaper.code(other) + (product.lookAlike.map { "<br>" + MarkdownEscaper.escape($0) } ?? "")
    }
}

/// Markdown lines under a character budget: once a row would not fit (with room left for the closing line),
/// the remaining rows are counted instead of written.
struct MarkdownBudget {
    private let limit: Int
    private var lines: [String] = []
    private var used = 0
    private var omittedRows = 0
    /// Room kept for the "N more rows" line.
    private static let reserve = 120

    init(limit: Int) {
        self.limit = limit
    }

    mutating func line(_ text: String) {
        guard omittedRows == 0, fits(text) else { return }
        lines.append(text)
        used += text.count + 1
    }

    /// A `### title` heading and a table, rows cut when the budget runs out.
    mutating func table(title: String, header: [String], rows: [[String]]) {
        guard omittedRows == 0 else {
            omittedRows += rows.count
            return
        }
        let head = ["", "#### \(title)", "", Self.row(header), Self.row(header.map { _ in "---" })]
        guard head.allSatisfy(fits) && fits(head.joined(separator: "\n")) else {
            omittedRows += rows.count
            return
        }
        head.forEach { line($0) }
        for (index, cells) in rows.enumerated() {
            let text = Self.row(cells)
            guard fits(text) else {
                omittedRows += rows.count - index
                return
            }
            line(text)
        }
    }

    /// The text, with the closing line when rows were left out.
    func finish() -> String {
        var all = lines
        if omittedRows > 0 {
            all.append("")
            all.append("… and \(omittedRows) more \(omittedRows == 1 ? "row" : "rows") (see the full output)")
        }
        return all.joined(separator: "\n") + "\n"
    }

    private func fits(_ text: String) -> Bool {
        used + text.count + 1 + Self.reserve <= limit
    }

    private static func row(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }
}
