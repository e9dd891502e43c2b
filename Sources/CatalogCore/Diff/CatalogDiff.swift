import Foundation

/// What changed between two catalogs (DESIGN.md §2a): products added, removed or changed field by field,
/// prices per territory, and subscription groups. Data only; `CatalogDiffer` computes it and the renderers in
/// CatalogReports print it.
public struct CatalogDiff: Hashable, Sendable {
    /// One side of the comparison.
    public struct Input: Hashable, Sendable {
        /// The path as given (`git:REV:PATH` for a git revision).
        public var path: String
        /// The format it was read as.
        public var format: CatalogFormat

        /// Creates an input.
        public init(path: String, format: CatalogFormat) {
            self.path = path
            self.format = format
        }
    }

    /// The old side.
    public var old: Input
    /// The new side.
    public var new: Input
    /// Group changes, sorted by group name.
    public var groups: [GroupChange]
    /// Product changes, sorted by product ID.
    public var products: [ProductChange]

    /// Creates a diff.
    public init(old: Input, new: Input, groups: [GroupChange], products: [ProductChange]) {
        self.old = old
        self.new = new
        self.groups = groups
        self.products = products
    }

    /// Whether anything differs (`--exit-code`).
    public var isEmpty: Bool { groups.isEmpty && products.isEmpty }

    /// How many cautions the product changes carry.
    public var cautionCount: Int {
        products.reduce(0) { $0 + $1.cautions.count }
    }

    /// How many products have a change of this kind.
    public func count(_ kind: Change) -> Int {
        products.reduce(0) { $0 + ($1.change == kind ? 1 : 0) }
    }
}

/// Added, removed or changed.
public enum Change: String, Hashable, Sendable, CaseIterable {
    /// Only in the new catalog.
    case added
    /// Only in the old catalog.
    case removed
    /// In both, with at least one field that differs.
    case changed
}

/// A subscription group added, removed, or renamed (same key, another reference name).
public struct GroupChange: Hashable, Sendable, Comparable {
    /// What happened to it.
    public var change: GroupChangeKind
    /// The group's key (config key or store group ID) on the side that has it; the new side's for renames.
    public var key: String
    /// The reference name before (nil when added).
    public var oldName: String?
    /// The reference name after (nil when removed).
    public var newName: String?

    /// Creates a group change.
    public init(change: GroupChangeKind, key: String, oldName: String?, newName: String?) {
        self.change = change
        self.key = key
        self.oldName = oldName
        self.newName = newName
    }

    public static func < (lhs: GroupChange, rhs: GroupChange) -> Bool {
        (lhs.newName ?? lhs.oldName ?? "", lhs.key, lhs.change.rawValue)
            < (rhs.newName ?? rhs.oldName ?? "", rhs.key, rhs.change.rawValue)
    }
}

/// What happened to a group.
public enum GroupChangeKind: String, Hashable, Sendable {
    case added
    case removed
    /// Same key, another reference name.
    case renamed
}

/// One product's change.
public struct ProductChange: Hashable, Sendable {
    /// The product ID (config key, or the store's product ID).
    public var productID: String
    /// Added, removed or changed.
    public var change: Change
    /// For an added or removed product: the ID on the other side with the same type, prices, period and
    /// reference name, else one within the hint distance (DESIGN.md §2a, §5a.6), so a reviewer sees a rename
    /// rather than a deletion and a new product.
    public var possibleRename: String?
    /// What differs, sorted by field then territory; for added and removed products empty.
    public var fields: [FieldChange]
    /// A one-line description of the product on the side that has it (`consumable, 4.99 USD`), for added and
    /// removed products.
    public var summary: String?

    /// What reaches customers who already paid (a removed non-consumable, …), in `DiffCaution` order.
    public var cautions: [DiffCaution]

    /// Where this ID differs from `possibleRename` when the two differ only in look-alike characters (`letter
    /// 'O' where the other has digit '0', twice, from character 26`, DESIGN.md §5); nil otherwise.
    public var lookAlike: String? {
        possibleRename.flatMap { LookAlikes.difference(productID, from: $0) }
    }

    /// Creates a product change.
    public init(productID: String, change: Change, possibleRename: String? = nil, fields: [FieldChange] = [],
                summary: String? = nil, cautions: [DiffCaution] = []) {
        self.productID = productID
        self.change = change
        self.possibleRename = possibleRename
        self.fields = fields
        self.summary = summary
        self.cautions = cautions.sorted()
    }
}

/// The fields a diff compares; the raw value is the JSON `field`.
public enum DiffField: String, Hashable, Sendable, Comparable, CaseIterable {
    case type
    case name
    case group
    case level
    case period
    case introOffer
    case familyShareable
    case availability
    case storeIds
    case price
    /// An offer (§4a): `item` names it (`promotional:spring_promo`, `…:state`, `…:eligibility`).
    case offer
    /// An App Store billing plan: `item` is its type (`monthly`).
    case billingPlan
    /// A Play purchase option: `item` is its `purchaseOptionId`.
    case purchaseOption

    public static func < (lhs: DiffField, rhs: DiffField) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One field that differs; `old`/`new` are canonical text (DESIGN.md §6), nil where a side has no value.
public struct FieldChange: Hashable, Sendable, Comparable {
    /// The field.
    public var field: DiffField
    /// The territory, for prices.
    public var territory: Territory?
    /// The old value.
    public var old: String?
    /// The new value.
    public var new: String?
    /// The price change in percent, rounded to one decimal, when both sides price the territory in the same
    /// currency (and the old price is not zero).
    public var percent: Decimal?
    /// Set on price changes of auto-renewable subscriptions (and their monthly billing plans) where both sides
    /// price the territory: what the change does to existing subscribers in each store (DESIGN.md §2c).
    public var subscriberImpact: SubscriberImpact?
    /// Offers, billing plans and purchase options: which one (`promotional:spring_promo`, `monthly`, `rent-30d`),
    /// with the aspect for an offer's state, eligibility or window (`promotional:spring_promo:state`).
    public var item: String?
    /// What a reviewer must notice about an offer change (`new free phase on a live offer`, `price cut on a live
    /// offer`); nil for every other change.
    public var remark: String?
    /// A scheduled price's change: the day it takes effect (the schedule entry's `from`, DESIGN.md §2c "Scheduled
    /// prices are part of the change"); nil for a change of the price in effect at `--as-of`.
    public var effective: CalendarDate?

    /// Creates a field change.
    public init(field: DiffField, territory: Territory? = nil, old: String?, new: String?, percent: Decimal? = nil,
                subscriberImpact: SubscriberImpact? = nil, item: String? = nil, remark: String? = nil,
                effective: CalendarDate? = nil) {
        self.field = field
        self.territory = territory
        self.old = old
        self.new = new
        self.percent = percent
        self.subscriberImpact = subscriberImpact
        self.item = item
        self.remark = remark
        self.effective = effective
    }

    /// The JSON `field`: the field, with the item when there is one (`offer:promotional:spring_promo`, the
    /// finding field of the same offer).
    public var name: String {
        item.map { "\(field.rawValue):\($0)" } ?? field.rawValue
    }

    /// Fields by name, then item and territory; a territory's price in effect before its scheduled changes, in
    /// date order.
    public static func < (lhs: FieldChange, rhs: FieldChange) -> Bool {
        (lhs.field, lhs.item ?? "", lhs.territory?.alpha2 ?? "", lhs.effective?.description ?? "")
            < (rhs.field, rhs.item ?? "", rhs.territory?.alpha2 ?? "", rhs.effective?.description ?? "")
    }
}
