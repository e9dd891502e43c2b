import CatalogCore
import Foundation

/// Reads App Store Connect API responses (JSON:API, format `asc-json`).
///
/// The input is one document, a JSON array of documents, or a folder of `.json` files (read in sorted order).
/// Every resource in `data` and `included` is pooled by `(type, id)`: the same resource seen in several
/// documents is one record whose attributes and relationships are merged. Resources are linked by the
/// relationship `data` inside pooled resources and by a document's `links.self`: a document at
/// `/v{n}/{parentType}/{parentId}/{relationship}` makes every resource of its `data` (array or single object) a
/// child of `(parentType, parentId)`. In a snapshot folder `fetch` wrote, the request its `.fetch.json` records
/// for a page takes the place of that page's `links.self`.
///
/// The catalog is built from the links:
/// - `subscriptionGroups` (`referenceName`) → `subscriptions` (auto-renewable) → `subscriptionPrices` →
///   `subscriptionPricePoints.customerPrice` + `territories`;
/// - `inAppPurchases` (also `inAppPurchasesV2`, and the deprecated v1 resource) → `inAppPurchasePriceSchedules`
///   → `manualPrices` / `automaticPrices` (`inAppPurchasePrices`) → `inAppPurchasePricePoints` + `territories`.
///
/// Current price (FORMATS.md): per product and territory, among rows whose `planType` is `UPFRONT` or absent,
/// the row whose `startDate` is null or on/before `asOf`, latest start winning and null counting as earliest;
/// rows whose `endDate` is on/before `asOf` are dropped; a manual price beats an automatic one with the same
/// start. Rows starting after `asOf` are exported as `scheduled` uncompared prices. Price and price point IDs
/// are opaque and never decoded, with FORMATS.md's one exception: an in-app purchase price row stating neither
/// `startDate` nor `endDate` takes them from its ID when that is base64url JSON with `sd`/`ed`; two undated rows
/// of one product and territory that still disagree are an error naming both. A territory's currency is its
/// resource's `attributes.currency`, else the territory's App Store currency.
///
/// Availability (FORMATS.md "ASC availability"): where the input states a product's `availableTerritories` in
/// full (IAP `inAppPurchaseAvailabilities`, a subscription's UPFRONT `subscriptionPlanAvailabilities` or the
/// deprecated `subscriptionAvailabilities`), a current price for a territory outside them is exported as
/// `unavailable` and never compared. The app's `bundleId` (`apps`, `/v1/apps/{id}`) is the catalog's app ID.
///
/// Intro offers (one record per territory) are non-nil only when the input states a subscription's offers:
/// relationship `data` (possibly empty), a `…/introductoryOffers` document, or offers linked to it. Offers not in
/// effect on `asOf` (starting after it, or ending on or before it) are left out; when a stated offer's resource
/// (`offerMode`, `duration`) is missing, the offers are unknown (nil) and a remark says so. Availability:
/// `state` APPROVED → cleared for sale, REMOVED_FROM_SALE / DEVELOPER_REMOVED_FROM_SALE → not, others unknown.
///
/// Offers (`+Offers`): promotional offers, offer codes and win-back offers of subscriptions and offer codes of in-app
/// purchases, each with its prices per territory through price points; `planType: MONTHLY` subscription price rows
/// are the monthly billing plan. Which kinds the input carries (`offerKinds`, `carriesBillingPlans`) is what it
/// holds, or what a snapshot's `.fetch.json` says fetch asked for.
///
/// A resource without a `productId` in the input (e.g. a subscription known only by its ID from `links.self`)
/// is not a product: its prices are read by nobody, which the catalog's remarks say.
///
/// Files are pooled one at a time (a folder's files parsed a few ahead on another core, `ReadAhead`):
/// `ASCResourcePool` keeps of each only typed records of what the builder reads
/// (identities, attributes, links, and lines and columns for locations), so memory follows the catalog, not the
/// JSON; `ASCCatalogBuilder` then selects prices (`+Prices`) and intro offers (`+IntroOffers`).
public struct AppStoreConnectReader: CatalogReader {
    /// Creates a reader.
    public init() {}

    /// `asc-json`.
    public var format: CatalogFormat { .ascJSON }

    /// Reads a document, an array of documents, or a folder of `.json` documents.
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let displayPath = input.displayPath
        if input.kind == .folder {
            return try read(folder: input.url, listing: input.listing, displayPath: displayPath, options: options)
        }
        var pool = ASCResourcePool()
        try pool.add(fileBytes: input.bytes(), path: displayPath)
        return try catalog(of: &pool, displayPath: displayPath, options: options)
    }

    /// Reads the `.json` documents of a folder as listed, in listing order, one at a time (`JSONFolder`): each is
    /// dropped once its records are pooled. In a snapshot, the request its manifest records for a page stands for
    /// the page's `links.self`, and the manifest says the folder is App Store Connect's (an app with no products
    /// has no other mark of it).
    public func read(folder url: URL, listing: [String], displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let folder = try JSONFolder(url: url, listing: listing, displayPath: displayPath, store: .appStore) {
            $0.lowercased().hasSuffix(".json")
        }
        var pool = ASCResourcePool()
        try folder.forEachDocument { document, page throws(CatalogReadError) in
            try pool.add(document, request: page?.path)
        }
        return try catalog(of: &pool, displayPath: displayPath, options: options, fetchedKinds: folder.fetchedKinds,
                           fetchedOn: folder.manifest.flatMap { CalendarDate(utc: $0.fetchedAt) },
                           marked: folder.manifest != nil)
    }

    /// Reads one file's bytes (a document or an array of documents); `displayPath` names it in locations.
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        var pool = ASCResourcePool()
        try pool.add(fileBytes: data, path: displayPath)
        return try catalog(of: &pool, displayPath: displayPath, options: options)
    }

    /// The catalog of every document pooled, once the pool holds the marks of the format (or a snapshot's
    /// manifest, `marked`, says it is App Store Connect's).
    private func catalog(of pool: inout ASCResourcePool, displayPath: String, options: ReadOptions,
                         fetchedKinds: Set<String> = [], fetchedOn: CalendarDate? = nil,
                         marked: Bool = false) throws(CatalogReadError) -> Catalog {
        pool.finishReading()
        if !marked { try pool.requireMarks(path: displayPath) }
        return try ASCCatalogBuilder(pool: pool, asOf: options.asOf, fetchedKinds: fetchedKinds, fetchedOn: fetchedOn)
            .catalog(path: displayPath)
    }
}
