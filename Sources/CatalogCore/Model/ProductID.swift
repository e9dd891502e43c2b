/// A product identifier exactly as a store or the config spells it.
public struct ProductID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The identifier text.
    public let rawValue: String

    /// Wraps an identifier.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: ProductID, rhs: ProductID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
