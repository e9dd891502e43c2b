import CatalogCore
import Foundation

/// Writes any catalog as the JSON of `catalogcheck export --format json` (DESIGN.md §2):
/// `{"version": 1, "source": {"path", "format"}, "groups": [...], "products": [{"id", "type", "name", "group",
/// "level", "period", "prices": {"US": "9.99 USD"}, ...}]}`, products sorted by ID.
///
/// Written by `PrettyJSONWriter` in one pass, keys in sorted order (the order is the code's); a field the source
/// does not state is left out.
/// Prices that are never compared are listed as `otherPrices` text, further intro offers (App Store Connect keeps
/// one per territory) as `otherIntroOffers`. Offers, billing plans and purchase options are written in the
/// config's §4a shape (`offers`, `billingPlans`, `purchaseOptions`), what that shape cannot hold as `otherOffers`
/// text. The output is deterministic.
public struct CatalogJSONExporter: Sendable {
    /// Creates an exporter.
    public init() {}

    /// The JSON text, ending in a newline.
    public func export(_ catalog: Catalog) -> String {
        var bytes: [UInt8] = []
        export(catalog) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Hands the JSON text's UTF-8 bytes, ending in a newline, to `output` in chunks of about 64 KiB: an export
    /// of 350,000 prices is 10 MB, which is then never held whole.
    public func export<Failure: Error>(_ catalog: Catalog,
                                       to output: ([UInt8]) throws(Failure) -> Void) throws(Failure) {
        let products = CatalogExportOrder.allProducts(of: catalog)
        var json = PrettyJSONWriter(reservingCapacity: CatalogJSONExporter.chunkSize + 4096)
        json.beginObject()
        json.key("app")
        json.beginObject()
        json.member("baseTerritory", catalog.baseTerritory.alpha2)
        json.member("bundleId", catalog.appID)
        json.endObject()
        json.key("groups")
        json.beginArray()
        for group in CatalogExportOrder.groups(of: catalog) {
            json.beginObject()
            json.member("key", group.key)
            json.member("name", group.name)
            json.endObject()
        }
        json.endArray()
        json.key("products")
        json.beginArray()
        for product in products {
            write(product, catalog: catalog, to: &json)
            if json.bytes.count >= CatalogJSONExporter.chunkSize {
                try output(json.bytes)
                json.forgetWritten()
            }
        }
        json.endArray()
        json.member("remarks", catalog.remarks.isEmpty ? nil : catalog.remarks.sorted())
        json.key("source")
        json.beginObject()
        json.member("format", catalog.format.rawValue)
        json.member("path", catalog.path)
        json.endObject()
        json.member("version", 1)
        json.endObject()
        try output(json.finish())
    }

    /// How many bytes are written at a time.
    private static let chunkSize = 1 << 16

    /// One product; its keys in sorted order, as the document's.
    private func write(_ product: Product, catalog: Catalog, to json: inout PrettyJSONWriter) {
        let (offer, otherOffers) = CatalogExportOrder.introOffer(of: product, baseTerritory: catalog.baseTerritory)
        json.beginObject()
        writeBillingPlans(of: product, to: &json)
        json.member("clearedForSale", product.clearedForSale)
        json.member("familyShareable", product.familyShareable)
        json.member("group", product.groupKey)
        json.member("id", product.id.rawValue)
        if let offer {
            json.key("introOffer")
            json.beginObject()
            json.member("mode", offer.mode.rawValue)
            json.member("period", offer.period.description)
            json.member("periods", offer.periods)
            json.member("price", offer.price?.description)
            json.endObject()
        }
        json.member("level", product.level)
        json.member("name", product.referenceName)
        writeOffers(of: product, to: &json)
        json.member("otherIntroOffers", otherOffers.isEmpty ? nil : otherOffers)
        json.member("otherOffers", self.otherOffers(of: product))
        json.member("otherPrices", product.uncomparedPrices.isEmpty ? nil : product.uncomparedPrices.sorted().map(\.summary))
        json.member("period", product.period?.description)
        writePriceChange(of: product, to: &json)
        // Equalized territories as the config writes them: the listed prices and `"others": "equalized"`.
        let (listed, equalized) = CatalogExportOrder.listedPrices(of: product)
        json.member("prices", sorted: listed.map { (key: $0.territory.alpha2, value: $0.money.description) }
            + (equalized ? [(key: "others", value: "equalized")] : []))
        writePurchaseOptions(of: product, to: &json)
        json.member("storeIds", sorted: product.storeIDs.map { (key: $0.key.rawValue, value: $0.value.rawValue) })
        json.member("stores", product.stores.map { $0.sorted().map(\.rawValue) })
        json.member("type", product.kind?.rawValue)
        json.endObject()
    }
}
