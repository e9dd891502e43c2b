import ArgumentParser
import CatalogCore
import CatalogFetch
import CatalogSnapshot
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
        abstract: "Write a snapshot of the live App Store Connect, Google Play or RevenueCat catalog into a folder.",
        discussion: """
            The folder holds the store's API responses, unchanged (every page), and a .fetch.json manifest; \
            check, diff, report and export read it offline (--store asc-json:DIR, --store play-json:DIR, \
            --config revenuecat:DIR). The \
            folder is replaced only when the whole fetch succeeded. Credentials are never printed or written.

            Exit codes: 0 written, 2 missing or refused credentials, network failure, a spent hourly request \
            budget (App Store Connect; --resume continues later), or an unwritable folder.
            """,
        subcommands: [AppStore.self, Play.self, RevenueCat.self]
    )

    /// The kinds a client fetches, by their progress labels, for the help text.
    static func names(_ kinds: [ResourceKind]) -> String {
        kinds.map(\.label).joined(separator: ", ")
    }

    /// `fetch appstore`.
    struct AppStore: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "appstore",
            abstract: "Fetch an app's in-app purchases and subscriptions from the App Store Connect API.",
            discussion: """
                Reads the app (its bundle ID), its in-app purchases with their price schedules, availability and \
                offer codes, its subscription groups and subscriptions with current and scheduled prices (price \
                points, territories), plan availabilities, introductory, promotional, offer-code and win-back \
                offers and their prices, and the monthly billing plan's prices. Each kind, as the progress lines \
                and .fetch.json count it: \(FetchCommand.names(AppStoreConnectClient.kinds)). With --price-points \
                also \(FetchCommand.names(AppStoreConnectClient.pricePointKinds)) (one subscription's and one in-app \
                purchase's; about 40 requests for all 175 territories). The API key needs the App Manager role (or \
                Admin).

                Examples:
                  catalogcheck fetch appstore --key-id 2X9R4HXF34 \\
                    --issuer-id 57246542-96fe-1a63-e053 \\
                    --private-key AuthKey_2X9R4HXF34.p8 --app 1234567890 --output asc
                  export ASC_KEY_ID=2X9R4HXF34 ASC_ISSUER_ID=57246542-96fe-1a63-e053
                  export ASC_PRIVATE_KEY_PATH=$HOME/keys/AuthKey_2X9R4HXF34.p8
                  catalogcheck fetch appstore --app 1234567890 --output asc
                  catalogcheck fetch appstore --app 1234567890 --price-points available --output asc
                  catalogcheck check --config products.yml --store asc-json:asc
                """
        )

        @Option(name: .long, help: ArgumentHelp("The API key's ID (default: $ASC_KEY_ID).", valueName: "id"))
        var keyID: String?

        @Option(name: .long, help: ArgumentHelp("The team's issuer ID (default: $ASC_ISSUER_ID).", valueName: "id"))
        var issuerID: String?

        @Option(name: .long, help: ArgumentHelp("The AuthKey_<key id>.p8 file (default: $ASC_PRIVATE_KEY_PATH).",
                                                valueName: "path"), completion: .file(extensions: ["p8"]))
        var privateKey: String?

        @Option(name: .long, help: ArgumentHelp("The app's Apple ID (the number in App Store Connect's App Information).",
                                                valueName: "app-id"))
        var app: String

        @Option(name: .long, help: ArgumentHelp(
            "Also fetch Apple's price points, for check's price-not-a-price-point: 'available' (the territories "
                + "the app's products are sold in), 'all', or territories (US,DE or USA,DEU).",
            valueName: "territories"))
        var pricePoints: String?

        @OptionGroup var fetch: FetchOptions

        /// The app ID becomes a path segment of every request: an Apple ID is a number, nothing else.
        func validate() throws {
            guard !app.isEmpty, app.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
                throw ValidationError("--app takes the app's Apple ID, a number such as 1234567890, not '\(app)'")
            }
            _ = try pricePointSelection()
        }

        /// `--price-points` as the client's selection; territory codes become App Store Connect's alpha-3 IDs.
        func pricePointSelection() throws -> AppStoreConnectClient.PricePointSelection? {
            guard let pricePoints else { return nil }
            switch pricePoints {
            case "available": return .available
            case "all": return .all
            default:
                let codes = pricePoints.split(separator: ",", omittingEmptySubsequences: false)
                var territories: [String] = []
                for code in codes {
                    guard let territory = Territory(code: code.uppercased()) else {
                        throw ValidationError("--price-points takes 'available', 'all' or territory codes such as "
                            + "US,DE; '\(code)' is no ISO 3166-1 territory code")
                    }
                    territories.append(territory.alpha3)
                }
                return .territories(Array(Set(territories)).sorted())
            }
        }

        func run() throws {
            let (keyID, issuerID, privateKey, app) = (keyID, issuerID, privateKey, app)
            let environment = ProcessInfo.processInfo.environment
            let base = try fetch.base(default: AppStoreConnectClient.apiHost)
            let selection = try pricePointSelection()
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
                    progress: progress, pricePoints: selection)
                return (FetchTarget(store: .appStore, subject: app, tool: FetchOptions.tool),
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
                monetization.onetimeproducts with their purchase options and offers. Each kind, as the progress \
                lines and .fetch.json count it: \(FetchCommand.names(PlayClient.kinds)). The service account \
                needs "View app information" and "View financial data" in the Play Console.

                Examples:
                  catalogcheck fetch play --service-account play-key.json \\
                    --package com.example.app --output play
                  GOOGLE_APPLICATION_CREDENTIALS=play-key.json \\
                    catalogcheck fetch play --package com.example.app --output play
                  catalogcheck check --config products.yml --store play-json:play
                """
        )

        @Option(name: .long, help: ArgumentHelp(
            "The service account's JSON key file (default: $GOOGLE_APPLICATION_CREDENTIALS).", valueName: "key.json"),
            completion: .file(extensions: ["json"]))
        var serviceAccount: String?

        @Option(name: .long, help: ArgumentHelp("The app's package name.", valueName: "name"))
        var package: String

        @OptionGroup var fetch: FetchOptions

        /// The package name becomes a path segment of every request: `.`, `..` or nothing would name another path.
        func validate() throws {
            guard !["", ".", ".."].contains(package) else {
                throw ValidationError("--package takes the app's package name, such as com.example.app, not '\(package)'")
            }
        }

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
                return (FetchTarget(store: .play, subject: package, tool: FetchOptions.tool),
                        client.fetch(into:))
            }
        }
    }

    /// `fetch revenuecat`.
    struct RevenueCat: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revenuecat",
            abstract: "Fetch a RevenueCat project's apps, products, entitlements and offerings (REST API v2).",
            discussion: """
                Reads every page of the project's apps, products, entitlements and offerings with their packages, \
                as the declared catalog that `check --config revenuecat:DIR` compares with each store. The secret \
                API key (version V2, read permissions for the project configuration) is read from an environment \
                variable, never from the command line, and is never printed or written. RevenueCat allows about 60 \
                project configuration requests a minute; the fetch reads the limit from the answers and stays \
                under it.

                Examples:
                  export REVENUECAT_API_KEY=sk_...
                  catalogcheck fetch revenuecat --project proj1ab2c3d4 --output revenuecat
                  catalogcheck check --config revenuecat:revenuecat --store asc-json:asc --store play-json:play
                """
        )

        @Option(name: .long, help: ArgumentHelp("The RevenueCat project ID (proj…, in the dashboard's URL).",
                                                valueName: "id"))
        var project: String

        @Option(name: .long, help: ArgumentHelp(
            "The environment variable holding the secret API key (default: REVENUECAT_API_KEY).", valueName: "name"))
        var apiKeyEnv = "REVENUECAT_API_KEY"

        @OptionGroup var fetch: FetchOptions

        /// The project ID becomes a path segment of every request: `.`, `..` or nothing would name another path.
        func validate() throws {
            guard !["", ".", ".."].contains(project) else {
                throw ValidationError("--project takes the project's ID, such as proj1ab2c3d4, not '\(project)'")
            }
            guard !apiKeyEnv.isEmpty, !apiKeyEnv.contains("=") else {
                throw ValidationError("--api-key-env takes the name of an environment variable, not '\(apiKeyEnv)'")
            }
        }

        func run() throws {
            let (project, variable) = (project, apiKeyEnv)
            let key = ProcessInfo.processInfo.environment[variable]
            let base = try fetch.base(default: RevenueCatClient.apiHost)
            try fetch.settings.run { transport, policy, progress in
                guard let key, !key.isEmpty else {
                    throw FetchError.credentials("missing the RevenueCat secret API key: set \(variable) (or name "
                                                 + "another variable with --api-key-env)")
                }
                let client = RevenueCatClient(apiKey: key, variable: variable, project: project, base: base,
                                              transport: transport, policy: policy, progress: progress)
                return (FetchTarget(store: .revenueCat, subject: project, tool: FetchOptions.tool),
                        client.fetch(into:))
            }
        }
    }
}
