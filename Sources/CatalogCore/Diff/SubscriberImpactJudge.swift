import Foundation

/// Judges one subscription price change for each store (DESIGN.md §2c): the one place the stores' rules for
/// existing subscribers are written down. `diff`, `report --since` and the change rules of `check --since` all
/// read its `SubscriberImpact`.
///
/// Sources (checked 2026-11-28):
/// - App Store Connect Help, "Manage pricing for auto-renewable subscriptions": "If you decrease the price of
///   your auto-renewable subscription, existing subscriptions will automatically renew at the lower price. You
///   don't have the option to preserve the higher price for existing subscribers"; "You also have the option to
///   preserve prices for existing subscribers" (`preserveCurrentPrice`, App Store Connect API
///   `SubscriptionPriceCreateRequest`).
/// - developer.apple.com/documentation/advancedcommerceapi/handling-subscription-price-changes: the App Store
///   asks for consent when the subscriber's region requires it for any price change, or when the increase is
///   "More than 50 percent of the current price; and The difference in price exceeds 5 United States Dollars
///   (USD) per period for nonannual subscriptions, or 50 USD per year for annual subscriptions"; other
///   currencies use "International equivalents … based on current exchange rates", thresholds "subject to change".
/// - support.apple.com/109501 ("About subscription price changes"): without consent only "If the increase does
///   not exceed approximately USD $5 and 50% of the subscription price, or USD $50 and 50% for annual
///   subscriptions … Developers may do this no more than once per year"; an increase that "is above the
///   thresholds, exceeds the annual limit, or occurs within territories where the law requires it" needs the
///   subscriber to opt in, else "the subscription will not renew". The press has read that "and" as "or", hence
///   `possible` when only one amount holds.
/// - developer.android.com/google/play/billing/price-changes: a base plan's new price "takes effect within a few
///   hours for all new purchases"; "existing subscribers are unaffected by default; they are placed into a legacy
///   price cohort" until it is ended (migrated). `RegionalPriceMigrationConfig.priceIncreaseType` (Play Developer
///   API): opt-in — "Subscribers must accept the price increase or their subscription is canceled"; opt-out —
///   "Opt-out price increases not meeting regional, frequency, and amount limits will proceed as opt-in price
///   increase. The first opt-out price increase for each app must be initiated in the Google Play Console";
///   "Price decreases occur at the subscriber's next billing date".
///
/// "Per period" is read as Apple writes it: the difference between the old and the new price of one billing
/// period of the subscription, whatever its length — a weekly, monthly, two-, three- or six-monthly
/// subscription compares its own period's increase with USD 5 (a P3M plan going from 9.99 to 15.99 USD is
/// +6.00 USD per period), a yearly one with USD 50. No table of other currencies' thresholds ships with
/// catalogcheck (Apple publishes none with a source we could cite), so a storefront not priced in USD is
/// `possible` when the increase is above 50 % and `not-required` otherwise, and no list of the regions that
/// require consent for every increase is applied either: the reasons say so.
enum SubscriberImpactJudge {
    /// Apple's amount thresholds in US dollars: per period for non-annual subscriptions, per year for annual ones.
    static let nonAnnualThreshold = Decimal(5)
    static let annualThreshold = Decimal(50)
    /// Apple's "once per year", as days.
    static let increaseWindowDays = 365

    /// One change from `old` to `new` in `territory`, for the stores given. `policy` is the config's
    /// `priceChange`, `effective` the day the change takes effect (nil: unknown, so a dated decision does not
    /// cover it), `recorded` the App Store's recorded changes of the product, `period` its renewal period.
    static func impact(from old: Money, to new: Money, territory: Territory, period: SubscriptionPeriod?,
                       policy: PriceChangePolicy?, effective: CalendarDate?, stores: Set<StoreKind>,
                       recorded: [RecordedPriceChange]) -> SubscriberImpact {
        let direction: PriceDirection = old.currency != new.currency ? .unknown
            : new.amount > old.amount ? .increase : .decrease
        // A decision covers the change when it says `existing` and its `since` is not after the change's day;
        // with no day known, only an undated decision does.
        var covering = policy?.decision(for: territory)
        if let decision = covering {
            let covers = effective.map { decision.covers(changeOn: $0) } ?? (decision.existing != nil && decision.since == nil)
            if !covers { covering = nil }
        }
        let change = Change(old: old, new: new, territory: territory, period: period, direction: direction,
                            existing: covering?.existing, increase: covering?.increase, effective: effective)
        return SubscriberImpact(
            direction: direction,
            appStore: stores.contains(.appStore) ? appStore(change, recorded: recorded) : nil,
            play: stores.contains(.play) ? play(change) : nil)
    }

