import CatalogCore
import CatalogFormats
import CFuzzerDriver
import Foundation

/// The libFuzzer callback: `LLVMFuzzerTestOneInput`.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

/// Starts libFuzzer from an entry point's `@main`.
public enum FuzzDriver {
    /// Runs libFuzzer with the command line (`-max_total_time`, corpus folders, …) and exits with its status.
    public static func main(_ callback: FuzzCallback) -> Never {
        exit(catalogcheck_fuzz_main(CommandLine.argc, CommandLine.unsafeArgv, callback))
    }
}

/// What every fuzz entry point needs: the input as `Data`, fixed read options, and a temporary file for the
/// readers that only read files.
public enum FuzzInput {
    /// The options every reader gets: a fixed `--as-of` so runs are reproducible, and a Play home currency so the
    /// CSV reader's single-price path is exercised too.
    /// (Optional only because the date initializer is failable; it never is nil.)
    public static let options: ReadOptions? = CalendarDate(year: 2026, month: 11, day: 22).map {
        ReadOptions(asOf: $0, playCurrency: CurrencyCode("USD"))
    }

    /// Copies libFuzzer's bytes (which it owns) into `Data`.
    public static func data(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Data {
        guard let bytes, count > 0 else { return Data() }
        return Data(bytes: bytes, count: count)
    }

    /// Runs one read; a `CatalogReadError` is the expected outcome for bad input, anything else (a trap, an
    /// out-of-bounds access, a leak) is a bug libFuzzer reports. Always returns 0, as libFuzzer requires.
    public static func run(_ read: () throws(CatalogReadError) -> Void) -> Int32 {
        do {
            try read()
        } catch {
            // A clean error: what bad input must give. Touch the message so building it is fuzzed too.
            _ = error.description.count
        }
        return 0
    }
}
