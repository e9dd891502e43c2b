/// Which catalogs a rule looks at, and what its findings' `expected` and `actual` hold: facts about the rule that
/// every output reads (the release report's "Config" and "Store" columns, the product rows a finding belongs to),
/// decided here once, beside the rule, so a new rule is decided in this module and nowhere else.
extension Rule {
    /// What a finding of a rule is about, seen from the two sides of a comparison.
    public enum Sides: Hashable, Sendable {
        /// Something both sides state (a matched product's field, an offer, a group, the app): `expected` is the
        /// config's value and `actual` the store's.
        case compared
        /// A config product the store lacks; `expected` and `actual` as for `compared`.
        case configProductOnly
        /// A store product the config lacks; `expected` and `actual` as for `compared`.
        case storeProductOnly
        /// Records that one catalog repeats (the config's or a store's; the finding's config location says
        /// which), possibly with no counterpart on the other side; `expected` and `actual` are not the two sides.
        case repeatedRecords
        /// One catalog on its own (a free trial against its own period, a storefront, a rules-file entry): the
        /// message says what was found; `expected` and `actual` are not the two sides.
        case oneCatalog
    }

    /// What a finding of this rule is about. Exhaustive: a new rule does not compile until it is decided.
    public var sides: Sides {
        switch self {
        // A product an offering's package uses, missing in the store: a config product on one side.
        case .productMissingInStore, .offeringProductMissingInStore:
            .configProductOnly
        case .productMissingInConfig:
            .storeProductOnly
        case .appMismatch, .typeMismatch, .priceMismatch, .priceMissingInStore, .priceMissingInConfig,
             .periodMismatch, .groupMismatch, .groupLevelMismatch, .groupMissingInStore, .introOfferMismatch,
             .familySharingMismatch, .availabilityMismatch, .nameMismatch, .offerMissingInStore,
             .offerMissingInConfig, .offerMismatch, .billingPlanMissingInStore, .billingPlanPriceMismatch,
             .purchaseOptionMismatch, .pricePreserveMismatch, .priceNotEqualized, .priceScheduleMismatch:
            .compared
        case .duplicateProductID, .duplicateOfferID:
            .repeatedRecords
        case .introOfferExceedsPeriod, .storekitSingleStorefront, .ignoreExpired, .ignoreUnused, .offerIDReused,
             .offerFreeWithPrice, .offerNotADiscount, .billingPlanOutOfRange, .offeringProductNotInProject:
            .oneCatalog
        // The change rules' values are the old and the new config price: no store side.
        case .subscriptionPriceChangeUndecided, .subscriptionPriceConsentRequired, .subscriptionPriceDecreaseApplies,
             .playCohortMigrationNeeded:
            .oneCatalog
        case .pricesNotCompared, .currencyNotValidAtDate, .currencyChangeoverAhead, .subscriptionPriceMatrixIncomplete:
            .oneCatalog
        // A price against Apple's table, on whichever side states it.
        case .priceNotAPricePoint, .pricePointsMissing:
            .oneCatalog
        }
    }

    /// Whether a finding says that a store's price amount in a territory disagrees with the config's (or that one
    /// side lacks it): the price matrix marks those cells. Other rules about a price (`check --since`'s change
    /// rules, a store's `preserved`, an equalized origin) judge something else than the amount.
    public var disagreesOnAmount: Bool {
        switch self {
        case .priceMismatch, .priceMissingInStore, .priceMissingInConfig, .storekitSingleStorefront: true
        default: false
        }
    }

    /// Whether `expected` and `actual` are the config's and the store's value. The other rules look at one
    /// catalog (a trial against its own period, an ID listed twice, a storefront, an ignore entry's date)
    /// and say what they found in the message; a report that heads its columns "Config" and "Store" leaves
    /// their values out.
    public var comparesSides: Bool {
        switch sides {
        case .compared, .configProductOnly, .storeProductOnly: true
        case .repeatedRecords, .oneCatalog: false
        }
    }
}

extension Finding {
    /// The config's value, when `expected` is one: some rules put other things there (a limit, an ID).
    public var configValue: String? { rule.comparesSides ? expected : nil }

    /// The store's value, when `actual` is one.
    public var storeValue: String? { rule.comparesSides ? actual : nil }
}
