import CatalogCore
import CYAML
import Foundation

extension ConfigNode {
    /// Parses a YAML config into a tree, straight from libyaml's events (`YAMLEventStream`). Scalars are never
    /// resolved: keys are their source text (`NO` is Norway, `1234` is the product "1234") and values keep their
    /// text and whether they were quoted, so the validator applies the YAML 1.2 core rules it needs itself.
    ///
    /// `data` is UTF-8 from `TextEncoding.utf8`. Returns nil for a stream without a document (empty, or only
    /// comments). YAML syntax errors, several documents, duplicate keys, non-scalar keys, tags and alias bombs
    /// are errors with line and column; a syntax error or a second document is reported together with a tag, a
    /// key that is not a string or an alias bomb earlier in the file.
    ///
    /// With a `products` sink, the entries of the root's `products` mapping go to the sink as they finish (unless
    /// the mapping has an anchor: an alias must find it whole).
    static func parseYAML(_ data: Data, path: String,
                          products: ConfigProductSink? = nil) throws(CatalogReadError) -> ConfigNode? {
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(CatalogReadError) -> ConfigNode? in
                var builder = YAMLConfigBuilder(events: YAMLEventStream(bytes: bytes, of: data, path: path),
                                                source: ConfigSource(path: path), products: products,
                                                budget: YAMLConfigBuilder.nodeBudget(forByteCount: data.count))
                return try builder.document()
            }
        }
        return try result.get()
    }
}

/// Builds `ConfigNode`s from YAML events with an explicit stack (no recursion, so nesting cannot overflow the
/// call stack). An alias is the anchored node again, counted against a node budget so that aliases cannot
/// expand a small file into billions of nodes.
private struct YAMLConfigBuilder {
    /// A mapping or sequence being read.
    private struct Frame {
        var isMapping: Bool
        var mark: ConfigMark
        var anchor: String?
        /// Nodes in this subtree so far (itself included), what an alias to it costs.
        var count = 1
        var entries: [ConfigEntry] = []
        var elements: [ConfigNode] = []
        /// The key whose value is being read (mappings).
        var key: String?
        var keyMark: ConfigMark?
        /// Entry index by key, built once a mapping is too long to search its entries (`HashSlots` over the keys'
        /// bytes: a dictionary of `String`s hashed each key with SipHash, a tenth of a big config's reading).
        var index: HashSlots?
        /// Whether the entries go to the products sink (the frame keeps them emptied).
        var streams = false
        /// Whether the value being read belongs to a repeated key: read (so the rest of the file is judged too)
        /// and dropped, so that keys stay unique.
        var dropsValue = false
    }

    /// Why building stops: `now` for what any YAML composer refuses (a repeated key, an alias to no anchor),
    /// `later` for what the config does not allow, reported after the rest of the stream is read (with a syntax error
    /// found there).
    private enum Stop: Error {
        case now(CatalogReadError)
        case later(CatalogReadError)
    }

    /// A node and how many nodes it stands for.
    private struct Anchored {
        var node: ConfigNode
        var count: Int
    }

    /// How many nodes a document of `byteCount` bytes may expand to through aliases.
    static func nodeBudget(forByteCount byteCount: Int) -> Int {
        100_000 + byteCount.multipliedReportingOverflow(by: 16).partialValue
    }

    /// Mappings up to this many entries are searched for a repeated key; longer ones keep an index.
    private static let linearKeySearchLimit = 12

    let events: YAMLEventStream
    /// The path and the reading of marks that every node shares.
    let source: ConfigSource
    /// Where the root's `products` entries go, if anywhere.
    let products: ConfigProductSink?
    private var budget: Int
    private var stack: [Frame] = []
    private var anchors: [String: Anchored] = [:]
    private var root: ConfigNode?
    /// The first `CatalogReadError.listLimit` repeated keys, in file order, and how many more there were
    /// (DESIGN.md §5a.1: every problem reported, not only the first).
    private var repeatedKeys: [CatalogReadError] = []
    private var moreRepeatedKeys = 0

    init(events: YAMLEventStream, source: ConfigSource, products: ConfigProductSink?, budget: Int) {
        self.events = events
        self.source = source
        self.products = products
        self.budget = budget
    }

