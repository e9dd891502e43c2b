import CatalogFormats
import FuzzSupport

/// The Transporter metadata.xml reader (libxml2's SAX2 parser), in memory.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let options = FuzzInput.options else { return 0 }
    let data = FuzzInput.data(bytes, count)
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try AppStoreMetadataReader().read(data: data, displayPath: "metadata.xml", options: options)
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
