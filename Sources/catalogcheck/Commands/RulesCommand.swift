import ArgumentParser
import CatalogCore

/// `catalogcheck rules [RULE-ID]`: the rules with their default severity and what they check.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules with their default severity, or explain one rule."
    )

    @Argument(help: ArgumentHelp("A rule ID, e.g. price-mismatch.", valueName: "rule-id"),
                                 completion: .list(Rule.allCases.map(\.rawValue)))
    var ruleID: String?

    func validate() throws {
        guard let ruleID, Rule(rawValue: ruleID) == nil else { return }
        let known = Rule.allCases.map(\.rawValue)
        // A typo (`price-mismach`) first, then a part of an ID (`mismatch`).
        let suggestion = NearMatch.best(for: ruleID, among: known)
            ?? known.first { $0.hasPrefix(ruleID) || ruleID.hasPrefix($0) || $0.contains(ruleID) }
        throw ValidationError("unknown rule '\(ruleID)'"
            + (suggestion.map { "; did you mean '\($0)'?" } ?? "") + " Run `catalogcheck rules` for the list.")
    }

    func run() throws {
        if let ruleID, let rule = Rule(rawValue: ruleID) {
            try Console().emit("""
                \(rule.rawValue) (\(rule.defaultSeverity.rawValue))
                \(rule.summary)
                \(rule.explanation)

                """, to: .standardOutput)
            return
        }
        let width = Rule.allCases.map(\.rawValue.count).max() ?? 0
        let lines = Rule.allCases.map { rule in
            let name = rule.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
            let severity = rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
            return "\(name)  \(severity)  \(rule.summary)"
        }
        try Console().emit(lines.joined(separator: "\n") + "\n", to: .standardOutput)
    }
}
