import CatalogCore

/// A mapping file (`--config map:FILE`, DESIGN.md §4b), read and checked before its source is: which JSON or YAML
/// file holds the team's products (`source`, relative to the mapping file), which nodes of it are products
/// (`products`), and where each product states each field. Every problem is reported at the mapping file's
/// line and column (DESIGN.md §5a.1: all of them, in file order).
///
/// ```yaml
/// version: 1
/// source: paywall.json
/// products: $.plans[*]
/// id: $.appStoreProductId
/// storeIds: { play: $.googleSku }
/// type: { value: auto-renewable }
/// period: { path: "$.interval", map: { monthly: P1M, yearly: P1Y } }
/// price: { path: "$.price.usd", currency: USD }
/// ```
struct MappingFile {
    /// Where one field's value comes from.
    enum Rule {
        /// A selector relative to the product node: the node it selects is the value.
        case selector(MappingSelector, at: SourceLocation)
        /// `{value: …}`: the same value for every product, written in the mapping file.
        case constant(ConfigNode)
        /// `{path: …, map: {…}}`: the selected scalar's text looked up in `map`, whose value is the field's.
        case valueMap(MappingSelector, at: SourceLocation, map: [ConfigEntry], mapLocation: SourceLocation)
        /// `price: {path: …, currency: USD}`: the selected amount in that currency.
        case amount(MappingSelector, at: SourceLocation, currency: ConfigNode)

        /// Where the rule is written in the mapping file.
        var location: SourceLocation {
            switch self {
            case .selector(_, let at), .valueMap(_, let at, _, _), .amount(_, let at, _): at
            case .constant(let node): node.location
            }
        }
    }

    /// One field of a product and where it comes from.
    struct Field {
        /// The config key it stands for (`period`, `price`, …).
        let name: String
        let rule: Rule
    }

    /// The fields a product may state, in the config's order (DESIGN.md §4b).
    static let fieldNames = ["name", "type", "group", "level", "period", "price", "prices", "familyShareable"]
    /// Every key of the mapping file.
    static let keys = ["version", "source", "products", "id"] + fieldNames + ["storeIds"]

    /// The mapping file as the user named it.
    let path: String
    /// `source` as written (relative to the mapping file), and where.
    let source: String
    let sourceLocation: SourceLocation
    /// The products' selector, from the source's root.
    let products: MappingSelector
    let productsLocation: SourceLocation
    /// The product ID's rule.
    let id: Rule
    /// The other fields stated, in `fieldNames` order.
    let fields: [Field]
    /// `storeIds.appstore` / `storeIds.play`.
    let storeIDs: [(store: StoreKind, rule: Rule)]

    /// Reads a parsed mapping file (`root` nil: the document is empty).
    init(root document: ConfigNode?, path: String) throws(CatalogReadError) {
        let reader = MappingFileReader(path: path)
        let (root, entries) = try reader.documentRoot(document, document: "the mapping file",
                                                      needs: "\"version: 1\", \"source\", \"products\" and \"id\"",
                                                      keys: ["version", "source", "products", "id"])
        reader.checkKeys(entries, allowed: Self.keys, path: ConfigPath())
        func entry(_ key: String) -> ConfigEntry? { entries.first(where: { $0.key == key }) }
        func required(_ key: String, _ what: String) -> ConfigEntry? {
            if let found = entry(key) { return found }
            if !reader.misspells(key, in: entries, allowed: Self.keys) {
                reader.problems.add(CatalogReadError("\(key): missing; \(what)", at: root.location))
            }
            return nil
        }
        let sourceEntry = required("source", "name the JSON or YAML file that holds the products (relative to "
                                   + "the mapping file)")
        let productsEntry = required("products", "a selector of the product nodes, such as $.plans[*]")
        let idEntry = required("id", "a selector of each product's ID, such as $.productId")
        let sourceText = sourceEntry.flatMap { entry in
            reader.problems.recording { () throws(CatalogReadError) -> String in
                let text = try reader.string(entry.value, path: ConfigPath().appending(key: "source"))
                guard !text.isEmpty else {
                    throw CatalogReadError("source: must not be empty", at: entry.value.location)
                }
                return text
            }
        }
        let productsSelector = productsEntry.flatMap { entry in
            reader.problems.recording { () throws(CatalogReadError) -> MappingSelector in
                try reader.selector(entry.value, path: ConfigPath().appending(key: "products"))
            }
        }
        let idRule = idEntry.flatMap { entry in
            reader.problems.recording { () throws(CatalogReadError) -> Rule in
                try reader.rule(entry.value, path: ConfigPath().appending(key: "id"), allowsCurrency: false)
            }
        }
        var fields: [Field] = []
        for name in Self.fieldNames {
            guard let fieldEntry = entry(name) else { continue }
            if let rule = reader.problems.recording({ () throws(CatalogReadError) -> Rule in
                try reader.rule(fieldEntry.value, path: ConfigPath().appending(key: name),
                                allowsCurrency: name == "price")
            }) {
                fields.append(Field(name: name, rule: rule))
            }
        }
        var storeIDs: [(store: StoreKind, rule: Rule)] = []
        if let storeEntry = entry("storeIds") {
            let storePath = ConfigPath().appending(key: "storeIds")
            let stores = StoreKind.allCases.map(\.rawValue)
            if let storeEntries = reader.problems.recording({ () throws(CatalogReadError) -> [ConfigEntry] in
                try reader.mapping(storeEntry.value, path: storePath, allowed: stores)
            }) {
                for store in StoreKind.allCases {
                    guard let found = storeEntries.first(where: { $0.key == store.rawValue }),
                          let rule = reader.problems.recording({ () throws(CatalogReadError) -> Rule in
                              try reader.rule(found.value, path: storePath.appending(key: store.rawValue),
                                              allowsCurrency: false)
                          }) else { continue }
                    storeIDs.append((store, rule))
                }
            }
        }
        try reader.problems.throwIfAny()
        guard let sourceEntry, let sourceText, let productsEntry, let productsSelector, let idRule else {
            // Every missing or wrong key was recorded; throwIfAny threw them.
            throw CatalogReadError("the mapping file is incomplete", at: root.location)
        }
        self.path = path
        source = sourceText
        sourceLocation = sourceEntry.value.location
        products = productsSelector
        productsLocation = productsEntry.value.location
        id = idRule
        self.fields = fields
        self.storeIDs = storeIDs
    }
}

