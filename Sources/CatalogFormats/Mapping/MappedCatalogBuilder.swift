import CatalogCore

/// Applies a mapping file to its source (DESIGN.md §4b): each node `products` selects is one product, and each
/// field's rule gives the value the product config would hold there. The values are put together as a product
/// config's tree — the source's own nodes where a selector picks them, so their file:line:column is the source's
/// — and read by the config's validator (`ConfigValidator`), so a mapped product is checked exactly as a
/// `products.yml` product is: types, periods in every spelling the config takes, prices, groups and levels.
///
/// A field selector that matches nothing in a product (or selects a null) leaves the field not stated, never
/// empty: it is not compared (§5). An error about a value names the value's place in the source and the rule's
/// place in the mapping file.
struct MappedCatalogBuilder {
    /// The mapping file.
    let mapping: MappingFile
    /// The source's root node.
    let root: ConfigNode
    /// The source as the user would name it (the mapping file's folder joined with `source`).
    let sourcePath: String

    /// Where a value came from, by its place in the source: the note added to the validator's messages.
    private final class Notes {
        var byLocation: [SourceLocation: String] = [:]
    }

    /// The catalog, format `map`, named by the mapping file; products located in the source.
    func catalog() throws(CatalogReadError) -> Catalog {
        let problems = ConfigProblems()
        let notes = Notes()
        let productNodes = mapping.products.select(from: root)
        guard !productNodes.isEmpty else {
            throw CatalogReadError("products: \(ConfigScalar.quote(mapping.products.text)) selects nothing in "
                                   + "\(sourcePath); check the selector against the source's structure",
                                   at: mapping.productsLocation)
        }
        var productEntries: [ConfigEntry] = []
        var groupKeys: [String] = []
        var storeIDs: [[StoreKind: ProductID]] = []
        for node in productNodes {
            guard let entry = problems.recording({ () throws(CatalogReadError) -> ConfigEntry in
                try product(node, notes: notes, groupKeys: &groupKeys, storeIDs: &storeIDs)
            }) else { continue }
            productEntries.append(entry)
        }
        try problems.throwIfAny()
        let document = configDocument(products: productEntries, groupKeys: groupKeys)
        var catalog: Catalog
        do {
            var validator = ConfigValidator(path: mapping.path)
            // `type` is optional in a mapping: a product whose selector matches nothing states none (§4b).
            validator.requiresType = false
            catalog = try validator.catalog(from: document)
        } catch {
            let annotated = error.problems.map { problem in
                guard let note = notes.byLocation[problem.location] else { return problem }
                return CatalogReadError(problem.message + " (\(note))", at: problem.location)
            }
            throw CatalogReadError(listing: annotated, unlisted: error.unlistedProblemCount) ?? error
        }
        catalog.format = .map
        catalog.path = mapping.path
        catalog.remarks.append("read from \(sourcePath) through \(mapping.path)")
        for (index, ids) in storeIDs.enumerated() where catalog.products.indices.contains(index) {
            catalog.products[index].storeIDs.merge(ids) { _, new in new }
        }
        return catalog
    }

    /// One product's entry of the config tree: its ID as the key, its fields as the source's nodes.
    private func product(_ node: ConfigNode, notes: Notes, groupKeys: inout [String],
                         storeIDs: inout [[StoreKind: ProductID]]) throws(CatalogReadError) -> ConfigEntry {
        guard let idNode = try value(of: mapping.id, name: "id", in: node, notes: notes) else {
            throw CatalogReadError("id: \(describe(mapping.id)) selects nothing in this product (rule at "
                                   + "\(mapping.id.location)); every product needs an ID", at: node.location)
        }
        guard let id = idNode.scalar.flatMap({ $0.kind == .number ? $0.text : $0.string }), !id.isEmpty else {
            throw CatalogReadError("id: \(idNode.quoted) is not a product ID (rule at \(mapping.id.location))",
                                   at: idNode.location)
        }
        var fields: [ConfigEntry] = []
        for field in mapping.fields {
            guard let valueNode = try value(of: field.rule, name: field.name, in: node, notes: notes) else { continue }
            if field.name == "group", let key = valueNode.scalar?.string, !groupKeys.contains(key) {
                groupKeys.append(key)
            }
            fields.append(ConfigEntry(key: field.name, keyMark: valueNode.mark, value: valueNode))
        }
        var ids: [StoreKind: ProductID] = [:]
        for (store, rule) in mapping.storeIDs {
            guard let valueNode = try value(of: rule, name: "storeIds.\(store.rawValue)", in: node, notes: notes)
            else { continue }
            guard let text = valueNode.scalar?.string, !text.isEmpty else {
                throw CatalogReadError("storeIds.\(store.rawValue): \(valueNode.quoted) is not a product ID (rule at "
                                       + "\(rule.location))", at: valueNode.location)
            }
            ids[store] = ProductID(text)
        }
        storeIDs.append(ids)
        let productNode = ConfigNode(value: .mapping(fields), source: node.source, mark: node.mark)
        return ConfigEntry(key: id, keyMark: node.mark, value: productNode)
    }

