/// A kind of store resource a fetch lists, as the progress lines and the manifest count it.
public struct ResourceKind: Hashable, Sendable {
    /// The manifest key: `subscriptionPrices`.
    public let key: String
    /// The progress label: `subscription prices`.
    public let label: String
}

/// What a fetch got of one kind: response pages and the resources in them.
public struct KindTally: Sendable, Equatable {
    /// The kind.
    public let kind: ResourceKind
    /// Response pages written.
    public var pages: Int
    /// Resources in those pages (`data` items for App Store Connect, list items for Play).
    public var resources: Int
}
