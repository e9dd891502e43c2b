import CatalogCore

/// Why an input could not be read: the file, line and column, and what is wrong. Maps to exit code 2.
///
/// A validator that collects every problem of a file (the config, the rules file, the baseline: DESIGN.md §5a.1)
/// throws one error for all of them: `message` and `location` are the first problem in file order, and
/// `problems` lists the first `listLimit` of them, so that one run shows what to fix.
public struct CatalogReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is (as precise as the format allows).
    public var location: SourceLocation
    /// What is wrong, naming the key path and the offending value, quoted.
    public var message: String
    /// The problems after the first, in file order (empty when there is one); at most `listLimit` − 1.
    public private(set) var laterProblems: [CatalogReadError] = []
    /// How many more problems were found than are listed.
    public private(set) var unlistedProblemCount = 0

    /// How many problems of one file are listed at most (DESIGN.md §5a.1); the rest are only counted.
    public static let listLimit = 50

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// One error for several problems: `listed` in the order given (the first becomes `message` and `location`,
    /// each is taken without problems of its own), then `unlisted` more only counted. Nil when `listed` is
    /// empty.
    init?(listing listed: [CatalogReadError], unlisted: Int) {
        guard let first = listed.first else { return nil }
        self.init(first.message, at: first.location)
        laterProblems = listed.dropFirst().map { CatalogReadError($0.message, at: $0.location) }
        unlistedProblemCount = unlisted
    }

    /// Every listed problem, first to last, each as an error of its own.
    public var problems: [CatalogReadError] {
        [CatalogReadError(message, at: location)] + laterProblems
    }

    /// The lines to print, one per listed problem in compiler style (`path:line:column: error: message`), then one
    /// saying how many more there are when some are not listed.
    public var lines: [String] {
        var lines = problems.map { "\($0.location): error: \($0.message)" }
        if unlistedProblemCount > 0 {
            let noun = unlistedProblemCount == 1 ? "problem" : "problems"
            lines.append("… and \(unlistedProblemCount) more \(noun) in \(location.path)")
        }
        return lines
    }

    /// The lines, one per problem, joined by newlines: for one problem `path:line:column: error: message`.
    public var description: String { lines.joined(separator: "\n") }
}
