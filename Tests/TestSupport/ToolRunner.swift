import Foundation

/// Runs an installed tool (found on `PATH` through `/usr/bin/env`) with the test process's environment, for
/// tests that check output with outside validators (`python3`, `check-jsonschema`).
public enum ToolRunner {
    /// Runs `arguments[0]` with the rest as its arguments; returns the exit status and stdout and stderr together.
    public static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
