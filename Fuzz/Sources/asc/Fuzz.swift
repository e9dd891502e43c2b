import CatalogFormats
import FuzzSupport

/// The App Store Connect API JSON reader (a document or an array of documents).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    guard let options = FuzzInput.options else { return 0 }
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try AppStoreConnectReader().read(data: data, displayPath: "asc.json", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
