import CatalogCore

/// A JSON value together with its key path from the document root (`subscriptions[0].basePlans[1]`), so every
/// error names where it is in the document as well as the line and column. The path is spelled out only when an
/// error asks for it.
struct JSONNode {
    /// How a node is reached from the root.
    private indirect enum Step {
        case root
        case key(Step, String)
        case element(Step, Int)

        var text: String {
            switch self {
            case .root: ""
            case .key(let parent, let key):
                parent.text.isEmpty ? key : "\(parent.text).\(key)"
            case .element(let parent, let index): "\(parent.text)[\(index)]"
            }
        }
    }

    /// The value.
    let value: JSONValue
    private let step: Step

    /// The root node of a document.
    init(root: JSONValue) {
        value = root
        step = .root
    }

    /// The node of element `index` of the root's member `key`, for a value parsed apart from its document
    /// (`JSONDocument.forEachMember`).
    init(element index: Int, ofRootMember key: String, _ value: JSONValue) {
        self.value = value
        step = .element(.key(.root, key), index)
    }

    private init(value: JSONValue, step: Step) {
        self.value = value
        self.step = step
    }

    /// The key path, empty for the root.
    var path: String { step.text }

    /// The node of an object member.
    func child(_ key: String, _ value: JSONValue) -> JSONNode {
        JSONNode(value: value, step: .key(step, key))
    }

    /// The node of an array element.
    func element(_ index: Int, _ value: JSONValue) -> JSONNode {
        JSONNode(value: value, step: .element(step, index))
    }
}

/// Typed, located access to one JSON document, shared by the readers of JSON store formats (Play, StoreKit):
/// each accessor checks the JSON type and throws an error that names the key path, the offending value and its
/// file:line:column. A member whose value is `null` is treated as absent (proto3 JSON and Xcode may write
/// defaults either way).
struct JSONAccess {
    /// How an error names a value of the wrong type.
    enum ValueWording {
        /// By its kind: `expected a string, found a number`.
        case kind
        /// By its kind and, for a scalar, its value, quoted and shortened: `found the number 4.99`.
        case quoted
    }

    /// The parsed document.
    let document: JSONDocument
    /// How errors name a value of the wrong type.
    let wording: ValueWording

    /// Access to `document`; `wording` says how errors name a value of the wrong type.
    init(document: JSONDocument, wording: ValueWording = .kind) {
        self.document = document
        self.wording = wording
    }

    /// The root node of the document.
    var root: JSONNode { JSONNode(root: document.root) }

    /// A value of the wrong type, for `expected …, found <this>`.
    func describe(_ value: JSONValue) -> String {
        switch wording {
        case .kind: value.typeName
        case .quoted: describeForMessage(value)
        }
    }

    /// Where a node is.
    func location(of node: JSONNode) -> SourceLocation {
        document.location(of: node.value)
    }

    /// An error at a node, prefixed with its key path.
    func error(_ message: String, at node: JSONNode) -> CatalogReadError {
        let prefix = node.path.isEmpty ? "" : "\(node.path): "
        return CatalogReadError(prefix + message, at: location(of: node))
    }

    /// Requires an object.
    func requireObject(_ node: JSONNode) throws(CatalogReadError) {
        guard node.value.members != nil else {
            throw error("expected an object, found \(describe(node.value))", at: node)
        }
    }

    /// The member `key` of an object node; nil when absent or null.
    func member(_ key: String, in node: JSONNode) -> JSONNode? {
        guard let value = node.value[key], !value.isNull else { return nil }
        return node.child(key, value)
    }

    /// An optional string member.
    func string(_ key: String, in node: JSONNode) throws(CatalogReadError) -> (text: String, node: JSONNode)? {
        guard let child = member(key, in: node) else { return nil }
        guard let text = child.value.string else {
            throw error("expected a string, found \(describe(child.value))", at: child)
        }
        return (text, child)
    }

    /// A required, non-empty string member.
    func requireString(_ key: String, in node: JSONNode) throws(CatalogReadError) -> (text: String, node: JSONNode) {
        guard let found = try string(key, in: node) else {
            throw error("missing \"\(key)\"", at: node)
        }
        guard !found.text.isEmpty else {
            throw error("\"\(key)\" is empty", at: found.node)
        }
        return found
    }

