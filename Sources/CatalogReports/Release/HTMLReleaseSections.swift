import CatalogCore

/// The release report's own sections (DESIGN.md §2a): every product with its status per store, then a price
/// matrix per priced product — territories as rows, the config and each store as columns, mismatched cells
/// marked by a class and by a `≠` before the value, so the mark survives black-and-white printing. `HTMLReporter`
/// places them after its own sections when the context holds a `ReleaseOverview`.
struct HTMLReleaseSections: HTMLReportPieces {
    /// What the sections show.
    let overview: ReleaseOverview

    /// Type, group and level, period, and a status per store.
    func productsSection() -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "products")) {
            HTMLNode("h2") { "Products (\(overview.products.count))" }
            if overview.products.isEmpty {
                HTMLNode("p") { "No products." }
            } else {
                scrolling {
                    HTMLNode("table", .class("products")) {
                        HTMLNode("thead") {
                            HTMLNode("tr") {
                                for title in ["Product", "Type", "Group / level", "Period"] { header(title) }
                                for store in overview.stores { storeHeader(store) }
                            }
                        }
                        HTMLNode("tbody") {
                            for product in overview.products { productRow(product) }
                        }
                    }
                }
            }
        }
    }

    /// One matrix per product with a price on some side.
    func pricesSection() -> HTMLNode {
        HTMLNode("section", HTMLAttribute("id", "prices")) {
            HTMLNode("h2") { "Prices" }
            if overview.priceMatrices.isEmpty {
                HTMLNode("p") { "No product states a price." }
            } else {
                HTMLNode("p", .class("legend")) {
                    "≠ marks a price that disagrees with the config, or that the config lacks or the store lacks; "
                    "— means no price there."
                }
                for matrix in overview.priceMatrices { priceTable(matrix, stores: overview.stores) }
            }
        }
    }

    private func storeHeader(_ store: ReleaseOverview.Store) -> HTMLNode {
        HTMLNode("th", HTMLAttribute("scope", "col")) {
            HTMLNode("code") { breakablePath(store.path) }
            HTMLNode("div", .class("muted")) { store.format.rawValue }
        }
    }

    private func productRow(_ product: ReleaseOverview.ProductRow) -> HTMLNode {
        HTMLNode("tr") {
            HTMLNode("td", .class("product")) { HTMLNode("code") { HTMLNode.breakable(product.productID, after: ["."]) } }
            HTMLNode("td") { if let type = product.type { type } else { dash() } }
            HTMLNode("td") {
                if let group = product.group {
                    group
                    if let level = product.level { HTMLNode("span", .class("muted")) { " / \(level)" } }
                } else {
                    dash()
                }
            }
            HTMLNode("td") { if let period = product.period { period } else { dash() } }
            for (status, count) in zip(product.statuses, product.findings) { statusCell(status, findings: count) }
        }
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
        return HTMLNode("td") { HTMLNode("span", .class("status \(kind)")) { text } }
    }

    private func priceTable(_ matrix: ReleaseOverview.PriceMatrix, stores: [ReleaseOverview.Store]) -> HTMLNode {
        HTMLNode("div", .class("matrix")) {
            HTMLNode("h3") { HTMLNode("code") { HTMLNode.breakable(matrix.productID, after: ["."]) } }
            scrolling {
                HTMLNode("table") {
                    HTMLNode("thead") {
                        HTMLNode("tr") {
                            header("Territory")
                            header("Config")
                            for store in stores { storeHeader(store) }
                        }
                    }
                    HTMLNode("tbody") {
                        for row in matrix.rows {
                            HTMLNode("tr") {
                                HTMLNode("th", HTMLAttribute("scope", "row")) { row.territory.alpha2 }
                                priceCell(row.config, mismatched: false)
                                for (price, mismatched) in zip(row.stores, row.mismatched) {
                                    priceCell(price, mismatched: mismatched)
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private func priceCell(_ price: String?, mismatched: Bool) -> HTMLNode {
        HTMLNode("td", .class(mismatched ? "price mismatch" : "price")) {
            if mismatched { "≠ " }
            if let price { price } else { dash() }
        }
    }
}
