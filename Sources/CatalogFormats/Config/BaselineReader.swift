import CatalogCore
import Foundation

/// Reads a baseline file (`--baseline FILE`, DESIGN.md §5): JSON `{"version": 1, "findings": [{"rule",
/// "productId", "field", "territory", "store", "expected", "actual"}]}` as `BaselineWriter` writes it, into a
/// `Baseline`.
///
/// Strict, like the config: invalid JSON, duplicate or unknown keys, an unknown rule (with a "did you mean"),
/// field, territory or store are `CatalogReadError`s naming file:line:column, the key path and the value; one
/// error lists them all, the first of each entry (DESIGN.md §5a.1). In an entry, `rule` and `field` are
/// required; `productId`, `territory` and `store` may be null or left out (both mean none). `expected` and
/// `actual` come together (each a string or null): an entry with both matches only a finding with those values;
/// one with neither (a file from before values were recorded) matches on identity alone. Entries that repeat
/// are kept once.

public struct BaselineReader: Sendable {
    /// Creates a reader.
    public init() {}

    /// The message for a `--baseline` file that does not exist (the CLI exits 2 with it).
    public static func missingFileMessage(displayPath: String) -> String {
        "no baseline at \(displayPath); create it with --update-baseline"
    }

    /// Reads a baseline file. A missing file is an error saying how to create one
    /// (`missingFileMessage`); use `readIfPresent` to tell a missing file apart.
    public func read(contentsOf url: URL, displayPath: String) throws(CatalogReadError) -> Baseline {
        guard let baseline = try readIfPresent(contentsOf: url, displayPath: displayPath) else {
            throw CatalogReadError(BaselineReader.missingFileMessage(displayPath: displayPath),
                                   at: SourceLocation(path: displayPath))
        }
        return baseline
    }

    /// Reads a baseline file, or returns nil when nothing exists at `url` (so `--update-baseline` can create
    /// it). A folder or an unreadable file is an error.
    public func readIfPresent(contentsOf url: URL, displayPath: String) throws(CatalogReadError) -> Baseline? {
        guard FileLoading.exists(url) else { return nil }
        let data = try FileLoading.fileData(at: url, displayPath: displayPath,
                                            oneFile: "the baseline is one JSON file")
        return try read(data: data, displayPath: displayPath)
    }

    /// Reads a baseline from its bytes (always JSON, whatever the file is called).
    public func read(data file: Data, displayPath: String) throws(CatalogReadError) -> Baseline {
        let data = try TextEncoding.utf8(file, path: displayPath)
        guard !ConfigNode.isBlank(data) else {
            throw CatalogReadError("the file is empty; a baseline is the JSON that --update-baseline writes",
                                   at: SourceLocation(path: displayPath, line: 1, column: 1))
        }
        let root = try ConfigNode.parseJSON(data, path: displayPath)
        return try BaselineValidator(path: displayPath).baseline(from: root)
    }
}

/// Checks a parsed baseline and builds the `Baseline`: every problem is reported, the first of each entry.
private struct BaselineValidator: ConfigNodeReading {
    let path: String
    let problems = ConfigProblems()

    static let rootKeys = ["version", "findings"]
    static let entryKeys = ["rule", "productId", "field", "territory", "store", "expected", "actual"]

    func baseline(from root: ConfigNode) throws(CatalogReadError) -> Baseline {
        let entries = try documentRoot(root, document: "the baseline", needs: "\"version\" and \"findings\"",
                                       keys: BaselineValidator.rootKeys, shape: "an object").entries
        let rootPath = ConfigPath()
        checkKeys(entries, allowed: BaselineValidator.rootKeys, path: rootPath)
        let findingsPath = rootPath.appending(key: "findings")
        let findings = entries.first(where: { $0.key == "findings" })
        if findings == nil, !misspells("findings", in: entries, allowed: BaselineValidator.rootKeys) {
            problems.add(CatalogReadError(
                "findings: missing; list the recorded findings under \"findings\" (it may be empty: [])",
                at: root.location))
        }
        if let findings, findings.value.elements == nil {
            problems.add(CatalogReadError("\(findingsPath): \(findings.value.quoted) is not a list of findings",
                                          at: findings.value.location))
        }
        let elements = findings?.value.elements ?? []
        var recorded: [BaselineEntry] = []
        recorded.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let read = problems.recording { () throws(CatalogReadError) in
                try entry(element, path: findingsPath.appending(index: index))
            }
            if let read { recorded.append(read) }
        }
        try problems.throwIfAny()
        return Baseline(path: path, entries: recorded)
    }

    private func entry(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> BaselineEntry {
        let fields = try mapping(node, path: path, allowed: BaselineValidator.entryKeys)
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }
        /// An optional member: null and absent both mean none.
        func optional(_ key: String) -> ConfigEntry? { field(key).flatMap { $0.value.isNull ? nil : $0 } }
        guard let ruleEntry = field("rule") else {
            throw CatalogReadError("\(path): missing \"rule\"", at: node.location)
        }
        let rulePath = path.appending(key: "rule")
        let rule = try rule(try string(ruleEntry.value, path: rulePath), at: ruleEntry.value.location, path: rulePath)
        guard let fieldEntry = field("field") else {
            throw CatalogReadError("\(path): missing \"field\" (\(rule.field.rawValue) for \(rule.rawValue))",
                                   at: node.location)
        }
        let fieldPath = path.appending(key: "field")
        let fieldText = try string(fieldEntry.value, path: fieldPath)
        guard let productField = ProductField(rawValue: fieldText) else {
            throw CatalogReadError(
                "\(fieldPath): \(ConfigScalar.quote(fieldText)) is not a field ("
                    + ProductField.allCases.map(\.rawValue).joined(separator: ", ") + ")",
                at: fieldEntry.value.location)
        }
        var productID: String?
        if let entry = optional("productId") {
            let entryPath = path.appending(key: "productId")
            let id = try string(entry.value, path: entryPath)
            guard !id.isEmpty else {
                throw CatalogReadError("\(entryPath): must not be empty (null for a finding without a product)",
                                       at: entry.value.location)
            }
            productID = id
        }
        var territory: Territory?
        if let entry = optional("territory") {
            let entryPath = path.appending(key: "territory")
            territory = try self.territory(try string(entry.value, path: entryPath), at: entry.value.location,
                                           path: entryPath)
        }
        var store: StoreKind?
        if let entry = optional("store") {
            let entryPath = path.appending(key: "store")
            store = try self.store(try string(entry.value, path: entryPath), at: entry.value.location, path: entryPath)
        }
        let identity = FindingIdentity(rule: rule, productID: productID, field: productField, territory: territory,
                                       store: store)
        /// A recorded value: a string, or null for none.
        func value(_ entry: ConfigEntry) throws(CatalogReadError) -> String? {
            entry.value.isNull ? nil : try string(entry.value, path: path.appending(key: entry.key))
        }
        switch (field("expected"), field("actual")) {
        case (nil, nil):
            return BaselineEntry(identity)
        case let (expected?, actual?):
            return BaselineEntry(identity, values: BaselineEntry.Values(expected: try value(expected),
                                                                        actual: try value(actual)))
        case let (present?, nil), let (nil, present?):
            let missing = present.key == "expected" ? "actual" : "expected"
            throw CatalogReadError(
                "\(path): \"\(present.key)\" without \"\(missing)\"; give both (null where the finding has none), "
                    + "or neither to match the finding whatever its values", at: node.location)
        }
    }
}
