/// The change rules of `check --since` (DESIGN.md §2c, §5): findings from the diff of the old config against the
/// current one, judged by `SubscriberImpactJudge` with the run's `PriceChangeContext`. A finding is about one store
/// (`appstore` | `play`, part of its identity) and goes with the run's first input of that store; one finding per
/// product, territory and store, located at the new config's price — except the Play migration note, one per
/// product at the product, listing its regions. `price-preserve-mismatch` reads each App Store input's recorded
/// changes (App Store Connect price rows).
public enum PriceChangeRules {
    /// The findings; `diff` is `CatalogDiffer(context:)`'s diff from the old config to `config`, `stores` the
    /// run's store inputs in order (their positions are the findings' `storeInput`), `territories` the ones
    /// compared (`--territory`, the rules file's `territories:`; nil: all).
    public static func findings(changes diff: CatalogDiff, config: Catalog, stores: [Catalog],
                                territories: Set<Territory>? = nil) -> [Finding] {
        var firstInput: [StoreKind: (input: StoreInputID, catalog: Catalog)] = [:]
        for (position, store) in stores.enumerated() {
            if let kind = store.store, firstInput[kind] == nil {
                firstInput[kind] = (StoreInputID(position: position), store)
            }
        }
        var configByID: [String: Product] = [:]
        for product in config.products where configByID[product.id.rawValue] == nil {
            configByID[product.id.rawValue] = product
        }
        var findings: [Finding] = []
        for change in diff.products where change.change == .changed {
            guard let product = configByID[change.productID] else { continue }
            var migrations: [Migration] = []
            for field in change.fields {
                guard let territory = field.territory, territories?.contains(territory) ?? true,
                      let impact = field.subscriberImpact, let judged = JudgedChange(field: field, territory: territory, impact: impact, product: product)
                else { continue }
                if let (input, store) = firstInput[.appStore], let appStore = impact.appStore {
                    findings += judged.appStoreFindings(appStore).map { $0.on(store, input, .appStore) }
                }
                if let (input, store) = firstInput[.play], let play = impact.play {
                    findings += judged.playFindings(play).map { $0.on(store, input, .play) }
                    if play.existing == .update {
                        migrations.append(Migration(territory: territory, kind: impact.direction == .decrease
                            ? .decrease : play.migration == .optOut ? .optOut : .optIn, day: field.effective))
                    }
                }
            }
            if let (input, store) = firstInput[.play], !migrations.isEmpty {
                findings.append(migrationNote(product, migrations).on(store, input, .play))
            }
        }
        for (position, store) in stores.enumerated() where store.store == .appStore {
            findings += preserveMismatches(diff, configByID: configByID, config: config, store: store)
                .filter { finding in finding.territory.map { territories?.contains($0) ?? true } ?? true }
                .map { $0.on(store, StoreInputID(position: position), .appStore) }
        }
        return findings
    }

    /// One price field's change, as the findings word it.
    private struct JudgedChange {
        let field: FieldChange
        let territory: Territory
        let impact: SubscriberImpact
        let product: Product
        /// `DE 59.99 EUR -> 64.99 EUR (+8.3%)`, with the billing plan named for a plan's amount.
        let head: String
        let findingField: ProductField
        let location: SourceLocation

        init?(field: FieldChange, territory: Territory, impact: SubscriberImpact, product: Product) {
            guard let old = field.old, let new = field.new else { return nil }
            self.field = field
            self.territory = territory
            self.impact = impact
            self.product = product
            let percent = field.percent.map { " (\($0 > 0 ? "+" : "")\($0)%)" } ?? ""
            switch field.field {
            case .price:
                let day = field.effective.map { " from \($0)" } ?? ""
                head = "\(territory) \(old) -> \(new)\(day)\(percent)"
                findingField = .price
                location = product.prices[territory]?.location ?? product.location(of: .price)
            case .billingPlan:
                let plan = BillingPlan.PlanType(rawValue: field.item ?? "") ?? .monthly
                head = "\(territory) \(plan.rawValue) billing plan \(old) -> \(new)\(percent)"
                findingField = .billingPlan(plan)
                location = product.location(of: .billingPlan(plan))
            default:
                return nil
            }
        }

