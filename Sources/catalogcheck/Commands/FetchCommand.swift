import ArgumentParser
import CatalogFetch
import CatalogReports
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `catalogcheck fetch appstore|play`: a snapshot of the live store catalog that the readers read (DESIGN.md §2b).
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Write a snapshot of the live App Store Connect or Google Play catalog into a folder.",
        discussion: """
            The folder holds the store's API responses, unchanged (every page), and a .fetch.json manifest; \
            check, diff, report and export read it offline (--store asc-json:DIR, --store play-json:DIR). The \
            folder is replaced only when the whole fetch succeeded. Credentials are never printed or written.

            Exit codes: 0 written, 2 missing or refused credentials, network failure, or an unwritable folder.
            """,
        subcommands: [AppStore.self, Play.self]
    )

    /// `fetch appstore`.
    struct AppStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "appstore",
            abstract: "Fetch an app's in-app purchases and subscriptions from the App Store Connect API.",
            discussion: """
                Reads the app's in-app purchases with their price schedules, its subscription groups and \
                subscriptions with current and scheduled prices (price points, territories) and introductory \
                offers. The API key needs the App Manager role (or Admin).

                Examples:
                  catalogcheck fetch appstore --key-id 2X9R4HXF34 \\
                    --issuer-id 57246542-96fe-1a63-e053 \\
                    --private-key AuthKey_2X9R4HXF34.p8 --app 1234567890 --output asc
                  export ASC_KEY_ID=2X9R4HXF34 ASC_ISSUER_ID=57246542-96fe-1a63-e053
                  export ASC_PRIVATE_KEY_PATH=$HOME/keys/AuthKey_2X9R4HXF34.p8
                  catalogcheck fetch appstore --app 1234567890 --output asc
                  catalogcheck check --config products.yml --store asc-json:asc
                """
        )

        @Option(name: .long, help: ArgumentHelp("The API key's ID (default: $ASC_KEY_ID).", valueName: "id"))
        var keyID: String?

        @Option(name: .long, help: ArgumentHelp("The team's issuer ID (default: $ASC_ISSUER_ID).", valueName: "id"))
        var issuerID: String?

        @Option(name: .long, help: ArgumentHelp("The AuthKey_<key id>.p8 file (default: $ASC_PRIVATE_KEY_PATH).",
                                                valueName: "path"))
        var privateKey: String?

        @Option(name: .long, help: ArgumentHelp("The app's Apple ID (the number in App Store Connect's App Information).",
                                                valueName: "app-id"))
        var app: String

        @OptionGroup var fetch: FetchOptions

        func run() throws {
            let (keyID, issuerID, privateKey, app) = (keyID, issuerID, privateKey, app)
            let environment = ProcessInfo.processInfo.environment
            let base = try fetch.base(default: AppStoreConnectClient.apiHost)
            try fetch.settings.run { transport, policy, progress in
                let keyID = try FetchOptions.credential(keyID, environment["ASC_KEY_ID"], "the API key ID",
                                                        flag: "--key-id", variable: "ASC_KEY_ID")
                let issuerID = try FetchOptions.credential(issuerID, environment["ASC_ISSUER_ID"], "the issuer ID",
                                                           flag: "--issuer-id", variable: "ASC_ISSUER_ID")
                let path = try FetchOptions.credential(privateKey, environment["ASC_PRIVATE_KEY_PATH"],
                                                       "the private key file", flag: "--private-key",
                                                       variable: "ASC_PRIVATE_KEY_PATH")
                let loaded = try AppStoreConnectCredentials.load(keyID: keyID, issuerID: issuerID, privateKeyPath: path)
                if let warning = loaded.warning { progress.warn(warning) }
                let client = await AppStoreConnectClient(
                    credentials: loaded.credentials, appID: app,
                    base: base, transport: transport, policy: policy,
                    progress: progress)
                return (FetchManifest(store: "appstore", subject: ["app": app], tool: FetchOptions.tool),
                        client.fetch(into:))
            }
        }
    }

    /// `fetch play`.
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Fetch an app's subscriptions and one-time products from the Google Play Developer API.",
            discussion: """
                Reads monetization.subscriptions with their offers, the legacy inappproducts, and \
                monetization.onetimeproducts with their purchase options. The service account needs "View app \
                information" and "View financial data" in the Play Console.

                Examples:
                  catalogcheck fetch play --service-account play-key.json \\
                    --package com.example.app --output play
                  GOOGLE_APPLICATION_CREDENTIALS=play-key.json \\
                    catalogcheck fetch play --package com.example.app --output play
                  catalogcheck check --config products.yml --store play-json:play
                """
        )

        @Option(name: .long, help: ArgumentHelp(
            "The service account's JSON key file (default: $GOOGLE_APPLICATION_CREDENTIALS).", valueName: "key.json"))
        var serviceAccount: String?

        @Option(name: .long, help: ArgumentHelp("The app's package name.", valueName: "name"))
        var package: String

        @OptionGroup var fetch: FetchOptions

        func run() throws {
            let (serviceAccount, package) = (serviceAccount, package)
            let environment = ProcessInfo.processInfo.environment
            let base = try fetch.base(default: PlayClient.apiHost)
            try fetch.settings.run { transport, policy, progress in
                let path = try FetchOptions.credential(serviceAccount, environment["GOOGLE_APPLICATION_CREDENTIALS"],
                                                       "the service account key file", flag: "--service-account",
                                                       variable: "GOOGLE_APPLICATION_CREDENTIALS")
                let loaded = try GoogleServiceAccount.load(path: path)
                if let warning = loaded.warning { progress.warn(warning) }
                let client = await PlayClient(
                    account: loaded.account, packageName: package,
                    base: base, transport: transport, policy: policy,
                    progress: progress)
                return (FetchManifest(store: "play", subject: ["package": package], tool: FetchOptions.tool),
                        client.fetch(into:))
            }
        }
    }
}

