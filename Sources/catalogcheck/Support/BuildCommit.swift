import CatalogCore
import CatalogReports

/// The commit this executable was built from, for `catalogcheck --version`.
///
/// It comes from the build, never from running git when the tool runs (the binary runs where no clone exists):
/// `scripts/release` writes the commit into this file for the release build and puts the file back afterwards.
/// A plain `swift build` keeps "unknown", so a clean clone builds without git or any generated file.
enum BuildCommit {
    /// The full commit id, or "unknown" outside `scripts/release`. The line's shape is what `scripts/release`
    /// rewrites: keep it on one line.
    static let id = "unknown"

    /// What `--version` prints: the version (ToolInfo.version, the one place it is written) and the commit.
    static var versionLine: String {
        "\(ToolInfo.version) (commit \(id))"
    }
}
