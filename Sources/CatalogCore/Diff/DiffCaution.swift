/// A change a reviewer must not wave through because it reaches customers who already paid (DESIGN.md §2a):
/// price increases say so through `SubscriberImpact`; these say it for removals, type changes and periods.
/// The raw value is the JSON `cautions` entry.
public enum DiffCaution: String, Hashable, Sendable, CaseIterable, Comparable {
    /// A non-consumable is gone from the catalog: customers own it and restore it on every new device.
    case removedNonConsumable = "removed-non-consumable"
    /// A product on sale (not `clearedForSale: false`) is gone from the catalog: customers bought it.
    case removedSold = "removed-sold"
    /// The type of a product on sale changed: what customers bought under the ID changes meaning.
    case retypedSold = "retyped-sold"
    /// The period of a live auto-renewable subscription changed: it reaches existing subscribers.
    case periodChangedLive = "period-changed-live"

    public static func < (lhs: DiffCaution, rhs: DiffCaution) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }

    /// The cautions of one product change: `before` is the old side's product (nil when added), `after` the
    /// new side's (nil when removed), `fields` what differs. A product is on sale unless marked
    /// `clearedForSale: false`, on the old side (what customers could buy until now).
    static func of(before: Product?, after: Product?, fields: [FieldChange]) -> [DiffCaution] {
        guard let before else { return [] }
        let sold = before.clearedForSale != false
        guard after != nil else {
            // Customers own a non-consumable whether or not it is still on sale.
            if before.kind == .nonConsumable { return [.removedNonConsumable] }
            return sold ? [.removedSold] : []
        }
        var cautions: [DiffCaution] = []
        if sold, fields.contains(where: { $0.field == .type }) { cautions.append(.retypedSold) }
        let subscription = before.kind == .autoRenewable || after?.kind == .autoRenewable
        if sold, subscription, fields.contains(where: { $0.field == .period }) { cautions.append(.periodChangedLive) }
        return cautions
    }
}
