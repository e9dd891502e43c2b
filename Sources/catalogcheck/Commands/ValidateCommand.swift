import ArgumentParser
import CatalogCore
import CatalogFormats
import Foundation

/// `catalogcheck validate`: the config, the rules file and the baseline checked on their own, without a store
/// (DESIGN.md §2), as a pre-commit hook or an editor would: every problem of each, then exit 2, or a line per
/// file and exit 0.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the product config, the rules file and a baseline on their own, without a store.",
        discussion: """
            Reads each file given (and the nearest .catalogcheck.yml when --rules is not given) as check would, \
            and prints every problem of each, one line naming file:line:column. Exit 0 when all are valid, 2 \
            when one is not. No store is read.
            """
    )

    @Option(name: .long, help: ArgumentHelp(
        "The internal product config (YAML or JSON): a path, git:REV:PATH, or - for standard input.",
        valueName: "file"), completion: .file())
    var config: String?

    @Option(name: .long, help: ArgumentHelp(
        "The rules file (default: .catalogcheck.yml in the working directory or a parent, up to the repository root).",
        valueName: "file"), completion: .file(extensions: ["yml", "yaml"]))
    var rules: String?

    @Option(name: .long, help: ArgumentHelp("A baseline file (written by check --update-baseline).",
                                            valueName: "file"), completion: .file())
    var baseline: String?

    @OptionGroup var date: AsOfOption

    /// Nothing to validate is a usage error of `validate` itself, found before `run()`, so that ArgumentParser
    /// prints validate's own usage with it (an error thrown from `run()` would come with the root command's).
    func validate() throws {
        guard config != nil || rules != nil || baseline != nil || RulesFileLocator.nearest() != nil else {
            throw ValidationError("nothing to validate: give --config, --rules or --baseline (no .catalogcheck.yml "
                                  + "was found in the working directory or a parent either)")
        }
    }

    func run() throws {
        let console = Console()
        let day = try date.day()
        let rulesFile = rules ?? RulesFileLocator.nearest()
        var valid: [String] = []
        var failed = false
        /// Runs one file's read: its problems are printed and the others are still read.
        func validating(_ body: () throws -> String) throws {
            do {
                valid.append(try reportingInputErrors(console, body))
            } catch let exit as ExitCode where exit == Exit.cannotCheck {
                failed = true
            }
        }
        if let config {
            try validating {
                let input = try InputSource(config).resolve(as: .config)
                let catalog = try CatalogLoader(options: ReadOptions(asOf: day)).load(input)
                return "\(input.displayPath): valid config, \(Self.plural(catalog.products.count, "product"))"
            }
        }
        if let rulesFile {
            try validating {
                _ = try RulesFileReader().read(contentsOf: URL(fileURLWithPath: rulesFile), displayPath: rulesFile)
                return "\(rulesFile): valid rules file"
            }
        }
        if let baseline {
            try validating {
                let read = try BaselineReader().read(contentsOf: URL(fileURLWithPath: baseline), displayPath: baseline)
                return "\(baseline): valid baseline, \(Self.plural(read.entries.count, "entry", "entries"))"
            }
        }
        if failed { throw Exit.cannotCheck }
        try console.emit(valid.joined(separator: "\n") + "\n", to: .standardOutput)
    }

    private static func plural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
        "\(count) \(count == 1 ? one : many ?? one + "s")"
    }
}