/// The options both stores share: where to write, how loud, and the test-only server and backoff.
struct FetchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The snapshot folder: created, or replaced when it holds an earlier snapshot.", valueName: "dir"))
    var output: String

    @Flag(name: .long, help: "No progress on standard error (warnings and errors still show).")
    var quiet = false

    /// Tests only: a local fake server's `scheme://host:port`; the API paths stay the real ones.
    @Option(name: .long, help: .hidden)
    var baseURL: String?

    /// Tests only: the first retry's backoff in milliseconds.
    @Option(name: .long, help: .hidden)
    var retryBaseDelayMs: Int?

    func validate() throws {
        if let baseURL {
            guard let parts = URLComponents(string: baseURL), ["http", "https"].contains(parts.scheme ?? ""),
                  parts.host != nil, parts.path.isEmpty || parts.path == "/", parts.query == nil else {
                throw ValidationError("--base-url takes scheme://host[:port] only, not '\(baseURL)'")
            }
        }
    }

    /// The API's `scheme://host:port`: `--base-url`, or the real API.
    func base(default host: String) throws -> URL {
        var text = baseURL ?? host
        while text.hasSuffix("/") { text.removeLast() }
        guard let url = URL(string: text) else { throw ValidationError("--base-url: not a URL: '\(text)'") }
        return url
    }

    /// `catalogcheck <version>`, for the manifest.
    static let tool = ToolInfo.name + " " + ToolInfo.version

    /// A credential from its flag, else its environment variable; missing is exit 2 saying how to pass it.
    static func credential(_ flag: String?, _ environment: String?, _ what: String, flag name: String,
                           variable: String) throws(FetchError) -> String {
        if let flag, !flag.isEmpty { return flag }
        if let environment, !environment.isEmpty { return environment }
        throw FetchError.credentials("missing \(what): pass \(name) or set \(variable)")
    }

    /// The plain values `run` needs, apart from the property wrappers.
    var settings: FetchSettings {
        FetchSettings(output: output, quiet: quiet, retryBaseDelayMs: retryBaseDelayMs)
    }
}

/// What a fetch needs from its options, as plain values that may cross into the task that runs it.
struct FetchSettings: Sendable {
    let output: String
    let quiet: Bool
    let retryBaseDelayMs: Int?

    /// A store's fetch: given the transport, retry policy and progress, its manifest and the fetch itself.
    typealias MakeFetch = @Sendable (any HTTPTransport, RetryPolicy, FetchProgress) async throws
        -> (FetchManifest, (SnapshotWriter) async throws -> [KindTally])

    /// Runs the fetch to the end from the synchronous command: the root command stays synchronous, so the
    /// other commands never start the concurrency runtime (which opens file descriptors: a closed standard
    /// output must stay closed for `check` to report it).
    func run(_ makeFetch: @escaping MakeFetch) throws {
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await self.fetch(makeFetch)
                outcome.set(.success(()))
            } catch {
                outcome.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        try outcome.get()
    }

    /// Sets up transport, retry policy, progress and snapshot writer, runs the store's fetch, and turns every
    /// fetch error into one line on standard error and exit 2.
    private func fetch(_ makeFetch: MakeFetch) async throws {
        let console = Console()
        let progress = FetchProgress(quiet: quiet, isTerminal: isatty(STDERR_FILENO) != 0) { text in
            let bytes = Array(text.utf8)
            bytes.withUnsafeBytes { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        }
        var policy = RetryPolicy()
        if let retryBaseDelayMs { policy.baseDelay = .milliseconds(max(0, retryBaseDelayMs)) }
        let transport = AsyncHTTPTransport()
        let result: Result<[KindTally], any Error>
        do {
            let (manifest, fetch) = try await makeFetch(transport, policy, progress)
            result = .success(try await SnapshotWriter(target: output).fill(manifest: manifest, fetch))
        } catch {
            result = .failure(error)
        }
        progress.finish()
        await transport.shutdown()
        switch result {
        case .success(let tallies):
            if !quiet {
                console.error("wrote \(tallies.reduce(0) { $0 + $1.pages }) pages to \(output)")
            }
        case .failure(FetchError.output(let path, let reason)):
            console.error("\(path): error: \(reason)")
            throw Exit.cannotCheck
        case .failure(let error as FetchError):
            console.error("error: \(error.description)")
            throw Exit.cannotCheck
        case .failure(let error):
            throw error
        }
    }
}

/// The result of the fetch task, handed to the waiting thread.
private final class Outcome: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Void, any Error> = .success(())

    func set(_ value: Result<Void, any Error>) {
        lock.withLock { result = value }
    }

    func get() throws {
        try lock.withLock { result }.get()
    }
}
