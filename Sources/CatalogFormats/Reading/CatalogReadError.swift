import CatalogCore

/// Why an input could not be read: the file, line and column, and what is wrong. Maps to exit code 2.
public struct CatalogReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where the problem is (as precise as the format allows).
    public var location: SourceLocation
    /// What is wrong, naming the key path and the offending value, quoted.
    public var message: String

    /// Creates an error.
    public init(_ message: String, at location: SourceLocation) {
        self.message = message
        self.location = location
    }

    /// Compiler-style text: `path:line:column: error: message`.
    public var description: String { "\(location): error: \(message)" }
}
