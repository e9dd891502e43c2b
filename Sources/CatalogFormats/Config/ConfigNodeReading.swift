import CatalogCore

/// Typed values out of a `ConfigNode` tree, in the config's error style: the key path, the offending value
/// quoted, the node's file:line:column, and a "did you mean" for near misses. The product config, the rules
/// file and the baseline are validated with these, so the three read and fail alike.
///
/// A reader throws the problem with the value it reads; where several values are checked (the keys of a mapping,
/// the elements of a list) each problem is recorded in `problems` and the next value is checked.
protocol ConfigNodeReading {
    /// The path shown in locations.
    var path: String { get }
    /// Where problems are recorded (DESIGN.md §5a.1: every problem is reported).
    var problems: ConfigProblems { get }
}

extension ConfigNodeReading {
    /// The checks every document starts with: it has content, its root is a mapping, and it says `version: 1`.
    /// `document` names the file in messages (`the config`), `needs` what the least valid file holds, `keys` the
    /// root keys to name when the root is not a mapping, `shape` what the root must be. What it throws is the
    /// only problem worth reporting (nothing else can be judged); a missing `version` is recorded.
    func documentRoot(
        _ root: ConfigNode?, document: String, needs: String, keys: [String], shape: String = "a mapping"
    ) throws(CatalogReadError) -> (root: ConfigNode, entries: [ConfigEntry]) {
        guard let root else {
            throw CatalogReadError("\(document) is empty; it needs at least \(needs)",
                                   at: SourceLocation(path: path, line: 1, column: 1))
        }
        guard let entries = root.entries else {
            let names = keys.count > 1 ? keys.dropLast().joined(separator: ", ") + " and " + (keys.last ?? "")
                : keys.joined()
            throw CatalogReadError("\(document) must be \(shape) with the keys \(names), not \(root.quoted)",
                                   at: root.location)
        }
        try checkVersion(entries, root: root, document: document)
        return (root, entries)
    }

    /// Checks the root's `version: 1` before anything else: a newer file with newer keys should say so, not
    /// complain about a key, so an unsupported version is thrown alone. A missing one is recorded: the rest is
    /// read as version 1. `document` names the file in messages (`the config`).
    func checkVersion(_ entries: [ConfigEntry], root: ConfigNode, document: String) throws(CatalogReadError) {
        guard let version = entries.first(where: { $0.key == "version" }) else {
            if misspells("version", in: entries, allowed: ["version"]) { return }
            problems.add(CatalogReadError("version: missing; \(document) must start with \"version: 1\"",
                                          at: root.location))
            return
        }
        guard version.value.scalar?.int == 1 else {
            if version.value.scalar?.kind == .string, version.value.scalar?.text == "1" {
                throw CatalogReadError("version: \"1\" is a string; write the number: version: 1",
                                       at: version.value.location)
            }
            throw CatalogReadError(
                "version: \(version.value.quoted) is not supported; this is schema version 1 (write \"version: 1\")",
                at: version.value.location)
        }
    }

    /// The entries of a mapping whose keys must all be in `allowed` (an unknown key is recorded; its entry is
    /// returned with the others, for the caller to pass over).
    func mapping(_ node: ConfigNode, path: ConfigPath, allowed: [String]) throws(CatalogReadError) -> [ConfigEntry] {
        guard let entries = node.entries else {
            throw CatalogReadError("\(path.orRoot): \(node.quoted) is not a mapping (keys: "
                                   + allowed.joined(separator: ", ") + ")", at: node.location)
        }
        checkKeys(entries, allowed: allowed, path: path)
        return entries
    }

    /// Records every key that is not in `allowed` (`unknownKeys`).
    func checkKeys(_ entries: [ConfigEntry], allowed: [String], path: ConfigPath) {
        for problem in unknownKeys(entries, allowed: allowed, path: path) {
            problems.add(problem)
        }
    }

    /// A problem for every key that is not in `allowed`, suggesting the nearest allowed one or listing them all.
    func unknownKeys(_ entries: [ConfigEntry], allowed: [String], path: ConfigPath) -> [CatalogReadError] {
        entries.filter { !allowed.contains($0.key) }.map { entry in
            var message = "\(path.appending(key: entry.key)): unknown key"
            if let suggestion = nearest(entry.key, in: allowed) {
                message += "; did you mean \"\(suggestion)\"?"
            } else {
                message += " (allowed: \(allowed.joined(separator: ", ")))"
            }
            return CatalogReadError(message, at: entry.keyLocation)
        }
    }

