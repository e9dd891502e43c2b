import CatalogCore
import Foundation

/// Writes any catalog as the JSON of `catalogcheck export --format json` (DESIGN.md §2):
/// `{"version": 1, "source": {"path", "format"}, "groups": [...], "products": [{"id", "type", "name", "group",
/// "level", "period", "prices": {"US": "9.99 USD"}, ...}]}`, products sorted by ID.
///
/// Keys are pinned by a private output struct and sorted; a field the source does not state is left out.
/// Prices that are never compared are listed as `otherPrices` text, further intro offers (App Store Connect keeps
/// one per territory) as `otherIntroOffers`. The output is deterministic.
public struct CatalogJSONExporter: Sendable {
    /// Creates an exporter.
    public init() {}

    /// The JSON text, ending in a newline.
    public func export(_ catalog: Catalog) -> String {
        let document = Document(
            version: 1,
            source: Source(path: catalog.path, format: catalog.format.rawValue),
            app: App(bundleId: catalog.appID, baseTerritory: catalog.baseTerritory.alpha2),
            groups: CatalogExportOrder.groups(of: catalog).map { Group(key: $0.key, name: $0.name) },
            products: CatalogExportOrder.allProducts(of: catalog).map { product(from: $0, catalog: catalog) },
            remarks: catalog.remarks.isEmpty ? nil : catalog.remarks.sorted())
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        // Encoding strings, integers and booleans cannot fail; the fallback keeps this path free of a forced try.
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private func product(from product: Product, catalog: Catalog) -> ProductOutput {
        let (offer, otherOffers) = CatalogExportOrder.introOffer(of: product, baseTerritory: catalog.baseTerritory)
        var prices: [String: String] = [:]
        for (territory, price) in product.prices {
            prices[territory.alpha2] = price.money.description
        }
        var storeIds: [String: String] = [:]
        for (store, id) in product.storeIDs {
            storeIds[store.rawValue] = id.rawValue
        }
        return ProductOutput(
            id: product.id.rawValue,
            type: product.kind?.rawValue,
            name: product.referenceName,
            group: product.groupKey,
            level: product.level,
            period: product.period?.description,
            prices: prices.isEmpty ? nil : prices,
            introOffer: offer.map { offer in
                IntroOfferOutput(mode: offer.mode.rawValue, period: offer.period.description, periods: offer.periods,
                                 price: offer.price?.description, territory: offer.territory?.alpha2)
            },
            otherIntroOffers: otherOffers.isEmpty ? nil : otherOffers,
            familyShareable: product.familyShareable,
            clearedForSale: product.clearedForSale,
            storeIds: storeIds.isEmpty ? nil : storeIds,
            stores: product.stores.map { $0.sorted().map(\.rawValue) },
            otherPrices: product.uncomparedPrices.isEmpty ? nil : product.uncomparedPrices.sorted().map(\.summary))
    }
}

// MARK: - Output (the keys are a public contract)

private struct Document: Encodable {
    let version: Int
    let source: Source
    let app: App
    let groups: [Group]
    let products: [ProductOutput]
    let remarks: [String]?
}

private struct Source: Encodable {
    let path: String
    let format: String
}

private struct App: Encodable {
    let bundleId: String?
    let baseTerritory: String
}

private struct Group: Encodable {
    let key: String
    let name: String
}

private struct ProductOutput: Encodable {
    let id: String
    let type: String?
    let name: String?
    let group: String?
    let level: Int?
    let period: String?
    let prices: [String: String]?
    let introOffer: IntroOfferOutput?
    let otherIntroOffers: [String]?
    let familyShareable: Bool?
    let clearedForSale: Bool?
    let storeIds: [String: String]?
    let stores: [String]?
    let otherPrices: [String]?
}

private struct IntroOfferOutput: Encodable {
    let mode: String
    let period: String
    let periods: Int
    let price: String?
    let territory: String?
}
