// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "catalogcheck",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "catalogcheck", targets: ["catalogcheck"]),
        // For the fuzz package in Fuzz/ (its own Package.swift); the CLI does not use it.
        .library(name: "CatalogFormats", targets: ["CatalogFormats"]),
    ],
    // Exact versions: Package.resolved is not committed, so these pins are what makes a build from a tag the
    // same build (their own dependencies resolve within the ranges these versions declare). The release archives
    // (scripts/release) are the pinned artifact users take.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", exact: "2.5.2"),
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // The fake stores' token checks in the tests: a JWT implementation other than the one `fetch` signs with.
        .package(url: "https://github.com/vapor/jwt-kit", exact: "5.8.0"),
        // The fake stores' HTTP server in the tests; the version async-http-client resolves to.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
    ],
    targets: [
        // The normalized model, matching and rules. Pure Swift + Foundation.
        .target(name: "CatalogCore"),
        // The snapshot manifest (`.fetch.json`): one definition that `fetch` writes and the readers read.
        // Foundation, and swift-crypto for the pages' SHA-256 (in the binary anyway: `fetch` signs its tokens with it).
        .target(name: "CatalogSnapshot", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        // libxml2: the XML readers, and xmlTextWriter for the XML reports.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libyaml: the YAML config, rules file and baseline are read from its event stream.
        .systemLibrary(
            name: "CYAML",
            pkgConfig: "yaml-0.1",
            providers: [.apt(["libyaml-dev"])]
        ),
        // One reader per store / config format.
        .target(
            name: "CatalogFormats",
            dependencies: [
                "CatalogCore",
                "CatalogSnapshot",
                "CLibXML2",
                "CYAML",
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        // One reporter per output format; libxml2's writer for the XML ones.
        .target(name: "CatalogReports", dependencies: ["CatalogCore", "CLibXML2"]),
        // `fetch`: the store API clients (HTTP, JWTs, paging, retries) and the snapshot writer. The tokens are
        // signed with swift-crypto (ES256) and its _CryptoExtras (RS256); jwt-kit, with the swift-certificates it
        // brings, took 90 s of CPU in each clean release build for what is 60 lines of token layout.
        .target(
            name: "CatalogFetch",
            dependencies: [
                "CatalogSnapshot",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // The thin command-line layer.
        .executableTarget(
            name: "catalogcheck",
            dependencies: [
                "CatalogCore",
                "CatalogFormats",
                "CatalogReports",
                "CatalogFetch",
                "CatalogSnapshot",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["CatalogCore", "CatalogSnapshot", "CLibXML2"], path: "Tests/TestSupport"),
        .testTarget(name: "CatalogCoreTests", dependencies: ["CatalogCore", "TestSupport"]),
        .testTarget(name: "CatalogSnapshotTests", dependencies: ["CatalogSnapshot"]),
        .testTarget(
            name: "CatalogFormatsTests",
            dependencies: ["CatalogFormats", "CatalogReports", "CatalogSnapshot", "TestSupport"]
        ),
        // libxml2's HTML parser reads the HTML report back in the tests.
        .testTarget(name: "CatalogReportsTests", dependencies: ["CatalogReports", "CLibXML2", "TestSupport"]),
        .testTarget(name: "CatalogCheckCLITests", dependencies: ["catalogcheck", "TestSupport"]),
        // A local App Store Connect + Play Developer API for the fetch tests (SwiftNIO's HTTP/1.1 server,
        // 127.0.0.1, port 0).
        .target(
            name: "FakeStoreServer",
            dependencies: [
                "CatalogFetch",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                // RSA key generation for the test service account.
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Tests/FakeStoreServer"
        ),
        .testTarget(
            name: "CatalogFetchTests",
            dependencies: ["catalogcheck", "CatalogFetch", "CatalogFormats", "CatalogSnapshot", "FakeStoreServer",
                           "TestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
