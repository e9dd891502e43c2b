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
    /// `+8.3%; App Store: existing keep 59.99 (preserve); Play: new purchases only (preserve)` (DESIGN.md §2a,
    /// §2c): the percentage and an offer's remark, then what the change does to existing subscribers in each
    /// store the run knows; nil when there is nothing to add.
    static func note(_ change: FieldChange) -> String? {
        var head: [String] = []
        if let percent = change.percent {
            head.append((percent > 0 ? "+" : "") + "\(percent)%")
        }
        if let remark = change.remark { head.append(remark) }
        var parts = head.isEmpty ? [] : [head.joined(separator: ", ")]
        parts += impactParts(change.subscriberImpact)
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    /// `App Store: existing keep 59.99 (preserve)`, `Play: new purchases only (preserve)`: one part per store.
    static func impactParts(_ impact: SubscriberImpact?) -> [String] {
        guard let impact else { return [] }
        var parts: [String] = []
        if let appStore = impact.appStore { parts.append("App Store: \(appStore.summary)") }
        if let play = impact.play { parts.append("Play: \(play.summary)") }
        return parts
    }

    /// `price DE`, `price US from 2027-01-01` (a scheduled price), `period`, `offer:promotional:spring_promo US`.
    static func label(_ change: FieldChange) -> String {
        let label = change.territory.map { "\(change.name) \($0.alpha2)" } ?? change.name
        return change.effective.map { "\(label) from \($0)" } ?? label
    }

    /// `1 added, 1 removed, 1 changed`, plus group changes and cautions when there are any.
    static func counts(_ diff: CatalogDiff) -> String {
        var text = "\(diff.count(.added)) added, \(diff.count(.removed)) removed, \(diff.count(.changed)) changed"
        if !diff.groups.isEmpty {
            text += ", \(diff.groups.count) group \(diff.groups.count == 1 ? "change" : "changes")"
        }
        let cautions = diff.cautionCount
        if cautions > 0 {
            text += ", \(cautions) \(cautions == 1 ? "caution" : "cautions")"
        }
        return text
    }

    /// What a caution means for the people who already paid, in one clause.
    static func caution(_ caution: DiffCaution) -> String {
        switch caution {
        case .removedNonConsumable: "non-consumable removed: customers own it and restore it on every new device"
        case .removedSold: "removed while on sale: customers bought it"
        case .retypedSold: "type changed while on sale: what customers bought under this ID changes meaning"
        case .periodChangedLive: "period of a live subscription changed: it reaches existing subscribers"
        }
    }

    /// `possible rename of 'X'` (added) or `possible rename to 'X'` (removed), with where the two IDs differ
    /// when only look-alike characters tell them apart; nil without a rename. `quote` renders an ID.
    static func rename(_ product: ProductChange, quote: (String) -> String) -> String? {
        guard let other = product.possibleRename else { return nil }
        let text = "possible rename \(product.change == .added ? "of" : "to") \(quote(other))"
        return product.lookAlike.map { "\(text): \($0)" } ?? text
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
