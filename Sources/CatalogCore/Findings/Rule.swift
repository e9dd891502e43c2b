/// The rules, with their stable IDs (a public contract: DESIGN.md §5).
public enum Rule: String, CaseIterable, Hashable, Comparable, Sendable {
    case productMissingInStore = "product-missing-in-store"
    case productMissingInConfig = "product-missing-in-config"
    case duplicateProductID = "duplicate-product-id"
    case appMismatch = "app-mismatch"
    case typeMismatch = "type-mismatch"
    case priceMismatch = "price-mismatch"
    case priceMissingInStore = "price-missing-in-store"
    case priceMissingInConfig = "price-missing-in-config"
    case periodMismatch = "period-mismatch"
    case groupMismatch = "group-mismatch"
    case groupLevelMismatch = "group-level-mismatch"
    case groupMissingInStore = "group-missing-in-store"
    case introOfferMismatch = "intro-offer-mismatch"
    case familySharingMismatch = "family-sharing-mismatch"
    case availabilityMismatch = "availability-mismatch"
    case nameMismatch = "name-mismatch"
    case introOfferExceedsPeriod = "intro-offer-exceeds-period"
    case storekitSingleStorefront = "storekit-single-storefront"
    case offerMissingInStore = "offer-missing-in-store"
    case offerMissingInConfig = "offer-missing-in-config"
    case offerMismatch = "offer-mismatch"
    case offerIDReused = "offer-id-reused"
    case offerFreeWithPrice = "offer-free-with-price"
    case offerNotADiscount = "offer-not-a-discount"
    case billingPlanMissingInStore = "billing-plan-missing-in-store"
    case billingPlanPriceMismatch = "billing-plan-price-mismatch"
    case billingPlanOutOfRange = "billing-plan-out-of-range"
    case purchaseOptionMismatch = "purchase-option-mismatch"
    case duplicateOfferID = "duplicate-offer-id"
    case subscriptionPriceChangeUndecided = "subscription-price-change-undecided"
    case subscriptionPriceConsentRequired = "subscription-price-consent-required"
    case subscriptionPriceDecreaseApplies = "subscription-price-decrease-applies"
    case playCohortMigrationNeeded = "play-cohort-migration-needed"
    case pricePreserveMismatch = "price-preserve-mismatch"
    case pricesNotCompared = "prices-not-compared"
    case priceNotEqualized = "price-not-equalized"
    case priceScheduleMismatch = "price-schedule-mismatch"
    case currencyNotValidAtDate = "currency-not-valid-at-date"
    case currencyChangeoverAhead = "currency-changeover-ahead"
    case priceNotAPricePoint = "price-not-a-price-point"
    case pricePointsMissing = "price-points-missing"
    case subscriptionPriceMatrixIncomplete = "subscription-price-matrix-incomplete"
    case offeringProductMissingInStore = "offering-product-missing-in-store"
    case offeringProductNotInProject = "offering-product-not-in-project"
    case ignoreExpired = "ignore-expired"
    case ignoreUnused = "ignore-unused"

    /// The severity a finding of this rule has unless configured otherwise.
    public var defaultSeverity: Severity {
        switch self {
        case .productMissingInStore, .productMissingInConfig, .duplicateProductID, .appMismatch, .typeMismatch,
             .priceMismatch, .priceMissingInStore, .periodMismatch, .groupMismatch, .groupLevelMismatch,
             .groupMissingInStore, .offerMissingInStore, .offerMismatch, .offerIDReused,
             .billingPlanMissingInStore, .billingPlanPriceMismatch, .purchaseOptionMismatch,
             .subscriptionPriceChangeUndecided, .currencyNotValidAtDate, .priceScheduleMismatch, .duplicateOfferID,
             .priceNotAPricePoint, .offeringProductMissingInStore, .offeringProductNotInProject:
            .error
        case .priceMissingInConfig, .introOfferMismatch, .familySharingMismatch, .availabilityMismatch,
             .introOfferExceedsPeriod, .ignoreExpired, .offerMissingInConfig, .offerFreeWithPrice,
             .offerNotADiscount, .billingPlanOutOfRange, .subscriptionPriceConsentRequired, .pricePreserveMismatch,
             .priceNotEqualized, .subscriptionPriceMatrixIncomplete:
            .warning
        case .nameMismatch, .storekitSingleStorefront, .ignoreUnused, .subscriptionPriceDecreaseApplies,
             .playCohortMigrationNeeded, .pricesNotCompared, .currencyChangeoverAhead, .pricePointsMissing:
            .note
        }
    }

