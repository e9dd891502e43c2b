import CatalogCore
import Foundation

/// Writes any catalog as the JSON of `catalogcheck export --format json`: the config of `CatalogYAMLExporter`
/// (DESIGN.md §4), as JSON — a config `check --config` reads. The same structure, keys and values as the YAML
/// export: `{"app": {…}, "groups": {"<key>": {"name"}}, "products": {"<id>": {"type", "name", "group", "level",
/// "period", "price" | "tier" | "prices": {"US": "9.99 USD"}, "introOffer", "offers", …}}, "version": 1}`,
/// products by ID, keys sorted.
///
/// JSON has no comments, so what the YAML export writes as comments — the provenance (`catalogcheck export of
/// PATH (FORMAT)`), the reader's remarks, and per product the prices that are never compared, further intro
/// offers, what the offer shape cannot hold, a type the source does not state, a repeated record — is a `$comment`
/// list of strings, at the top and on the product, which the config reader accepts and ignores (as `$schema`).
///
/// Written by `PrettyJSONWriter` in one pass, keys in sorted order (the order is the code's); a field the source
/// does not state is left out. The output is deterministic.
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
        let order = CatalogExportOrder.productOrder(of: catalog)
        let groups = CatalogExportOrder.groups(of: catalog)
        var json = PrettyJSONWriter(reservingCapacity: CatalogJSONExporter.chunkSize + 4096)
        json.beginObject()
        json.member("$comment", ["catalogcheck export of \(catalog.path) (\(catalog.format.rawValue))"]
            + catalog.remarks.sorted().map { "note: \($0)" })
        json.key("app")
        json.beginObject()
        json.member("baseTerritory", catalog.baseTerritory.alpha2)
        json.member("bundleId", catalog.appID)
        json.endObject()
        if !groups.groups.isEmpty {
            json.key("groups")
            json.beginObject()
            for (key, group) in groups.groups {
                json.key(key)
                json.beginObject()
                json.member("name", group.name == key ? nil : group.name)
                json.endObject()
            }
            json.endObject()
        }
        json.key("products")
        json.beginObject()
        for index in order.indices {
            let id = catalog.products[index].id
            json.key(id.rawValue)
            write(catalog.products[index], catalog: catalog, groups: groups, repeated: order.repeated[id] ?? 0,
                  to: &json)
            if json.bytes.count >= CatalogJSONExporter.chunkSize {
                try output(json.bytes)
                json.forgetWritten()
            }
        }
        json.endObject()
        json.member("version", 1)
        json.endObject()
        try output(json.finish())
    }

    /// How many bytes are written at a time.
    private static let chunkSize = 1 << 16

    /// One product; its keys in sorted order, as the document's.
    private func write(_ product: Product, catalog: Catalog, groups: CatalogExportOrder.Groups, repeated: Int,
                       to json: inout PrettyJSONWriter) {
        let (offer, otherOffers) = CatalogExportOrder.introOffer(of: product, baseTerritory: catalog.baseTerritory)
        let priceForm = CatalogExportOrder.priceForm(of: product, baseTerritory: catalog.baseTerritory)
        // The comments of the YAML export, in its order.
        var notes: [String] = []
        if product.kind == nil {
            notes.append("type: not stated by \(catalog.format.rawValue); set "
                         + ProductKind.configNames(for: catalog.store))
        }
        notes += otherOffers.map { "another intro offer: \($0)" }
        if case .tier(let tier, let money)? = priceForm?.shape { notes.append("tier \(tier): \(money)") }
        notes += CatalogExportOrder.unwrittenPrices(of: product, form: priceForm)
            .map { "not compared: \($0.summary)" }
        notes += self.otherOffers(of: product) ?? []
        notes += Array(repeating: "\(product.id) appears again in the source; that record is not exported",
                       count: repeated)
        json.beginObject()
        json.member("$comment", notes.isEmpty ? nil : notes)
        writeBillingPlans(of: product, to: &json)
        json.member("clearedForSale", product.clearedForSale)
        // `equalized: true` beside `price:` or `tier:`; `prices:` holds `others: equalized` instead.
        if let priceForm, priceForm.equalized, !priceForm.isTerritoryList { json.member("equalized", true) }
        json.member("familyShareable", product.familyShareable)
        json.member("group", product.groupKey.map(groups.key(for:)))
        if let offer {
            json.key("introOffer")
            json.beginObject()
            json.member("mode", offer.mode.rawValue)
            json.member("period", offer.period.description)
            json.member("periods", offer.periods == 1 ? nil : offer.periods)
            json.member("price", offer.price)
            json.endObject()
        }
        json.member("level", product.level)
        json.member("name", product.referenceName)
        writeOffers(of: product, to: &json)
        json.member("period", product.period?.description)
        if case .price(let money)? = priceForm?.shape { json.member("price", money) }
        writePriceChange(of: product, to: &json)
        if let priceForm, case .prices(let prices) = priceForm.shape {
            writePrices(prices, form: priceForm, to: &json)
        }
        writePurchaseOptions(of: product, to: &json)
        if let playID = product.storeIDs[.play] {
            json.key("storeIds")
            json.beginObject()
            json.member("play", playID.rawValue)
            json.endObject()
        }
        json.member("stores", product.stores.flatMap { $0.isEmpty ? nil : $0.sorted().map(\.rawValue) })
        if case .tier(let tier, _)? = priceForm?.shape { json.member("tier", tier) }
        json.member("type", product.kind?.rawValue)
        json.endObject()
    }

    /// `"prices": {"DE": "9.99 EUR", "US": [{"price": "9.99 USD"}, {"from": "2027-01-01", "price": "10.99 USD"}],
    /// "others": "equalized"}`: a territory with a schedule as its entries, as the YAML export writes it, so the
    /// round trip holds.
    private func writePrices(_ prices: [Price], form: CatalogExportOrder.PriceForm,
                             to json: inout PrettyJSONWriter) {
        json.key("prices")
        json.beginObject()
        for price in prices {
            json.territoryKey(price.territory)
            guard let later = form.schedules[price.territory] else {
                json.money(price.money)
                continue
            }
            json.beginArray()
            json.beginObject()
            json.member("price", price.money)
            json.endObject()
            for scheduled in later {
                json.beginObject()
                json.member("from", scheduled.day.description)
                json.member("price", scheduled.money)
                json.endObject()
            }
            json.endArray()
        }
        // Lower case sorts after every territory code.
        if form.equalized { json.member("others", "equalized") }
        json.endObject()
    }
}
