import CatalogCore
import Foundation

/// The output formats of `diff`; the raw value is what users type after `--format`.
public enum DiffFormat: String, CaseIterable, Sendable {
    /// Lines a reviewer reads in a terminal (`~`, `+`, `-`).
    case text
    /// JSON, schema version 1 (DESIGN.md §2a).
    case json
    /// Markdown tables for a pull-request comment.
    case markdown

    /// Renders a diff in this format. Exhaustive: a new case without a renderer does not compile.
    public func render(_ diff: CatalogDiff, colors: Bool = false) -> String {
        switch self {
        case .text: DiffTextRenderer(colors: colors).render(diff)
        case .json: DiffJSONRenderer().render(diff)
        case .markdown: DiffMarkdownRenderer().render(diff)
        }
    }
}

/// Words shared by the diff renderers, so text and Markdown say the same thing.
enum DiffWording {
    /// `+8.3%, increase for existing subscribers`, or nil when there is nothing to add.
    static func note(_ change: FieldChange) -> String? {
        var parts: [String] = []
        if let percent = change.percent {
            parts.append((percent > 0 ? "+" : "") + "\(percent)%")
        }
        if let impact = change.subscriberImpact {
            parts.append("\(impact.rawValue) for existing subscribers")
        }
        if let remark = change.remark { parts.append(remark) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// `price DE`, `period`, `offer:promotional:spring_promo US`.
    static func label(_ change: FieldChange) -> String {
        change.territory.map { "\(change.name) \($0.alpha2)" } ?? change.name
    }

    /// `1 added, 1 removed, 1 changed`, plus group changes when there are any.
    static func counts(_ diff: CatalogDiff) -> String {
        var text = "\(diff.count(.added)) added, \(diff.count(.removed)) removed, \(diff.count(.changed)) changed"
        if !diff.groups.isEmpty {
            text += ", \(diff.groups.count) group \(diff.groups.count == 1 ? "change" : "changes")"
        }
        return text
    }

    /// How a group change reads: `group renamed: 'Premium' -> 'Premium Plus'`.
    static func group(_ change: GroupChange) -> String {
        switch change.change {
        case .added: "group added: '\(change.newName ?? change.key)'"
        case .removed: "group removed: '\(change.oldName ?? change.key)'"
        case .renamed: "group renamed: '\(change.oldName ?? "")' -> '\(change.newName ?? "")'"
        }
    }
}
