import CatalogFormats

/// One input of a run, as far as outputs care: what it is called and which files it is made of.
struct RunInput {
    /// What the input is, for the message (`the config`, `the store`, `the rules file`).
    let role: String
    /// The input as the user spelled it.
    let displayPath: String
    /// Its files (a folder's: every file below it).
    let files: Set<FileIdentity>

    /// A resolved catalog input.
    init(_ input: ResolvedInput) {
        switch input.role {
        case .config: role = "the config"
        case .store: role = "the store"
        case .catalog: role = "the input"
        }
        displayPath = input.displayPath
        files = input.files
    }

    /// A file read by path (the rules file, a baseline): nil when nothing is there.
    init?(role: String, path: String) {
        guard let identity = FileIdentity.of(path: path) else { return nil }
        self.role = role
        displayPath = path
        files = [identity]
    }
}

/// Guards the outputs of a run before anything is read or written (DESIGN.md §2 "Output files"): an output
/// that is the same file as an input — directly, through `..`, a symbolic link or a hard link — is refused, so a
/// typo in `--output` never destroys the config or a store catalog; and two outputs that write one file, or both
/// standard output, are a usage error, so no report is silently written over another.
enum OutputGuard {
    /// Exits 2 naming both when an output is an input. An output that does not exist yet is no input.
    static func refuseOverwriting(_ inputs: [RunInput], outputs: [OutputTarget], console: Console) throws {
        for case .file(let output) in outputs.map(\.destination) {
            guard let identity = FileIdentity.of(path: output),
                  let input = inputs.first(where: { $0.files.contains(identity) }) else { continue }
            let what = input.files.count > 1 ? "a file of \(input.role) \(input.displayPath)"
                : "\(input.role) \(input.displayPath)"
            console.error("\(output): error: cannot write: it is \(what) (the same file); an output never replaces "
                          + "an input")
            throw Exit.cannotCheck
        }
    }

    /// Exits 64 naming both options when two outputs write one file (whatever the spellings: `./r`, a symbolic
    /// or a hard link) or both write to standard output.
    static func refuseSharedTargets(_ outputs: [OutputTarget], console: Console) throws {
        var seen: [OutputIdentity: OutputTarget] = [:]
        for output in outputs {
            let identity = OutputIdentity(output.destination)
            guard let first = seen[identity] else {
                seen[identity] = output
                continue
            }
            let clash = identity == .standardOutput ? "both write to standard output; write one of them to a file"
                : "write the same file; give each output its own file"
            console.error("Error: \(first.option) and \(output.option) \(clash)")
            throw Exit.usage
        }
    }
}

/// Which file an output writes, whatever its spelling: an existing file by device and inode (so `./r`, a
/// symbolic link and a hard link to it are one), a new one by its folder's device and inode and its name.
private enum OutputIdentity: Hashable {
    /// Standard output.
    case standardOutput
    /// A file that exists (links followed).
    case existing(FileIdentity)
    /// A file to be created: its name in a folder that exists.
    case new(folder: FileIdentity, name: String)
    /// Neither: a path whose folder cannot be examined (writing it then fails and says why).
    case spelled(String)

    init(_ destination: OutputDestination) {
        guard case .file(let path) = destination else {
            self = .standardOutput
            return
        }
        if let file = FileIdentity.of(path: path) {
            self = .existing(file)
            return
        }
        let parts = OutputPath(path)
        if let folder = FileIdentity.of(path: parts.folder) {
            self = .new(folder: folder, name: parts.name)
        } else {
            self = .spelled(path)
        }
    }
}
