/// What a price change of an auto-renewable subscription does to the people already subscribed, per store
/// (DESIGN.md §2c `subscriberImpact`): set on a diff's price changes (and monthly billing-plan amounts), and what
/// the change rules of `check --since` judge. A store the run does not know has no entry.
public struct SubscriberImpact: Hashable, Sendable {
    /// Whether the price goes up or down; `unknown` when the two prices are not comparable (another currency).
    public var direction: PriceDirection
    /// The App Store side; nil when the run does not concern the App Store.
    public var appStore: AppStoreImpact?
    /// The Google Play side; nil when the run does not concern Play.
    public var play: PlayImpact?

    /// Creates an impact.
    public init(direction: PriceDirection, appStore: AppStoreImpact? = nil, play: PlayImpact? = nil) {
        self.direction = direction
        self.appStore = appStore
        self.play = play
    }

    /// Whether any store still waits for a decision (`subscription-price-change-undecided`).
    public var isUndecided: Bool {
        appStore?.existing == .undecided || play?.existing == .undecided
    }

    /// Whether App Store subscribers may lose the subscription for want of consent
    /// (`subscription-price-consent-required`: consent `required` or `possible` on a change that is not preserved).
    public var mayNeedConsent: Bool {
        guard let appStore else { return false }
        return appStore.consent == .required || appStore.consent == .possible
    }
}

/// Whether a price goes up or down.
public enum PriceDirection: String, Hashable, Sendable {
    /// The new amount is higher, in the same currency.
    case increase
    /// The new amount is lower, in the same currency.
    case decrease
    /// The two amounts are in different currencies (a changeover): not comparable.
    case unknown
}

/// What happens to existing subscribers' price (the JSON `existing`).
public enum ExistingSubscribers: String, Hashable, Sendable {
    /// They keep their price.
    case preserve
    /// They get the new price.
    case update
    /// No `priceChange` decides it.
    case undecided
}

/// Whether Apple asks existing subscribers to consent to the new price (the JSON `consent`).
public enum Consent: String, Hashable, Sendable {
    /// Above both of Apple's thresholds, or a second increase within 365 days: without consent the subscription
    /// expires.
    case required
    /// Above one threshold only (Apple's wording has been read both ways), or a storefront whose amount
    /// threshold is not known: plan for consent.
    case possible
    /// Below both thresholds: Apple notifies existing subscribers, no consent.
    case notRequired = "not-required"
    /// The old and new prices are not comparable (another currency).
    case unknown
    /// A decrease, or a preserved price: nothing to consent to.
    case notApplicable = "n/a"
}

/// How Play's legacy price cohort moves (the JSON `migration`).
public enum CohortMigration: String, Hashable, Sendable {
    /// None: existing subscribers stay in the legacy price cohort (`existing: preserve`).
    case none
    /// Migrated; they must accept an increase (`PRICE_INCREASE_TYPE_OPT_IN`).
    case optIn = "opt-in"
    /// Migrated; they need not accept (`PRICE_INCREASE_TYPE_OPT_OUT`, or a decrease, which needs no acceptance).
    case optOut = "opt-out"
    /// No `priceChange` decides whether to migrate.
    case undecided
}

/// The App Store side of a price change.
public struct AppStoreImpact: Hashable, Sendable {
    /// What existing subscribers get.
    public var existing: ExistingSubscribers
    /// Whether Apple asks them to consent.
    public var consent: Consent
    /// Why, in a sentence (the JSON `reason`).
    public var reason: String
    /// A few words for one line of text (`existing keep 59.99 (preserve)`).
    public var summary: String
    /// Why consent is what it is, for an increase that is not preserved (part of `reason`); nil otherwise.
    public var consentReason: String?
    /// The earlier increase that makes this one the second within 365 days, when that is why consent is required.
    public var earlierIncrease: RecordedPriceChange?

    /// Creates an App Store impact.
    public init(existing: ExistingSubscribers, consent: Consent, reason: String, summary: String,
                consentReason: String? = nil, earlierIncrease: RecordedPriceChange? = nil) {
        self.existing = existing
        self.consent = consent
        self.reason = reason
        self.summary = summary
        self.consentReason = consentReason
        self.earlierIncrease = earlierIncrease
    }
}

/// The Google Play side of a price change.
public struct PlayImpact: Hashable, Sendable {
    /// What existing subscribers get.
    public var existing: ExistingSubscribers
    /// Whether and how their legacy price cohort is migrated.
    public var migration: CohortMigration
    /// Why, in a sentence (the JSON `reason`).
    public var reason: String
    /// A few words for one line of text (`new purchases only (preserve)`).
    public var summary: String

    /// Creates a Play impact.
    public init(existing: ExistingSubscribers, migration: CohortMigration, reason: String, summary: String) {
        self.existing = existing
        self.migration = migration
        self.reason = reason
        self.summary = summary
    }
}
