/// Where a record was read: a file and, where the format allows it, a 1-based line and column.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path as the user gave it (relative paths stay relative).
    public var path: String
    /// 1-based line, when known.
    public var line: Int?
    /// 1-based column, when known.
    public var column: Int?

    /// Creates a location.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, leaving out what is unknown.
    public var description: String {
        var text = path
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        return text
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line ?? 0, lhs.column ?? 0) < (rhs.path, rhs.line ?? 0, rhs.column ?? 0)
    }
}
