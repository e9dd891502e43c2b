import ArgumentParser
import CatalogFormats

/// The exit codes, in one place (a public contract: DESIGN.md §3). Usage errors (64) stay with ArgumentParser.
enum Exit {
    /// Inconsistent: at least one failing finding.
    static let inconsistent = ExitCode(1)
    /// Cannot check: unreadable, malformed or invalid input.
    static let cannotCheck = ExitCode(2)
    /// A usage error found only once the inputs are resolved (one store given twice): ArgumentParser's 64, with
    /// one line on standard error instead of the root command's usage.
    static let usage = ExitCode.validationFailure
}

/// Runs `body`; an input error is printed to standard error, one compiler-style line per problem (a config, rules
/// file or baseline reports every problem it has, then how many more there are), and becomes exit 2.
func reportingInputErrors<T>(_ console: Console, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as CatalogReadError {
        for line in error.lines {
            console.error(line)
        }
        throw Exit.cannotCheck
    }
}
