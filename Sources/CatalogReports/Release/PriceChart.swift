import CatalogCore
import Foundation

/// The chart beside a price matrix (DESIGN.md §2a): for each territory, a bar per store from the config's
/// price (the middle line) to the store's, in percent, labelled with the percent, so a reader sees at once
/// which store charges more where. Inline SVG built from `HTMLNode`s (escaped, no script, no reference outside
/// the file); each store's bars carry a class (`s0`, `s1`, …) that the style sheet fills with a colour on screen
/// and black or white with a black outline in print, and every bar has its number written beside it, so the
/// chart reads in black and white. Coordinates are whole numbers: the same matrix gives the same bytes.
///
/// Each territory is a band with a line per store, in column order; its code stands at the band's middle and a
/// rule separates it from the next, so every mark sits within its territory's band. Every line holds a mark: a
/// bar, `=`, `≠ no price`, `≠ not in config`, `—` (one side has no price, and no finding marks it) or `n/c`
/// (the store did not compare the territory, as in the matrix).
struct PriceChart {
    /// The product's prices.
    let matrix: ReleaseOverview.PriceMatrix
    /// The store inputs, in column order.
    let stores: [ReleaseOverview.Store]

    private let width = 360
    private let labelWidth = 34
    private let barHeight = 12
    private let barGap = 3
    private let rowGap = 10
    /// Room beside a bar for its label (`+14.3%`, `no price`).
    private let textRoom = 52

    private var center: Int { labelWidth + (width - labelWidth) / 2 }
    private var halfBar: Int { (width - labelWidth) / 2 - textRoom }
    private var legendHeight: Int { 18 }
    private var axisHeight: Int { 16 }
    /// The store lines of one territory.
    private var linesHeight: Int { stores.count * (barHeight + barGap) - barGap }
    private var rowHeight: Int { linesHeight + rowGap }

    /// The percent the outermost bar length stands for: the largest difference rounded up to a round number.
    private var scale: Double {
        let largest = matrix.rows.flatMap { row in
            row.stores.indices.compactMap { row.difference(store: $0)?.percent.map(Self.double) }
        }.map(abs).max() ?? 0
        return [5, 10, 20, 25, 50, 100, 200, 500, 1000].first { $0 >= largest } ?? largest
    }

    /// The `<svg>` element, sized by its viewBox so it shrinks with the page on a phone.
    func svg() -> HTMLNode {
        let top = legendHeight + axisHeight
        let height = top + matrix.rows.count * rowHeight + 4
        let scale = scale
        let label = "How each store's prices differ from the config's, in percent, per territory"
        return HTMLNode("svg", attributes: [
            .class("chart"), HTMLAttribute("viewBox", "0 0 \(width) \(height)"), HTMLAttribute("width", String(width)),
            HTMLAttribute("height", String(height)), HTMLAttribute("role", "img"), HTMLAttribute("aria-label", label),
        ]) {
            HTMLNode("title") { label }
            legend()
            axis(top: legendHeight, bottom: height - 2, scale: scale)
            for (index, row) in matrix.rows.enumerated() {
                territory(row, top: top + index * rowHeight, first: index == 0, scale: scale)
            }
        }
    }

