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

/// A `--store-format` value: a format a store input can be. The config's own format (`catalog`) and the formats
/// that are only ever the declared side (`revenuecat`, `map`: `--config FORMAT:PATH`, DESIGN.md §4b) are left
/// out: a store read as one of them is always refused ("a product config, not a store catalog", DESIGN.md §2;
/// "a declared catalog, not a store catalog"), so the help and the shell completion would offer a value that
/// can only fail.
struct StoreFormat: ExpressibleByArgument {
    /// The format named.
    let format: CatalogFormat

    /// Whether `--store-format` offers `format`: one decision for parsing, the help and the completion.
    static func offers(_ format: CatalogFormat) -> Bool { format != .catalog && !format.isDeclaredOnly }

    init?(argument: String) {
        guard let format = CatalogFormat(rawValue: argument), Self.offers(format) else { return nil }
        self.format = format
    }

    static var allValueStrings: [String] {
        CatalogFormat.allCases.filter(Self.offers).map(\.rawValue)
    }

    /// The shell completion offers the same list as the help.
    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
