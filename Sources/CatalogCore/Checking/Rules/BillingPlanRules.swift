import Foundation

/// App Store billing plans (DESIGN.md §4a, §5a.15): `billing-plan-missing-in-store` and
/// `billing-plan-price-mismatch` on a matched pair, `billing-plan-out-of-range` on each catalog on its own.
///
/// A plan is compared only against a store input that carries billing plans (`carriesBillingPlans`) and a
/// product record that carries them (`Product.billingPlans` not nil).
enum BillingPlanRules {
    /// The config's plans against the store's, amounts limited to `territories` when given.
    static func check(_ pair: ProductPair, territories: Set<Territory>?) -> [Finding] {
        guard pair.store.capabilities.carriesBillingPlans, let storePlans = pair.theirs.billingPlans,
              let configPlans = pair.mine.billingPlans else { return [] }
        var findings: [Finding] = []
        // The upfront plan is the subscription's own price (compared by the price rules), which App Store Connect
        // lists as no plan: a declared StoreKit file's BILLED_UPFRONT plan is never missing in a store.
        for plan in configPlans.sorted(by: { $0.type < $1.type }) where plan.type != .upfront {
            let configAt = plan.location ?? pair.mine.location
            guard let other = storePlans.first(where: { $0.type == plan.type }), other.isEnabled != false else {
                let disabled = storePlans.contains { $0.type == plan.type }
                findings.append(pair.finding(
                    .billingPlanMissingInStore, field: plan.field, expected: plan.type.rawValue,
                    actual: disabled ? "disabled" : nil,
                    message: "the \(plan.type.rawValue) billing plan is in the config but "
                        + (disabled ? "disabled" : "not") + " in the store (\(pair.theirs.location))",
                    configLocation: configAt, storeLocation: pair.theirs.location))
                continue
            }
            let storeAt = other.location ?? pair.theirs.location
            for (territory, amount) in plan.prices.sorted(by: { $0.key < $1.key })
            where territories?.contains(territory) ?? true {
                if let actual = other.prices[territory] {
                    guard actual != amount else { continue }
                    findings.append(pair.finding(
                        .billingPlanPriceMismatch, field: plan.field, territory: territory,
                        expected: amount.description, actual: actual.description,
                        message: "the \(plan.type.rawValue) billing plan is \(actual) in \(territory) in the store "
                            + "(\(storeAt)), \(amount) in the config",
                        configLocation: configAt, storeLocation: storeAt))
                } else if pair.storePrices(territory) {
                    findings.append(pair.finding(
                        .billingPlanPriceMismatch, field: plan.field, territory: territory,
                        expected: amount.description, actual: nil,
                        message: "the \(plan.type.rawValue) billing plan is \(amount) in \(territory) in the config "
                            + "but has no amount there in the store (\(storeAt))",
                        configLocation: configAt, storeLocation: storeAt))
                }
            }
        }
        return findings
    }

    /// `billing-plan-out-of-range` in one catalog: per territory where a monthly plan and the subscription's
    /// own (upfront) price both exist in one currency, 12 × the monthly amount must lie within [the yearly
    /// price, 1.5 × the yearly price] (App Store Connect refuses other prices; FORMATS.md); and a StoreKit
    /// `commitmentDisplayPrice` must be 12 × the monthly `displayPrice`. `idFor` names the product (the config
    /// key when a store product is matched); `storePath` is nil for the config. The plan itself: Apple's
    /// "Supporting monthly subscriptions with a 12-month commitment" (StoreKit; App Store Connect API 4.4
    /// `planType: MONTHLY`); the range is FORMATS.md's "Offers, purchase options and billing plans".
    static func lint(_ catalog: Catalog, storePath: String?, idFor: (Product) -> String) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<ProductID> = []
        let year = SubscriptionPeriod(count: 1, unit: .year)
        for product in catalog.products {
            guard let plans = product.billingPlans, seen.insert(product.id).inserted,
                  let monthly = plans.first(where: { $0.type == .monthly }) else { continue }
            let upfront = plans.first { $0.type == .upfront }
            let location = monthly.location ?? product.location
            func finding(_ field: ProductField, _ territory: Territory, expected: String, actual: String,
                         _ message: String) -> Finding {
                OfferRules.lintFinding(.billingPlanOutOfRange, productID: idFor(product), field: field,
                                       territory: territory, expected: expected, actual: actual, message: message,
                                       at: location, storePath: storePath)
            }
            // The range is Apple's for a yearly subscription; a product of another period has no such plan.
            let yearly = product.period.map { $0 == year } ?? true
            for (territory, amount) in monthly.prices.sorted(by: { $0.key < $1.key }) where yearly {
                guard let price = product.prices[territory]?.money ?? upfront?.prices[territory],
                      price.currency == amount.currency else { continue }
                let total = amount.amount * 12
                let ceiling = price.amount * 3 / 2
                guard total < price.amount || total > ceiling else { continue }
                let range = "[\(price), \(Money(amount: ceiling, currency: price.currency))]"
                let twelve = Money(amount: total, currency: amount.currency)
                findings.append(finding(
                    monthly.field, territory, expected: range, actual: twelve.description,
                    "12 × the monthly amount \(amount) is \(twelve) in \(territory), "
                        + (total < price.amount ? "below the yearly price \(price)"
                            : "above 1.5 × the yearly price \(price)")
                        + "; App Store Connect accepts \(range)"))
            }
            for (territory, commitment) in monthly.commitmentPrices.sorted(by: { $0.key < $1.key }) {
                guard let amount = monthly.prices[territory], amount.currency == commitment.currency else { continue }
                let twelve = Money(amount: amount.amount * 12, currency: amount.currency)
                guard twelve.amount != commitment.amount else { continue }
                findings.append(finding(
                    commitmentField, territory, expected: twelve.description, actual: commitment.description,
                    "the monthly plan's commitment price is \(commitment) in \(territory), not 12 × its monthly "
                        + "amount \(amount) (\(twelve))"))
            }
        }
        return findings
    }

    /// `billingPlan:monthly:commitment`: a field of its own, so a commitment finding and a range finding in one
    /// territory keep distinct identities in a baseline.
    static let commitmentField = ProductField(rawValue: "billingPlan:monthly:commitment") ?? .billingPlan(.monthly)
}
