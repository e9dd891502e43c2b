import CatalogFormats
import FuzzSupport

/// The rules file (`.catalogcheck.yml`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = FuzzInput.data(bytes, count)
    return FuzzInput.run { () throws(CatalogReadError) in
        _ = try RulesFileReader().read(data: data, displayPath: ".catalogcheck.yml")
    }
}

/// libFuzzer's command line; see `FuzzDriver`.
@main
enum FuzzMain {
    static func main() {
        FuzzDriver.main(fuzzOneInput)
    }
}
