import ArgumentParser
import CatalogCore

/// `--as-of YYYY-MM-DD`: the day scheduled prices and `ignore … until` dates are evaluated at.
struct AsOfOption: ParsableArguments {
    @Option(name: .customLong("as-of"),
            help: ArgumentHelp("The day scheduled prices and ignore dates are evaluated at (default: today, UTC).",
                               valueName: "YYYY-MM-DD"))
    var asOf: CalendarDate?

    /// The day given, or today in UTC.
    func day() throws -> CalendarDate {
        guard let day = asOf ?? CalendarDate.todayUTC else {
            throw ValidationError("cannot tell today's date; pass --as-of")
        }
        return day
    }
}
