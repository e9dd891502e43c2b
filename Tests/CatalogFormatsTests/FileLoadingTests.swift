import CatalogCore
import Foundation
import Testing
import TestSupport
@testable import CatalogFormats

/// File errors and libxml2's limits in the user's words: no error domains, codes or parser option names.
@Suite struct FileLoadingTests {
    @Test("errno values read as words", arguments: [
        (ENOENT, "the file does not exist"), (ELOOP, "too many levels of symbolic links"),
        (EACCES, "permission denied"), (EPERM, "permission denied"), (EISDIR, "is a directory, not a file"),
        (ENOTDIR, "a folder on the path is a file"), (EIO, "the file cannot be read"),
    ])
    func reasons(code: Int32, words: String) {
        #expect(FileLoading.reason(forErrno: code) == words)
    }

    @Test("an empty path is named as empty, not as the working directory")
    func emptyPath() {
        #expect(throws: CatalogReadError("the path is empty", at: SourceLocation(path: "''"))) {
            try FileLoading.data(at: URL(fileURLWithPath: ""), displayPath: "")
        }
    }

    @Test("libxml2 messages that name its options or limits", arguments: [
        ("Excessive depth in document: 256 use XML_PARSE_HUGE option", "the document is nested too deeply (more than 256 levels)"),
        ("Huge input lookup, use XML_PARSE_HUGE option", "Huge input lookup"),
        ("AttValue length too long", "an attribute value is too long"),
        ("Input is not proper UTF-8, indicate encoding ! Bytes: 0xE9 0x3C 0x2F 0x61",
         "the file is not UTF-8 text (byte 0xE9); save the file as UTF-8, or name its encoding in the XML declaration"),
        ("Opening and ending tag mismatch: a line 1 and b", "Opening and ending tag mismatch: a line 1 and b"),
    ])
    func libxml2Words(message: String, words: String) {
        #expect(XMLParseFailure.inUserWords(message) == words)
    }

    @Test("a file for a parser reads the same bytes read or mapped, empty or missing as before", arguments: [
        0, 1, 43_000, FileLoading.readLimit, FileLoading.readLimit + 1,
    ])
    func parsingData(size: Int) throws {
        let folder = try Fixtures.temporaryFolder(suffix: "-parsing-data")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("page.json")
        let bytes = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: file)

        let read = try FileLoading.parsingData(at: file, displayPath: "asc/page.json")
        let readByPath = try FileLoading.parsingData(atPath: folder.path + "/page.json", displayPath: "asc/page.json")

        #expect(read == bytes)
        #expect(readByPath == bytes)
        #expect(throws: CatalogReadError("the file does not exist", at: SourceLocation(path: "asc/gone.json"))) {
            try FileLoading.parsingData(at: folder.appendingPathComponent("gone.json"), displayPath: "asc/gone.json")
        }
        #expect(throws: CatalogReadError("is a directory, not a file", at: SourceLocation(path: "asc/sub"))) {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"),
                                                    withIntermediateDirectories: true)
            _ = try FileLoading.parsingData(atPath: folder.path + "/sub", displayPath: "asc/sub")
        }
    }

    @Test("a read sized for a wrong expectation still reads the whole file, or exactly the prefix asked for",
          arguments: [0, 1, 10, 199_999, 200_000, 1_000_000])
    func readWithExpectation(expected: Int) throws {
        let folder = try Fixtures.temporaryFolder(suffix: "-read")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("page.json")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
        try bytes.write(to: file)
        func read(limit: Int, whole: Bool) throws -> Data {
            let descriptor = try FileLoading.open(file, displayPath: "page.json")
            defer { close(descriptor) }
            return try FileLoading.read(descriptor, upTo: limit, displayPath: "page.json", whole: whole,
                                        expecting: expected)
        }

        #expect(try read(limit: FileLoading.streamLimit, whole: true) == bytes)
        #expect(try read(limit: 70_000, whole: false) == bytes.prefix(70_000))
    }
}
