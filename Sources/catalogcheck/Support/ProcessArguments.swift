/// The process's own arguments, checked before anything is parsed. On Linux, Swift's runtime finds `argv` by
/// reading `/proc/self/maps` (the stack it walks back from `environ`: swiftlang/swift,
/// stdlib/public/CommandLineSupport/CommandLine.cpp); where `/proc` is not mounted (a bare chroot, some build
/// sandboxes) it finds none, not even the program's name, and `CommandLine.arguments` is empty. Parsed as given,
/// that is the root command with nothing to do: help on standard output and exit 0, a gate that passes without
/// checking anything. So no arguments at all is exit 2, saying why.
enum ProcessArguments {
    /// The error line for `arguments` (`CommandLine.arguments`) when they cannot be what the user typed; nil
    /// otherwise. Any real invocation has at least the program's name.
    static func problem(in arguments: [String]) -> String? {
        guard arguments.isEmpty else { return nil }
        return "catalogcheck: error: cannot read its command-line arguments: Swift's runtime reads them through "
            + "/proc/self/maps, and /proc is not mounted here; nothing was checked. Mount /proc (in a chroot: "
            + "mount -t proc proc /proc; containers have it) and run again."
    }
}
