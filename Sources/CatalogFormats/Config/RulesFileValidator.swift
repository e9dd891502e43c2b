import CatalogCore

/// Checks a parsed rules file (`.catalogcheck.yml`, YAML or JSON, as a `ConfigNode` tree) against schema version 1
/// (DESIGN.md §5) and builds the `RuleConfiguration`. Every problem is reported, each naming file:line:column, the
/// key path and the offending value, as the config's validator does.
struct RulesFileValidator: ConfigNodeReading {
    /// The path shown in locations.
    let path: String
    /// Every problem found.
    let problems = ConfigProblems()

    static let rootKeys = ["$schema", "version", "rules", "territories", "ignore"]
    static let ignoreKeys = ["rule", "product", "territories", "store", "reason", "until"]
    private static let settings = "error, warning, note or off"
    private static let territoryExample = "[US, GB, DE]"

    /// Builds the configuration; `root` is nil for a document without content.
    func configuration(from root: ConfigNode?) throws(CatalogReadError) -> RuleConfiguration {
        let entries = try documentRoot(root, document: "the rules file", needs: "\"version: 1\"",
                                       keys: ["version", "rules", "territories", "ignore"]).entries
        let rootPath = ConfigPath()
        checkKeys(entries, allowed: RulesFileValidator.rootKeys, path: rootPath)

        var configuration = RuleConfiguration(path: path)
        for entry in entries {
            let entryPath = rootPath.appending(key: entry.key)
            do throws(CatalogReadError) {
                switch entry.key {
                case "$schema":
                    _ = try string(entry.value, path: entryPath)
                case "rules":
                    configuration.severities = try severities(entry.value, path: entryPath)
                case "territories":
                    if !entry.value.isNull {
                        configuration.territories = Set(try territories(entry.value, path: entryPath))
                    }
                case "ignore":
                    configuration.ignores = try ignores(entry.value, path: entryPath)
                default:
                    break
                }
            } catch {
                problems.add(error)
            }
        }
        try problems.throwIfAny()
        return configuration
    }

    // MARK: - Sections

    private func severities(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [Rule: RuleSetting] {
        if node.isNull { return [:] }
        guard let entries = node.entries else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a mapping of rule IDs to settings (\(RulesFileValidator.settings))",
                at: node.location)
        }
        var result: [Rule: RuleSetting] = [:]
        for entry in entries {
            let entryPath = path.appending(key: entry.key)
            let known = problems.recording { () throws(CatalogReadError) in
                try rule(entry.key, at: entry.keyLocation, path: entryPath)
            }
            guard let text = entry.value.scalar?.string, let setting = RuleSetting(rawValue: text) else {
                problems.add(CatalogReadError(
                    "\(entryPath): \(entry.value.quoted) is not a setting (\(RulesFileValidator.settings))",
                    at: entry.value.location))
                continue
            }
            if let known { result[known] = setting }
        }
        return result
    }

    private func territories(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [Territory] {
        try uniqueList(node, path: path, of: "territory", "territories", example: RulesFileValidator.territoryExample) {
            text, element, elementPath throws(CatalogReadError) in
            try territory(text, at: element.location, path: elementPath)
        }
    }

    private func ignores(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [IgnoreEntry] {
        if node.isNull { return [] }
        guard let elements = node.elements else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a list of ignore entries (each a mapping with at least rule and "
                    + "reason)",
                at: node.location)
        }
        var result: [IgnoreEntry] = []
        for (index, element) in elements.enumerated() {
            let recorded = problems.recording { () throws(CatalogReadError) in
                try ignore(element, path: path.appending(index: index))
            }
            if let recorded, let entry = recorded { result.append(entry) }
        }
        return result
    }

    /// One `ignore:` entry; its location is where its mapping starts. The problem of each field is recorded; nil
    /// when `rule` or `reason` is missing or wrong.
    private func ignore(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> IgnoreEntry? {
        let fields = try mapping(node, path: path, allowed: RulesFileValidator.ignoreKeys)
        var rule: Rule?
        var productPattern: String?
        var territories: Set<Territory>?
        var store: StoreKind?
        var reason: String?
        var until: CalendarDate?
        for field in fields {
            let fieldPath = path.appending(key: field.key)
            let value = field.value
            do throws(CatalogReadError) {
                switch field.key {
                case "rule":
                    rule = try ignoredRule(value, path: fieldPath)
                case "product":
                    let pattern = try string(value, path: fieldPath)
                    guard !pattern.isEmpty else {
                        throw CatalogReadError(
                            "\(fieldPath): must not be empty (leave it out to match every product)", at: value.location)
                    }
                    productPattern = pattern
                case "territories":
                    territories = Set(try self.territories(value, path: fieldPath))
                case "store":
                    store = try self.store(try string(value, path: fieldPath), at: value.location, path: fieldPath)
                case "reason":
                    let text = try string(value, path: fieldPath)
                    guard text.contains(where: { !$0.isWhitespace }) else {
                        throw CatalogReadError("\(fieldPath): must not be empty; say why the drift is accepted",
                                               at: value.location)
                    }
                    reason = text
                case "until":
                    until = try date(value, path: fieldPath)
                default:
                    break
                }
            } catch {
                problems.add(error)
            }
        }
        // A field with a problem or a misspelled key is not missing as well: it is reported once, where it is.
        let keys = RulesFileValidator.ignoreKeys
        if rule == nil, !fields.contains(where: { $0.key == "rule" }), !misspells("rule", in: fields, allowed: keys) {
            problems.add(CatalogReadError("\(path): missing \"rule\" (the rule whose findings it ignores)",
                                          at: node.location))
        }
        if reason == nil, !fields.contains(where: { $0.key == "reason" }),
           !misspells("reason", in: fields, allowed: keys) {
            problems.add(CatalogReadError(
                "\(path): missing \"reason\" (why the drift is accepted, e.g. a ticket: an ignore without a reason "
                    + "outlives everyone who knew it)",
                at: node.location))
        }
        guard let rule, let reason else { return nil }
        return IgnoreEntry(rule: rule, productPattern: productPattern, territories: territories, store: store,
                           reason: reason, until: until, location: node.location)
    }

    // MARK: - Values

    /// The rule of an ignore entry: one whose findings an entry can suppress.
    private func ignoredRule(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> Rule {
        let rule = try rule(try string(node, path: path), at: node.location, path: path)
        guard rule.isSuppressible else {
            throw CatalogReadError(
                "\(path): \(rule.rawValue) judges the rules file itself and cannot be ignored; set it to off under "
                    + "\"rules:\" instead",
                at: node.location)
        }
        return rule
    }
}
