import CatalogCore
import Foundation

/// Pooling parsed files: the JSON:API structure (`data`, `included`, `errors`, `links.self`, resource objects and
/// identifiers) and its errors. Nothing of a document is kept past `add(_:)` but pooled records.
extension ASCResourcePool {
    /// Adds a parsed file: one document or an array of documents. `request` is the path (and query) the
    /// document was fetched with when a snapshot's `.fetch.json` records it: then it, not the document's
    /// `links.self`, names the parent of the document's `data`.
    mutating func add(_ document: JSONDocument, request: String? = nil) throws(CatalogReadError) {
        let root = document.root
        _ = beginDocument(path: document.path)
        prefetchNodes(of: document)
        if let elements = root.elements {
            guard !elements.isEmpty else { throw Self.emptyArray(at: document.location(of: root)) }
            for (position, element) in elements.enumerated() {
                try addDocument(element, in: document, path: "[\(position)]", request: nil)
            }
        } else if root.members != nil {
            try addDocument(root, in: document, path: "", request: request)
        } else {
            throw document.error(
                "not an App Store Connect API response: the top level is \(root.typeName), expected an object "
                    + "(a JSON:API document) or an array of them", at: root)
        }
        finishDocument(document.source)
        try requireAgreement()
    }

    /// Adds a file's bytes: one document, or an array of documents (an export) parsed and pooled one at a time
    /// (`JSONDocument.forEachElement`), so that the tape of a big export is never held whole.
    mutating func add(fileBytes data: Data, path: String) throws(CatalogReadError) {
        var began = false
        let topLevel = try JSONDocument.forEachElement(data: data, path: path) { element, position throws(CatalogReadError) in
            if !began {
                _ = beginDocument(path: path)
                began = true
            }
            prefetchNodes(of: element)
            try addDocument(element.root, in: element, path: "[\(position)]", request: nil)
            finishDocument(element.source)
        }
        switch topLevel {
        case .document(let document): try add(document)
        case .array(let location, let count):
            guard count > 0 else { throw Self.emptyArray(at: location) }
            try requireAgreement()
        }
    }

    /// `[]` carries no mark of the format (DESIGN.md §2): it must not read as an empty catalog.
    private static func emptyArray(at location: SourceLocation) -> CatalogReadError {
        CatalogReadError(
            "not an App Store Connect API response: the top level is an empty array, expected a JSON:API "
                + "document (an object with \"data\") or an array of them", at: location)
    }

    /// One resource in two places that disagree is a damaged input.
    private func requireAgreement() throws(CatalogReadError) {
        if let disagreement {
            throw CatalogReadError(
                "\(typeName(of: disagreement.node)) \(quotedForMessage(id(of: disagreement.node))) "
                    + "attributes.\(disagreement.name.rawValue) is \(disagreement.later.text) here and "
                    + "\(disagreement.earlier.value.text) at \(marks.location(of: disagreement.earlier.mark)): one "
                    + "resource in two places that disagree is a damaged input",
                at: marks.location(of: disagreement.laterMark))
        }
    }

    private mutating func addDocument(_ value: JSONValue, in document: JSONDocument, path: String, request: String?)
        throws(CatalogReadError)
    {
        let here = path.isEmpty ? "the document" : path
        guard value.isObject else {
            throw document.error("\(here): expected a JSON:API document (an object), found \(describeForMessage(value))",
                                 at: value)
        }
        if let errors = value["errors"], !errors.isNull {
            throw errorResponse(errors, in: document)
        }
        guard let data = value["data"] else {
            throw document.error(
                "\(here) is not an App Store Connect API response: it has no \"data\" and no \"errors\" "
                    + "(\(describeKeysFound(value.members.map { $0.map(\.key) } ?? [])))", at: value)
        }
        let prefix = path.isEmpty ? "" : path + "."
        var parent: (node: NodeID, relationship: RelationshipID)?
        var found = request.flatMap { Self.parent(ofPath: $0) }
        if found == nil { found = try selfLinkParent(value, document: document, prefix: prefix) }
        if let link = found {
            let parentNode = node(type: type(named: link.type), id: link.id)
            let relationship = relationship(named: link.relationship)
            stateIntroductoryOffers(parentNode, relationship: relationship)
            stateOffers(relationship: relationship)
            stateAvailableTerritories(parentNode, relationship: relationship)
            parent = (parentNode, relationship)
        }
        // Key paths are only spelled out when an error needs one.
        if data.isNull {
            // No resources.
        } else if data.isObject {
            let child = try addResource(at: data.index, in: document, path: "\(prefix)data")
            if let parent { link(parent.node, parent.relationship, child) }
        } else if let elements = data.elements {
            // Walked by their tape indices: a `JSONValue` per resource would cost a reference count each.
            for (position, element) in elements.indices.enumerated() {
                let child = try addResource(at: element.position, in: document, path: "\(prefix)data[\(position)]")
                if let parent { link(parent.node, parent.relationship, child) }
            }
        } else {
            throw document.error("\(prefix)data: expected an object, an array or null, found \(describeForMessage(data))",
                                 at: data)
        }
        if let included = value["included"], !included.isNull {
            guard let elements = included.elements else {
                throw document.error("\(prefix)included: expected an array, found \(describeForMessage(included))",
                                     at: included)
            }
            for (position, element) in elements.indices.enumerated() {
                _ = try addResource(at: element.position, in: document, path: "\(prefix)included[\(position)]")
            }
        }
    }