    /// The field a finding of this rule is about.
    public var field: ProductField {
        switch self {
        case .productMissingInStore, .productMissingInConfig, .duplicateProductID, .offeringProductMissingInStore,
             .offeringProductNotInProject: .id
        case .appMismatch: .app
        case .typeMismatch: .type
        case .priceMismatch, .priceMissingInStore, .priceMissingInConfig, .storekitSingleStorefront: .price
        // The change rules are about a price (a monthly billing plan's name their plan: `billingPlan:monthly`).
        case .subscriptionPriceChangeUndecided, .subscriptionPriceConsentRequired, .subscriptionPriceDecreaseApplies,
             .playCohortMigrationNeeded, .pricePreserveMismatch:
            .price
        case .periodMismatch: .period
        case .groupMismatch, .groupMissingInStore: .group
        case .groupLevelMismatch: .level
        case .introOfferMismatch, .introOfferExceedsPeriod: .introOffer
        case .familySharingMismatch: .familyShareable
        case .availabilityMismatch: .clearedForSale
        case .nameMismatch: .name
        case .ignoreExpired, .ignoreUnused: .ignore
        // Offer findings name their offer, plan or option (`offer:<kind>:<id>`, …); these are the fallbacks.
        case .offerMissingInStore, .offerMissingInConfig, .offerMismatch, .offerIDReused, .offerFreeWithPrice,
             .offerNotADiscount, .duplicateOfferID:
            .offerID("*")
        case .billingPlanMissingInStore, .billingPlanPriceMismatch, .billingPlanOutOfRange: .billingPlan(.monthly)
        case .purchaseOptionMismatch: .purchaseOption("*")
        case .pricesNotCompared, .priceNotEqualized, .priceScheduleMismatch, .currencyNotValidAtDate, .currencyChangeoverAhead,
             .subscriptionPriceMatrixIncomplete, .priceNotAPricePoint, .pricePointsMissing: .price
        }
    }

    /// Whether findings of this rule are about something other than a product (a group, a rules-file entry, a
    /// whole file): they sort first and their `productID` holds the key of that thing.
    public var isProductless: Bool {
        switch self {
        case .appMismatch, .groupMissingInStore, .storekitSingleStorefront, .ignoreExpired, .ignoreUnused,
             .offerIDReused, .pricesNotCompared, .currencyChangeoverAhead, .pricePointsMissing:
            true
        default: false
        }
    }

    /// Whether the rules file and the baseline act on the rule's findings. The ignore rules judge the rules
    /// file itself: an ignore entry cannot silence them (severity `off` still can).
    public var isSuppressible: Bool {
        switch self {
        case .ignoreExpired, .ignoreUnused: false
        default: true
        }
    }

