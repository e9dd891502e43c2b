import CatalogFormats
import FuzzSupport

/// The reader only reads files, so every input is written to one temporary file per process.
let file = FuzzFile(name: "Products.plist")

/// The property list reader.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let options = FuzzInput.options, file.write(FuzzInput.data(bytes, count)) else { return 0 }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try PlistReader().read(contentsOf: file.url, displayPath: "Products.plist", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