    /// An App Store Connect error response, quoting the first error's title.
    private func errorResponse(_ errors: JSONValue, in document: JSONDocument) -> CatalogReadError {
        var elements = errors.elements?.makeIterator()
        guard let first = elements?.next(), first.members != nil else {
            return document.error("App Store Connect returned an error response", at: errors)
        }
        var message = "App Store Connect returned an error response"
        if let title = first["title"]?.string { message += ": \(quotedForMessage(title, limit: 300))" }
        var details: [String] = []
        if let status = first["status"]?.string ?? first["status"]?.numberText { details.append("status \(status)") }
        if let code = first["code"]?.string { details.append(code) }
        if !details.isEmpty { message += " (\(details.joined(separator: ", ")))" }
        if let detail = first["detail"]?.string { message += " — \(quotedForMessage(detail, limit: 300))" }
        if let count = errors.elements?.count, count > 1 { message += " and \(count - 1) more error(s)" }
        return document.error(message, at: first)
    }

    /// Whether a relationship's `data` of `count` items is the whole list: no `meta.paging.total` above it.
    private static func isWholeList(_ relationship: JSONValue, count: Int) -> Bool {
        guard let total = relationship["meta"]?["paging"]?["total"]?.int else { return true }
        return total <= count
    }

    /// `(parentType, parentId)` and the relationship from `links.self` when it has the form
    /// `/v{n}/{parentType}/{parentId}/{relationship}` (or `…/relationships/{relationship}`).
    private func selfLinkParent(_ value: JSONValue, document: JSONDocument, prefix: String)
        throws(CatalogReadError) -> (type: String, id: String, relationship: String)?
    {
        guard let links = value["links"], !links.isNull else { return nil }
        guard links.members != nil else {
            throw document.error("\(prefix)links: expected an object, found \(describeForMessage(links))", at: links)
        }
        guard let selfLink = links["self"], !selfLink.isNull else { return nil }
        guard let text = selfLink.string else {
            throw document.error("\(prefix)links.self: expected a string, found \(describeForMessage(selfLink))", at: selfLink)
        }
        return Self.parent(ofPath: text)
    }

