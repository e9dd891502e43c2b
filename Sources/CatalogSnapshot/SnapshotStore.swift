/// The store a snapshot was fetched from, as its manifest names it. Open: a name this version does not know
/// still decodes, so that a reader expecting another store says which one the folder holds instead of failing
/// on the name (`revenuecat` is known here before its reader is).
public struct SnapshotStore: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The manifest's name for the store: `appstore`, `play`, `revenuecat`.
    public let rawValue: String

    /// A store by its manifest name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// App Store Connect (`fetch appstore`).
    public static let appStore = SnapshotStore(rawValue: "appstore")
    /// The Google Play Developer API (`fetch play`).
    public static let play = SnapshotStore(rawValue: "play")
    /// RevenueCat (`fetch revenuecat`).
    public static let revenueCat = SnapshotStore(rawValue: "revenuecat")

    /// The store's name for people: `App Store Connect`; a name this version does not know, quoted.
    public var title: String {
        switch self {
        case .appStore: "App Store Connect"
        case .play: "Google Play"
        case .revenueCat: "RevenueCat"
        default: "the store \"\(rawValue)\""
        }
    }

    /// What the manifest's `subject` is for this store: the app's Apple ID (`app`), the package name
    /// (`package`), the RevenueCat project (`project`).
    public var subjectName: String {
        switch self {
        case .appStore: "app"
        case .play: "package"
        case .revenueCat: "project"
        default: "subject"
        }
    }

    /// What every request path of the store's API starts with (`fetch` asks nothing else), so a page of another
    /// store's snapshot is told by its request: App Store Connect `/v1/…` and `/v2/…` (`/v`), Play
    /// `/androidpublisher/v3/…`; nil where this version knows of none.
    public var apiPath: String? {
        switch self {
        case .appStore: "/v"
        case .play: "/androidpublisher/"
        default: nil
        }
    }

    /// The manifest name.
    public var description: String { rawValue }
}
