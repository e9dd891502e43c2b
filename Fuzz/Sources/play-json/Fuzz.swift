import CatalogFormats
import FuzzSupport

/// The Play Developer API / gpp JSON reader, one document from memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    guard let options = FuzzInput.options else { return 0 }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try PlayJSONReader().read(data: data, displayPath: "products.json", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
