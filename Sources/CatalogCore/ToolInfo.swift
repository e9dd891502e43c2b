/// The tool as its outputs name it: reports (SARIF, JUnit, HTML, Markdown), `--version`, `fetch`'s user agent.
/// In the core, below every module that writes it, so no folder that prints it depends on another for it.
public enum ToolInfo {
    /// The executable's name.
    public static let name = "catalogcheck"
    /// The version: the one place it is written (`catalogcheck --version`, SARIF `tool.driver.version`, the HTML
    /// report's footer; `scripts/release` names the archives after it, and `.ci/run` checks CHANGELOG.md and the
    /// templates against it).
    public static let version = "1.0.0"
    /// Where the rules are documented (SARIF `tool.driver.informationUri`).
    public static let informationURI = "https://github.com/catalogcheck/catalogcheck"
}
