import CatalogCore
import Foundation

/// Reads an Xcode StoreKit configuration file (`*.storekit`, format `storekit`).
///
/// Apple publishes no schema for the file; every version seen (1.0 – 5.0) is read the same way: every key is
/// optional, unknown keys are ignored, and a key of the wrong JSON type is an error naming its key path.
///
/// - Products come from `products` (consumables and non-consumables), `nonRenewingSubscriptions` and
///   `subscriptionGroups[].subscriptions` (auto-renewable). A subscription's group is the entry that holds it
///   (never its `subscriptionGroupID`): the group key is the entry's `id`, else its `name`, and an entry that
///   repeats an earlier entry's key is a group of its own, keyed `<id>-2` (`-3`, …), with a remark.
/// - The file is a JSON object with at least one of the arrays `products`, `subscriptionGroups`,
///   `nonRenewingSubscriptions` (DESIGN.md §2); any other object is "not a StoreKit configuration".
/// - The file holds one `displayPrice` per product, for `settings._storefront` (alpha-3), or the United States
///   when that setting is absent or empty (Xcode's default). The currency is the storefront's App Store currency.
///   `displayPrice: ""` is a price never set: the product (or offer) has no price.
///   The storefront is the catalog's `baseTerritory`, so an export writes its prices as `price:` in it.
/// - The intro offer of a subscription is `introductoryOffers[0]`, else `introductoryOffer`; every subscription
///   gets a non-nil `introOffers` (`[]` when it has none) because the format always states its offers.
/// - A subscription's other offers (DESIGN.md §4a) are `adHocOffers` (promotional, keyed by `offerID`),
///   `codeOffers` (offer codes, keyed by `referenceName`, with `eligibility` and `isStackable`) and
///   `winbackOffers` (file 4.0+, keyed by `offerID`; `numberOfPeriods` from 5.0, absent = not stated;
///   `displayPrice` when Xcode synced the file): one phase each, priced like the product, with no state. Every
///   subscription gets a non-nil `offers`; the catalog carries a kind (`capabilities.offerKinds`) when a
///   subscription holds the kind's key, `[]` included (DESIGN.md §5a.15): an absent offer of it is then missing.
/// - `billingPlans` (file 5.0): `BILLED_UPFRONT` and `MONTHLY` plans with their `displayPrice` and
///   `commitmentDisplayPrice` for the storefront; a subscription without the key has nil `billingPlans`, and the
///   catalog carries plans when any subscription has the key.
/// - StoreKit has no availability: `clearedForSale` stays nil.
/// - `subscriptionOffersKeyPair` holds a private signing key. It is never read, so it can never appear in an
///   error message, a catalog or an export.
public struct StoreKitConfigReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// `storekit`.
    public var format: CatalogFormat { .storekit }

    /// Reads a `.storekit` file.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        if input.kind == .folder {
            throw CatalogReadError("is a folder, not a StoreKit configuration file",
                                   at: SourceLocation(path: input.displayPath))
        }
        let document = try JSONDocument(input)
        return try StoreKitCatalogBuilder(document: document, asOf: options.asOf).catalog()
    }

    /// Reads a `.storekit` file's bytes (e.g. a file read from git); `displayPath` names it in locations.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let document = try JSONDocument(data: data, path: displayPath)
        return try StoreKitCatalogBuilder(document: document, asOf: options.asOf).catalog()
    }
}