    /// An optional boolean member.
    func bool(_ key: String, in node: JSONNode) throws(CatalogReadError) -> Bool? {
        guard let child = member(key, in: node) else { return nil }
        guard let value = child.value.bool else {
            throw error("expected true or false, found \(describe(child.value))", at: child)
        }
        return value
    }

    /// An optional object member.
    func object(_ key: String, in node: JSONNode) throws(CatalogReadError) -> JSONNode? {
        guard let child = member(key, in: node) else { return nil }
        try requireObject(child)
        return child
    }

    /// An optional array member, as element nodes.
    func array(_ key: String, in node: JSONNode) throws(CatalogReadError) -> [JSONNode]? {
        guard let child = member(key, in: node) else { return nil }
        return try elements(of: child)
    }

    /// An optional array of objects.
    func objects(_ key: String, in node: JSONNode) throws(CatalogReadError) -> [JSONNode]? {
        guard let elements = try array(key, in: node) else { return nil }
        for element in elements { try requireObject(element) }
        return elements
    }

    /// An optional int32 member (a JSON number, or a string of digits as proto3 JSON allows), within `range`.
    func int(_ key: String, in node: JSONNode, range: ClosedRange<Int>) throws(CatalogReadError) -> Int? {
        guard let child = member(key, in: node) else { return nil }
        let text: String
        if let number = child.value.numberText {
            text = number
        } else if let string = child.value.string {
            text = string
        } else {
            throw error("expected a whole number, found \(describe(child.value))", at: child)
        }
        guard let value = Int(text), range.contains(value) else {
            throw error("\"\(text)\" is not a whole number between \(range.lowerBound) and \(range.upperBound)",
                        at: child)
        }
        return value
    }

    /// An optional whole number member written as a JSON number (no fraction, no exponent, within `Int`).
    func wholeNumber(_ key: String, in node: JSONNode) throws(CatalogReadError) -> (value: Int, node: JSONNode)? {
        guard let child = member(key, in: node) else { return nil }
        guard let value = child.value.int else {
            throw error("expected a whole number, found \(describe(child.value))", at: child)
        }
        return (value, child)
    }

    /// The element nodes of an array node.
    func elements(of node: JSONNode) throws(CatalogReadError) -> [JSONNode] {
        guard let elements = node.value.elements else {
            throw error("expected an array, found \(describe(node.value))", at: node)
        }
        return elements.enumerated().map { node.element($0.offset, $0.element) }
    }

    /// An optional ISO 8601 period member (`P1M`, `P4W`, `P7D`).
    func period(_ key: String, in node: JSONNode) throws(CatalogReadError) -> (period: SubscriptionPeriod, node: JSONNode)? {
        guard let found = try string(key, in: node) else { return nil }
        guard let period = SubscriptionPeriod(iso: found.text) else {
            throw error("\"\(found.text)\" is not an ISO 8601 period such as P1M or P1W", at: found.node)
        }
        return (period, found.node)
    }

    /// A region code (`"US"`) read as an ISO 3166-1 alpha-2 territory.
    func territory(_ key: String, in node: JSONNode) throws(CatalogReadError) -> (territory: Territory, node: JSONNode) {
        let found = try requireString(key, in: node)
        guard found.text.utf8.count == 2, let territory = Territory(code: found.text) else {
            throw error("\"\(found.text)\" is not an ISO 3166-1 alpha-2 region code", at: found.node)
        }
        return (territory, found.node)
    }

    /// An enum member (`state`, `status`, …) and whether its value is among the `known` ones. Stores add values
    /// over time (Google does), so an unknown value is not an error: the caller reads around it and says so in a
    /// remark.
    func enumeration(_ key: String, in node: JSONNode,
                     known: [String]) throws(CatalogReadError) -> (text: String, node: JSONNode, isKnown: Bool)? {
        guard let found = try string(key, in: node) else { return nil }
        return (found.text, found.node, known.contains(found.text))
    }
}
