import CatalogCore
import Foundation

/// Tells the format of an input by its extension and content (`--store-format` overrides it).
public enum FormatDetector {
    /// How each format is recognized, for `catalogcheck formats`.
    public static func detectionRule(for format: CatalogFormat) -> String {
        switch format {
        case .appstoreXML: "a .xml file whose root is <package> in the http://apple.com/itunes/importer namespace, "
            + "or a Transporter package folder holding metadata.xml"
        case .storekit: "a .storekit file, or JSON with subscriptionGroups / nonRenewingSubscriptions / settings"
        case .ascJSON: "JSON:API documents (\"data\" with \"type\" and \"id\"): a file, an array, or a folder of .json"
        case .playCSV: "a .csv file with a \"Product ID\" header column"
        case .playJSON: "JSON with subscriptions / basePlans / inappproduct / sku / oneTimeProducts / "
            + "subscriptionOffers / packageName, or a folder of them (gradle-play-publisher products/ and "
            + "subscriptions/)"
        case .plist: "a .plist file, or XML whose root is <plist>"
        case .catalog: "a .yml / .yaml file, or JSON with \"version\" and \"products\" as an object"
        }
    }

    /// What a format is, for `catalogcheck formats`.
    public static func title(of format: CatalogFormat) -> String {
        switch format {
        case .appstoreXML: "App Store Transporter metadata.xml (legacy tiers)"
        case .storekit: "Xcode StoreKit configuration, file versions 1.0–5.0"
        case .ascJSON: "App Store Connect API responses"
        case .playCSV: "Google Play Console one-time products CSV"
        case .playJSON: "Google Play Developer API v3 resources"
        case .plist: "an app's bundled product ID list (XML property list)"
        case .catalog: "the internal product config (YAML or JSON, schema version 1)"
        }
    }

    /// Detects the format of a file or folder.
    public static func detect(_ url: URL, displayPath: String) throws(CatalogReadError) -> CatalogFormat {
        if try FileLoading.kind(of: url, displayPath: displayPath) == .directory {
            return try detectFolder(url, displayPath: displayPath)
        }
        switch url.pathExtension.lowercased() {
        case "storekit": return .storekit
        case "yml", "yaml": return .catalog
        case "csv": return .playCSV
        case "plist": return .plist
        default: break
        }
        let head = try FileLoading.prefix(of: url, count: 65_536, displayPath: displayPath)
        if head.isEmpty { throw CatalogReadError("the file is empty", at: SourceLocation(path: displayPath)) }
        if let format = sniff(TextEncoding.sniffingText(head)) { return format }
        throw undetectable(displayPath)
    }

    private static func detectFolder(_ url: URL, displayPath: String) throws(CatalogReadError) -> CatalogFormat {
        // A Transporter package (`App.itmsp/`) holds its metadata.xml.
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("metadata.xml").path) {
            return .appstoreXML
        }
        let files = FileLoading.files(in: url, suffix: ".json")
        // gradle-play-publisher keeps products/ and subscriptions/ folders.
        if files.contains(where: { ["products", "subscriptions"].contains($0.deletingLastPathComponent().lastPathComponent) }) {
            return .playJSON
        }
        for file in files where !file.lastPathComponent.hasSuffix(".metadata.json") {
            if let format = sniff(prefix(of: file)), format == .ascJSON || format == .playJSON {
                return format
            }
        }
        throw CatalogReadError(
            "cannot tell the format of this folder (expected App Store Connect or Google Play .json files, or "
                + "a Transporter package with metadata.xml); "
                + "pass --store-format", at: SourceLocation(path: displayPath))
    }

    private static func undetectable(_ displayPath: String) -> CatalogReadError {
        let names = CatalogFormat.allCases.map(\.rawValue).joined(separator: ", ")
        return CatalogReadError("cannot tell the format of this file; pass --store-format (one of: \(names))",
                                at: SourceLocation(path: displayPath))
    }

    /// The first 64 KiB of a file, as text (transcoded from UTF-16 / UTF-32 when a byte order mark says so).
    private static func prefix(of url: URL) -> String {
        let data = try? FileLoading.prefix(of: url, count: 65_536, displayPath: url.path)
        return TextEncoding.sniffingText(data ?? Data())
    }

    /// Guesses a format from the beginning of a file.
    static func sniff(_ head: String) -> CatalogFormat? {
        let text = head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        if text.hasPrefix("<") {
            if text.contains("<plist") || text.contains("PropertyList-1.0.dtd") { return .plist }
            if text.contains("http://apple.com/itunes/importer") || text.contains("<package") { return .appstoreXML }
            return nil
        }
        if text.hasPrefix("bplist") { return .plist }
        guard text.hasPrefix("{") || text.hasPrefix("[") else {
            // Not JSON or XML: a YAML config starts with `version:` or a comment.
            if text.hasPrefix("version:") || text.hasPrefix("#") || text.hasPrefix("---") { return .catalog }
            if text.lowercased().hasPrefix("product id,") { return .playCSV }
            return nil
        }
        func has(_ key: String) -> Bool { text.contains("\"\(key)\"") }
        if has("subscriptionGroups") && (has("settings") || has("productID")) || has("nonRenewingSubscriptions") {
            return .storekit
        }
        if has("data") && has("type") && has("id") && !has("basePlans") { return .ascJSON }
        if has("subscriptions") || has("basePlans") || has("inappproduct") || has("sku")
            || has("oneTimeProducts") || has("subscriptionOffers") || has("purchaseOptions") || has("packageName") {
            return .playJSON
        }
        if has("version") && has("products") { return .catalog }
        if has("productID") && has("products") { return .storekit }
        return nil
    }
}
