import Foundation
import TestSupport
import Testing

/// DESIGN.md §9: each room (folder) of a module uses only the rooms after it — no folder cycles. A folder uses
/// another when its code (comments and string contents left out) names a type or function declared at the top
/// level of the other's files. Run over `Sources/` so that a cycle cannot come back unseen.
@Suite("Source layout")
struct FolderCycleTests {
    @Test("no module's folders use each other in a cycle")
    func sourcesHaveNoFolderCycles() throws {
        let sources = Fixtures.repositoryRoot.appendingPathComponent("Sources")

        let graph = try FolderGraph(sources: sources)

        #expect(graph.modules.count >= 5)
        #expect(graph.cycles() == [])
    }

    @Test("a cycle between two folders is found and named, also through a third")
    func cycleIsFound() throws {
        let sources = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: sources) }
        try write("struct Alpha { let next: Beta }\n", to: sources, "Module/A/Alpha.swift")
        try write("struct Beta { let next: Gamma }\n", to: sources, "Module/B/Beta.swift")
        try write("// Alpha in a comment is no use.\nstruct Gamma { let next: Alpha }\n", to: sources,
                  "Module/C/Gamma.swift")
        try write("struct Delta { let name = \"Alpha in a string is no use\" }\n", to: sources, "Module/D/Delta.swift")

        let graph = try FolderGraph(sources: sources)

        #expect(graph.cycles() == ["Module: A → B → C → A"])
    }

    @Test("a use inside a string interpolation counts, also with nested parentheses and strings")
    func interpolationIsCode() throws {
        let sources = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: sources) }
        try write(##"""
            struct Alpha {
                static let x = 1
                let beta = "\(Beta.name)"
            }

            """##, to: sources, "Module/A/Alpha.swift")
        try write(##"""
            enum Beta {
                static let name = "Beta: \(String(describing: "\((Alpha.x))")) // not a comment"
            }

            """##, to: sources, "Module/B/Beta.swift")
        // Strings (plain, escaped, raw, multi-line) and comments name Gamma and Delta here: no use.
        try write(##"""
            enum Delta {
                static let text = "Gamma \\(1) \"Gamma\" // Gamma" /* Gamma /* nested */ Gamma */
            }

            """##, to: sources, "Module/D/Delta.swift")
        try write(##"""
            enum Gamma {
                static let raw = #"\(Delta) "Delta" \#(1)"#
                static let block = """
                    Delta "Delta" \(1)
                    """
            }

            """##, to: sources, "Module/G/Gamma.swift")

        let graph = try FolderGraph(sources: sources)

        #expect(graph.cycles() == ["Module: A → B → A"])
        #expect(graph.modules["Module"]?["D"] == [])
        #expect(graph.modules["Module"]?["G"] == [])
    }

    @Test("a sub-folder and its parent, and Model/ with Tables/, are one room each")
    func roomsSpanningFolders() throws {
        let sources = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: sources) }
        try write("struct Checker { let rules: PriceRules }\n", to: sources, "CatalogCore/Checking/Checker.swift")
        try write("struct PriceRules { let pair: Checker }\n", to: sources, "CatalogCore/Checking/Rules/PriceRules.swift")
        try write("struct Money { let table: CurrencyTable }\n", to: sources, "CatalogCore/Model/Money.swift")
        try write("struct CurrencyTable { let money: Money }\n", to: sources, "CatalogCore/Tables/CurrencyTable.swift")

        let graph = try FolderGraph(sources: sources)

        #expect(graph.cycles() == [])
    }

    private func write(_ text: String, to root: URL, _ path: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}

/// Which folders of each module use which, by the names their Swift files declare at the top level.
private struct FolderGraph {
    /// Folders DESIGN.md §9 lists as one room: `Model/ Tables/` (the tables hold money and currency codes of
    /// the model, the model looks prices up in the tables).
    static let oneRoom = ["CatalogCore": ["Tables": "Model"]]

    /// Per module, per room, the rooms it uses.
    let modules: [String: [String: Set<String>]]

    init(sources: URL) throws {
        let manager = FileManager.default
        let patterns = try Patterns()
        var modules: [String: [String: Set<String>]] = [:]
        for module in try manager.contentsOfDirectory(atPath: sources.path).sorted() {
            let moduleURL = sources.appendingPathComponent(module)
            var texts: [String: [String]] = [:]
            guard let walker = manager.enumerator(atPath: moduleURL.path) else { continue }
            while let relative = walker.nextObject() as? String {
                guard relative.hasSuffix(".swift") else { continue }
                let source = try String(contentsOf: moduleURL.appendingPathComponent(relative), encoding: .utf8)
                let folder = (relative as NSString).deletingLastPathComponent
                texts[Self.room(of: folder.isEmpty ? "." : folder, in: module), default: []]
                    .append(Self.code(of: source))
            }
            guard !texts.isEmpty else { continue }
            var owners: [String: Set<String>] = [:]
            for (room, files) in texts {
                for text in files {
                    for name in Self.matches(patterns.declaration, in: text, group: 1)
                    where name.count > 3 && name.first?.isUppercase == true {
                        owners[name, default: []].insert(room)
                    }
                }
            }
            var uses: [String: Set<String>] = [:]
            for (room, files) in texts {
                uses[room] = []
                for word in Set(files.flatMap { Self.matches(patterns.capitalized, in: $0, group: 0) }) {
                    let declaring = owners[word] ?? []
                    guard !declaring.contains(room) else { continue }
                    uses[room, default: []].formUnion(declaring)
                }
            }
            modules[module] = uses
        }
        self.modules = modules
    }

    /// Each cycle once, as `Module: A → B → A`, modules and rooms in sorted order.
    func cycles() -> [String] {
        var found: [String] = []
        for (module, uses) in modules.sorted(by: { $0.key < $1.key }) {
            var done: Set<String> = []
            var path: [String] = []
            func visit(_ room: String) {
                if let start = path.firstIndex(of: room) {
                    found.append("\(module): " + (path[start...] + [room]).joined(separator: " → "))
                    return
                }
                guard !done.contains(room) else { return }
                path.append(room)
                for next in (uses[room] ?? []).sorted() { visit(next) }
                path.removeLast()
                done.insert(room)
            }
            for room in uses.keys.sorted() { visit(room) }
        }
        return found
    }

    /// The room a folder belongs to: a sub-folder is its top folder's room (`Checking/Rules` is `Checking`).
    private static func room(of folder: String, in module: String) -> String {
        let top = String(folder.split(separator: "/").first ?? "")
        return oneRoom[module]?[top] ?? top
    }

    /// The code of a file: comments and the contents of string literals left out, the code of string
    /// interpolations (`\\( … )`, `\\#( … )` in raw strings) kept, so a use inside one is seen.
    private static func code(of source: String) -> String {
        var scanner = CodeScanner(bytes: Array(source.utf8))
        scanner.scanCode(inInterpolation: false)
        return String(decoding: scanner.output, as: UTF8.self)
    }

    private static func matches(_ expression: NSRegularExpression, in text: String, group: Int) -> [String] {
        expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: group), in: text).map { String(text[$0]) }
        }
    }

    /// Top-level declarations (at the start of a line) and capitalized words: a plain-text reading, cheap and
    /// close enough for names of four characters or more.
    private struct Patterns {
        let declaration: NSRegularExpression
        let capitalized: NSRegularExpression

        init() throws {
            declaration = try NSRegularExpression(
                pattern: #"^(?:public |internal |private |fileprivate |package |final |indirect |@\w+ )*"#
                    + #"(?:struct|enum|class|protocol|actor|typealias|func|let|var)\s+([A-Za-z_][A-Za-z0-9_]*)"#,
                options: .anchorsMatchLines)
            capitalized = try NSRegularExpression(pattern: #"\b[A-Z][A-Za-z0-9_]+\b"#)
        }
    }
}

/// Walks Swift source byte by byte and keeps its code: comments (`//`, nested `/* */`) are dropped, a string
/// literal (`"…"`, `"""…"""`, raw `#"…"#`) becomes `""` holding only the code of its interpolations, which is
/// scanned as code again (nested parentheses, strings and interpolations included).
private struct CodeScanner {
    let bytes: [UInt8]
    private(set) var output: [UInt8] = []
    private var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"),
                       star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n"),
                       open = UInt8(ascii: "("), close = UInt8(ascii: ")")

    private func byte(at offset: Int) -> UInt8? {
        position + offset < bytes.count ? bytes[position + offset] : nil
    }

    /// Copies code to the end of the file, or in an interpolation to its closing parenthesis (consumed).
    mutating func scanCode(inInterpolation: Bool) {
        var depth = 0
        while let current = byte(at: 0) {
            if current == Self.slash, byte(at: 1) == Self.slash {
                while let next = byte(at: 0), next != Self.newline { position += 1 }
            } else if current == Self.slash, byte(at: 1) == Self.star {
                skipBlockComment()
            } else if current == Self.quote || (current == Self.hash && startsRawString()) {
                scanString()
            } else {
                if current == Self.open { depth += 1 }
                if current == Self.close {
                    if inInterpolation, depth == 0 {
                        position += 1
                        return
                    }
                    depth -= 1
                }
                output.append(current)
                position += 1
            }
        }
    }

    /// Whether the `#`s here open a raw string (`#"`, `##"`), not a directive (`#if`, `#expect`).
    private func startsRawString() -> Bool {
        var offset = 0
        while byte(at: offset) == Self.hash { offset += 1 }
        return byte(at: offset) == Self.quote
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while let current = byte(at: 0) {
            if current == Self.slash, byte(at: 1) == Self.star {
                depth += 1
                position += 2
            } else if current == Self.star, byte(at: 1) == Self.slash {
                depth -= 1
                position += 2
                if depth == 0 { return }
            } else {
                position += 1
            }
        }
    }

    /// A string literal at `position`: written as `""` around the code of its interpolations.
    private mutating func scanString() {
        var hashes = 0
        while byte(at: 0) == Self.hash {
            hashes += 1
            position += 1
        }
        let multiline = byte(at: 1) == Self.quote && byte(at: 2) == Self.quote
        let delimiter = multiline ? 3 : 1
        position += delimiter
        output.append(Self.quote)
        defer { output.append(Self.quote) }
        while let current = byte(at: 0) {
            if current == Self.backslash, (0..<hashes).allSatisfy({ byte(at: 1 + $0) == Self.hash }) {
                position += 1 + hashes
                if byte(at: 0) == Self.open {
                    position += 1
                    output.append(UInt8(ascii: " "))
                    scanCode(inInterpolation: true)
                    output.append(UInt8(ascii: " "))
                } else {
                    position += 1
                }
            } else if current == Self.quote, (0..<delimiter).allSatisfy({ byte(at: $0) == Self.quote }),
                      (0..<hashes).allSatisfy({ byte(at: delimiter + $0) == Self.hash }) {
                position += delimiter + hashes
                return
            } else if current == Self.newline, !multiline {
                return
            } else {
                position += 1
            }
        }
    }
}
