import CatalogFormats
import FuzzSupport

/// The reader only reads files, so every input is written to one temporary file per process.
let file = FuzzFile(name: "products.csv")

/// The Play Console one-time products CSV reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let options = FuzzInput.options, file.write(FuzzInput.data(bytes, count)) else { return 0 }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try PlayCSVReader().read(contentsOf: file.url, displayPath: "products.csv", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
