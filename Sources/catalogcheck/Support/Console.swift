import CatalogReports
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where output goes: reports to standard output (or a file), diagnostics to standard error. Every report
/// write is checked (a failure is exit 2); diagnostics are best effort, since there is nowhere left to say
/// that standard error is gone.
struct Console {
    /// Whether standard output is a terminal that wants colors (`NO_COLOR` and `--no-color` turn them off).
    static func wantsColors(noColorFlag: Bool) -> Bool {
        if noColorFlag { return false }
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(STDOUT_FILENO) != 0
    }

    /// Writes a report to its destination; a write error is printed and becomes exit 2.
    func emit(_ text: String, to destination: OutputDestination) throws {
        try emit(to: destination) { sink throws(OutputError) in try sink.write(text.utf8) }
    }

    /// Writes a report that `produce` writes piece by piece (an export too large to hold whole), as
    /// `emit(_:to:)` writes its text.
    func emit(to destination: OutputDestination, _ produce: OutputFile.Producer) throws {
        do {
            switch destination {
            case .file(let path): try OutputFile.write(to: path, produce)
            case .standardOutput: try OutputFile.writeStandardOutput(produce)
            }
        } catch {
            self.error(error.message)
            throw Exit.cannotCheck
        }
    }

    /// Writes a diagnostic line to standard error, with control characters made visible.
    func error(_ line: String) {
        let bytes = Array((TerminalEscaper.escape(line) + "\n").utf8)
        bytes.withUnsafeBytes { buffer in
            _ = write(STDERR_FILENO, buffer.baseAddress, buffer.count)
        }
    }
}
