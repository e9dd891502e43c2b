import ArgumentParser
import CatalogReports
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The root command.
@main
struct CatalogCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogcheck",
        abstract: "Checks that your in-app products in the App Store / Google Play match your product config.",
        discussion: """
            Exit codes: 0 consistent, 1 inconsistent (a failing finding), 2 cannot check (unreadable or \
            invalid input, or an output that could not be written), 64 usage error.
            """,
        version: BuildCommit.versionLine,
        subcommands: [CheckCommand.self, DiffCommand.self, ReportCommand.self, ValidateCommand.self, FetchCommand.self,
                      ExportCommand.self, FormatsCommand.self, RulesCommand.self],
        defaultSubcommand: nil
    )

    /// Ignores SIGPIPE, so a reader that goes away mid-report makes a write fail (exit 2, said on standard
    /// error) instead of killing the process silently.
    static func main() {
        signal(SIGPIPE, SIG_IGN)
        // Without its arguments a run would check nothing and exit 0: it stops here, exit 2 (cannot check).
        if let problem = ProcessArguments.problem(in: CommandLine.arguments) {
            Console().error(problem)
            Self.exit(withError: Exit.cannotCheck)
        }
        // What `main(nil)` does, with one step between a failed parse and its error: a mistyped option near a
        // known one is named as such, also when the known one is required. The suggestion is looked for only
        // then (it renders the command's help), and a parse that succeeds has run every `validate()` once.
        let arguments = Array(CommandLine.arguments.dropFirst())
        var command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            if let message = OptionSuggestion.message(for: arguments) {
                for line in message.split(separator: "\n") { Console().error(String(line)) }
                Self.exit(withError: ExitCode.validationFailure)
            }
            Self.exit(withError: error)
        }
        do {
            try command.run()
        } catch {
            Self.exit(withError: error)
        }
    }
}
