import Foundation
import TestSupport
import Testing
@testable import CatalogFormats

/// The mapping file's JSON Schema (`catalogs/schema/catalogcheck-map-v1.schema.json`) describes what the reader
/// takes: its keys are the reader's, and the mappings the reader reads validate.
@Suite struct MappingSchemaTests {
    static let schema = Fixtures.repositoryRoot.appendingPathComponent("catalogs/schema/catalogcheck-map-v1.schema.json")

    @Test func theSchemaListsExactlyTheReadersKeys() throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schema)) as? [String: Any])
        let properties = try #require(object["properties"] as? [String: Any])

        #expect(object["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(Set(properties.keys) == Set(MappingFile.keys + ["$schema"]))
        #expect(object["required"] as? [String] == ["version", "source", "products", "id"])
    }

    @Test(.enabled(if: PythonJSONSchema.isAvailable, "needs python3 with jsonschema and PyYAML"))
    func theMappingsTheReaderReadsValidate() throws {
        let files = [Fixtures.catalog("demo/server/catalogcheck.map.yml")]
            + ["server-config", "remote-config-ios", "remote-config-all", "value-map-miss"].map {
                Fixtures.url("mapping/\($0).map.yml")
            }
        try PythonJSONSchema.expect("valid", files: files, schema: Self.schema)
    }
}
