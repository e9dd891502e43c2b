import CatalogCore
import Foundation

/// The diff as JSON, schema version 1 (DESIGN.md §2a). The keys are a public contract, pinned here in private
/// output types; nulls are written out; sorted keys; the same diff always gives the same bytes.
public struct DiffJSONRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The JSON text, ending in a newline.
    public func render(_ diff: CatalogDiff) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Output(diff)) else { return "{}\n" }
        return JSONEscaper.escapingInvisible(String(decoding: data, as: UTF8.self)) + "\n"
    }
}

private struct Output: Encodable {
    struct Input: Encodable {
        let path: String
        let format: String
    }

    struct Summary: Encodable {
        let added: Int
        let removed: Int
        let changed: Int
    }

    struct Group: Encodable {
        let change: String
        let key: String
        let oldName: String?
        let newName: String?

        enum CodingKeys: String, CodingKey { case change, key, oldName, newName }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change, forKey: .change)
            try container.encode(key, forKey: .key)
            try container.encode(oldName, forKey: .oldName)
            try container.encode(newName, forKey: .newName)
        }
    }

    struct Field: Encodable {
        let change: FieldChange

        enum CodingKeys: String, CodingKey { case field, territory, from, old, new, percent, subscriberImpact, remark }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change.name, forKey: .field)
            // Only changes with something to notice carry a remark (an offer's, a currency changeover, a withdrawn
            // or re-dated schedule entry), and only scheduled prices a `from` day: other fields keep exactly the
            // keys of DESIGN.md §2a.
            try container.encodeIfPresent(change.remark, forKey: .remark)
            try container.encode(change.territory?.alpha2, forKey: .territory)
            try container.encodeIfPresent(change.effective?.description, forKey: .from)
            try container.encode(change.old, forKey: .old)
            try container.encode(change.new, forKey: .new)
            try container.encode(change.percent, forKey: .percent)
            try container.encode(change.subscriberImpact.map(Impact.init), forKey: .subscriberImpact)
        }
    }

    /// `{"appstore": {"existing", "consent", "reason"}, "play": {"existing", "migration", "reason"}}` (DESIGN.md
    /// §2c), with the stores the run knows.
    struct Impact: Encodable {
        struct AppStore: Encodable {
            let existing: String
            let consent: String
            let reason: String
        }

        struct Play: Encodable {
            let existing: String
            let migration: String
            let reason: String
        }

        let appstore: AppStore?
        let play: Play?

        init(_ impact: SubscriberImpact) {
            appstore = impact.appStore.map {
                AppStore(existing: $0.existing.rawValue, consent: $0.consent.rawValue, reason: $0.reason)
            }
            play = impact.play.map {
                Play(existing: $0.existing.rawValue, migration: $0.migration.rawValue, reason: $0.reason)
            }
        }
    }

    struct Product: Encodable {
        let change: ProductChange

        enum CodingKeys: String, CodingKey { case productId, change, possibleRename, lookAlike, summary, fields, cautions }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change.productID, forKey: .productId)
            try container.encode(change.change.rawValue, forKey: .change)
            try container.encode(change.possibleRename, forKey: .possibleRename)
            try container.encode(change.lookAlike, forKey: .lookAlike)
            try container.encode(change.cautions.map(\.rawValue), forKey: .cautions)
            try container.encode(change.summary, forKey: .summary)
            try container.encode(change.fields.map(Field.init), forKey: .fields)
        }
    }

    let version = 1
    let old: Input
    let new: Input
    let summary: Summary
    let groups: [Group]
    let products: [Product]

    init(_ diff: CatalogDiff) {
        old = Input(path: diff.old.path, format: diff.old.format.rawValue)
        new = Input(path: diff.new.path, format: diff.new.format.rawValue)
        summary = Summary(added: diff.count(.added), removed: diff.count(.removed), changed: diff.count(.changed))
        groups = diff.groups.map { Group(change: $0.change.rawValue, key: $0.key, oldName: $0.oldName,
                                         newName: $0.newName) }
        products = diff.products.map(Product.init)
    }
}
