import ArgumentParser
import CatalogCore
import CatalogFetch
import CatalogReports
import Foundation

/// The options both stores share: where to write, how loud, and the test-only server and backoff.
struct FetchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The snapshot folder: created, or replaced when it holds an earlier snapshot.", valueName: "dir"),
        completion: .directory)
    var output: String

    @Flag(name: .long, help: "No progress on standard error (warnings and errors still show).")
    var quiet = false

    @Flag(name: .long, help: ArgumentHelp(
        "Continue an unfinished fetch (stopped by the hourly request budget, a network failure or Ctrl-C) from "
            + "the pages it already wrote to the hidden folder beside --output; no page is requested twice."))
    var resume = false

    /// Tests only: a local fake server's `scheme://host:port`; the API paths stay the real ones.
    @Option(name: .long, help: .hidden)
    var baseURL: String?

    /// Tests only: the first retry's backoff in milliseconds.
    @Option(name: .long, help: .hidden)
    var retryBaseDelayMs: Int?

    /// Tests only: each attempt's bound in milliseconds (60 s otherwise), so a stalling server is cut off fast.
    @Option(name: .long, help: .hidden)
    var requestTimeoutMs: Int?

    func validate() throws {
        if output == "-" {
            // Elsewhere `--output -` is standard output; a snapshot is a folder of pages and a manifest.
            throw ValidationError("--output -: fetch writes a snapshot folder, not standard output; give a folder "
                                  + "(e.g. --output snapshots/appstore)")
        }
        if let baseURL {
            guard let parts = URLComponents(string: baseURL), ["http", "https"].contains(parts.scheme ?? ""),
                  parts.host != nil, parts.path.isEmpty || parts.path == "/", parts.query == nil else {
                throw ValidationError("--base-url takes scheme://host[:port] only, not '\(baseURL)'")
            }
        }
    }

    /// The API's `scheme://host:port`: `--base-url`, or the real API.
    func base(default host: String) throws -> URL {
        var text = baseURL ?? host
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text) else { throw ValidationError("--base-url: not a URL: '\(text)'") }
        return url
    }

    /// `catalogcheck <version>`, for the manifest.
    static let tool = ToolInfo.name + " " + ToolInfo.version

    /// A credential from its flag, else its environment variable; missing is exit 2 saying how to pass it.
    static func credential(_ flag: String?, _ environment: String?, _ what: String, flag name: String,
                           variable: String) throws(FetchError) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let environment, !environment.isEmpty { return environment }
        throw FetchError.credentials("missing \(what): pass \(name) or set \(variable)")
    }
}
