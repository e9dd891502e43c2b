import Foundation

/// An offer on a product other than the introductory offer (DESIGN §4a, §5a.15): an App Store promotional,
/// offer-code or win-back offer, or a Play subscription or one-time offer.
public struct Offer: Hashable, Sendable {
    /// The kind of offer; the raw value is the config's `kind`.
    public enum Kind: String, CaseIterable, Hashable, Comparable, Sendable {
        /// App Store promotional offer (ASC `subscriptionPromotionalOffers`, StoreKit `adHocOffers`).
        case promotional
        /// App Store offer code (ASC `subscriptionOfferCodes` / `inAppPurchaseOfferCodes`, StoreKit `codeOffers`).
        case offerCode = "offer-code"
        /// App Store win-back offer (ASC `winBackOffers`, StoreKit `winbackOffers`).
        case winBack = "win-back"
        /// A Play subscription offer, or a Play one-time product's offer (under a purchase option).
        case play

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The kind.
    public var kind: Kind
    /// The store identity (§5a.15): promotional and win-back offers their offer ID, offer codes their name, Play
    /// offers their `offerId`.
    public var id: String
    /// The phases in order: App Store offers have one, Play subscription offers one or two, Play one-time offers
    /// one (a discount).
    public var phases: [OfferPhase]
    /// Who may redeem it; nil when the source does not say.
    public var eligibility: OfferEligibility?
    /// Whether the offer is active (ASC/Play `ACTIVE`, StoreKit always, config `state: active` default); nil when
    /// the source does not say.
    public var isActive: Bool?
    /// The store's own state word when it is not simply active (`DRAFT`, `INACTIVE`), for messages.
    public var stateText: String?
    /// Play one-time offers: the purchase option the offer belongs to (`buy` for the legacy-compatible one).
    public var purchaseOption: String?
    /// Play one-time offers: the offer's window, read and exported, compared only when both sides give it.
    public var window: OfferWindow?
    /// Where the offer was read.
    public var location: SourceLocation?

    /// Creates an offer.
    public init(kind: Kind, id: String, phases: [OfferPhase], eligibility: OfferEligibility? = nil,
                isActive: Bool? = nil, stateText: String? = nil, purchaseOption: String? = nil,
                window: OfferWindow? = nil, location: SourceLocation? = nil) {
        self.kind = kind
        self.id = id
        self.phases = phases
        self.eligibility = eligibility
        self.isActive = isActive
        self.stateText = stateText
        self.purchaseOption = purchaseOption
        self.window = window
        self.location = location
    }

    /// The identity two catalogs' offers are matched on (§5a.15): kind, the purchase option (Play one-time
    /// offers) and the ID.
    public var key: OfferKey { OfferKey(kind: kind, purchaseOption: purchaseOption, id: id) }

    /// The most phases a Play subscription offer may have (Google: "An offer can have up to two phases").
    public static let maximumPhases = 2
}

/// What identifies an offer within a product: kind, purchase option (Play one-time offers only) and ID. Its
/// `field` is the finding field `offer:<kind>:<id>` (one-time offers `offer:play:<option>/<id>`).
public struct OfferKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The kind.
    public var kind: Offer.Kind
    /// The purchase option, for Play one-time offers.
    public var purchaseOption: String?
    /// The store ID.
    public var id: String

    /// Creates a key.
    public init(kind: Offer.Kind, purchaseOption: String? = nil, id: String) {
        self.kind = kind
        self.purchaseOption = purchaseOption
        self.id = id
    }

    /// `<kind>:<id>`, or `play:<option>/<id>` for one-time offers.
    public var description: String {
        if let purchaseOption { return "\(kind.rawValue):\(purchaseOption)/\(id)" }
        return "\(kind.rawValue):\(id)"
    }

    /// The finding field for the offer as a whole.
    public var field: ProductField { .offer(self) }

    public static func < (lhs: OfferKey, rhs: OfferKey) -> Bool {
        (lhs.kind, lhs.purchaseOption ?? "", lhs.id) < (rhs.kind, rhs.purchaseOption ?? "", rhs.id)
    }
}

/// One phase of an offer: what the customer pays, for how long.
public struct OfferPhase: Hashable, Sendable {
    /// The payment mode; nil where the kind has none (App Store IAP offer codes, Play one-time discounts) or the
    /// source does not say.
    public var mode: IntroOffer.Mode?
    /// One period's duration; nil where the kind has none (IAP offer codes, one-time offers).
    public var period: SubscriptionPeriod?
    /// How many periods; nil when the source does not say (StoreKit 4.0 win-back offers), read as 1 in text.
    public var periods: Int?
    /// Prices per territory (pay-as-you-go: each period's price; pay-up-front: the one payment).
    public var prices: [Territory: Money]
    /// A price stated for the catalog's base territory (config `price:`), resolved by the checker.
    public var basePrice: Money?
    /// A discount that applies in every territory (config `discount:`).
    public var discount: OfferDiscount?
    /// Discounts per territory (Play `regionalConfigs[].relativeDiscount` / `absoluteDiscount`).
    public var discounts: [Territory: OfferDiscount]
    /// Where the phase was read.
    public var location: SourceLocation?