    /// What one change is, as the judges read it.
    struct Change {
        let old: Money
        let new: Money
        let territory: Territory
        let period: SubscriptionPeriod?
        let direction: PriceDirection
        /// The covering decision's `existing`; nil when none covers the change.
        let existing: PriceChangeDecision.Existing?
        let increase: PriceChangeDecision.Increase?
        let effective: CalendarDate?

        /// `+8.3%` when both prices are in one currency (and the old one is not zero).
        var percentText: String? {
            guard direction != .unknown, let percent = CatalogDiffer.percent(from: old.amount, to: new.amount)
            else { return nil }
            return (percent > 0 ? "+" : "") + "\(percent)%"
        }
    }

    // MARK: - App Store

    static func appStore(_ change: Change, recorded: [RecordedPriceChange]) -> AppStoreImpact {
        let oldAmount = Money.format(change.old.amount)
        let newAmount = Money.format(change.new.amount)
        if change.direction == .decrease {
            return AppStoreImpact(
                existing: .update, consent: .notApplicable,
                reason: "a decrease reaches every existing subscriber at their next renewal: App Store Connect cannot "
                    + "preserve the higher price",
                summary: "existing pay \(newAmount) (a decrease always applies)")
        }
        if change.existing == .preserve {
            return AppStoreImpact(
                existing: .preserve, consent: .notApplicable,
                reason: "created with preserveCurrentPrice: existing subscribers keep \(change.old); new subscribers "
                    + "pay \(change.new)",
                summary: "existing keep \(oldAmount) (preserve)")
        }
        let (consent, why, earlier) = consent(change, recorded: recorded)
        if change.existing == .update {
            return AppStoreImpact(existing: .update, consent: consent,
                                  reason: "existing subscribers pay \(change.new): " + why,
                                  summary: "existing pay \(newAmount) (update; consent \(consent.rawValue))",
                                  consentReason: why, earlierIncrease: earlier)
        }
        return AppStoreImpact(
            existing: .undecided, consent: consent,
            reason: "no priceChange decides whether existing subscribers keep \(change.old) (existing: preserve) or "
                + "pay \(change.new) (existing: update); if they pay it: " + why,
            summary: "undecided (if not preserved: consent \(consent.rawValue))", consentReason: why,
            earlierIncrease: earlier)
    }

    /// Whether Apple asks existing subscribers to consent to an increase that is not preserved, and why.
    static func consent(_ change: Change,
                        recorded: [RecordedPriceChange]) -> (Consent, String, RecordedPriceChange?) {
        let expires = "Apple asks every existing subscriber to consent, and without consent the subscription expires"
        let mayExpire = "if Apple asks, a subscriber who does not consent loses the subscription at renewal"
        if let earlier = earlierIncrease(change, recorded: recorded) {
            let source = earlier.planned
                ? "the config plans \(earlier.from) -> \(earlier.to) on \(earlier.date) with existing: update"
                : "App Store Connect recorded \(earlier.from) -> \(earlier.to) on \(earlier.date), not preserved"
            return (.required,
                    "the second increase within \(increaseWindowDays) days that does not preserve the price "
                        + "(\(source)): " + expires, earlier)
        }
        guard change.direction == .increase else {
            return (.unknown, "\(change.old) and \(change.new) are in different currencies, so whether Apple asks for "
                        + "consent cannot be judged", nil)
        }
        let increase = change.new.amount - change.old.amount
        // "More than 50 percent of the current price", exactly: 2 × increase > old.
        let overHalf = increase * 2 > change.old.amount
        let percent = change.percentText ?? "+\(Self.amountText(increase, like: change.new)) \(change.new.currency)"
        let regionNote = " (unless the storefront's law requires consent for every increase; catalogcheck ships no "
            + "list of those regions)"
        guard change.new.currency.code == "USD" else {
            // No table of other currencies' thresholds with a source: only the percentage can be judged.
            if overHalf {
                return (.possible, "the increase is above 50 % (\(percent)); whether it is above Apple's amount "
                            + "threshold in \(change.new.currency) cannot be judged without Apple's table of "
                            + "equivalents; plan for consent: " + mayExpire, nil)
            }
            return (.notRequired, "the increase is not above 50 % (\(percent)): Apple notifies existing "
                        + "subscribers, no consent" + regionNote, nil)
        }
        let annual = change.period.map { $0.unit == .year && $0.count == 1 }
        let threshold = annual == true ? annualThreshold : nonAnnualThreshold
        let thresholdText = annual == true ? "USD 50 a year" : "USD 5 per period"
        let amountText = "+\(Self.amountText(increase, like: change.new)) USD"
            + (annual == true ? " a year" : change.period.map { " per \($0) period" } ?? "")
        // The amount clause: exactly above the threshold; with no period known, above USD 50 holds either way and
        // at most USD 5 fails either way, between the two it is not known.
        let overAmount: Bool? = change.period != nil ? increase > threshold
            : increase > annualThreshold ? true : increase > nonAnnualThreshold ? nil : false
        switch (overHalf, overAmount) {
        case (true, true?):
            return (.required, "the increase is above 50 % (\(percent)) and above \(thresholdText) "
                        + "(\(amountText)): " + expires, nil)
        case (false, false?):
            return (.notRequired, "the increase is neither above 50 % (\(percent)) nor above \(thresholdText) "
                        + "(\(amountText)): Apple notifies existing subscribers, no consent" + regionNote, nil)
        case (true, false?):
            return (.possible, "the increase is above 50 % (\(percent)) but not above \(thresholdText) "
                        + "(\(amountText)); Apple requires both, but its wording has been read as either; plan for "
                        + "consent: " + mayExpire, nil)
        case (false, true?):
            return (.possible, "the increase is above \(thresholdText) (\(amountText)) but not above 50 % "
                        + "(\(percent)); Apple requires both, but its wording has been read as either; plan for "
                        + "consent: " + mayExpire, nil)
        case (_, nil):
            return (.possible, "the product states no period, so whether \(amountText) is above Apple's USD 5 a "
                        + "period or USD 50 a year cannot be judged (\(percent)); plan for consent: " + mayExpire, nil)
        }
    }