/// The checks of a mapping file, in the config's error style (`ConfigNodeReading`).
private struct MappingFileReader: ConfigNodeReading {
    let path: String
    let problems = ConfigProblems()

    /// A selector: a string starting with `$`, in the subset.
    func selector(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> MappingSelector {
        let text = try string(node, path: path)
        guard text.hasPrefix("$") else {
            throw CatalogReadError("\(path): \(ConfigScalar.quote(text)) is not a selector (a JSONPath such as "
                                   + "$.productId); write a constant as {value: \(text)}", at: node.location)
        }
        do {
            return try MappingSelector(text)
        } catch {
            throw CatalogReadError("\(path): \(ConfigScalar.quote(text)): \(error.reason) (character "
                                   + "\(error.character))", at: node.location)
        }
    }

    /// A field's rule: a selector, `{value: …}`, `{path: …, map: {…}}`, or for a price `{path: …, currency: …}`.
    func rule(_ node: ConfigNode, path: ConfigPath, allowsCurrency: Bool) throws(CatalogReadError) -> MappingFile.Rule {
        if node.scalar != nil {
            return .selector(try selector(node, path: path), at: node.location)
        }
        let allowed = ["value", "path", "map"] + (allowsCurrency ? ["currency"] : [])
        let entries = try mapping(node, path: path, allowed: allowed)
        func entry(_ key: String) -> ConfigEntry? { entries.first(where: { $0.key == key }) }
        if let value = entry("value") {
            if let other = entries.first(where: { $0.key != "value" && allowed.contains($0.key) }) {
                throw CatalogReadError("\(path.appending(key: other.key)): a constant ({value: …}) takes no "
                                       + "\(other.key)", at: other.keyLocation)
            }
            guard !value.value.isNull else {
                throw CatalogReadError("\(path.appending(key: "value")): has no value; leave the field out instead",
                                       at: value.value.location)
            }
            return .constant(value.value)
        }
        guard let pathEntry = entry("path") else {
            throw CatalogReadError("\(path): needs \"path\" (a selector) or \"value\" (a constant)", at: node.location)
        }
        let selected = try selector(pathEntry.value, path: path.appending(key: "path"))
        let map = entry("map")
        let currency = allowsCurrency ? entry("currency") : nil
        if map != nil, let currency {
            throw CatalogReadError("\(path): use either map or currency, not both", at: currency.keyLocation)
        }
        if let currency {
            _ = try string(currency.value, path: path.appending(key: "currency"))
            return .amount(selected, at: pathEntry.value.location, currency: currency.value)
        }
        guard let map else { return .selector(selected, at: pathEntry.value.location) }
        guard let mapEntries = map.value.entries, !mapEntries.isEmpty else {
            throw CatalogReadError("\(path.appending(key: "map")): \(map.value.quoted) is not a mapping of source "
                                   + "values to config values (e.g. {monthly: P1M})", at: map.value.location)
        }
        return .valueMap(selected, at: pathEntry.value.location, map: mapEntries, mapLocation: map.value.location)
    }
}
