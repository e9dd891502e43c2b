import CatalogCore

/// Reading pooled attributes as the builder needs them: a value of another kind, or text that does not parse, is
/// an error at the attribute naming the resource, raised only when the builder reads it.
extension ASCCatalogBuilder {
    func attributeLocation(_ node: NodeID, _ name: ASCAttributeName) -> SourceLocation? {
        pool.attribute(node, name).map { pool.marks.location(of: $0.mark) }
    }

    /// An error at an attribute (or the resource when the attribute is absent), naming the resource.
    func error(_ node: NodeID, _ name: ASCAttributeName, _ problem: String) -> CatalogReadError {
        CatalogReadError("\(pool.typeName(of: node)) \(quotedForMessage(pool.id(of: node))) attributes.\(name.rawValue): "
                            + problem, at: attributeLocation(node, name) ?? pool.location(of: node))
    }

    func string(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> String? {
        try read(node, name, expecting: "a string", \.string)
    }

    func bool(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> Bool? {
        try read(node, name, expecting: "true or false", \.bool)
    }

    func int(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> Int? {
        try read(node, name, expecting: "a whole number", \.int)
    }

    func strings(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> [String]? {
        try read(node, name, expecting: "an array of strings", \.strings)
    }

    func range(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> (minimum: Int?, maximum: Int?)? {
        try read(node, name, expecting: "an object with whole numbers minimum and maximum", \.range)
    }

    func date(_ node: NodeID, _ name: ASCAttributeName) throws(CatalogReadError) -> CalendarDate? {
        guard let text = try string(node, name) else { return nil }
        guard let date = CalendarDate(iso: text) else {
            throw error(node, name, "\(quotedForMessage(text)) is not a date (YYYY-MM-DD)")
        }
        return date
    }

    /// The product ID of a resource as a remark names it (its resource id when it has none).
    func productIDText(_ node: NodeID) -> String {
        (try? string(node, .productId)).flatMap { $0 } ?? quotedForMessage(pool.id(of: node))
    }

    /// The attribute's value, nil when the input does not state it; a value of another kind is an error.
    private func read<Value>(_ node: NodeID, _ name: ASCAttributeName, expecting expected: String,
                             _ typed: (ASCAttributeValue) -> Value?) throws(CatalogReadError) -> Value? {
        guard let value = pool.attribute(node, name)?.value else { return nil }
        if case .mismatch(let found) = value { throw error(node, name, "expected \(expected), found \(found)") }
        return typed(value)
    }
}