    /// Reads the stream: nil without a document, else its one document's root.
    ///
    /// An alias to no anchor is an error at once, as in any YAML composer. A repeated key is an error too, but
    /// every one is reported: its value is read and dropped, and the reading goes on. An error in what the config
    /// allows (a tag, a key that is not a string, an alias bomb) stops the building, but the rest of the stream is
    /// still read, so that a syntax error or a second document is reported with it.
    mutating func document() throws(CatalogReadError) -> ConfigNode? {
        _ = try events.next()  // stream start
        let first = try events.next()
        guard first.pointee.type == YAML_DOCUMENT_START_EVENT else { return nil }
        var problem: CatalogReadError?
        do throws(CatalogReadError) {
            while true {
                let event = try events.next()
                // libyaml ends every document before the stream; the stream's end is checked too, so that no input
                // can keep this loop going.
                let type = event.pointee.type
                if type == YAML_DOCUMENT_END_EVENT || type == YAML_STREAM_END_EVENT || type == YAML_NO_EVENT { break }
                guard problem == nil else { continue }
                do {
                    try take(event)
                } catch {
                    switch error {
                    case .now(let error): throw error
                    case .later(let error): problem = error
                    }
                }
            }
            let after = try events.next()
            if after.pointee.type == YAML_DOCUMENT_START_EVENT {
                throw CatalogReadError("invalid YAML: the file holds several documents; a config is one document",
                                       at: events.location(of: after.pointee.start_mark))
            }
        } catch {
            throw CatalogReadError(listing: repeatedKeys + (problem.map { [$0] } ?? []) + [error],
                                   unlisted: moreRepeatedKeys) ?? error
        }
        if let found = CatalogReadError(listing: repeatedKeys + (problem.map { [$0] } ?? []),
                                        unlisted: moreRepeatedKeys) {
            throw found
        }
        return root
    }

    /// Applies one event of the document.
    private mutating func take(_ event: UnsafePointer<yaml_event_t>) throws(Stop) {
        let startMark = event.pointee.start_mark
        let mark = ConfigMark(line: Int(startMark.line), column: Int(startMark.column))
        switch event.pointee.type {
        case YAML_SCALAR_EVENT:
            let data = event.pointee.data.scalar
            let text = data.value.map {
                String(decoding: UnsafeBufferPointer(start: $0, count: data.length), as: UTF8.self)
            } ?? ""
            let tag = data.tag.map { String(cString: $0) }
            let kind: ConfigScalar.Kind = tag == nil && data.style == YAML_PLAIN_SCALAR_STYLE ? .plain : .string
            let node = ConfigNode(value: .scalar(ConfigScalar(text: text, kind: kind)), source: source, mark: mark)
            if stack.last?.isMapping == true, stack.last?.key == nil {
                try takeKey(text, tag: tag, at: mark)
                if let anchor = data.anchor { anchors[String(cString: anchor)] = Anchored(node: node, count: 1) }
                return
            }
            try spend(at: mark)
            if Self.refuses(tag, allowed: YAMLConfigBuilder.stringTag) {
                throw tagError(tag, path: valuePath, at: mark)
            }
            finish(node, count: 1, anchor: data.anchor.map { String(cString: $0) })
        case YAML_SEQUENCE_START_EVENT:
            let data = event.pointee.data.sequence_start
            try start(mapping: false, tag: data.tag, allowedTag: YAMLConfigBuilder.sequenceTag,
                      anchor: data.anchor, at: mark)
        case YAML_MAPPING_START_EVENT:
            let data = event.pointee.data.mapping_start
            try start(mapping: true, tag: data.tag, allowedTag: YAMLConfigBuilder.mappingTag,
                      anchor: data.anchor, at: mark)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            let value: ConfigNode.Value = frame.isMapping ? .mapping(frame.entries.compacted())
                : .sequence(frame.elements.compacted())
            finish(ConfigNode(value: value, source: source, mark: frame.mark), count: frame.count,
                   anchor: frame.anchor)
        case YAML_ALIAS_EVENT:
            let name = event.pointee.data.alias.anchor.map { String(cString: $0) } ?? ""
            if stack.last?.isMapping == true, stack.last?.key == nil {
                throw .later(CatalogReadError("\(mappingPath.orRoot): a key must be a plain string, not an alias",
                                              at: source.location(of: mark)))
            }
            guard let anchored = anchors[name] else {
                throw .now(CatalogReadError("invalid YAML: found undefined alias", at: source.location(of: mark)))
            }
            if anchored.count > budget { try spendWithin(anchored.node, path: valuePath) }
            budget -= anchored.count
            finish(anchored.node, count: anchored.count, anchor: nil)
        default:
            return
        }
    }

