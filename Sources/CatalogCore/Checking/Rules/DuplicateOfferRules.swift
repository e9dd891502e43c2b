/// `duplicate-offer-id` (DESIGN.md §5): one store catalog lists one offer (kind + ID), billing plan (type) or
/// purchase option (ID) twice on a product. The comparison rules take the first of a key; this rule makes sure
/// that choice is never silent, naming every location of the key.
enum DuplicateOfferRules {
    /// One thing of a product that a key identifies: its finding field, how messages name it, where it was read.
    private struct Keyed {
        let field: ProductField
        let name: String
        let location: SourceLocation?
    }

    /// Every repeated key of every product record of `store` (records repeating a product ID are
    /// `duplicate-product-id`'s, and only the first is judged here), named by `idFor`.
    static func check(_ store: Catalog, storePath: String, idFor: (Product) -> String) -> [Finding] {
        var findings: [Finding] = []
        var seen: Set<ProductID> = []
        for product in store.products where seen.insert(product.id).inserted {
            let keyed = (product.offers ?? []).map { Keyed(field: $0.key.field, name: $0.name, location: $0.location) }
                + (product.billingPlans ?? []).map {
                    Keyed(field: $0.field, name: "the \($0.type.rawValue) billing plan", location: $0.location)
                }
                + (product.purchaseOptions ?? []).map {
                    Keyed(field: $0.field, name: "purchase option '\($0.id)'", location: $0.location)
                }
            findings += repeats(in: keyed, productID: idFor(product), product: product, storePath: storePath)
        }
        return findings
    }

    /// One finding per key held more than once, in the order the keys first appear; linear in `keyed`.
    private static func repeats(in keyed: [Keyed], productID: String, product: Product,
                                storePath: String) -> [Finding] {
        var positions: [ProductField: [Int]] = [:]
        var order: [ProductField] = []
        for (index, item) in keyed.enumerated() {
            if positions[item.field] == nil { order.append(item.field) }
            positions[item.field, default: []].append(index)
        }
        return order.compactMap { field -> Finding? in
            guard let indices = positions[field], indices.count > 1, let first = indices.first else { return nil }
            let locations = indices.map { (keyed[$0].location ?? product.location).description }
            return Finding(
                rule: .duplicateOfferID, productID: productID, field: field, actual: String(indices.count),
                message: "\(keyed[first].name) is listed \(indices.count) times on the store's product "
                    + "(\(locations.joined(separator: ", "))); which one the store uses is unknown",
                storeLocation: keyed[indices[1]].location ?? product.location, store: storePath)
        }
    }
}
