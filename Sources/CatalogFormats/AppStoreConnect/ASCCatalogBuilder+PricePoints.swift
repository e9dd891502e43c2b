import CatalogCore
import Foundation

/// Apple's price-point table (DESIGN.md §2c "Price points"): the lists `fetch appstore --price-points` writes,
/// `GET /v1/subscriptions/{id}/pricePoints` (`subscriptions_pricePoints_getToManyRelated`) and
/// `GET /v2/inAppPurchases/{id}/pricePoints` (`inAppPurchasesV2_pricePoints_getToManyRelated`), OpenAPI 4.4.1:
/// `subscriptionPricePoints` / `inAppPurchasePricePoints` resources with `attributes.customerPrice` and a
/// `territory` relationship, their territories included with `currency`. A price point is in the table when it
/// is listed by such a page (its parent link is `pricePoints`), not when it is only included with a price row.
extension ASCCatalogBuilder {
    /// The table of every price point listed by a `pricePoints` page; nil when the input has none.
    func pricePointTable(path: String, lookups: inout ASCLookups) throws(CatalogReadError) -> PricePointTable? {
        guard let relationship = pool.relationship("pricePoints") else { return nil }
        let lists: [(point: TypeID?, parent: TypeID?, kind: PricePointTable.Kind)] = [
            (types.subscriptionPricePoints, types.subscriptions, .subscription),
            (types.inAppPurchasePricePoints, types.inAppPurchases, .inAppPurchase),
        ]
        var amounts: [PricePointTable.Kind: [Territory: (CurrencyCode, [Decimal])]] = [:]
        var found = false
        for list in lists {
            guard let pointType = list.point, let parentType = list.parent else { continue }
            for node in pool.definitionOrder where pool.identities.type(of: node) == pointType {
                guard pool.linked(node, type: parentType).contains(where: {
                    !$0.isChild && $0.relationship == relationship
                }) else { continue }
                found = true
                guard let territoryNode = pool.firstLinked(node, type: types.territories) else {
                    throw CatalogReadError("\(pool.typeName(of: node)) \(quotedForMessage(pool.id(of: node))) has no "
                        + "territory: a price point of a pricePoints list names its territory",
                        at: pool.location(of: node))
                }
                guard let text = try string(node, .customerPrice) else {
                    throw CatalogReadError("\(pool.typeName(of: node)) \(quotedForMessage(pool.id(of: node))) has no "
                        + "attributes.customerPrice: a price point of a pricePoints list states its price",
                        at: pool.location(of: node))
                }
                guard let amount = lookups.amount(text) else {
                    throw error(node, .customerPrice, "\(quotedForMessage(text)) is not a decimal amount")
                }
                let (territory, currency) = try lookups.territory(territoryNode, builder: self, near: node)
                amounts[list.kind, default: [:]][territory, default: (currency, [])].1.append(amount)
            }
        }
        guard found else { return nil }
        let points = amounts.mapValues { byTerritory in
            byTerritory.mapValues { PricePointTable.Points(currency: $0.0, amounts: $0.1) }
        }
        return PricePointTable(points: points, fetchedOn: fetchedOn, location: SourceLocation(path: path))
    }
}
