import Foundation

/// Where output goes: reports to standard output (or a file), diagnostics to standard error.
struct Console {
    /// Whether standard output is a terminal that wants colors (`NO_COLOR` and `--no-color` turn them off).
    static func wantsColors(noColorFlag: Bool) -> Bool {
        if noColorFlag { return false }
        if let value = ProcessInfo.processInfo.environment["NO_COLOR"], !value.isEmpty { return false }
        return isatty(FileHandle.standardOutput.fileDescriptor) != 0
    }

    /// Writes a report to standard output.
    func output(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a diagnostic line to standard error.
    func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes a report to a file, atomically (a reader never sees half a report).
    func write(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            self.error("\(path): error: cannot write the report: \(error.localizedDescription)")
            throw Exit.cannotCheck
        }
    }
}