    /// A swatch and the store's name for each store, in one line.
    private func legend() -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        var x = 0
        for (index, store) in stores.enumerated() {
            nodes.append(HTMLNode("rect", attributes: [
                .class("bar s\(index % 4)"), HTMLAttribute("x", String(x)), HTMLAttribute("y", "3"),
                HTMLAttribute("width", "10"), HTMLAttribute("height", "10"),
            ]))
            nodes.append(text(store.label, x: x + 14, y: 12, anchor: "start", kind: "legend"))
            x += 14 + store.label.count * 7 + 16
        }
        return nodes
    }

    /// The middle line (the config's price) and the scale's ends.
    private func axis(top: Int, bottom: Int, scale: Double) -> [HTMLNode] {
        let ends = Money.format(Decimal(scale))
        return [
            text("−\(ends)%", x: center - halfBar, y: top + 11, anchor: "middle", kind: "tick"),
            text("config", x: center, y: top + 11, anchor: "middle", kind: "tick"),
            text("+\(ends)%", x: center + halfBar, y: top + 11, anchor: "middle", kind: "tick"),
            HTMLNode("line", attributes: [
                .class("axis"), HTMLAttribute("x1", String(center)), HTMLAttribute("x2", String(center)),
                HTMLAttribute("y1", String(top + 14)), HTMLAttribute("y2", String(bottom)),
            ]),
        ]
    }

    /// One territory's band from `top`: a rule above it (but the first), its code at the middle of its lines, and
    /// a line per store.
    private func territory(_ row: ReleaseOverview.PriceRow, top: Int, first: Bool, scale: Double) -> [HTMLNode] {
        var nodes: [HTMLNode] = []
        if !first {
            nodes.append(HTMLNode("line", attributes: [
                .class("band"), HTMLAttribute("x1", "0"), HTMLAttribute("x2", String(width)),
                HTMLAttribute("y1", String(top)), HTMLAttribute("y2", String(top)),
            ]))
        }
        let linesTop = top + rowGap / 2
        // 11 px text: its middle is about 4 px above the baseline.
        nodes.append(text(row.territory.alpha2, x: 0, y: linesTop + linesHeight / 2 + 4, anchor: "start",
                          kind: "territory"))
        for index in stores.indices {
            nodes += line(row, store: index, top: linesTop + index * (barHeight + barGap), scale: scale)
        }
        return nodes
    }

    /// The store's line of a territory: its bar and percent, or a word.
    private func line(_ row: ReleaseOverview.PriceRow, store index: Int, top y: Int, scale: Double) -> [HTMLNode] {
        let mark = row.mismatched[index] ? "≠ " : ""
        let baseline = y + barHeight - 2
        func word(_ word: String, kind: String = "label") -> [HTMLNode] {
            [text(word, x: center + 4, y: baseline, anchor: "start", kind: kind)]
        }
        guard row.config != nil, row.stores[index] != nil else {
            if row.stores[index] == nil, !row.compared[index] { return word(PriceMarks.notCompared, kind: "tick") }
            guard row.mismatched[index] else { return word("—", kind: "tick") }
            return word(mark + (row.config == nil ? "not in config" : "no price"))
        }
        guard let difference = row.difference(store: index) else { return word("=", kind: "tick") }
        guard let percent = difference.percent.map(Self.double), let percentText = difference.percentText else {
            return word(mark + "other currency")
        }
        let length = max(1, Int((abs(percent) / scale * Double(halfBar)).rounded()))
        let x = percent < 0 ? center - length : center
        return [
            HTMLNode("rect", attributes: [
                .class("bar s\(index % 4)"), HTMLAttribute("x", String(x)), HTMLAttribute("y", String(y)),
                HTMLAttribute("width", String(length)), HTMLAttribute("height", String(barHeight)),
            ]) {
                HTMLNode("title") { "\(stores[index].label), \(row.territory.alpha2): \(difference.text)" }
            },
            percent < 0
                ? text(mark + percentText, x: x - 4, y: baseline, anchor: "end")
                : text(mark + percentText, x: x + length + 4, y: baseline, anchor: "start"),
        ]
    }

    private func text(_ content: String, x: Int, y: Int, anchor: String, kind: String = "label") -> HTMLNode {
        HTMLNode("text", attributes: [
            .class(kind), HTMLAttribute("x", String(x)), HTMLAttribute("y", String(y)),
            HTMLAttribute("text-anchor", anchor),
        ]) { content }
    }

    private static func double(_ value: Decimal) -> Double {
        NSDecimalNumber(decimal: value).doubleValue
    }
}
