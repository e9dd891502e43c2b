import CatalogCore

/// The diff for a terminal (DESIGN.md §2a): group changes, then one block per product in ID order — `~` with
/// an indented line per field, `+` and `-` with a summary — each followed by its cautions, then the counts. Catalog text goes through
/// `TerminalEscaper`; colors only when asked.
public struct DiffTextRenderer: Sendable {
    /// Whether to color `+`, `-` and `~`.
    public var colors: Bool

    /// Creates a renderer.
    public init(colors: Bool = false) {
        self.colors = colors
    }

    /// The text, ending in a newline.
    public func render(_ diff: CatalogDiff) -> String {
        var lines: [String] = []
        for group in diff.groups {
            lines.append(paint("* ", "\u{1B}[1;36m") + TerminalEscaper.escape(DiffWording.group(group)))
        }
        for product in diff.products {
            let id = TerminalEscaper.escape(product.productID)
            switch product.change {
            case .changed:
                lines.append(paint("~ ", "\u{1B}[1;33m") + id)
                for field in product.fields {
                    var line = "    \(DiffWording.label(field)): \(field.old ?? "(none)") -> \(field.new ?? "(none)")"
                    if let note = DiffWording.note(field) { line += " (\(note))" }
                    lines.append(TerminalEscaper.escape(line))
                }
            case .added, .removed:
                let sign = product.change == .added ? paint("+ ", "\u{1B}[1;32m") : paint("- ", "\u{1B}[1;31m")
                var line = id
                if let summary = product.summary { line += "  " + TerminalEscaper.escape(summary) }
                if let rename = DiffWording.rename(product, quote: { "'\(TerminalEscaper.escape($0))'" }) {
                    line += "  (\(rename))"
                }
                lines.append(sign + line)
            }
            for caution in product.cautions {
                lines.append("    " + paint("caution: ", "\u{1B}[1;33m") + DiffWording.caution(caution))
            }
        }
        let inputs = "(old: \(TerminalEscaper.escape(diff.old.path)), new: \(TerminalEscaper.escape(diff.new.path)))"
        lines.append(diff.isEmpty ? "no differences \(inputs)" : "\(DiffWording.counts(diff)) \(inputs)")
        return lines.joined(separator: "\n") + "\n"
    }

    private func paint(_ text: String, _ style: String) -> String {
        colors ? style + text.trimmingCharacters(in: .whitespaces) + "\u{1B}[0m " : text
    }
}