        func finding(_ rule: Rule, message: String, territory: Territory?, expected: String? = nil) -> Finding {
            // A scheduled change's new price names its day, so the Markdown lead and a baseline tell it from the
            // change of the same territory at `--as-of`.
            let new = field.new.map { new in field.effective.map { "\(new) from \($0)" } ?? new }
            return Finding(rule: rule, productID: product.id.rawValue, field: findingField, territory: territory,
                           expected: expected ?? new, actual: field.old, message: message, configLocation: location,
                           store: nil)
        }

        func appStoreFindings(_ appStore: AppStoreImpact) -> [Finding] {
            var findings: [Finding] = []
            if appStore.existing == .undecided {
                findings.append(finding(
                    .subscriptionPriceChangeUndecided,
                    message: "\(head): no priceChange decides what existing App Store subscribers pay; "
                        + "existing: preserve keeps them on \(field.old ?? "their price") (preserveCurrentPrice), "
                        + "existing: update gives them \(field.new ?? "the new price") (consent: "
                        + "\(appStore.consent.rawValue))",
                    territory: territory))
            }
            if impact.mayNeedConsent {
                let asks = appStore.consent == .required ? "asks for" : "may ask for"
                let who = appStore.existing == .update ? "existing: update" : "no decision yet, so not preserved"
                findings.append(finding(
                    .subscriptionPriceConsentRequired,
                    message: "\(head) reaches existing App Store subscribers (\(who)), and Apple \(asks) their "
                        + "consent (\(appStore.consent.rawValue)): \(appStore.consentReason ?? appStore.reason)",
                    territory: territory))
            }
            if impact.direction == .decrease {
                findings.append(finding(
                    .subscriptionPriceDecreaseApplies,
                    message: "\(head): a decrease reaches every existing App Store subscriber at their next renewal; "
                        + "App Store Connect cannot preserve the higher price",
                    territory: territory))
            }
            return findings
        }

        func playFindings(_ play: PlayImpact) -> [Finding] {
            guard play.existing == .undecided, field.field == .price else { return [] }
            return [finding(
                .subscriptionPriceChangeUndecided,
                message: "\(head): no priceChange decides whether existing Play subscribers stay in their legacy "
                    + "price cohort at \(field.old ?? "their price") (existing: preserve) or are migrated to "
                    + "\(field.new ?? "the new price") (existing: update, with increase: opt-in or opt-out); new "
                    + "purchases pay the new price either way",
                territory: territory)]
        }
    }

    /// One region's cohort migration.
    private struct Migration {
        enum Kind: String, CaseIterable {
            case optIn = "opt-in"
            case optOut = "opt-out"
            /// A decrease: subscribers pay less from their next billing date, no acceptance.
            case decrease
        }

        let territory: Territory
        let kind: Kind
        /// A scheduled change's day; nil for the change at `--as-of`.
        let day: CalendarDate?
    }

