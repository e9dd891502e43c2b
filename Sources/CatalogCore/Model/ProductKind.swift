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
    /// A Play one-time product: Play does not store whether it is consumed (the app decides when it calls
    /// `consumeAsync`), so it stands for either `consumable` or `non-consumable` (DESIGN.md §4).
    case oneTime = "one-time"

    /// Whether a product of this kind can be the same product as one of `other`: equal kinds, and `one-time`
    /// with `consumable` or `non-consumable`. The type is compared only where both sides are specific.
    public func matches(_ other: ProductKind) -> Bool {
        if self == other { return true }
        return (self == .oneTime && other.isOneTime) || (other == .oneTime && isOneTime)
    }

    /// Bought once per purchase, not a subscription: consumable, non-consumable or one-time.
    public var isOneTime: Bool {
        self == .consumable || self == .nonConsumable || self == .oneTime
    }

    /// Every kind's config name, in declaration order, as a message lists them:
    /// `consumable, non-consumable, auto-renewable, non-renewing or one-time`.
    public static let configNames = names(allCases)

    /// The kinds a product of `store` can be, by config name: the App Store has no `one-time`.
    public static func configNames(for store: StoreKind?) -> String {
        names(allCases.filter { $0 != .oneTime || store != .appStore })
    }

    /// `a, b or c`.
    private static func names(_ kinds: [ProductKind]) -> String {
        let names = kinds.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + (names.count > 1 ? " or " : "") + (names.last ?? "")
    }

    public static func < (lhs: ProductKind, rhs: ProductKind) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