    /// One line: when the rule fires.
    public var summary: String {
        switch self {
        case .productMissingInStore: "The config has the product, the store doesn't."
        case .productMissingInConfig: "The store has the product, the config doesn't."
        case .duplicateProductID: "One catalog lists a product ID twice (or two config products map to one store ID)."
        case .appMismatch: "The config's `app.bundleId` differs from the store's app (bundle ID or package name)."
        case .typeMismatch: "The product type (consumable, non-consumable, auto-renewable, non-renewing) differs."
        case .priceMismatch: "Both price a territory and the amounts or currencies differ."
        case .priceMissingInStore: "The config prices a territory the store doesn't."
        case .priceMissingInConfig: "The store prices a territory the config's `prices:` list doesn't."
        case .periodMismatch: "The subscription period differs (P1W = P7D and P1Y = P12M are equal)."
        case .groupMismatch: "A subscription is in a different subscription group."
        case .groupLevelMismatch: "A subscription's rank within its group differs."
        case .groupMissingInStore: "A config subscription group has no counterpart in the store."
        case .introOfferMismatch: "The introductory offer's mode, period, number of periods or price differs."
        case .familySharingMismatch: "Family sharing differs."
        case .availabilityMismatch: "Cleared-for-sale / availability differs."
        case .nameMismatch: "The reference names differ."
        case .introOfferExceedsPeriod: "A free trial is longer than the subscription period it belongs to."
        case .storekitSingleStorefront: "A .storekit file prices one storefront only; other territories were not compared."
        case .offerMissingInStore: "A config offer (kind and ID) is not on the store's product."
        case .offerMissingInConfig: "An active store offer is not in the config's `offers:` of that product."
        case .offerMismatch:
            "An offer's mode, period, periods, phases, price or discount per territory, eligibility or state differ."
        case .offerIDReused: "One offer ID names two offers of different kinds in one subscription group."
        case .offerFreeWithPrice: "A free-trial offer or phase carries a price."
        case .offerNotADiscount: "A paid offer costs at least the regular price for the same time in a territory."
        case .billingPlanMissingInStore: "The config's monthly billing plan is not in the store."
        case .billingPlanPriceMismatch: "A monthly billing plan's amount differs in a territory."
        case .billingPlanOutOfRange:
            "12 × the monthly amount is outside [yearly price, 1.5 × yearly price] in a territory."
        case .purchaseOptionMismatch:
            "A Play purchase option is missing on one side, or its kind (buy/rent), rent period or prices differ."
        case .duplicateOfferID:
            "One store catalog lists one offer (kind and ID), billing plan or purchase option twice on a product."
        case .subscriptionPriceChangeUndecided:
            "With --since: a subscription price changes in a territory and no `priceChange` decides what existing "
                + "subscribers get."
        case .subscriptionPriceConsentRequired:
            "With --since: an App Store increase that is not preserved may need existing subscribers' consent."
        case .subscriptionPriceDecreaseApplies:
            "With --since: an App Store decrease reaches every existing subscriber."
        case .playCohortMigrationNeeded:
            "With --since: a Play price change with `existing: update` needs a price cohort migration."
        case .pricePreserveMismatch:
            "With --since: App Store Connect preserved the price for existing subscribers where the config says "
                + "update, or the reverse."
        case .pricesNotCompared:
            "Equalized territories this store input cannot compare (App Store subscriptions, Play), counted once."
        case .priceNotEqualized:
            "App Store Connect: a territory the config leaves to equalization has a manual price."
        case .priceScheduleMismatch:
            "A scheduled price (territory, start date, amount) is on one side only or differs."
        case .currencyNotValidAtDate:
            "A config price's currency is not the storefront's currency at `--as-of` (BG in BGN after 2025-12-31)."
        case .currencyChangeoverAhead:
            "A known currency changeover of a priced territory falls within 90 days after `--as-of`."
        case .priceNotAPricePoint:
            "An App Store price (product or offer) is none of Apple's price points in a price-point table the run has."
        case .pricePointsMissing:
            "App Store prices of some territories were not checked: the run's price-point table has none for them."
        case .subscriptionPriceMatrixIncomplete:
            "App Store Connect: a subscription not removed from sale lacks a price in a territory of its availability."
        case .offeringProductMissingInStore:
            "A product a package of a current RevenueCat offering uses is not in the store."
        case .offeringProductNotInProject: "A RevenueCat package names a product the project lacks."
        case .ignoreExpired: "A rules-file `ignore` entry is past its `until` date and no longer applies."
        case .ignoreUnused: "A rules-file `ignore` entry matched no finding."
        }
    }

