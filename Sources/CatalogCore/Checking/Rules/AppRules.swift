/// The app itself: `app-mismatch` (DESIGN.md §5), when the config's `app.bundleId` and the store input's app
/// (App Store Connect `/v1/apps/{id}` `bundleId`, Play package name) are both stated and differ. Exact
/// comparison: bundle IDs and package names are case-sensitive identifiers in both stores.
enum AppRules {
    static func check(config: Catalog, store: Catalog) -> [Finding] {
        guard let expected = config.appID, let actual = store.appID, expected != actual else { return [] }
        let what = store.store == .play ? "package name" : "bundle ID"
        return [Finding(
            rule: .appMismatch, productID: nil, expected: expected, actual: actual,
            message: "the store's app has \(what) '\(actual)', the config's app.bundleId is '\(expected)': the "
                + "store input is another app's, or the config names the wrong app",
            configLocation: config.appIDLocation ?? SourceLocation(path: config.path),
            storeLocation: store.appIDLocation ?? SourceLocation(path: store.path), store: store.path)]
    }
}
