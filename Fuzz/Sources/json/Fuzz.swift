@testable import CatalogFormats
import Foundation
import FuzzSupport

/// The JSON tape parser and every accessor over what it parses, then the product config's JSON syntax (a
/// `.json` path selects it) over the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    _ = FuzzInput.run { () throws(CatalogReadError) in
        let document = try JSONDocument(data: data, path: "t.json")
        visit(document.root, in: document)
    }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try ProductConfigReader().read(data: data, displayPath: "products.json")
    }
}

/// Reads a value through every accessor; a member found by iteration must be found by key lookup too (the
/// parser rejects duplicate keys), and an array's count is the number of elements walked.
func visit(_ value: JSONValue, in document: JSONDocument) {
    _ = document.location(of: value)
    _ = describeForMessage(value)
    _ = (value.typeName, value.string, value.numberText, value.int, value.bool, value.isNull, value.offset)
    if let members = value.members {
        for member in members {
            _ = document.location(of: member)
            let key = member.key
            precondition(value[key]?.index == member.value.index, "key lookup disagrees with iteration: \(key)")
            visit(member.value, in: document)
        }
    }
    if let elements = value.elements {
        var walked = 0
        for element in elements {
            walked += 1
            visit(element, in: document)
        }
        precondition(walked == elements.count)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
