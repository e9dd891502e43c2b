import CatalogCore

/// The release report's own sections in Markdown (DESIGN.md §2a): the product table with a status per store,
/// then a price table per priced product, mismatched cells marked `≠` (a text mark, not only a colour).
/// `MarkdownReporter` appends them when the context holds a `ReleaseOverview` and they fit its size limit.
struct MarkdownReleaseSections {
    /// What the sections show.
    let overview: ReleaseOverview

    /// The sections' lines.
    var lines: [String] {
        let storeHeaders = overview.stores.map { "\(MarkdownEscaper.code($0.path)) (\($0.format.rawValue))" }
        var lines = ["#### Products", ""]
        lines.append(markdownRow(["Product", "Type", "Group / level", "Period"] + storeHeaders))
        lines.append(markdownRow(Array(repeating: "---", count: 4 + overview.stores.count)))
        for product in overview.products {
            let group = product.group.map { MarkdownEscaper.escape($0) + (product.level.map { " / \($0)" } ?? "") }
            let statuses = zip(product.statuses, product.findings).map { status, count in
                switch status {
                case .ok: "✓ ok"
                case .mismatch: "✗ " + plural(count, "finding", "findings")
                case .missingInStore, .notInConfig, .duplicate: "✗ " + status.rawValue
                case .notSold: status.rawValue
                }
            }
            lines.append(markdownRow([MarkdownEscaper.code(product.productID), product.type ?? "—", group ?? "—",
                                      product.period ?? "—"] + statuses))
        }
        guard !overview.priceMatrices.isEmpty else { return lines }
        lines += ["", "#### Prices", "", "≠ marks a price that disagrees with the config or is missing on one side."]
        for matrix in overview.priceMatrices {
            lines += ["", "##### " + MarkdownEscaper.code(matrix.productID), ""]
            lines.append(markdownRow(["Territory", "Config"] + storeHeaders))
            lines.append(markdownRow(Array(repeating: "---", count: 2 + overview.stores.count)))
            for row in matrix.rows {
                let stores = zip(row.stores, row.mismatched).map { price, mismatched in
                    (mismatched ? "≠ " : "") + (price ?? "—")
                }
                lines.append(markdownRow([row.territory.alpha2, row.config ?? "—"] + stores))
            }
        }
        return lines
    }

    private func markdownRow(_ cells: [String]) -> String {
        "| " + cells.joined(separator: " | ") + " |"
    }
}
