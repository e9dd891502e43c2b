/// Where a record was read: a file and, where the format allows it, a 1-based line and column.
///
/// Every price carries one, so it is kept to 24 bytes (and its optional too): the path and a 32-bit line and
/// column, `Int32.min` standing for unknown. Lines and columns beyond `Int32` (a file of more than two billion
/// lines, or a line of more than two gigabytes) are kept as the nearest `Int32`.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path as the user gave it (relative paths stay relative).
    public var path: String
    /// `line`, or `unknown`.
    private var storedLine: Int32
    /// `column`, or `unknown`.
    private var storedColumn: Int32

    /// The stored value of a line or column that is not known.
    private static let unknown = Int32.min

    /// Creates a location.
    public init(path: String, line: Int? = nil, column: Int? = nil) {
        self.path = path
        storedLine = Self.store(line)
        storedColumn = Self.store(column)
    }

    /// 1-based line, when known.
    public var line: Int? {
        get { Self.load(storedLine) }
        set { storedLine = Self.store(newValue) }
    }

    /// 1-based column, when known.
    public var column: Int? {
        get { Self.load(storedColumn) }
        set { storedColumn = Self.store(newValue) }
    }

    private static func store(_ value: Int?) -> Int32 {
        guard let value else { return unknown }
        return Int32(clamping: max(value, Int(unknown) + 1))
    }

    private static func load(_ value: Int32) -> Int? {
        value == unknown ? nil : Int(value)
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
