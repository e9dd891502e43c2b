/// The table pieces of the HTML release document (`HTMLReleaseSections`): a scrolling frame, column headers,
/// paths that wrap between folders, the empty-cell dash, all styled by `HTMLReporter`'s one style sheet.
protocol HTMLReportPieces {}

extension HTMLReportPieces {
    /// A table inside a frame that scrolls sideways when it is wider than the screen.
    func scrolling(@HTMLContentBuilder _ table: () -> [HTMLNode]) -> HTMLNode {
        HTMLNode("div", .class("scroll"), children: table)
    }

    /// A column (or column group) header; `numeric` right-aligns it over numbers.
    func header(_ title: String, numeric: Bool = false, rows: Int = 1, columns: Int = 1) -> HTMLNode {
        var attributes = [HTMLAttribute("scope", columns > 1 ? "colgroup" : "col")]
        if numeric { attributes.append(.class("num")) }
        if rows > 1 { attributes.append(HTMLAttribute("rowspan", String(rows))) }
        if columns > 1 { attributes.append(HTMLAttribute("colspan", String(columns))) }
        return HTMLNode("th", attributes: attributes) { title }
    }

    /// A path that wraps only between folders: a file name and its `:line:column` stay together.
    func breakablePath(_ path: String) -> [HTMLNode] {
        HTMLNode.breakable(path, after: ["/"])
    }

    /// The mark of an empty cell.
    func dash() -> HTMLNode {
        HTMLNode("span", .class("muted")) { "—" }
    }
}

/// The marks of a price matrix's cells, and the legend that explains them, for every release document.
enum PriceMarks {
    /// A store that did not compare the territory: not in that input, or the input cannot price it.
    static let notCompared = "n/c"
    /// The tooltip of `notCompared`.
    static let notComparedTitle = "not compared: this store input does not have the product or cannot price this territory"
    /// The legend above the matrices; `difference` says where a store's difference from the config is written
    /// (`under a store's price, its difference from the config`).
    static func legend(difference: String) -> String {
        "Products whose prices differ come first. ≠ marks a price that disagrees with the config or that one side "
            + "lacks; \(difference) (+ means the store charges more). — means no price there; \(notCompared) means "
            + "not compared: the store input does not have the product, or cannot price that territory (a .storekit "
            + "file prices one storefront)."
    }
}
