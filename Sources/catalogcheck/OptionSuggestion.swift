import ArgumentParser
import CatalogCore

/// "Did you mean" for a mistyped long option, when ArgumentParser's parse fails: it suggests one for an unknown
/// option (`--strcit`), but when a required option is mistyped (`--confg`) it reports the required one as
/// missing instead, which sends the user looking for the wrong mistake (swiftlint, terraform and git all name
/// the near option). Only an unknown option with a near known one (NearMatch: case-insensitive or at most two
/// edits) is reported here; anything else is left to ArgumentParser.
enum OptionSuggestion {
    /// Root options every command accepts, and ArgumentParser's own that no help screen lists.
    private static let alwaysKnown: Set<String> = [
        "--help", "--version", "--generate-completion-script", "--experimental-dump-help",
    ]

    /// The error lines for `arguments` (without the executable) when one is an unknown long option with a
    /// near known option of its command; nil otherwise.
    static func message(for arguments: [String]) -> String? {
        // The command the arguments name (`fetch play`: a subcommand's subcommand).
        var command: ParsableCommand.Type = CatalogCheck.self
        var names: [String] = []
        for argument in arguments {
            guard let next = command.configuration.subcommands.first(where: { $0._commandName == argument })
            else { break }
            command = next
            names.append(argument)
        }
        guard !names.isEmpty else { return nil }
        let name = names.joined(separator: " ")
        let known = knownOptions(of: command)
        for argument in arguments.dropFirst(names.count) {
            if argument == "--" { break }
            guard argument.hasPrefix("--") else { continue }
            let option = String(argument.prefix { $0 != "=" })
            guard !known.contains(option),
                  let suggestion = NearMatch.best(for: option, among: known.sorted()) else { continue }
            return """
                Error: Unknown option '\(option)'. Did you mean '\(suggestion)'?
                Usage: \(CatalogCheck.usageString(for: command))
                  See 'catalogcheck \(name) --help' for more information.
                """
        }
        return nil
    }

    /// The long options a command's help screen names, hidden ones included (every `--name` in it; a name its
    /// discussion mentions only makes an option count as known, never suggests a wrong one).
    private static func knownOptions(of command: ParsableCommand.Type) -> Set<String> {
        let help = CatalogCheck.helpMessage(for: command, includeHidden: true, columns: 10_000)
        var names = alwaysKnown
        let tokens = help.split { !($0.isLetter || $0.isNumber || $0 == "-") }
        for token in tokens where token.hasPrefix("--") && token.dropFirst(2).first?.isLetter == true {
            names.insert(String(token.hasSuffix("-") ? token.dropLast() : token))
        }
        return names
    }
}
