import Foundation
import TestSupport
import Testing

/// "Same inputs, byte-identical output" for SARIF too (DESIGN.md §6): no absolute folder of the machine in it.
@Suite("SARIF across folders, end to end")
struct SARIFDeterminismTests {
    @Test("the same inputs checked from two folders give byte-identical SARIF, naming neither folder")
    func twoFolders() throws {
        let first = try Fixtures.temporaryFolder(suffix: "-one")
        let second = try Fixtures.temporaryFolder(suffix: "-second checkout")
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        for folder in [first, second] {
            let catalogs = folder.appendingPathComponent("catalogs")
            try FileManager.default.createDirectory(at: catalogs, withIntermediateDirectories: true)
            for name in ["products.yml", "appstore.storekit"] {
                try FileManager.default.copyItem(at: Fixtures.catalog("demo-drift/\(name)"),
                                                 to: catalogs.appendingPathComponent(name))
            }
        }
        let arguments = ["check", "--config", "catalogs/products.yml", "--store", "catalogs/appstore.storekit",
                         "--format", "sarif", "--as-of", "2026-11-22"]

        let one = try CommandRunner.run(arguments, in: first)
        let two = try CommandRunner.run(arguments, in: second)

        #expect(one.exitCode == 1, "\(one.stderr)")
        #expect(two.exitCode == 1, "\(two.stderr)")
        #expect(one.stdout == two.stdout)
        #expect(one.stdout.contains(#""uri" : "catalogs/products.yml""#))
        // Before, `originalUriBaseIds` held `file:///tmp/…-one/`: the bytes differed by folder.
        #expect(!one.stdout.contains(first.lastPathComponent))
        #expect(!one.stdout.contains("originalUriBaseIds"))
    }
}
