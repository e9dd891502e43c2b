import CatalogCore
import Foundation

/// Reads Google Play Developer API v3 (androidpublisher) JSON: `monetization.subscriptions`,
/// subscription offers, legacy `inappproducts` and `monetization.onetimeproducts` — each as a list response,
/// a single resource, or a folder of such files (the gradle-play-publisher layout `products/*.json`,
/// `subscriptions/*.json`; `*.metadata.json` sidecars are skipped).
///
/// Normalization (FORMATS.md "Play identity", DESIGN.md §5a):
/// - a subscription base plan is the product `subscriptionId:basePlanId`, in the group named after the
///   subscription; auto-renewing and installments plans are auto-renewable, prepaid plans non-renewing; the
///   period is `billingPeriodDuration`; availability is `state == ACTIVE`;
/// - regional prices are current prices (region + the currency Play states), also where the region is closed
///   to new subscribers (`newSubscriberAvailability: false`) or a one-time option is `NO_LONGER_AVAILABLE`:
///   the price still stands, and availability is a separate rule; a region listed without a price has none;
///   `otherRegionsConfig`, `newRegionsConfig` and the legacy `defaultPrice` are exported, never compared;
/// - one-time products have no kind (Play does not say consumable vs non-consumable); their prices come from
///   one purchase option (see `PlayCatalogBuilder.addOneTimeProduct`);
/// - intro offers are known only when the input holds subscription offers (see `PlayOffer`);
/// - every subscription offer and one-time offer is also read in full into `Product.offers`, the purchase options
///   other than the one that prices a one-time product into `Product.purchaseOptions`
///   (`PlayCatalogBuilder+Offers`); a `fetch` snapshot's manifest says which kinds were asked for;
/// - listing titles are display text: no reference names; groups are not compared against Play.
public struct PlayJSONReader: CatalogReader {
    /// `play-json`.
    public let format = CatalogFormat.playJSON

    /// Creates a reader.
    public init() {}

    /// Reads a file, or every `.json` file under a folder (recursively, sorted by relative path).
    public func read(_ input: ResolvedInput, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let displayPath = input.displayPath
        if input.kind == .folder {
            return try read(folder: input.url, listing: input.listing, displayPath: displayPath, options: options)
        }
        var builder = PlayCatalogBuilder()
        try builder.add(fileBytes: input.bytes(), path: displayPath)
        try Self.requireMarks(builder, displayPath: displayPath)
        return builder.finish(path: displayPath)
    }

    /// Reads every `.json` file of a folder as listed (`*.metadata.json` sidecars left out), in listing order
    /// (`JSONFolder`). A snapshot's manifest says which kinds fetch asked for, and that the folder is Play's: a
    /// snapshot of an app with no products holds only empty lists (`{}`), which carry no mark of the format.
    public func read(folder url: URL, listing: [String], displayPath: String,
                     options: ReadOptions) throws(CatalogReadError) -> Catalog {
        let folder = try JSONFolder(url: url, listing: listing, displayPath: displayPath, store: .play) { name in
            let lowered = name.lowercased()
            return lowered.hasSuffix(".json") && !lowered.hasSuffix(".metadata.json")
        }
        var builder = PlayCatalogBuilder()
        // A file up to a page's size is parsed on the second core; a bigger one, in parts as it is read.
        try folder.forEachFile(parsingUpTo: JSONDocument.pinnedLimit) { file, _ throws(CatalogReadError) in
            switch file {
            case .parsed(let document): try builder.add(document)
            case .bytes(let data, let path): try builder.add(fileBytes: data, path: path)
            }
        }
        builder.noteFetched(kinds: folder.fetchedKinds)
        guard builder.sawPlayMarks || folder.manifest != nil else {
            throw CatalogReadError(
                "not a Play Developer API catalog: none of the \(folder.count) .json files holds a Play resource, "
                    + "a list of them or a Play \"kind\" (empty objects only)", at: SourceLocation(path: displayPath))
        }
        return builder.finish(path: displayPath)
    }

    /// A single document that is an empty object (or holds only paging keys) is an empty list response only
    /// when its `kind` says so: `{}` carries no mark of the format (DESIGN.md §2). In the androidpublisher v3
    /// discovery document only `InappproductsListResponse` has a `kind`; the monetization list responses
    /// (`ListSubscriptionsResponse`, `ListOneTimeProductsResponse`, `ListSubscriptionOffersResponse`) hold their
    /// list and `nextPageToken` only, so an empty one is `{}` and is read only beside a marked document (a folder,
    /// such as a `fetch` snapshot, whose `inappproducts` listing states its `kind`).
    private static func requireMarks(_ builder: PlayCatalogBuilder, displayPath: String) throws(CatalogReadError) {
        guard builder.sawPlayMarks else {
            throw CatalogReadError(
                "not a Play Developer API resource or list response: the object holds none of Play's keys "
                    + "(an empty list needs its \"kind\", e.g. \"androidpublisher#inappproductsListResponse\")",
                at: SourceLocation(path: displayPath, line: 1, column: 1))
        }
    }

    /// Reads one document from its bytes (a list response or a single resource).
    public func read(data: Data, displayPath: String, options: ReadOptions) throws(CatalogReadError) -> Catalog {
        var builder = PlayCatalogBuilder()
        try builder.add(fileBytes: data, path: displayPath)
        try Self.requireMarks(builder, displayPath: displayPath)
        return builder.finish(path: displayPath)
    }
}
