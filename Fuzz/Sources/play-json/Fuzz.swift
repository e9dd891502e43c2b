import CatalogFormats
import FuzzSupport

/// The reader only reads files, so every input is written to one temporary file per process.
let file = FuzzFile(name: "products.json")

/// The Play Developer API / gpp JSON reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let options = FuzzInput.options, file.write(FuzzInput.data(bytes, count)) else { return 0 }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try PlayJSONReader().read(contentsOf: file.url, displayPath: "products.json", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