    /// Opens a mapping or a sequence, or refuses it as a key.
    private mutating func start(mapping: Bool, tag: UnsafeMutablePointer<yaml_char_t>?, allowedTag: String,
                                anchor: UnsafeMutablePointer<yaml_char_t>?,
                                at mark: ConfigMark) throws(Stop) {
        if stack.last?.isMapping == true, stack.last?.key == nil {
            throw .later(CatalogReadError(
                "\(mappingPath.orRoot): a key must be a plain string, not \(mapping ? "a mapping" : "a list")",
                at: source.location(of: mark)))
        }
        try spend(at: mark)
        let tagText = tag.map { String(cString: $0) }
        if Self.refuses(tagText, allowed: allowedTag) { throw tagError(tagText, path: valuePath, at: mark) }
        var frame = Frame(isMapping: mapping, mark: mark, anchor: anchor.map { String(cString: $0) })
        if mapping, frame.anchor == nil, stack.count == 1, stack[0].isMapping, stack[0].key == "products",
           !stack[0].dropsValue, let products {
            frame.streams = products.begin(rootEntries: stack[0].entries)
        }
        stack.append(frame)
    }

    /// Takes a mapping key: a scalar, untagged or a string, not seen before in its mapping.
    private mutating func takeKey(_ text: String, tag: String?, at mark: ConfigMark) throws(Stop) {
        if Self.refuses(tag, allowed: YAMLConfigBuilder.stringTag) { throw tagError(tag, path: mappingPath, at: mark) }
        let top = stack.count - 1
        if let first = firstLocation(of: text, inFrameAt: top) {
            // Only the listed ones are worded: 200,000 repeats cost a count each, not a message.
            if repeatedKeys.count < CatalogReadError.listLimit {
                repeatedKeys.append(CatalogReadError("\(mappingPath.appending(key: text)): duplicate key (first at "
                                                     + "line \(first.line ?? 0), column \(first.column ?? 0))",
                                                     at: source.location(of: mark)))
            } else {
                moreRepeatedKeys += 1
            }
            stack[top].dropsValue = true
        }
        stack[top].key = text
        stack[top].keyMark = mark
    }

    /// Whether a node's tag is refused: any but the non-specific `!` and the node's own kind (`!!str`, `!!seq`,
    /// `!!map`). Asked before the path of a message is made (`tagError`): a path, or a closure that would make it,
    /// costs a copy of the builder, for each of a big config's nodes.
    private static func refuses(_ tag: String?, allowed: String) -> Bool {
        guard let tag else { return false }
        return tag != "!" && tag != allowed
    }

    private func tagError(_ tag: String?, path: ConfigPath, at mark: ConfigMark) -> Stop {
        .later(CatalogReadError("\(path.orRoot): YAML tags are not supported (found \"\(tag ?? "")\")",
                                at: source.location(of: mark)))
    }

    /// Where the mapping at `top` of the stack already holds `key`, or nil. (The frame is read in place: passed as
    /// a value, it was copied with its entries for each key.)
    private func firstLocation(of key: String, inFrameAt top: Int) -> SourceLocation? {
        guard let index = stack[top].index else { return stack[top].entries.first { $0.key == key }?.keyLocation }
        return index.find(hash: Self.hash(of: key)) { stack[top].entries[$0].key == key }.index
            .map { stack[top].entries[$0].keyLocation }
    }

    /// The hash of a mapping key's UTF-8 bytes.
    private static func hash(of key: String) -> Int {
        var key = key
        return key.withUTF8 { HashSlots.hash($0) }
    }

    /// Adds the key of the entry at `position` of the mapping at `top` of the stack to its index. (Keys are
    /// unique: a repeated key's entry is dropped before it is made.)
    private mutating func index(entryAt position: Int, inFrameAt top: Int) {
        let key = stack[top].entries[position].key
        let hash = Self.hash(of: key)
        guard let found = stack[top].index?.find(hash: hash, matches: { _ in false }) else { return }
        stack[top].index?.insert(position, hash: hash, at: found.slot)
    }

