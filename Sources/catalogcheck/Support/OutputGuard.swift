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

/// Refuses an output that is the same file as an input of the run — directly, through `..`, a symbolic link or
/// a hard link (DESIGN.md §2 "Output files"): checked before anything is read or written, so a typo in
/// `--output` never destroys the config or a store catalog. An output that does not exist yet is no input.
enum OutputGuard {
    /// Exits 2 naming both when an output is an input.
    static func refuseOverwriting(_ inputs: [RunInput], outputs: [String], console: Console) throws {
        for output in outputs {
            guard let identity = FileIdentity.of(path: output),
                  let input = inputs.first(where: { $0.files.contains(identity) }) else { continue }
            let what = input.files.count > 1 ? "a file of \(input.role) \(input.displayPath)"
                : "\(input.role) \(input.displayPath)"
            console.error("\(output): error: cannot write: it is \(what) (the same file); an output never replaces "
                          + "an input")
            throw Exit.cannotCheck
        }
    }
}
