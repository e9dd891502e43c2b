/// What the team decided for existing subscribers when an auto-renewable subscription's price changes (DESIGN.md
/// §2c, config `priceChange`), for a whole product or one territory. Every field is optional: a territory's
/// entry overrides the product's field by field (`PriceChangePolicy.decision(for:)`).
public struct PriceChangeDecision: Hashable, Sendable {
    /// What happens to existing subscribers.
    public enum Existing: String, CaseIterable, Hashable, Sendable {
        /// They keep their price. App Store: the new price is created with `preserveCurrentPrice: true`
        /// (App Store Connect API `SubscriptionPriceCreateRequest`); Play: they stay in their legacy price cohort.
        case preserve
        /// They get the new price. App Store: the price is not preserved; Play: their legacy price cohort is
        /// migrated (`monetization.subscriptions.basePlans.migratePrices`).
        case update
    }

    /// How a Play increase reaches migrated subscribers (`RegionalPriceMigrationConfig.priceIncreaseType`);
    /// ignored by the App Store side.
    public enum Increase: String, CaseIterable, Hashable, Sendable {
        /// `PRICE_INCREASE_TYPE_OPT_IN`: subscribers must accept the increase or their subscription is canceled.
        case optIn = "opt-in"
        /// `PRICE_INCREASE_TYPE_OPT_OUT`: subscribers are notified and need not accept; where Play's regional,
        /// frequency and amount limits are not met it proceeds as opt-in.
        case optOut = "opt-out"
    }

    /// `existing`; nil when this entry does not say (then nothing is decided unless another entry does).
    public var existing: Existing?
    /// `increase`; nil: not said (Play's default for a migration is opt-in).
    public var increase: Increase?
    /// `since`: the decision covers only changes that take effect on or after this day.
    public var since: CalendarDate?
    /// Where the entry is written (`priceChange:` or the territory's key).
    public var location: SourceLocation?

    /// Creates a decision.
    public init(existing: Existing? = nil, increase: Increase? = nil, since: CalendarDate? = nil,
                location: SourceLocation? = nil) {
        self.existing = existing
        self.increase = increase
        self.since = since
        self.location = location
    }

    /// Whether it decides a change that takes effect on `day`: it says `existing`, and its `since` (if any) is
    /// not after that day — a decision dated for a later change does not cover an earlier one.
    public func covers(changeOn day: CalendarDate) -> Bool {
        guard existing != nil else { return false }
        guard let since else { return true }
        return since <= day
    }

    /// The canonical text of the entry (`existing: update, increase: opt-out, since: 2026-12-01`), for messages.
    public var summary: String {
        var parts: [String] = []
        if let existing { parts.append("existing: \(existing.rawValue)") }
        if let increase { parts.append("increase: \(increase.rawValue)") }
        if let since { parts.append("since: \(since)") }
        return parts.joined(separator: ", ")
    }
}

/// A product's `priceChange` (DESIGN.md §2c): a decision for the whole product and, optionally, one per territory.
public struct PriceChangePolicy: Hashable, Sendable {
    /// The product-level fields (each may be absent).
    public var product: PriceChangeDecision
    /// Per-territory entries, which override the product's fields one by one.
    public var territories: [Territory: PriceChangeDecision]

    /// Creates a policy.
    public init(product: PriceChangeDecision = PriceChangeDecision(),
                territories: [Territory: PriceChangeDecision] = [:]) {
        self.product = product
        self.territories = territories
    }

    /// The decision in effect for `territory`: the territory's fields where it states them, the product's
    /// elsewhere; located at the territory's entry when there is one.
    public func decision(for territory: Territory) -> PriceChangeDecision {
        guard let own = territories[territory] else { return product }
        return PriceChangeDecision(existing: own.existing ?? product.existing,
                                   increase: own.increase ?? product.increase,
                                   since: own.since ?? product.since,
                                   location: own.location ?? product.location)
    }

    /// The policy a store snapshot states: `existing: preserve` in each territory whose latest recorded change
    /// kept existing subscribers on their price (App Store Connect `preserved`); nil when there is none. A
    /// change that did not preserve the price states nothing a config needs (`update` is what a change without
    /// a decision does on the App Store), so only `preserve` is written.
    public static func stated(by changes: [RecordedPriceChange]) -> PriceChangePolicy? {
        var latest: [Territory: RecordedPriceChange] = [:]
        for change in changes {
            if let known = latest[change.territory], known.date >= change.date { continue }
            latest[change.territory] = change
        }
        let preserved = latest.filter { $0.value.preserved == true }
        guard !preserved.isEmpty else { return nil }
        return PriceChangePolicy(territories: preserved.mapValues { _ in PriceChangeDecision(existing: .preserve) })
    }
}

/// A subscription price change a store snapshot records: two consecutive dated price rows of one territory
/// (App Store Connect `subscriptionPrices`, whose `startDate` dates each row). Read for the change rules (a
/// second increase within 365 days, `price-preserve-mismatch`) and for `export`'s `priceChange`.
public struct RecordedPriceChange: Hashable, Sendable {
    /// The territory.
    public var territory: Territory
    /// The day the new price starts (the later row's `startDate`).
    public var date: CalendarDate
    /// The price before.
    public var from: Money
    /// The price from `date` on.
    public var to: Money
    /// Whether existing subscribers kept `from`: the earlier row's `preserved` (App Store Connect marks the row
    /// whose price is kept, as Apple's `GET /v1/subscriptions/{id}/prices` example shows: the first row
    /// `preserved: true` at 0.99 USD, the row from 2025-03-03 at 2.99 USD `preserved: false`). Nil when the row
    /// does not say.
    public var preserved: Bool?
    /// Where the later row is.
    public var location: SourceLocation?
    /// A change the config under review plans (its change at `--as-of` or an earlier entry of its schedule), not
    /// one App Store Connect recorded: it counts toward a second increase within 365 days all the same.
    public var planned: Bool

    /// Creates a recorded change.
    public init(territory: Territory, date: CalendarDate, from: Money, to: Money, preserved: Bool?,
                location: SourceLocation? = nil, planned: Bool = false) {
        self.territory = territory
        self.date = date
        self.from = from
        self.to = to
        self.preserved = preserved
        self.location = location
        self.planned = planned
    }

    /// Whether the price went up (same currency only).
    public var isIncrease: Bool { from.currency == to.currency && to.amount > from.amount }
}
