import FakeStoreServer
import Foundation
import TestSupport

/// Runs the built `catalogcheck` off the cooperative thread pool, so the fake server in this process keeps
/// answering while the test waits for the child.
func catalogcheck(_ arguments: [String], environment: [String: String] = [:]) async throws -> CommandResult {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread {
            continuation.resume(with: Result { try CommandRunner.run(arguments, environment: environment) })
        }
    }
}

/// A fake store, the test's credentials written to files, and a scratch folder, for one test.
struct FetchScene {
    /// The query of fetch's subscription lists: introductory offers, offer lists and plan availabilities included.
    static let subscriptionsQuery = "?include=introductoryOffers,offerCodes,planAvailabilities,promotionalOffers,"
        + "winBackOffers&limit=200&limit%5BintroductoryOffers%5D=50&limit%5BofferCodes%5D=50"
        + "&limit%5BplanAvailabilities%5D=50&limit%5BpromotionalOffers%5D=50&limit%5BwinBackOffers%5D=50"

    let credentials: TestCredentials
    let server: FakeStoreServer
    let folder: URL
    let ascKeyPath: String
    let serviceAccountPath: String

    static func start(pageSize: Int = 2, empty: Bool = false, faults: [FakeStoreServer.Fault] = [],
                      credentials: TestCredentials? = nil, budget: Int = FakeStoreServer.hourlyLimit,
                      honorsInclude: Bool = true, clockOffset: TimeInterval = 0,
                      revenueCat: RevenueCatFake.Options? = nil) async throws -> FetchScene {
        let credentials = try credentials ?? TestCredentials()
        let server = try await FakeStoreServer.start(credentials: credentials, pageSize: pageSize, empty: empty,
                                                     faults: faults, budget: budget, honorsInclude: honorsInclude,
                                                     clockOffset: clockOffset, revenueCat: revenueCat)
        let folder = try Fixtures.temporaryFolder(suffix: "-fetch")
        let keys = folder.appendingPathComponent("keys")
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: false)
        return FetchScene(credentials: credentials, server: server, folder: folder,
                          ascKeyPath: try credentials.writeASCKey(in: keys),
                          serviceAccountPath: try credentials.writeServiceAccount(in: keys, tokenURI: server.tokenURI))
    }

    /// `fetch appstore` against the server into `output` (under the scene's folder), with a 10 ms backoff.
    func fetchAppStore(_ output: String, keyPath: String? = nil, extra: [String] = []) async throws -> CommandResult {
        try await catalogcheck(["fetch", "appstore", "--key-id", credentials.keyID, "--issuer-id", credentials.issuerID,
                                "--private-key", keyPath ?? ascKeyPath, "--app", FakeStoreServer.app,
                                "--output", path(output), "--base-url", server.baseURL,
                                "--retry-base-delay-ms", "10"] + extra)
    }

    /// `fetch play` against the server into `output`, the service account from the environment.
    func fetchPlay(_ output: String, keyPath: String? = nil) async throws -> CommandResult {
        try await catalogcheck(["fetch", "play", "--package", FakeStoreServer.package, "--output", path(output),
                                "--base-url", server.baseURL, "--retry-base-delay-ms", "10"],
                               environment: ["GOOGLE_APPLICATION_CREDENTIALS": keyPath ?? serviceAccountPath])
    }

    /// `fetch revenuecat` of the fake's project into `output`, the key in `REVENUECAT_API_KEY` (or `key`).
    func fetchRevenueCat(_ output: String, key: String?, project: String = RevenueCatFetchScene.project,
                         extra: [String] = []) async throws -> CommandResult {
        try await catalogcheck(["fetch", "revenuecat", "--project", project, "--output", path(output),
                                "--base-url", server.baseURL, "--retry-base-delay-ms", "10"] + extra,
                               environment: key.map { ["REVENUECAT_API_KEY": $0] } ?? [:])
    }

    func path(_ name: String) -> String {
        folder.appendingPathComponent(name).path
    }

    /// The files of a snapshot folder (dotfiles included), sorted.
    func files(_ name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(name)).sorted()
    }

    /// Every byte the run could have leaked a secret into: its output and every file under the scene's
    /// output folders (not the key files).
    func everythingWritten(_ results: [CommandResult]) throws -> String {
        var text = results.map { $0.stdout + $0.stderr }.joined()
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            guard !relative.hasPrefix("keys") else { continue }
            let url = folder.appendingPathComponent(relative)
            if let data = FileManager.default.contents(atPath: url.path) { text += String(decoding: data, as: UTF8.self) }
        }
        return text
    }

    /// The secrets: both private keys' base64 lines, every JWT and access token that crossed the wire.
    var secrets: [String] {
        let keyLines = (credentials.ascPrivateKeyPEM + credentials.googlePrivateKeyPEM)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") && $0.count > 20 }
        return keyLines + server.tokensSeen.sorted()
    }

    func finish() async {
        await server.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The RevenueCat project of `Tests/Fixtures/fetch/revenuecat/demo-project.json`.
enum RevenueCatFetchScene {
    /// Its ID.
    static let project = "proj5e7a1d2c"
}
