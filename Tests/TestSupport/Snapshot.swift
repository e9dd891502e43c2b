import Foundation
import Testing

/// Compares `actual` with the snapshot file `Tests/Fixtures/snapshots/<name>`. With `CATALOGCHECK_RECORD=1` the
/// file is (re)written and the test fails, so a recording never passes silently.
public func expectSnapshot(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let url = Fixtures.url("snapshots/\(name)")
    if ProcessInfo.processInfo.environment["CATALOGCHECK_RECORD"] == "1" {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? Data(actual.utf8).write(to: url)
        Issue.record("recorded snapshot \(name); run again without CATALOGCHECK_RECORD", sourceLocation: sourceLocation)
        return
    }
    guard let data = try? Data(contentsOf: url) else {
        Issue.record("no snapshot \(name); record it with CATALOGCHECK_RECORD=1", sourceLocation: sourceLocation)
        return
    }
    let expected = String(decoding: data, as: UTF8.self)
    #expect(actual == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
}
