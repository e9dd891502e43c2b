import CatalogCore
import Foundation
import TestSupport
import Testing

/// `catalogcheck --version` and the one version source (DESIGN.md §10): ToolInfo.version, the commit written by
/// scripts/release, and CHANGELOG.md's newest section.
@Suite("version")
struct VersionTests {
    @Test("--version prints the version and the commit; a plain swift build says the commit is unknown")
    func versionAndCommit() throws {
        let result = try CommandRunner.run(["--version"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout == "\(ToolInfo.version) (commit unknown)\n")
    }

    @Test("BuildCommit.swift keeps the one line scripts/release rewrites, and the version its sed reads")
    func releaseScriptPatternsMatch() throws {
        let root = Fixtures.repositoryRoot
        let commitFile = try String(
            contentsOf: root.appendingPathComponent("Sources/catalogcheck/Support/BuildCommit.swift"), encoding: .utf8)
        let toolInfo = try String(
            contentsOf: root.appendingPathComponent("Sources/CatalogCore/ToolInfo.swift"), encoding: .utf8)

        let idLines = commitFile.split(separator: "\n").filter { $0.hasPrefix("    static let id = ") }
        let versionLines = toolInfo.split(separator: "\n").filter { $0.hasPrefix("    public static let version = ") }

        #expect(idLines == ["    static let id = \"unknown\""])
        #expect(versionLines == ["    public static let version = \"\(ToolInfo.version)\""])
    }

    @Test("CHANGELOG.md's newest release section is ToolInfo.version")
    func changelogNamesTheVersion() throws {
        let changelog = try String(
            contentsOf: Fixtures.repositoryRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)

        // An "Unreleased" section above it collects what the next release brings (Keep a Changelog).
        let sections = changelog.split(separator: "\n").filter { $0.hasPrefix("## [") && $0 != "## [Unreleased]" }

        #expect(sections.first.map(String.init)?.hasPrefix("## [\(ToolInfo.version)]") == true,
                "newest section: \(sections.first ?? "none")")
    }
}