    /// A field's value in one product: the selected node, the constant, the mapped value (at the selected node's
    /// place), or a price's amount with its currency; nil when the selector matches nothing or a null (not
    /// stated). A selector matching several nodes, and a value the value map lacks, are errors at both places.
    private func value(of rule: MappingFile.Rule, name: String, in product: ConfigNode,
                       notes: Notes) throws(CatalogReadError) -> ConfigNode? {
        func selectedOne(_ selector: MappingSelector, at location: SourceLocation) throws(CatalogReadError) -> ConfigNode? {
            let nodes = selector.select(from: product)
            guard nodes.count <= 1 else {
                throw CatalogReadError("\(name): \(ConfigScalar.quote(selector.text)) (at \(location)) selects "
                                       + "\(nodes.count) values in this product; a field takes one",
                                       at: nodes.first?.location ?? product.location)
            }
            guard let node = nodes.first, !node.isNull else { return nil }
            notes.byLocation[node.location] = "\(name) from \(mapping.path) at \(location)"
            return node
        }
        switch rule {
        case .constant(let node):
            return node
        case let .selector(selector, at):
            return try selectedOne(selector, at: at)
        case let .amount(selector, at, currency):
            guard let amount = try selectedOne(selector, at: at) else { return nil }
            let entries = [
                ConfigEntry(key: "amount", keyMark: amount.mark, value: amount),
                ConfigEntry(key: "currency", keyMark: currency.mark, value: currency),
            ]
            return ConfigNode(value: .mapping(entries), source: amount.source, mark: amount.mark)
        case let .valueMap(selector, at, map, mapLocation):
            guard let selected = try selectedOne(selector, at: at) else { return nil }
            guard let scalar = selected.scalar else {
                throw CatalogReadError("\(name): \(selected.quoted) cannot be looked up in the value map at "
                                       + "\(mapLocation); it selects a scalar", at: selected.location)
            }
            guard let entry = map.first(where: { $0.key == scalar.text }) else {
                let known = map.map { ConfigScalar.quote($0.key) }.joined(separator: ", ")
                throw CatalogReadError("\(name): \(scalar.quoted) is not in the value map at \(mapLocation) "
                                       + "(\(known)); add it to the map", at: selected.location)
            }
            notes.byLocation[selected.location] = "\(name) from \(mapping.path) at \(mapLocation), "
                + "\(ConfigScalar.quote(scalar.text)) mapped at \(entry.keyLocation)"
            // The mapped value stands where the source states it: a finding points at the product's own line.
            return ConfigNode(value: entry.value.value, source: selected.source, mark: selected.mark)
        }
    }

    /// A rule in a message: its selector, or the constant.
    private func describe(_ rule: MappingFile.Rule) -> String {
        switch rule {
        case .selector(let selector, _), .valueMap(let selector, _, _, _), .amount(let selector, _, _):
            ConfigScalar.quote(selector.text)
        case .constant(let node): "the constant \(node.quoted)"
        }
    }

    /// The product config's tree: `version: 1`, a group for every group key the products name, the products.
    private func configDocument(products: [ConfigEntry], groupKeys: [String]) -> ConfigNode {
        let source = root.source
        let mark = root.mark
        func scalar(_ text: String, _ kind: ConfigScalar.Kind) -> ConfigNode {
            ConfigNode(value: .scalar(ConfigScalar(text: text, kind: kind)), source: source, mark: mark)
        }
        var entries = [ConfigEntry(key: "version", keyMark: mark, value: scalar("1", .plain))]
        if !groupKeys.isEmpty {
            let groups = groupKeys.map { ConfigEntry(key: $0, keyMark: mark, value: scalar("null", .null)) }
            entries.append(ConfigEntry(key: "groups", keyMark: mark,
                                       value: ConfigNode(value: .mapping(groups), source: source, mark: mark)))
        }
        entries.append(ConfigEntry(key: "products", keyMark: mark,
                                   value: ConfigNode(value: .mapping(products), source: source, mark: mark)))
        return ConfigNode(value: .mapping(entries), source: source, mark: mark)
    }
}
