import CatalogCore
import Foundation
@testable import CatalogFormats
import TestSupport
import Testing

/// Reading rules files for the tests.
enum RulesTesting {
    /// Reads `Tests/Fixtures/<relativePath>` with `displayPath` = the relative path.
    static func read(_ relativePath: String) throws -> RuleConfiguration {
        try RulesFileReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath)
    }

    /// The error reading `relativePath` throws, or nil when it reads.
    static func error(reading relativePath: String) -> CatalogReadError? {
        ConfigTesting.error { _ = try read(relativePath) }
    }

    /// The error reading `text` throws, or nil when it reads.
    static func error(readingText text: String, displayPath: String = ".catalogcheck.yml") -> CatalogReadError? {
        ConfigTesting.error { _ = try RulesFileReader().read(data: Data(text.utf8), displayPath: displayPath) }
    }

    static func day(_ text: String) throws -> CalendarDate {
        try #require(CalendarDate(iso: text))
    }

    static func territories(_ codes: String...) throws -> Set<Territory> {
        var result: Set<Territory> = []
        for code in codes { result.insert(try #require(Territory(code: code))) }
        return result
    }
}

@Suite("RulesFileReader")
struct RulesFileReaderTests {
    // MARK: - Valid files

    @Test("the full example of DESIGN.md §5 reads into every field, each ignore entry located at its mapping")
    func fullExample() throws {
        let path = "rules/valid/full.yml"
        let configuration = try RulesTesting.read(path)
        let expected = RuleConfiguration(
            path: path,
            severities: [.nameMismatch: .off, .priceMissingInConfig: .error],
            territories: try RulesTesting.territories("US", "GB", "DE"),
            ignores: [
                IgnoreEntry(rule: .priceMismatch, productPattern: "com.example.app.legacy.*",
                            territories: try RulesTesting.territories("IN", "BR"), store: .play,
                            reason: "regional price test, PRICING-123", until: try RulesTesting.day("2026-12-31"),
                            location: SourceLocation(path: path, line: 6, column: 5)),
                IgnoreEntry(rule: .nameMismatch, reason: "names are edited in the store by marketing",
                            location: SourceLocation(path: path, line: 12, column: 5)),
            ])
        #expect(configuration == expected)
    }

    @Test("the JSON form reads the same, located in the JSON")
    func jsonForm() throws {
        let yaml = try RulesTesting.read("rules/valid/full.yml")
        let json = try RulesTesting.read("rules/valid/full.json")
        #expect(json.path == "rules/valid/full.json")
        #expect(json.severities == yaml.severities)
        #expect(json.territories == yaml.territories)
        #expect(json.ignores.map(\.location) == [
            SourceLocation(path: "rules/valid/full.json", line: 7, column: 5),
            SourceLocation(path: "rules/valid/full.json", line: 15, column: 5),
        ])
        func withoutLocation(_ entries: [IgnoreEntry]) -> [IgnoreEntry] {
            entries.map { entry in
                var entry = entry
                entry.location = SourceLocation(path: "")
                return entry
            }
        }
        #expect(withoutLocation(json.ignores) == withoutLocation(yaml.ignores))
    }

    @Test("version alone, and sections without a value, change nothing", arguments: [
        "rules/valid/minimal.yml", "rules/valid/empty-sections.yml",
    ])
    func minimal(path: String) throws {
        #expect(try RulesTesting.read(path) == RuleConfiguration(path: path))
    }

    @Test("values keep their source text: off is a setting, NO is Norway, a plain date a day")
    func yaml12Scalars() throws {
        let path = "rules/valid/yaml-1-2-scalars.yml"
        let configuration = try RulesTesting.read(path)
        #expect(configuration.severities == [.familySharingMismatch: .off, .ignoreUnused: .warning,
                                             .availabilityMismatch: .note])
        #expect(configuration.territories == (try RulesTesting.territories("NO", "GB")))
        #expect(configuration.ignores == [
            IgnoreEntry(rule: .productMissingInConfig, productPattern: "1234",
                        territories: try RulesTesting.territories("NO"), store: .appStore, reason: "2024 promo",
                        until: try RulesTesting.day("2027-02-28"), location: SourceLocation(path: path, line: 9, column: 5)),
            IgnoreEntry(rule: .periodMismatch, productPattern: "com.example.?.weekly",
                        store: .appStore, reason: "P7D vs P1W in the old export",
                        location: SourceLocation(path: path, line: 15, column: 5)),
        ])
    }

    @Test("an unquoted number is a product pattern as written (the schema asks for quotes, as YAML 1.2 editors read a number)")
    func numericProduct() throws {
        let text = "version: 1\nignore: [{rule: product-missing-in-config, product: 0012, reason: old SKU}]\n"
        let configuration = try RulesFileReader().read(data: Data(text.utf8), displayPath: "r.yml")
        #expect(configuration.ignores.map(\.productPattern) == ["0012"])
    }

    @Test("every rule ID can be set, to every setting")
    func everyRuleAndSetting() throws {
        for setting in RuleSetting.allCases {
            let lines = Rule.allCases.map { "  \($0.rawValue): \(setting.rawValue)" }
            let text = "version: 1\nrules:\n" + lines.joined(separator: "\n") + "\n"
            let configuration = try RulesFileReader().read(data: Data(text.utf8), displayPath: "r.yml")
            #expect(configuration.severities.count == Rule.allCases.count)
            #expect(configuration.severities.values.allSatisfy { $0 == setting })
        }
    }

    // MARK: - Invalid files

    /// Every file in `rules/invalid/`, with the exact location and (a fragment of) the message.
    static let invalid: [ExpectedConfigError] = [
        .init("bad-date.yml", 5, 12, #"ignore[0].until: "2026-13-01" is not a date (YYYY-MM-DD, e.g. 2026-12-31)"#),
        .init("bad-setting.yml", 3, 18, #"rules.name-mismatch: "silent" is not a setting (error, warning, note or off)"#),
        .init("bad-store.yml", 4, 12, #"ignore[0].store: "google" is not a store (appstore, play)"#),
        .init("bad-territory.yml", 2, 19, #"territories[1]: "XX" is not an ISO 3166-1 territory code"#),
        .init("comments-only.yml", 1, 1, #"the rules file is empty; it needs at least "version: 1""#),
        .init("duplicate-key.yml", 5, 3, #"rules.name-mismatch: duplicate key (first at line 3, column 3)"#),
        .init("empty-reason.yml", 4, 13, #"ignore[0].reason: must not be empty; say why the drift is accepted"#),
        .init("empty.yml", 1, 1, #"the file is empty; a rules file needs at least "version: 1""#),
        .init("ignore-bad-territory.yml", 4, 23,
              #"ignore[0].territories[1]: "br" is not an ISO 3166-1 territory code (codes are upper case: BR)"#),
        .init("ignore-entry-not-a-mapping.yml", 3, 5,
              #"ignore[0]: "price-mismatch" is not a mapping (keys: rule, product, territories, store, reason, until)"#),
        .init("ignore-not-a-list.yml", 3, 3,
              "ignore: a mapping is not a list of ignore entries (each a mapping with at least rule and reason)"),
        .init("ignore-unsuppressible-rule.yml", 3, 11,
              #"ignore[0].rule: ignore-unused judges the rules file itself and cannot be ignored; set it to off under "rules:" instead"#),
        .init("missing-reason.yml", 3, 5, #"ignore[0]: missing "reason" (why the drift is accepted"#),
        .init("missing-rule.yml", 3, 5, #"ignore[0]: missing "rule" (the rule whose findings it ignores)"#),
        .init("missing-version.yml", 2, 1, #"version: missing; the rules file must start with "version: 1""#),
        .init("non-mapping-root.yml", 1, 1,
              "the rules file must be a mapping with the keys version, rules, territories and ignore, not a list"),
        .init("rules-not-a-mapping.yml", 2, 8,
              "rules: a list is not a mapping of rule IDs to settings (error, warning, note or off)"),
        .init("syntax-error.yml", 3, 1, "invalid YAML: did not find expected ',' or '}'"),
        .init("territories-string.yml", 2, 14, #"territories: "US, GB" is not a list of territories (e.g. [US, GB, DE])"#),
        .init("territory-twice.yml", 2, 23, #"territories[2]: "USA" is listed twice (also as "US")"#),
        .init("unknown-ignore-key-far.yml", 5, 5,
              "ignore[0].expires: unknown key (allowed: rule, product, territories, store, reason, until)"),
        .init("unknown-ignore-key.yml", 4, 5, #"ignore[0].reasons: unknown key; did you mean "reason"?"#),
        .init("unknown-ignore-rule.yml", 3, 11,
              #"ignore[0].rule: "price-mismach" is not a rule; did you mean "price-mismatch"?"#),
        .init("unknown-key.json", 3, 3, #"ignores: unknown key; did you mean "ignore"?"#),
        .init("unknown-root-key.yml", 2, 1, #"rule: unknown key; did you mean "rules"?"#),
        .init("unknown-rule.yml", 3, 3, #"rules.price-mismach: "price-mismach" is not a rule; did you mean "price-mismatch"?"#),
        .init("until-not-a-date.yml", 5, 12, #"ignore[0].until: "end of 2026" is not a date (YYYY-MM-DD, e.g. 2026-12-31)"#),
        .init("version-string.yml", 1, 10, #"version: "1" is a string; write the number: version: 1"#),
        .init("wrong-version.yml", 1, 10, #"version: "2" is not supported; this is schema version 1 (write "version: 1")"#),
    ]

    @Test("every invalid fixture has an expectation")
    func invalidFixturesAreCovered() {
        #expect(Fixtures.files(in: "rules/invalid") == Self.invalid.map(\.file).sorted())
    }

    @Test("invalid rules files name file, line, column, key path and value", arguments: invalid)
    func invalidRulesFile(expected: ExpectedConfigError) throws {
        let path = "rules/invalid/\(expected.file)"
        let error = try #require(RulesTesting.error(reading: path))
        #expect(error.location == SourceLocation(path: path, line: expected.line, column: expected.column))
        #expect(error.message.contains(expected.message), "\(error.message)")
        #expect(error.description.hasPrefix("\(path):\(expected.line):\(expected.column): error: "))
        #expect(error.problems.count == 1, "\(error)")
    }

    @Test("other values that are not what a rules file allows", arguments: [
        ("version: 1\nrules: {name-mismatch: Off}\n", #"rules.name-mismatch: "Off" is not a setting"#),
        ("version: 1\nrules: {name-mismatch: }\n", "rules.name-mismatch: null is not a setting"),
        ("version: 1\nrules: {name-mismatch: [off]}\n", "rules.name-mismatch: a list is not a setting"),
        ("version: 1\nrules: {nonsense-rule-id: off}\n",
         #"rules.nonsense-rule-id: "nonsense-rule-id" is not a rule (`catalogcheck rules` lists them)"#),
        ("version: 1\nrules: name-mismatch\n", #"rules: "name-mismatch" is not a mapping of rule IDs to settings"#),
        ("version: 1\nterritories: []\n", "territories: lists no territory (e.g. [US, GB, DE])"),
        ("version: 1\nterritories: [US, US]\n", #"territories[1]: "US" is listed twice"#),
        ("version: 1\nterritories: [[US]]\n", "territories[0]: a list is not a string"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, until: 2026-12-31T00:00:00Z}]\n",
         #"ignore[0].until: "2026-12-31T00:00:00Z" is not a date"#),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, until: 2026-1-5}]\n",
         #"ignore[0].until: "2026-1-5" is not a date"#),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, until: 2025-02-29}]\n",
         #"ignore[0].until: "2025-02-29" is not a date"#),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, until: }]\n", "ignore[0].until: null is not a date"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: \"  \"}]\n", "ignore[0].reason: must not be empty"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: }]\n", "ignore[0].reason: has no value"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: [a]}]\n", "ignore[0].reason: a list is not a string"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, product: \"\"}]\n",
         "ignore[0].product: must not be empty (leave it out to match every product)"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, territories: []}]\n",
         "ignore[0].territories: lists no territory"),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, territories: IN}]\n",
         #"ignore[0].territories: "IN" is not a list of territories"#),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x, store: [play]}]\n",
         "ignore[0].store: a list is not a string"),
        ("version: 1\nignore: [{rule: ignore-expired, reason: x}]\n", "ignore[0].rule: ignore-expired judges the rules file"),
        ("version: 1\nignore: [{rule: , reason: x}]\n", "ignore[0].rule: has no value"),
        ("version: 1\nignore: [{}]\n", #"ignore[0]: missing "rule""#),
        ("version: 1\nignore: [{rule: price-mismatch, reason: x}, {rule: name-mismatch}]\n", #"ignore[1]: missing "reason""#),
        ("version: 1\nignore: price-mismatch\n", #"ignore: "price-mismatch" is not a list of ignore entries"#),
        ("version: 1\n$schema: [x]\n", "$schema: a list is not a string"),
        ("version: 1.0\n", #"version: "1.0" is not supported"#),
        ("version:\n", "version: null is not supported"),
        ("just text\n", #"the rules file must be a mapping with the keys version, rules, territories and ignore, not "just text""#),
        ("version: 1\n---\nversion: 1\n", "invalid YAML: the file holds several documents"),
        ("version: 1\nrules: !!map {name-mismatch: off}\nterritories: !!set {US}\n", "territories: YAML tags are not supported"),
    ])
    func otherErrors(text: String, fragment: String) {
        let error = RulesTesting.error(readingText: text)
        #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }

    @Test("JSON rules files: the same checks, JSON positions and types")
    func jsonErrors() {
        func error(_ text: String) -> CatalogReadError? {
            RulesTesting.error(readingText: text, displayPath: "rules.json")
        }
        #expect(error(#"{"version": 1, "rules": {"name-mismatch": false}}"#) == CatalogReadError(
            #"rules.name-mismatch: "false" is not a setting (error, warning, note or off)"#,
            at: SourceLocation(path: "rules.json", line: 1, column: 43)))
        #expect(error(#"{"version": 1, "ignore": [{"rule": "price-mismatch", "reason": "x", "until": 20261231}]}"#)?
            .message == #"ignore[0].until: "20261231" is not a date (YYYY-MM-DD, e.g. 2026-12-31)"#)
        #expect(error(#"{"version": 1, "ignore": [{"rule": "price-mismatch", "reason": 7}]}"#)?.message
                    == #"ignore[0].reason: "7" is not a string"#)
        #expect(error(#"{"version": 1, "version": 1}"#)?.message.contains(#"duplicate key "version""#) == true)
        #expect(error("{\"version\": 1,}")?.message.hasPrefix("invalid JSON") == true)
        // Without an extension, a document starting with `{` is JSON.
        #expect(RulesTesting.error(readingText: #"{"version": 1, "rule": {}}"#, displayPath: "rules")?.message
                    == #"rule: unknown key; did you mean "rules"?"#)
        #expect(RulesTesting.error(readingText: "\u{FEFF} \n", displayPath: "rules.json")?.message
                    .hasPrefix("the file is empty") == true)
    }

    @Test("a folder or a missing file is an error naming it")
    func files() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: CatalogReadError("is a folder; the rules file is one YAML or JSON file",
                                         at: SourceLocation(path: "rules-folder"))) {
            try RulesFileReader().read(contentsOf: folder, displayPath: "rules-folder")
        }
        #expect(throws: CatalogReadError("the file does not exist", at: SourceLocation(path: "missing.yml"))) {
            try RulesFileReader().read(contentsOf: folder.appendingPathComponent("missing.yml"),
                                       displayPath: "missing.yml")
        }
    }
}

@Suite("RulesFileLocator")
struct RulesFileLocatorTests {
    /// `<temporary>/outer/repo/.git` and `<temporary>/outer/repo/a/b/c`; the caller removes `root`.
    private static func repository(gitFile: Bool = false) throws -> (root: URL, repo: URL, nested: URL) {
        let root = try Fixtures.temporaryFolder()
        let repo = root.appendingPathComponent("outer/repo")
        let nested = repo.appendingPathComponent("a/b/c")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let git = repo.appendingPathComponent(".git")
        if gitFile {
            // A worktree or submodule: `.git` is a file pointing at the real one.
            try Data("gitdir: /elsewhere\n".utf8).write(to: git)
        } else {
            try FileManager.default.createDirectory(at: git, withIntermediateDirectories: false)
        }
        return (root, repo, nested)
    }

    private static func write(_ name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data("version: 1\n".utf8).write(to: url)
        return url
    }

    @Test("found at the repository root from a nested folder (a .git folder or a .git file)", arguments: [false, true])
    func foundAtRoot(gitFile: Bool) throws {
        let (root, repo, nested) = try Self.repository(gitFile: gitFile)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try Self.write(".catalogcheck.yml", in: repo)
        #expect(RulesFileLocator.find(from: nested)?.standardizedFileURL == file.standardizedFileURL)
        #expect(RulesFileLocator.find(from: repo)?.standardizedFileURL == file.standardizedFileURL)
    }

    @Test("not found above the repository root")
    func stopsAtRepositoryRoot() throws {
        let (root, repo, nested) = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.write(".catalogcheck.yml", in: repo.deletingLastPathComponent())
        #expect(RulesFileLocator.find(from: nested) == nil)
        // Outside the repository the search goes on upwards and finds it.
        let outside = root.appendingPathComponent("outer/elsewhere")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        #expect(RulesFileLocator.find(from: outside)?.lastPathComponent == ".catalogcheck.yml")
    }

    @Test("the nearest wins; .yml before .yaml in one folder; a folder of that name is passed over")
    func nearestWins() throws {
        let (root, repo, nested) = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        _ = try Self.write(".catalogcheck.yml", in: repo)
        let middle = repo.appendingPathComponent("a")
        let yaml = try Self.write(".catalogcheck.yaml", in: middle)
        #expect(RulesFileLocator.find(from: nested)?.standardizedFileURL == yaml.standardizedFileURL)
        let yml = try Self.write(".catalogcheck.yml", in: middle)
        #expect(RulesFileLocator.find(from: nested)?.standardizedFileURL == yml.standardizedFileURL)
        let deeper = repo.appendingPathComponent("a/b/.catalogcheck.yml")
        try FileManager.default.createDirectory(at: deeper, withIntermediateDirectories: false)
        #expect(RulesFileLocator.find(from: nested)?.standardizedFileURL == yml.standardizedFileURL)
    }

    @Test("a path with .. or relative to a base is searched from the folder it names")
    func relativeComponents() throws {
        let (root, repo, nested) = try Self.repository()
        defer { try? FileManager.default.removeItem(at: root) }
        let file = try Self.write(".catalogcheck.yml", in: repo.appendingPathComponent("a"))
        let dotted = nested.appendingPathComponent("../..")
        #expect(RulesFileLocator.find(from: dotted)?.standardizedFileURL == file.standardizedFileURL)
        let relative = URL(fileURLWithPath: "a/b/c", relativeTo: URL(fileURLWithPath: repo.path, isDirectory: true))
        #expect(RulesFileLocator.find(from: relative)?.standardizedFileURL == file.standardizedFileURL)
    }
}
