import CatalogFormats
import FuzzSupport

/// The product config in YAML (libyaml's events into config nodes, then the config validator).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try ProductConfigReader().read(data: data, displayPath: "products.yml")
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
