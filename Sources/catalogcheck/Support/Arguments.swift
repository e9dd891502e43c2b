import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports
import Foundation

extension CatalogFormat: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}

extension CalendarDate: ExpressibleByArgument {
    /// Parses `--as-of YYYY-MM-DD`.
    public init?(argument: String) {
        guard argument.utf8.count == 10 else { return nil }
        self.init(iso: argument)
    }

    /// Today in UTC.
    static var todayUTC: CalendarDate? { CalendarDate(utc: Date()) }
}

extension CurrencyCode: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument.uppercased())
    }
}

extension InputSource: ExpressibleByArgument {
    /// A `--store` value: any input spelling (`PATH`, `FORMAT:PATH`, `git:REV:PATH`, `-`); empty is refused.
    public init?(argument: String) {
        guard !argument.isEmpty else { return nil }
        self.init(argument)
        if case .path(let path) = origin, path.isEmpty { return nil }
    }
}

/// Parses `--territory US,GB,DEU`.
func parseTerritories(_ values: [String]) throws -> Set<Territory>? {
    let codes = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
    guard !codes.isEmpty else { return nil }
    var territories: Set<Territory> = []
    for code in codes {
        guard let territory = Territory(code: code.uppercased()) else {
            throw ValidationError("'\(code)' is not an ISO 3166-1 territory code (e.g. US, GB, DEU)")
        }
        territories.insert(territory)
    }
    return territories
}

/// A `--store-format` value: a format a store input can be. The config's own format (`catalog`) is left out: a
/// store read as a config is always refused ("a product config, not a store catalog", DESIGN.md §2), so the help
/// and the shell completion would offer a value that can only fail.
struct StoreFormat: ExpressibleByArgument {
    /// The format named.
    let format: CatalogFormat

    init?(argument: String) {
        guard let format = CatalogFormat(rawValue: argument), format != .catalog else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] {
        CatalogFormat.allCases.filter { $0 != .catalog }.map(\.rawValue)
    }

    /// The shell completion offers the same list as the help.
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
