import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a credential file. Errors name the file and what it should be, never its contents.
enum KeyFile {
    /// The file's text, and a warning when group or others may read it (as `ssh` warns of a private key).
    static func read(_ path: String, what: String) throws(FetchError) -> (text: String, warning: String?) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw FetchError.credentials("cannot read the \(what) \(path): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw FetchError.credentials("the \(what) \(path) is not a regular file")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
        else {
            throw FetchError.credentials("cannot read the \(what) \(path): not a readable UTF-8 text file")
        }
        let mode = info.st_mode & 0o777
        let warning = mode & 0o077 == 0 ? nil : """
            the \(what) \(path) is readable by group or others (mode \(String(mode, radix: 8))); \
            restrict it with chmod 600 \(path)
            """
        return (text, warning)
    }

    /// Whether `url` may receive a credential: HTTPS, or plain HTTP to this machine (the tests' fake server).
    static func isTrusted(_ url: URL) -> Bool {
        switch url.scheme?.lowercased() {
        case "https": return url.host != nil
        case "http": return ["127.0.0.1", "localhost", "::1", "[::1]"].contains(url.host ?? "")
        default: return false
        }
    }
}