    /// `(parentType, parentId)` and the relationship of a URL or path of the form
    /// `/v{n}/{parentType}/{parentId}/{relationship}` (or `…/relationships/{relationship}`), query ignored.
    static func parent(ofPath text: String) -> (type: String, id: String, relationship: String)? {
        // Read once per document (40,000 times for 10,000 purchases): the separators are found in the UTF-8 view,
        // and only a segment with a `%` goes through Foundation's percent decoding.
        var path = Substring(text)
        if let scheme = ByteSearch.firstOffset(of: "://", in: text) {
            // After a scheme's `://`: the path starts at the authority's end.
            let afterScheme = path.utf8[path.utf8.index(path.utf8.startIndex, offsetBy: scheme + 3)...]
            path = Substring(afterScheme[(afterScheme.firstIndex(of: UInt8(ascii: "/")) ?? afterScheme.endIndex)...])
        }
        if let end = path.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            path = path[..<end]
        }
        let segments = path.utf8.split(separator: UInt8(ascii: "/")).map { bytes in
            let segment = String(Substring(bytes))
            return bytes.contains(UInt8(ascii: "%")) ? segment.removingPercentEncoding ?? segment : segment
        }
        guard segments.count >= 4, let version = segments.first, version.count > 1, version.hasPrefix("v"),
              version.dropFirst().allSatisfy(\.isNumber) else { return nil }
        if segments.count == 4 { return (segments[1], segments[2], segments[3]) }
        if segments.count == 5, segments[3] == "relationships" { return (segments[1], segments[2], segments[4]) }
        return nil
    }

    /// Pools one resource object (at tape index `index`), the attributes the builder reads and its relationship
    /// links; returns its node. Read by tape index: a `JSONValue` (a reference count each) is made only for a
    /// message.
    private mutating func addResource(at index: Int, in document: JSONDocument,
                                      path: @autoclosure () -> String) throws(CatalogReadError) -> NodeID
    {
        let current = try node(at: index, in: document, path: path())
        if isRepeat(at: index, of: current, in: document) { return current }
        define(current, at: document.offset(at: index))
        let (attributes, relationships) = document.members("attributes", "relationships", of: index)
        if let attributes, document.kind(at: attributes) != .null {
            guard document.kind(at: attributes) == .object else {
                let found = document.value(at: attributes)
                throw document.error("\(path()).attributes: expected an object, found \(describeForMessage(found))",
                                     at: found)
            }
            addAttributes(ofObjectAt: attributes, in: document, to: current)
        }
        if let relationships, document.kind(at: relationships) != .null {
            guard document.kind(at: relationships) == .object else {
                let found = document.value(at: relationships)
                throw document.error("\(path()).relationships: expected an object, found \(describeForMessage(found))",
                                     at: found)
            }
            var key = relationships + 1
            while key < document.end(ofContainerAt: relationships) {
                try addRelationship(keyAt: key, of: current, in: document, path: path())
                key = document.next(after: key + 1)
            }
        }
        return current
    }

    /// Pools one member of a resource's `relationships` (its key at tape index `key`): what it states and the
    /// links of its `data`.
    private mutating func addRelationship(keyAt key: Int, of current: NodeID, in document: JSONDocument,
                                          path: @autoclosure () -> String) throws(CatalogReadError) {
        let object = key + 1
        func memberPath() -> String {
            "\(path()).relationships.\(document.withKeyBytes(at: key) { String(decoding: $0, as: UTF8.self) })"
        }
        guard document.kind(at: object) == .object else {
            let found = document.value(at: object)
            throw document.error("\(memberPath()): expected an object, found \(describeForMessage(found))", at: found)
        }
        guard let data = document.member("data", of: object) else { return }
        let relationship = document.withKeyBytes(at: key) { self.relationship(utf8: $0) }
        stateIntroductoryOffers(current, relationship: relationship)
        stateOffers(relationship: relationship)
        if let elements = document.value(at: data).elements {
            var count = 0
            for element in elements.indices {
                link(current, relationship, try node(at: element.position, in: document,
                                                     path: "\(memberPath()).data[\(count)]"))
                count += 1
            }
            // `include=availableTerritories` lists at most `limit[availableTerritories]` (50) of them; only a
            // list as long as its `meta.paging.total` is the whole of them.
            if Self.isWholeList(document.value(at: object), count: count) {
                stateAvailableTerritories(current, relationship: relationship)
            }
            return
        }
        switch document.kind(at: data) {
        case .null:
            break  // Stated empty.
        case .object:
            link(current, relationship, try node(at: data, in: document, path: "\(memberPath()).data"))
        default:
            let found = document.value(at: data)
            throw document.error(
                "\(memberPath()).data: expected an object, an array or null, found \(describeForMessage(found))",
                at: found)
        }
    }

    /// The node of a resource object or resource identifier (at tape index `index`), by its `(type, id)` read as
    /// bytes (no `String`).
    private mutating func node(at index: Int, in document: JSONDocument, path: @autoclosure () -> String)
        throws(CatalogReadError) -> NodeID
    {
        guard document.kind(at: index) == .object else {
            let found = document.value(at: index)
            throw document.error("\(path()): expected a resource object, found \(describeForMessage(found))", at: found)
        }
        let (typeIndex, idIndex) = document.members("type", "id", of: index)
        guard let type = typeIndex.flatMap({
            document.withStringBytes(ofStringAt: $0) { $0.isEmpty ? nil : self.type(utf8: $0) } ?? nil
        }) else {
            throw document.error("\(path()): a resource needs a \"type\" string",
                                 at: document.value(at: typeIndex ?? index))
        }
        guard let node = idIndex.flatMap({
            document.withStringBytes(ofStringAt: $0) { $0.isEmpty ? nil : self.node(type: type, id: $0) } ?? nil
        }) else {
            throw document.error("\(path()): a resource needs an \"id\" string",
                                 at: document.value(at: idIndex ?? index))
        }
        return node
    }
}

extension ASCResourcePool {
    /// The resource types that mark an input as App Store Connect's: the catalog's own, and `apps`, the parent a
    /// list of an app's groups or in-app purchases names in its `links.self` (even when the list is empty).
    private static let markingTypes = [
        "apps", "subscriptionGroups", "subscriptions", "subscriptionPrices", "subscriptionPricePoints",
        "subscriptionIntroductoryOffers", "inAppPurchases", "inAppPurchasePriceSchedules", "inAppPurchasePrices",
        "inAppPurchasePricePoints",
    ]

    /// Refuses an input none of whose resources or `links.self` parents is of an App Store Connect catalog type
    /// (DESIGN.md §2): `{"data": []}` alone, or another API's JSON:API document, must not read as an empty catalog.
    func requireMarks(path: String) throws(CatalogReadError) {
        guard !Self.markingTypes.contains(where: { type($0) != nil }) else { return }
        let found = types.names.isEmpty ? "no resource at all"
            : "types found: " + types.names.sorted().prefix(8).map { quotedForMessage($0, limit: 40) }
                .joined(separator: ", ") + (types.names.count > 8 ? " and \(types.names.count - 8) more" : "")
        throw CatalogReadError(
            "not an App Store Connect catalog: no resource or links.self of subscriptionGroups, subscriptions, "
                + "inAppPurchases, their prices or apps (\(found))", at: SourceLocation(path: path))
    }
}
