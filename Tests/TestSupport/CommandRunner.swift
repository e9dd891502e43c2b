import Foundation

/// The result of running the built `catalogcheck` binary.
public struct CommandResult: Sendable {
    /// Exit status.
    public var exitCode: Int32
    /// Everything written to standard output.
    public var stdout: String
    /// Everything written to standard error.
    public var stderr: String
}

/// Runs the `catalogcheck` executable that `swift build` / `swift test` put next to the test bundle.
public enum CommandRunner {
    /// The built products folder (`.build/<triple>/debug`).
    public static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        #endif
        return Bundle.main.bundleURL
    }

    /// Runs `catalogcheck <arguments>` (or `executable`, e.g. a shell) in `directory` (default: the repository
    /// root) with a clean environment (no `NO_COLOR` surprises: colors are off because the output is a pipe).
    public static func run(
        _ arguments: [String], in directory: URL = Fixtures.repositoryRoot, environment: [String: String] = [:],
        executable: URL? = nil
    ) throws -> CommandResult {
        let process = Process()
        process.executableURL = executable ?? productsDirectory.appendingPathComponent("catalogcheck")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes concurrently so a large output cannot block the child.
        let errData = LockedData()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData.set(err.fileHandleForReading.readDataToEndOfFile())
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return CommandResult(
            exitCode: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) { lock.lock(); data = value; lock.unlock() }
    func get() -> Data { lock.lock(); defer { lock.unlock() }; return data }
}
