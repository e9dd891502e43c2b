import Foundation

/// The operations `fetch` may call, as the official specifications define them: read from
/// `Tests/Fixtures/fetch/api-operations.tsv`, which `scripts/extract-fetch-operations.py` reads off Apple's App
/// Store Connect OpenAPI document 4.4.1 and Google's Play Developer API discovery document (revision 20261026);
/// `Tests/Fixtures/fetch/SOURCES.md` names both. The fake server refuses, with 400, every request this table does
/// not allow, so the tests hold fetch to the specs rather than to what the fake happens to serve.
public struct APISpecTable: Sendable {
    /// One query parameter of an operation.
    struct Parameter: Sendable {
        /// `list` (comma-separated values), `integer`, `string` or `boolean`.
        let kind: String
        /// The enum, when the spec gives one.
        let values: Set<String>
        /// The spec's maximum for an integer.
        let maximum: Int?
    }

    /// One GET operation.
    struct Operation: Sendable {
        let store: String
        let name: String
        /// The path template's segments (`{id}` matches one non-empty segment).
        let segments: [String]
        var parameters: [String: Parameter] = [:]
    }

    let operations: [Operation]

    /// The tables in `Tests/Fixtures/fetch/`: `api-operations.tsv` (App Store Connect, Play) and
    /// `revenuecat-operations.tsv` (RevenueCat API v2).
    public static func load() throws -> APISpecTable {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Fixtures/fetch")
        return try APISpecTable(contentsOf: [root.appendingPathComponent("api-operations.tsv"),
                                             root.appendingPathComponent("revenuecat-operations.tsv")])
    }

    /// Reads the tables.
    init(contentsOf urls: [URL]) throws {
        var text = ""
        for url in urls { text += try String(contentsOf: url, encoding: .utf8) + "\n" }
        var operations: [Operation] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 7 else { continue }
            if columns[3].isEmpty {
                operations.append(Operation(store: columns[0], name: columns[1],
                                            segments: columns[2].split(separator: "/").map(String.init)))
            } else if !operations.isEmpty {
                operations[operations.count - 1].parameters[columns[3]] = Parameter(
                    kind: columns[4], values: Set(columns[5].split(separator: ",").map(String.init)),
                    maximum: Int(columns[6]))
            }
        }
        self.operations = operations
    }

    /// Why the spec refuses `GET path?query`, or nil when it allows it. App Store Connect's `cursor`, which its
    /// `links.next` carries, is allowed on every operation that takes `limit`.
    public func refusal(path: String, query: [(name: String, value: String)]) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard let operation = operations.first(where: { Self.matches($0.segments, segments) }) else {
            return "GET \(path) is not an operation fetch may call"
        }
        var seen: Set<String> = []
        for (name, value) in query {
            // An OpenAPI array parameter (style form, explode) repeats its name; any other is given once.
            guard seen.insert(name).inserted || operation.parameters[name]?.kind == "array" else {
                return "\(operation.name): parameter \(name) given twice"
            }
            if name == "cursor", operation.store == "appstore", operation.parameters["limit"] != nil { continue }
            guard let parameter = operation.parameters[name] else {
                return "\(operation.name) has no parameter \(name)"
            }
            let values = parameter.kind == "list" ? value.split(separator: ",", omittingEmptySubsequences: false)
                .map(String.init) : [value]
            for value in values {
                if !parameter.values.isEmpty, !parameter.values.contains(value) {
                    return "\(operation.name): \(name)=\(value) is not one of " + parameter.values.sorted().joined(separator: ", ")
                }
                if parameter.kind == "integer" {
                    guard let number = Int(value), number >= 1 else {
                        return "\(operation.name): \(name)=\(value) is not a positive integer"
                    }
                    if let maximum = parameter.maximum, number > maximum {
                        return "\(operation.name): \(name)=\(value) is above the maximum \(maximum)"
                    }
                }
            }
        }
        return nil
    }

    private static func matches(_ template: [String], _ segments: [String]) -> Bool {
        guard template.count == segments.count else { return false }
        return zip(template, segments).allSatisfy { pattern, segment in
            pattern.hasPrefix("{") ? !segment.isEmpty : pattern == segment
        }
    }
}
