import ArgumentParser
import CatalogCore
import CatalogFormats

/// `catalogcheck formats`: the readable formats and how each is detected.
struct FormatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formats",
        abstract: "List the formats catalogcheck reads, with how each is detected."
    )

    func run() throws {
        let width = CatalogFormat.allCases.map(\.rawValue.count).max() ?? 0
        var lines: [String] = []
        for format in CatalogFormat.allCases {
            let name = format.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let store = format.store.map { " [\($0.rawValue)]" } ?? " [config]"
            lines.append("\(name)  \(FormatDetector.title(of: format))\(store)")
            lines.append(String(repeating: " ", count: width + 2) + "detected: " + FormatDetector.detectionRule(for: format))
        }
        lines.append("")
        lines.append("A folder is read as one catalog of one format: one holding catalogs of several formats (a")
        lines.append(".storekit file beside an asc/ folder, say) is refused; give one --store per catalog. A product")
        lines.append("config is never a store. --config takes any format named as FORMAT:PATH (storekit:App.storekit,")
        lines.append("play-json:DIR, …); revenuecat and map are declared catalogs, given only with --config.")
        try Console().emit(lines.joined(separator: "\n") + "\n", to: .standardOutput)
    }
}
