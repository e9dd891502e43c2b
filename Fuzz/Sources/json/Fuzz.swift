import CatalogFormats
import FuzzSupport

/// The JSON parser, through the product config's JSON syntax (a `.json` path selects it).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try ProductConfigReader().read(data: data, displayPath: "products.json")
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
