/// An output path split as the kernel reads it — the folder that holds it and its last component — by plain
/// byte work on the spelling. Foundation's path helpers are not used here, for two reasons:
/// `NSString.deletingLastPathComponent` traps (SIGILL) on a one-character relative path such as `r` or `r/`
/// (`String._startOfLastPathComponent` in swift-corelibs-foundation, Swift 6.3.1), which turned every
/// `--output r` into a crash; and `URL(fileURLWithPath:)` removes `.` and `..` by text, where the kernel follows a
/// symbolic link before `..`, so its parent can be another folder than the one the kernel writes in.
struct OutputPath: Hashable, Sendable {
    /// The folder that holds the last component, as spelled: `.` for a bare name (`r`), `/` at the root.
    let folder: String
    /// The last component, without slashes; empty only for the root.
    let name: String
    /// Whether the spelling ends in `/`, which names a folder (`r/`).
    let endsInSlash: Bool

    /// Splits `path` (not empty) at its last slash, ignoring trailing ones.
    init(_ path: String) {
        let slash = UInt8(ascii: "/")
        var bytes = Array(path.utf8)
        var trailing = false
        while bytes.count > 1, bytes.last == slash {
            bytes.removeLast()
            trailing = true
        }
        endsInSlash = trailing
        guard let last = bytes.lastIndex(of: slash) else {
            folder = "."
            name = String(decoding: bytes, as: UTF8.self)
            return
        }
        name = String(decoding: bytes[(last + 1)...], as: UTF8.self)
        var parent = bytes[..<last]
        while parent.count > 1, parent.last == slash { parent.removeLast() }
        folder = parent.isEmpty ? "/" : String(decoding: parent, as: UTF8.self)
    }

    /// A sibling of the path in the same folder, hidden, whose name says what it is for: `rename(2)` replaces the
    /// path with it atomically only within one folder. Kept within the file system's 255-byte name limit.
    func hiddenSibling(suffix: String) -> String {
        let stem = name.utf8.count + suffix.utf8.count <= 200 ? name : "output"
        return (folder == "/" ? "" : folder) + "/." + stem + suffix
    }
}
