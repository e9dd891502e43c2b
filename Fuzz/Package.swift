// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for every reader, one executable per input format. Kept out of the main package so the main
// build never needs the sanitizers. Build and run with `scripts/fuzz TARGET SECONDS`; the flags are there.
let targets: [(name: String, folder: String)] = [
    ("FuzzJSON", "json"),
    ("FuzzYAML", "yaml"),
    ("FuzzRules", "rules"),
    ("FuzzBaseline", "baseline"),
    ("FuzzXML", "xml"),
    ("FuzzCSV", "csv"),
    ("FuzzPlist", "plist"),
    ("FuzzStoreKit", "storekit"),
    ("FuzzASC", "asc"),
    ("FuzzPlayJSON", "play-json"),
]

let package = Package(
    name: "catalogcheck-fuzz",
    platforms: [.macOS(.v13)],
    products: targets.map { .executable(name: "fuzz-\($0.folder)", targets: [$0.name]) },
    dependencies: [
        .package(name: "catalogcheck", path: ".."),
    ],
    targets: [
        // Calls libFuzzer's driver from the Swift main (see the header for why).
        .target(name: "CFuzzerDriver"),
        // Shared by the entry points: the driver, the read options and the per-process temporary file.
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzerDriver", .product(name: "CatalogFormats", package: "catalogcheck")]
        ),
    ] + targets.map {
        .executableTarget(
            name: $0.name,
            dependencies: ["FuzzSupport", .product(name: "CatalogFormats", package: "catalogcheck")],
            path: "Sources/\($0.folder)"
        )
    },
    swiftLanguageModes: [.v6]
)