    /// A longer explanation for `catalogcheck rules RULE-ID`.
    public var explanation: String {
        switch self {
        case .productMissingInStore:
            "Every product of the config must exist in each store it is meant for (see `stores:`). A product ID "
                + "that nearly matches an unmatched store product (same letters in another case, or at most two "
                + "edits away) carries a `did you mean` hint; when the two differ only in characters that look "
                + "alike (O and 0, l and 1, Cyrillic or Greek letters, invisible characters), it says which and where."
        case .productMissingInConfig:
            "Every product of a store must be described by the config, under its ID or a `storeIds` entry."
        case .duplicateProductID:
            "Two records of one store input have the same product ID, or two config products map to the same "
                + "store ID. The same App Store Connect resource appearing in several documents is one record."
        case .appMismatch:
            "Compared when both sides name the app: the config's `app.bundleId`, and the App Store Connect app's "
                + "`bundleId` (`/v1/apps/{id}`, which `fetch appstore` writes) or the Play package name. A config "
                + "checked against another app's store catalog would report every product as drift."
        case .typeMismatch:
            "Compared only when both sides state a type; a Play one-time product (type `one-time`) matches "
                + "consumable and non-consumable, since Play does not say which."
        case .priceMismatch:
            "Compared per territory, exactly (9.99 equals 9.990), amount and currency, using the store's current "
                + "price as of `--as-of`. Scheduled prices are never compared."
        case .priceMissingInStore:
            "Only territories the store format can price are checked: a .storekit file prices its storefront, "
                + "Transporter tiers price the US. A store product with no current price is not checked."
        case .priceMissingInConfig:
            "Only when the config lists per-territory `prices:` (not `price:` or `tier:`)."
        case .periodMismatch:
            "ISO 8601 durations are normalized: P7D = P1W, P12M = P1Y; P4W is not P1M."
        case .groupMismatch:
            "Config groups match store groups by reference name (`groups.<key>.name`, or the key). Not evaluated "
                + "against Google Play, where the subscription is part of the product's identity."
        case .groupLevelMismatch:
            "Level 1 is the highest level of service. Not evaluated against Google Play, which has no levels."
        case .groupMissingInStore:
            "Fires once per config group when the store input states groups and has at least one "
                + "auto-renewable subscription."
        case .introOfferMismatch:
            "Fires when the config has `introOffer` and the store carries offers but has none or a different one "
                + "(for the config's base territory where the store keeps offers per territory)."
        case .familySharingMismatch:
            "Compared only when both sides state it."
        case .availabilityMismatch:
            "Cleared for sale (Transporter), published state (Play CSV), base plan state (Play), App Store "
                + "Connect state (APPROVED / REMOVED_FROM_SALE); StoreKit files state none."
        case .nameMismatch:
            "Reference names (the store's internal names); listing titles are display text and never compared."
        case .introOfferExceedsPeriod:
            "Checked on every catalog on its own: a free trial of period × periods days (D 1, W 7, M 30, Y 365) "
                + "strictly longer than the subscription period."
        case .storekitSingleStorefront:
            "A StoreKit configuration holds one display price per product for `settings._storefront` (USA when "
                + "absent); only that territory's prices were compared."
        case .offerMissingInStore:
            "Offers match by kind and store ID (promotional and win-back: the offer ID; offer codes: the name; "
                + "Play: `offerId`, one-time offers under their purchase option). Compared only against a store "
                + "input that carries that kind of offer (it holds one, or its `.fetch.json` says fetch asked "
                + "for the kind); inactive config offers (`state: inactive`) are never missing."
        case .offerMissingInConfig:
            "Only for active store offers, and only when the config lists `offers:` for the product (an empty "
                + "`offers: {}` counts)."
        case .offerMismatch:
            "Compared where both sides define it. The terms (mode, period, periods, number of phases, a discount "
                + "that applies everywhere) give one finding on `offer:<kind>:<id>`; prices and per-territory "
                + "discounts one per territory (a config territory the store can price but lacks has no actual "
                + "value); eligibility conditions both sides state on `…:eligibility`; the state on `…:state` (a "
                + "DRAFT or inactive store offer is compared only with a config offer marked `state: inactive`). "
                + "A field the store's file version lacks (StoreKit win-back prices and periods) is not compared."
        case .offerIDReused:
            "Apple requires offer IDs unique across the offers of one subscription group: one ID on a promotional "
                + "and a win-back offer fires (offer codes and intro offers have no ID). The finding names the "
                + "group's key. Checked on each catalog on its own, the config included."
        case .offerFreeWithPrice:
            "A free trial costs nothing; a price on it is a mistake the store may refuse or show (App Store "
                + "Connect refuses a free win-back offer with a price point). One finding per territory priced. "
                + "Checked on each catalog on its own."
        case .offerNotADiscount:
            "A pay-as-you-go phase one subscription period long, or a pay-up-front offer n periods long, that "
                + "costs at least the regular price for that time; an IAP offer code not below the IAP's price. "
                + "Play discounts never fire. Checked on each catalog on its own."
        case .billingPlanMissingInStore:
            "The config declares `billingPlans: { monthly: … }` and the store input carries billing plans but "
                + "has no monthly plan for the subscription, or has it disabled."
        case .billingPlanPriceMismatch:
            "Per territory where the config states a monthly amount; a territory the store's plan lacks has no "
                + "actual value."
        case .billingPlanOutOfRange:
            "App Store Connect requires 12 × the monthly amount to lie within [the yearly price, 1.5 × the yearly "
                + "price] in each territory where both are priced in one currency; a StoreKit "
                + "`commitmentDisplayPrice` must equal 12 × the monthly `displayPrice` (field "
                + "`billingPlan:monthly:commitment`). Checked on each catalog on its own, the config included."
        case .purchaseOptionMismatch:
            "A Play one-time product's purchase options (buy, rent) match by `purchaseOptionId`; the "
                + "legacy-compatible buy option is the product's own price. Compared: buy or rent, the rent period, "
                + "prices per territory. An active store option missing in the config fires only when the config "
                + "lists `purchaseOptions:` for the product."
        case .duplicateOfferID:
            "Offers match by kind and store ID, billing plans by type, purchase options by `purchaseOptionId`: "
                + "two records of one key on one product of a store catalog (two promotional offers with one ID, "
                + "two MONTHLY plans, two Play offers or purchase options with one ID) leave it open which one the "
                + "store uses. Every location is named; the first is never taken silently. Checked on each store "
                + "catalog on its own (a config cannot hold one key twice)."
        case .subscriptionPriceChangeUndecided:
            "`check --since OLD` compares the old config with this one. Each auto-renewable price that changes in a "
                + "territory (both configs price it) needs a decision for the people already subscribed, per "
                + "store the run checks: `priceChange: { existing: preserve }` keeps them on their price (App "
                + "Store: the new price is created with preserveCurrentPrice; Play: they stay in their legacy "
                + "price cohort), `existing: update` gives them the new price (App Store: Apple notifies them, "
                + "and above its thresholds asks for consent; Play: the cohort is migrated, opt-in unless "
                + "`increase: opt-out`). The decision may be per territory (`territories: { DE: {…} }`) and dated "
                + "(`since: YYYY-MM-DD` covers changes that take effect on or after that day; today a change "
                + "takes effect at --as-of). An App Store decrease needs no decision: it always reaches them. "
                + "One finding per product, territory and store, at the new config's price."
        case .subscriptionPriceConsentRequired:
            "An App Store increase that existing subscribers get (`existing: update`, or no decision yet) and for "
                + "which Apple asks their consent (`required`) or may ask it (`possible`); without consent the "
                + "subscription expires at renewal. Apple (Advanced Commerce API, \"Handling subscription price "
                + "changes\"; support.apple.com/109501): consent when the increase is more than 50 % of the "
                + "current price and more than USD 5 per period (USD 50 a year for yearly subscriptions), when "
                + "the subscriber's region requires consent for every increase, or when it is more than one "
                + "increase a year. catalogcheck: USD storefronts `required` when both amounts are exceeded "
                + "(exactly +50 % or exactly USD 5 is not), `possible` when one is (Apple's wording has been read "
                + "both ways); other currencies `possible` above +50 % (their thresholds are not known); "
                + "`required` for the second increase within 365 days that App Store Connect's dated, not "
                + "preserved price rows show. Preserve the price (`existing: preserve`) to leave existing "
                + "subscribers out."
        case .subscriptionPriceDecreaseApplies:
            "App Store Connect Help, \"Manage pricing for auto-renewable subscriptions\": existing subscriptions "
                + "renew at the lower price, and the higher price cannot be preserved. A note, so the release says "
                + "that every existing subscriber pays less from their next renewal."
        case .playCohortMigrationNeeded:
            "On Google Play a new base-plan price reaches new purchases within hours; existing subscribers stay in "
                + "a legacy price cohort until it is migrated (Play Console, or the Play Developer API's "
                + "`monetization.subscriptions.basePlans.migratePrices` with the regions). One note per product, "
                + "at the product, naming the regions and the steps: an opt-in increase notifies subscribers, who "
                + "must accept or are canceled at renewal; an opt-out increase applies only within Play's "
                + "regional, frequency and amount limits (else it proceeds as opt-in), and an app's first one "
                + "must be started in Play Console; offer phases are not migrated."
        case .pricePreserveMismatch:
            "Against an App Store Connect snapshot (fetch appstore), for territories whose price changed since "
                + "--since: the change to the config's new price that App Store Connect records kept existing "
                + "subscribers on their price (the replaced price row reads `preserved: true`, as in Apple's "
                + "example of `GET /v1/subscriptions/{id}/prices`) while the config says `existing: update`, or "
                + "did not while the config says `existing: preserve`."
        case .pricesNotCompared:
            "A config that writes `others: equalized` (or `equalized: true` beside `price:`) fixes the listed "
                + "territories and leaves the others to the store. Where the store input does not say whether a "
                + "price was equalized (App Store subscriptions, which Apple equalizes once when the price is "
                + "set; Google Play, which converts regional prices once, `convertRegionPrices`), those "
                + "territories are not compared: one note per store input counts them."
        case .priceNotEqualized:
            "App Store Connect in-app purchases keep each territory's price as manual or automatic "
                + "(`manualPrices`, `automaticPrices`, `manual`). In a territory the config leaves to "
                + "equalization, Apple updates automatic prices at its tax and exchange-rate updates "
                + "(developer.apple.com/news/?id=0l93cjfe) and never a manual one: someone set this price by "
                + "hand. List the territory in the config, or return it to automatic pricing in the store."
        case .priceScheduleMismatch:
            "Compared only for territories the config writes as a schedule (`BG: [{price: 19.99 BGN}, {from: "
                + "2026-01-01, price: 10.22 EUR}]`), against a store input that states scheduled prices (App Store "
                + "Connect rows with a `startDate`): every change after `--as-of` must be on both sides, on the same "
                + "day, at the same amount. The App Store keeps one future change per storefront, so a config "
                + "listing two shows the later one here. A territory given as one price compares the price in "
                + "effect only."
        case .priceNotAPricePoint:
            "App Store Connect sets a price by choosing one of Apple's price points (about 900 per territory, "
                + "some on request; in the US 0.29 to 9.99 in steps of 0.10, then wider steps up to 10,000), "
                + "never by an amount, so a config price that is no point fails at the first write to the store. "
                + "Checked when a store input holds a price-point table (`fetch appstore --price-points` writes "
                + "one into the snapshot): every App Store price of the config and of that store, products, "
                + "schedules, intro offers, offers and billing plans, against the points of its territory and "
                + "product kind (subscription or in-app purchase). The message names the nearest lower and higher "
                + "points and the table's date. A price in another currency than the table's is left to "
                + "`currency-not-valid-at-date`."
        case .pricePointsMissing:
            "One note per store input that holds a price-point table: the App Store prices in territories the "
                + "table has no points for, which were not checked (`fetch appstore --price-points all`, or list "
                + "the territories). A run with no table says nothing about price points."
        case .subscriptionPriceMatrixIncomplete:
            "App Store Connect keeps an auto-renewable subscription `MISSING_METADATA` until every territory of "
                + "its availability has a price. Checked on each App Store Connect snapshot on its own, for "
                + "subscriptions in any state but REMOVED_FROM_SALE and DEVELOPER_REMOVED_FROM_SALE whose "
                + "availability the snapshot holds: one finding per territory without a current price."
        case .currencyNotValidAtDate:
            "Storefronts change currency on dated days at a fixed legal rate: Bulgaria from BGN to EUR on "
                + "2026-01-01 at 1.95583 BGN per EUR, Croatia from HRK to EUR on 2023-01-01 at 7.53450. A config "
                + "price in effect at `--as-of` in the currency the storefront does not use that day fires (the "
                + "message gives the amount at the legal rate); a scheduled entry in the old currency before "
                + "the changeover is fine. Store rows keep the currency their own snapshot states, so an old "
                + "snapshot in BGN reads cleanly. Checked on the config once per run."
        case .currencyChangeoverAhead:
            "One note per changeover within 90 days after `--as-of` in a territory the config prices in the "
                + "old currency: schedule the new currency's price from the changeover day (`prices: { BG: "
                + "[{price: 19.99 BGN}, {from: 2026-01-01, price: 10.22 EUR}] }`)."
        case .offeringProductMissingInStore:
            "With a RevenueCat project as the config (`--config revenuecat:DIR`): a product that a package of the "
                + "current offering (`is_current`; every offering with `--all-offerings`) uses, for the app paired "
                + "with the store, is not in the store. The paywall would show a package the store cannot sell. "
                + "Other products of the project missing in the store are `product-missing-in-store`."
        case .offeringProductNotInProject:
            "With a RevenueCat project as the config: a package of an offering (any offering: targeting and "
                + "placements can show any of them) names a product that the project's product list lacks, "
                + "archived or deleted. The finding carries the package's store identifier."
        case .ignoreExpired:
            "An `ignore` entry of `.catalogcheck.yml` stops applying after its `until` date (evaluated at "
                + "`--as-of`): the findings it hid count again, and this warning points at the entry so it is "
                + "renewed with a new reason or removed."
        case .ignoreUnused:
            "An `ignore` entry of `.catalogcheck.yml` matched no finding in this run: the drift it accepted is "
                + "gone, or its pattern is wrong. Remove it or fix the pattern."
        }
    }

    public static func < (lhs: Rule, rhs: Rule) -> Bool { lhs.rawValue < rhs.rawValue }
}