    /// Hands a finished node to its mapping or sequence (or makes it the root), and registers its anchor.
    private mutating func finish(_ node: ConfigNode, count: Int, anchor: String?) {
        if let anchor { anchors[anchor] = Anchored(node: node, count: count) }
        let top = stack.count - 1
        guard top >= 0 else {
            root = node
            return
        }
        stack[top].count += count
        if stack[top].isMapping, stack[top].dropsValue {
            stack[top].dropsValue = false
            stack[top].key = nil
            stack[top].keyMark = nil
        } else if stack[top].isMapping {
            var entry = ConfigEntry(key: stack[top].key ?? "", keyMark: stack[top].keyMark ?? node.mark, value: node)
            if stack[top].streams, let products, products.take(entry) {
                entry = entry.emptied
            }
            stack[top].entries.append(entry)
            if stack[top].index != nil {
                index(entryAt: stack[top].entries.count - 1, inFrameAt: top)
            } else if stack[top].entries.count > YAMLConfigBuilder.linearKeySearchLimit {
                stack[top].index = HashSlots(capacity: 64)
                for position in stack[top].entries.indices { index(entryAt: position, inFrameAt: top) }
            }
            stack[top].key = nil
            stack[top].keyMark = nil
        } else {
            stack[top].elements.append(node)
        }
    }

    /// Counts one node against the budget.
    private mutating func spend(at mark: ConfigMark) throws(Stop) {
        budget -= 1
        if budget < 0 { throw .later(tooManyValues(path: valuePath, at: source.location(of: mark))) }
    }

    /// Finds the node of an aliased tree at which the budget runs out, in document order, and throws there. The
    /// walk keeps only the open nodes and builds the key path once, at that node: it visits up to the whole
    /// budget, on every alias bomb.
    private func spendWithin(_ node: ConfigNode, path: ConfigPath) throws(Stop) {
        var remaining = budget - 1
        if remaining < 0 { throw .later(tooManyValues(path: path, at: node.location)) }
        // The open mappings and sequences, each with the position of the child visited last.
        var open: [(node: ConfigNode, position: Int)] = [(node, -1)]
        while let (current, last) = open.last {
            let position = last + 1
            let child: ConfigNode
            switch current.value {
            case .mapping(let entries) where position < entries.count: child = entries[position].value
            case .sequence(let elements) where position < elements.count: child = elements[position]
            default:
                open.removeLast()
                continue
            }
            open[open.count - 1].position = position
            remaining -= 1
            if remaining < 0 {
                var childPath = path
                for (ancestor, index) in open {
                    if let entries = ancestor.entries {
                        childPath = childPath.appending(key: entries[index].key)
                    } else {
                        childPath = childPath.appending(index: index)
                    }
                }
                throw .later(tooManyValues(path: childPath, at: child.location))
            }
            if child.scalar == nil { open.append((child, -1)) }
        }
    }

    private func tooManyValues(path: ConfigPath, at location: SourceLocation) -> CatalogReadError {
        CatalogReadError("\(path.orRoot): the document expands to too many values (are aliases nested too deeply?)",
                         at: location)
    }

    /// The key path of the node being read: each open mapping's current key, each sequence's next index.
    private var valuePath: ConfigPath { keyPath(through: stack.count) }

    /// The key path of the innermost open mapping (for what is wrong with one of its keys).
    private var mappingPath: ConfigPath { keyPath(through: stack.count - 1) }

    private func keyPath(through depth: Int) -> ConfigPath {
        var result = ConfigPath()
        for frame in stack.prefix(max(depth, 0)) {
            result = frame.isMapping ? result.appending(key: frame.key ?? "")
                : result.appending(index: frame.elements.count)
        }
        return result
    }

    private static let stringTag = "tag:yaml.org,2002:str"
    private static let sequenceTag = "tag:yaml.org,2002:seq"
    private static let mappingTag = "tag:yaml.org,2002:map"
}

private extension Array {
    /// The array in a buffer of its size, when appending left a fourth or more of it unused: the tree of a big
    /// config lives as long as its validation, and doubling growth leaves a third of it empty on average.
    func compacted() -> [Element] {
        guard capacity - count >= Swift.max(count / 4, 4) else { return self }
        var copy: [Element] = []
        copy.reserveCapacity(count)
        copy.append(contentsOf: self)
        return copy
    }
}
