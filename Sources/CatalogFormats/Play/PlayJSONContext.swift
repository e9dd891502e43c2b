import CatalogCore

/// A JSON value together with its key path from the document root (`subscriptions[0].basePlans[1]`), so every
/// error names where it is in the document as well as the line and column. The path is spelled out only when an
/// error asks for it.
struct PlayNode {
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

    private init(value: JSONValue, step: Step) {
        self.value = value
        self.step = step
    }

    /// The key path, empty for the root.
    var path: String { step.text }

    /// The node of an object member.
    func child(_ key: String, _ value: JSONValue) -> PlayNode {
        PlayNode(value: value, step: .key(step, key))
    }

    /// The node of an array element.
    func element(_ index: Int, _ value: JSONValue) -> PlayNode {
        PlayNode(value: value, step: .element(step, index))
    }
}

/// Typed, located access to one Play JSON document: each accessor checks the JSON type and throws an error
/// that names the key path, the offending value and its file:line:column. A member whose value is `null` is
/// treated as absent (proto3 JSON may write defaults either way).
struct PlayJSONContext {
    /// The parsed document.
    let document: JSONDocument

    /// Where a node is.
    func location(of node: PlayNode) -> SourceLocation {
        document.location(of: node.value)
    }

    /// An error at a node, prefixed with its key path.
    func error(_ message: String, at node: PlayNode) -> CatalogReadError {
        let prefix = node.path.isEmpty ? "" : "\(node.path): "
        return CatalogReadError(prefix + message, at: location(of: node))
    }

    /// Requires an object.
    func requireObject(_ node: PlayNode) throws(CatalogReadError) {
        guard node.value.members != nil else {
            throw error("expected an object, found \(node.value.typeName)", at: node)
        }
    }

    /// The member `key` of an object node; nil when absent or null.
    func member(_ key: String, in node: PlayNode) -> PlayNode? {
        guard let value = node.value[key], !value.isNull else { return nil }
        return node.child(key, value)
    }

    /// An optional string member.
    func string(_ key: String, in node: PlayNode) throws(CatalogReadError) -> (text: String, node: PlayNode)? {
        guard let child = member(key, in: node) else { return nil }
        guard let text = child.value.string else {
            throw error("expected a string, found \(child.value.typeName)", at: child)
        }
        return (text, child)
    }

    /// A required, non-empty string member.
    func requireString(_ key: String, in node: PlayNode) throws(CatalogReadError) -> (text: String, node: PlayNode) {
        guard let found = try string(key, in: node) else {
            throw error("missing \"\(key)\"", at: node)
        }
        guard !found.text.isEmpty else {
            throw error("\"\(key)\" is empty", at: found.node)
        }
        return found
    }

    /// An optional boolean member.
    func bool(_ key: String, in node: PlayNode) throws(CatalogReadError) -> Bool? {
        guard let child = member(key, in: node) else { return nil }
        guard let value = child.value.bool else {
            throw error("expected true or false, found \(child.value.typeName)", at: child)
        }
        return value
    }

    /// An optional object member.
    func object(_ key: String, in node: PlayNode) throws(CatalogReadError) -> PlayNode? {
        guard let child = member(key, in: node) else { return nil }
        try requireObject(child)
        return child
    }

    /// An optional array member, as element nodes.
    func array(_ key: String, in node: PlayNode) throws(CatalogReadError) -> [PlayNode]? {
        guard let child = member(key, in: node) else { return nil }
        guard let elements = child.value.elements else {
            throw error("expected an array, found \(child.value.typeName)", at: child)
        }
        return elements.enumerated().map { child.element($0.offset, $0.element) }
    }

    /// An optional array of objects.
    func objects(_ key: String, in node: PlayNode) throws(CatalogReadError) -> [PlayNode]? {
        guard let elements = try array(key, in: node) else { return nil }
        for element in elements { try requireObject(element) }
        return elements
    }

    /// An optional int32 member (a JSON number, or a string of digits as proto3 JSON allows), within `range`.
    func int(_ key: String, in node: PlayNode, range: ClosedRange<Int>) throws(CatalogReadError) -> Int? {
        guard let child = member(key, in: node) else { return nil }
        let text: String
        if let number = child.value.numberText {
            text = number
        } else if let string = child.value.string {
            text = string
        } else {
            throw error("expected a whole number, found \(child.value.typeName)", at: child)
        }
        guard let value = Int(text), range.contains(value) else {
            throw error("\"\(text)\" is not a whole number between \(range.lowerBound) and \(range.upperBound)",
                        at: child)
        }
        return value
    }

    /// An optional ISO 8601 period member (`P1M`, `P4W`, `P7D`).
    func period(_ key: String, in node: PlayNode) throws(CatalogReadError) -> (period: SubscriptionPeriod, node: PlayNode)? {
        guard let found = try string(key, in: node) else { return nil }
        guard let period = SubscriptionPeriod(iso: found.text) else {
            throw error("\"\(found.text)\" is not an ISO 8601 period such as P1M or P1W", at: found.node)
        }
        return (period, found.node)
    }

    /// A region code (`"US"`) read as an ISO 3166-1 alpha-2 territory.
    func territory(_ key: String, in node: PlayNode) throws(CatalogReadError) -> (territory: Territory, node: PlayNode) {
        let found = try requireString(key, in: node)
        guard found.text.utf8.count == 2, let territory = Territory(code: found.text) else {
            throw error("\"\(found.text)\" is not an ISO 3166-1 alpha-2 region code", at: found.node)
        }
        return (territory, found.node)
    }

    /// An enum member (`state`, `status`, …) and whether its value is among the `known` ones. Google adds values
    /// over time, so an unknown value is not an error: the caller reads around it and says so in a remark.
    func enumeration(_ key: String, in node: PlayNode,
                     known: [String]) throws(CatalogReadError) -> (text: String, node: PlayNode, isKnown: Bool)? {
        guard let found = try string(key, in: node) else { return nil }
        return (found.text, found.node, known.contains(found.text))
    }
}