    /// Whether an entry's key is not in `allowed` and looks like a misspelling of `key` (`checkKeys` suggested it):
    /// then `key` is not reported missing as well.
    func misspells(_ key: String, in entries: [ConfigEntry], allowed: [String]) -> Bool {
        entries.contains { !allowed.contains($0.key) && nearest($0.key, in: allowed) == key }
    }

    /// A string: any YAML scalar but null, or a JSON string.
    func string(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> String {
        guard let text = node.scalar?.string else {
            let found = node.isNull ? "has no value" : "\(node.quoted) is not a string"
            throw CatalogReadError("\(path): \(found)", at: node.location)
        }
        return text
    }

    /// `true` or `false` (never `yes`, `on` or a quoted string).
    func bool(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> Bool {
        guard let flag = node.scalar?.bool else {
            throw CatalogReadError("\(path): \(node.quoted) is not true or false", at: node.location)
        }
        return flag
    }

    /// A day written `YYYY-MM-DD` (a YAML plain date keeps its text; a timestamp is not a day).
    func date(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> CalendarDate {
        guard let text = node.scalar?.string, text.utf8.count == 10, let date = CalendarDate(iso: text) else {
            throw CatalogReadError("\(path): \(node.quoted) is not a date (YYYY-MM-DD, e.g. 2026-12-31)",
                                   at: node.location)
        }
        return date
    }

    /// An ISO 3166-1 alpha-2 or alpha-3 code, upper case.
    func territory(_ code: String, at location: @autoclosure () -> SourceLocation,
                   path: @autoclosure () -> ConfigPath) throws(CatalogReadError) -> Territory {
        if let territory = Territory(code: code) { return territory }
        var message = "\(path()): \(ConfigScalar.quote(code)) is not an ISO 3166-1 territory code"
        if Territory(code: code.uppercased()) != nil { message += " (codes are upper case: \(code.uppercased()))" }
        throw CatalogReadError(message, at: location())
    }

    /// A store: `appstore` or `play`.
    func store(_ text: String, at location: SourceLocation, path: ConfigPath) throws(CatalogReadError) -> StoreKind {
        guard let store = StoreKind(rawValue: text) else {
            throw CatalogReadError("\(path): \(ConfigScalar.quote(text)) is not a store (appstore, play)", at: location)
        }
        return store
    }

    /// A rule ID (DESIGN.md §5), with a "did you mean" for a misspelled one.
    func rule(_ text: String, at location: SourceLocation, path: ConfigPath) throws(CatalogReadError) -> Rule {
        if let rule = Rule(rawValue: text) { return rule }
        var message = "\(path): \(ConfigScalar.quote(text)) is not a rule"
        if let suggestion = nearest(text, in: Rule.allCases.map(\.rawValue)) {
            message += "; did you mean \"\(suggestion)\"?"
        } else {
            message += " (`catalogcheck rules` lists them)"
        }
        throw CatalogReadError(message, at: location)
    }

    /// A non-empty list of strings without repeats (`[appstore, play]`, `[US, GB]`), each turned into a value by
    /// `convert`, in list order. `singular` and `plural` name an element in messages; `example` shows a list.
    /// A bad element is recorded and left out.
    func uniqueList<Value: Hashable>(
        _ node: ConfigNode, path: ConfigPath, of singular: String, _ plural: String, example: String,
        convert: (String, ConfigNode, ConfigPath) throws(CatalogReadError) -> Value
    ) throws(CatalogReadError) -> [Value] {
        guard let elements = node.elements else {
            throw CatalogReadError("\(path): \(node.quoted) is not a list of \(plural) (e.g. \(example))",
                                   at: node.location)
        }
        guard !elements.isEmpty else {
            throw CatalogReadError("\(path): lists no \(singular) (e.g. \(example))", at: node.location)
        }
        var values: [Value] = []
        var spellings: [Value: String] = [:]
        for (index, element) in elements.enumerated() {
            let elementPath = path.appending(index: index)
            guard case let (text, value)? = problems.recording({ () throws(CatalogReadError) -> (String, Value) in
                let text = try string(element, path: elementPath)
                return (text, try convert(text, element, elementPath))
            }) else { continue }
            if let earlier = spellings[value] {
                let also = earlier == text ? "" : " (also as \(ConfigScalar.quote(earlier)))"
                problems.add(CatalogReadError("\(elementPath): \(ConfigScalar.quote(text)) is listed twice\(also)",
                                              at: element.location))
                continue
            }
            spellings[value] = text
            values.append(value)
        }
        return values
    }

    /// The allowed key (or rule ID) nearest to a misspelled one (edit distance ≤ 2, case-insensitive), if any.
    func nearest(_ key: String, in allowed: [String]) -> String? {
        guard key.count <= 40 else { return nil }
        return NearMatch.best(for: key, among: allowed)
    }
}
