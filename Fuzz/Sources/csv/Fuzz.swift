import CatalogFormats
import FuzzSupport

/// The Play Console one-time products CSV reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    guard let options = FuzzInput.options else { return 0 }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try PlayCSVReader().read(data: data, displayPath: "products.csv", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
