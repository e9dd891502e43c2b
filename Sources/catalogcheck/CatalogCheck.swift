import ArgumentParser

/// The root command.
@main
struct CatalogCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalogcheck",
        abstract: "Checks that your in-app products in the App Store / Google Play match your product config.",
        discussion: """
            Exit codes: 0 consistent, 1 inconsistent (a failing finding), 2 cannot check (unreadable or \
            invalid input), 64 usage error.
            """,
        version: "0.1.0",
        subcommands: [CheckCommand.self, ExportCommand.self, FormatsCommand.self, RulesCommand.self],
        defaultSubcommand: nil
    )
}
