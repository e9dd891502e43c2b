/// The kind of an in-app product, as both stores and the config understand it.
public enum ProductKind: String, CaseIterable, Hashable, Comparable, Sendable {
    /// Bought repeatedly and used up (coins, lives).
    case consumable
    /// Bought once, owned forever.
    case nonConsumable = "non-consumable"
    /// A subscription that renews until cancelled.
    case autoRenewable = "auto-renewable"
    /// Access for a fixed time that does not renew by itself.
    case nonRenewing = "non-renewing"

    public static func < (lhs: ProductKind, rhs: ProductKind) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