    /// `amount` with as many decimals as `price` is written with (`6.00` beside `10.99`), so a difference reads
    /// like the prices it is taken from.
    static func amountText(_ amount: Decimal, like price: Money) -> String {
        let text = Money.format(amount)
        let decimals = Money.format(price.amount).split(separator: ".").dropFirst().first?.count ?? 0
        let have = text.split(separator: ".").dropFirst().first?.count ?? 0
        guard decimals > have else { return text }
        return text + (have == 0 ? "." : "") + String(repeating: "0", count: decimals - have)
    }

    /// An increase App Store Connect recorded in the same territory within 365 days before this change takes
    /// effect, without preserving the price, other than this change itself (the latest recorded change to the
    /// same new price, when the store already has it): the most recent such one.
    static func earlierIncrease(_ change: Change, recorded: [RecordedPriceChange]) -> RecordedPriceChange? {
        guard let effective = change.effective else { return nil }
        let applied = recorded.filter { $0.territory == change.territory && $0.date <= effective }
        // The store already at the new price: its latest change is this one, not an earlier increase.
        let latest = applied.max { $0.date < $1.date }
        let itself = latest?.to == change.new ? latest : nil
        return applied.filter { earlier in
            earlier != itself && earlier.isIncrease && earlier.preserved == false
                && effective.days(since: earlier.date) < increaseWindowDays
        }.max { $0.date < $1.date }
    }

    // MARK: - Play

    static func play(_ change: Change) -> PlayImpact {
        let newPurchases = "new purchases pay \(change.new) within hours"
        switch change.existing {
        case nil:
            return PlayImpact(
                existing: .undecided, migration: .undecided,
                reason: "\(newPurchases); existing subscribers stay in a legacy price cohort at \(change.old) until "
                    + "priceChange decides whether to migrate them (existing: preserve keeps them there; existing: "
                    + "update migrates them)",
                summary: "new purchases only until decided (undecided)")
        case .preserve?:
            return PlayImpact(
                existing: .preserve, migration: .none,
                reason: "\(newPurchases); existing subscribers stay in their legacy price cohort at \(change.old)",
                summary: "new purchases only (preserve)")
        case .update?:
            if change.direction == .decrease {
                return PlayImpact(
                    existing: .update, migration: .optOut,
                    reason: "\(newPurchases); migrating the legacy price cohort (basePlans.migratePrices) brings existing "
                        + "subscribers down to \(change.new) at their next billing date, without acceptance",
                    summary: "existing after migration (update; a decrease needs no acceptance)")
            }
            if change.increase == .optOut {
                return PlayImpact(
                    existing: .update, migration: .optOut,
                    reason: "\(newPurchases); migrating the legacy price cohort as an opt-out increase notifies existing "
                        + "subscribers, who pay \(change.new) unless they cancel — where Play's regional, frequency "
                        + "and amount limits allow it, otherwise it proceeds as opt-in; an app's first opt-out "
                        + "increase must be started in Play Console",
                    summary: "existing after opt-out migration (update)")
            }
            return PlayImpact(
                existing: .update, migration: .optIn,
                reason: "\(newPurchases); migrating the legacy price cohort as an opt-in increase notifies existing "
                    + "subscribers, who must accept \(change.new) or their subscription is canceled at renewal",
                summary: "existing after opt-in migration (update)")
        }
    }
}
