import Foundation
import TestSupport
import Testing

/// `diff` for a reviewer (DESIGN.md §2a): renames by content and by look-alike IDs, and the cautions on
/// changes that reach customers who already paid, in every diff format, pinned by snapshots.
@Suite("diff cautions and renames, end to end")
struct DiffCautionTests {
    static let old = "Tests/Fixtures/diff/cautions/old.yml"
    static let new = "Tests/Fixtures/diff/cautions/new.yml"

    @Test("snapshots: text, Markdown (cautions first) and JSON", arguments: ["text", "markdown", "json"])
    func snapshot(format: String) throws {
        let result = try CommandRunner.run(["diff", Self.old, Self.new, "--format", format])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        expectSnapshot(result.stdout, named: "diff-cautions.\(format)")
    }

    @Test("text: unlock -> unlock.lifetime is a rename by content; the removed non-consumable carries a caution")
    func renameByContent() throws {
        let result = try CommandRunner.run(["diff", Self.old, Self.new])

        let lines = result.stdout.split(separator: "\n").map(String.init)
        let unlock = try #require(lines.firstIndex(of:
            "- com.example.unlock  non-consumable, 4.99 USD  (possible rename to 'com.example.unlock.lifetime')"))
        #expect(lines[unlock + 1]
                == "    caution: non-consumable removed: customers own it and restore it on every new device")
        #expect(lines.contains("+ com.example.coins.5OO  consumable, 4.99 USD  (possible rename of "
                               + "'com.example.coins.500': letter 'O' where the other has digit '0', twice, "
                               + "from character 20)"))
        #expect(lines.last == "2 added, 4 removed, 3 changed, 5 cautions (old: \(Self.old), new: \(Self.new))")
    }

    @Test("markdown: the cautions table comes before every change table")
    func markdownLeadsWithCautions() throws {
        let result = try CommandRunner.run(["diff", Self.old, Self.new, "--format", "markdown"])

        let headings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("#### ") }.map(String.init)
        #expect(headings == ["#### ⚠️ Cautions", "#### Changed", "#### Added", "#### Removed"])
    }
}
