import ArgumentParser
import CatalogCore
import CatalogFormats
import CatalogReports

/// `catalogcheck check`: the CI gate.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare the product config with one or more store catalogs; exit 1 when they disagree.",
        discussion: """
            Each --store is compared with the config on its own. A store's format is detected from its \
            extension and content; give it explicitly as --store FORMAT:PATH (e.g. play-json:play/), or with \
            --store-format when there is one store. Run `catalogcheck formats` for the formats.

            Severities, accepted drift (ignore entries with a reason and an expiry) and the territories to \
            compare come from .catalogcheck.yml (or --rules). --baseline FILE suppresses the findings recorded \
            in FILE; --update-baseline records today's findings there, so only new drift fails.

            --since CATALOG (a path, FORMAT:PATH, git:REV:PATH or -; typically git:origin/main:products.yml) \
            compares that earlier config with this one and adds the change rules: a subscription price that \
            changes without a priceChange decision for existing subscribers fails the check; App Store consent, \
            App Store decreases and Play cohort migrations are reported (docs/price-changes.md).
            """
    )

    @OptionGroup var inputs: CatalogInputOptions
    @OptionGroup var policy: PolicyOptions

    @Flag(name: .long, help: "Record the current findings in the --baseline file and exit 0.")
    var updateBaseline = false

    @Option(name: .long, help: ArgumentHelp(
        "Judge the price changes since this earlier config (PATH, FORMAT:PATH, git:REV:PATH or -) for existing "
            + "subscribers.", valueName: "catalog"))
    var since: String?

    @OptionGroup var reports: ReportOutputOptions
    @OptionGroup var destination: OutputOption
    @OptionGroup var date: AsOfOption

    func validate() throws {
        if updateBaseline && policy.baseline == nil {
            throw ValidationError("--update-baseline needs --baseline FILE: the file to write")
        }
        if updateBaseline && policy.baseline == "-" {
            throw ValidationError("--baseline - --update-baseline: the baseline is a file that later runs read with "
                                  + "--baseline FILE, not standard output; give its path")
        }
    }

    func run() throws {
        let console = Console()
        let day = try date.day()
        let reports = CheckReports(reports, output: destination, asOf: day)
        var checkRun = CheckRun(inputs: inputs, policy: policy, updatingBaseline: updateBaseline,
                                outputs: reports.targets, asOf: day)
        checkRun.since = since.map(InputSource.init)
        let run = try checkRun.run(console: console)
        // The reports asked for are written in a run that records the baseline too.
        try reports.write(run, console: console)

        if let baseline = checkRun.writtenBaseline, let path = policy.baseline {
            // From the whole result: --quiet trims what is shown, never what is recorded.
            let recorded = Baseline(path: path, recording: run.result)
            try console.emit(BaselineWriter().write(recorded), to: baseline.destination)
            console.error("\(path): recorded \(recorded.entries.count) findings; runs with --baseline \(path) "
                          + "fail only on new ones")
            return
        }
        if !run.result.isConsistent { throw Exit.inconsistent }
    }
}