    /// Creates a phase.
    public init(mode: IntroOffer.Mode? = nil, period: SubscriptionPeriod? = nil, periods: Int? = nil,
                prices: [Territory: Money] = [:], basePrice: Money? = nil, discount: OfferDiscount? = nil,
                discounts: [Territory: OfferDiscount] = [:], location: SourceLocation? = nil) {
        self.mode = mode
        self.period = period
        self.periods = periods
        self.prices = prices
        self.basePrice = basePrice
        self.discount = discount
        self.discounts = discounts
        self.location = location
    }

    /// Canonical text without prices (§5a.15): `free-trial P1W`, `pay-as-you-go P1M×3`; `-50%` for a
    /// discount-only phase.
    public var summary: String {
        [terms, discount?.description ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// A discount on the regular price: a percentage (Play `relativeDiscount` 0.5 = 50 %) or an amount off.
public enum OfferDiscount: Hashable, Sendable, CustomStringConvertible {
    /// Percent off, 0–100.
    case percent(Decimal)
    /// An amount off.
    case amount(Money)

    /// `-50%`, `-1.00 USD`.
    public var description: String {
        switch self {
        case .percent(let value): "-\(Money.format(value))%"
        case .amount(let money): "-\(money)"
        }
    }
}

/// Who may redeem an offer; every field is nil where the kind or the source does not state it.
public struct OfferEligibility: Hashable, Sendable {
    /// A Play targeting rule.
    public enum PlayRule: String, CaseIterable, Hashable, Sendable {
        /// `targeting.acquisitionRule`.
        case acquisition
        /// `targeting.upgradeRule`.
        case upgrade
    }

    /// A Play targeting scope.
    public enum PlayScope: Hashable, Sendable, CustomStringConvertible {
        /// `thisSubscription`.
        case thisSubscription
        /// `anySubscriptionInApp`.
        case anySubscription
        /// `specificSubscriptionInApp`: these subscription IDs.
        case specific([String])

        /// `this-subscription`, `any-subscription`, `specific: [a, b]`.
        public var description: String {
            switch self {
            case .thisSubscription: "this-subscription"
            case .anySubscription: "any-subscription"
            case .specific(let ids): "specific: [\(ids.joined(separator: ", "))]"
            }
        }
    }

    /// Offer codes: customer kinds, lower-case config words (`new`, `existing`, `expired`; IAPs `non-spender`,
    /// `active-spender`, `churned-spender`).
    public var customers: Set<String>?
    /// Offer codes: whether the code stacks with an introductory offer.
    public var stackable: Bool?
    /// Win-back: months of paid subscription needed.
    public var paidMonths: Int?
    /// Win-back: months since the subscription lapsed, minimum and maximum.
    public var lapsedMonths: ClosedRange<Int>?
    /// Win-back: months to wait between offers.
    public var waitMonths: Int?
    /// Play: the targeting rule.
    public var rule: PlayRule?
    /// Play: the targeting scope.
    public var scope: PlayScope?
    /// Play: `oncePerUser`; compared only when both sides give it.
    public var oncePerUser: Bool?

    /// Creates an eligibility.
    public init(customers: Set<String>? = nil, stackable: Bool? = nil, paidMonths: Int? = nil,
                lapsedMonths: ClosedRange<Int>? = nil, waitMonths: Int? = nil, rule: PlayRule? = nil,
                scope: PlayScope? = nil, oncePerUser: Bool? = nil) {
        self.customers = customers
        self.stackable = stackable
        self.paidMonths = paidMonths
        self.lapsedMonths = lapsedMonths
        self.waitMonths = waitMonths
        self.rule = rule
        self.scope = scope
        self.oncePerUser = oncePerUser
    }
}

/// A Play one-time offer's window (start and end), read and exported, compared only when both sides give it.
public struct OfferWindow: Hashable, Sendable {
    /// The first moment, as the store states it (RFC 3339 text).
    public var start: String?
    /// The last moment, as the store states it.
    public var end: String?

    /// Creates a window.
    public init(start: String? = nil, end: String? = nil) {
        self.start = start
        self.end = end
    }
}