    /// `play-cohort-migration-needed`: one note per product naming its regions and the manual steps.
    private static func migrationNote(_ product: Product, _ migrations: [Migration]) -> Finding {
        let sorted = migrations.sorted {
            ($0.territory.alpha2, $0.day?.description ?? "") < ($1.territory.alpha2, $1.day?.description ?? "")
        }
        // A region is named once in all and once per kind, with the days of its scheduled changes (each is
        // migrated on its day).
        var names: [String] = []
        var byKind: [Migration.Kind: [String]] = [:]
        var scheduled: [String: [String]] = [:]
        for migration in sorted {
            let region = migration.territory.alpha2
            if names.last != region { names.append(region) }
            if byKind[migration.kind]?.last != region { byKind[migration.kind, default: []].append(region) }
            if let day = migration.day { scheduled[region, default: []].append(day.description) }
        }
        let kinds = Migration.Kind.allCases.compactMap { kind in
            byKind[kind].map { "\($0.joined(separator: ", ")) \(kind.rawValue)" }
        }
        let regions = names.joined(separator: ", ")
        let playID = (product.storeIDs[.play] ?? product.id).rawValue
        let parts = playID.split(separator: ":", maxSplits: 1).map(String.init)
        let target = parts.count == 2 ? "subscription \(parts[0]), base plan \(parts[1])" : "subscription \(playID)"
        var steps = [
            "new purchases pay the new price within hours; existing subscribers stay in a legacy price cohort "
                + "until it is migrated",
            "migrate the cohorts of \(regions) in Play Console or with "
                + "monetization.subscriptions.basePlans.migratePrices for \(target) (regionalPriceMigrations: "
                + "\(regions))",
        ]
        if let regions = byKind[.optIn] {
            steps.append("opt-in (\(regions.joined(separator: ", "))): Play notifies subscribers before the first "
                         + "charge at the new price (37 days' notice; Google: the period varies by region) and "
                         + "cancels at renewal whoever does not accept")
        }
        if let regions = byKind[.optOut] {
            steps.append("opt-out (\(regions.joined(separator: ", "))): only within Play's regional, frequency and "
                         + "amount limits (otherwise it proceeds as opt-in), and the app's first opt-out increase must "
                         + "be started in Play Console")
        }
        if let regions = byKind[.decrease] {
            steps.append("decrease (\(regions.joined(separator: ", "))): subscribers pay less from their next billing "
                         + "date, without accepting anything")
        }
        if !scheduled.isEmpty {
            // Play has no dated price: a base plan's price applies to new purchases within hours of the change
            // (monetization.subscriptions.patch), and migratePrices moves cohorts to the *current* price
            // (developer.android.com/google/play/billing/price-changes; RegionalPriceMigrationConfig).
            let days = names.compactMap { name in scheduled[name].map { "\(name) \($0.joined(separator: ", "))" } }
            steps.append("Google Play prices have no start date: set each scheduled price on its day, then migrate "
                         + "that cohort (\(days.joined(separator: "; ")))")
        }
        steps.append("offer phases (free trials, introductory prices) are not migrated")
        return Finding(rule: .playCohortMigrationNeeded, productID: product.id.rawValue, field: .price,
                       expected: kinds.joined(separator: "; "),
                       message: "existing: update on Google Play needs a price cohort migration in \(regions): "
                           + steps.joined(separator: "; "),
                       configLocation: product.location, store: nil)
    }

    /// `price-preserve-mismatch` against one App Store input: for each territory whose price changed with a
    /// decision, the store's record of the same change (the latest from the old config's price to the new one,
    /// applied or scheduled), when it says otherwise. A decrease is never preserved (Apple), so only increases
    /// are compared.
    private static func preserveMismatches(_ diff: CatalogDiff, configByID: [String: Product], config: Catalog,
                                           store: Catalog) -> [Finding] {
        guard store.products.contains(where: { !$0.recordedPriceChanges.isEmpty }) else { return [] }
        let matching = ProductMatching(config: config, store: store)
        var theirs: [ProductID: Product] = [:]
        for match in matching.matches { theirs[match.mine.id] = match.theirs }
        var findings: [Finding] = []
        for change in diff.products where change.change == .changed {
            guard let product = configByID[change.productID], let storeProduct = theirs[product.id] else { continue }
            for field in change.fields where field.field == .price {
                guard let territory = field.territory, let impact = field.subscriberImpact,
                      impact.direction == .increase, let appStore = impact.appStore,
                      appStore.existing != .undecided else { continue }
                let same = storeProduct.recordedPriceChanges.filter { recorded in
                    recorded.territory == territory && recorded.from.description == field.old
                        && recorded.to.description == field.new
                }
                guard let latest = same.max(by: { $0.date < $1.date }), let preserved = latest.preserved,
                      preserved != (appStore.existing == .preserve) else { continue }
                let said = appStore.existing == .preserve ? "preserve" : "update"
                let done = preserved ? "preserve" : "update"
                let storeText = preserved
                    ? "kept existing subscribers on \(latest.from) (the replaced price row reads preserved: true)"
                    : "gave existing subscribers \(latest.to) (the replaced price row reads preserved: false)"
                findings.append(Finding(
                    rule: .pricePreserveMismatch, productID: product.id.rawValue, field: .price, territory: territory,
                    expected: said, actual: done,
                    message: "\(territory) \(latest.from) -> \(latest.to): the config says existing: \(said), but App "
                        + "Store Connect's change on \(latest.date) \(storeText)",
                    configLocation: product.prices[territory]?.location ?? product.location(of: .price),
                    storeLocation: latest.location, store: nil))
            }
        }
        return findings
    }
}

private extension Finding {
    /// The finding as one of a store input's.
    func on(_ store: Catalog, _ input: StoreInputID, _ kind: StoreKind) -> Finding {
        var finding = self
        finding.store = store.path
        finding.storeInput = input
        finding.storeKind = kind
        return finding
    }
}
