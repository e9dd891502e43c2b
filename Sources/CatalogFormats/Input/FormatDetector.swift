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
        case .revenuecat: "a folder of RevenueCat API v2 list pages (`fetch revenuecat` writes it); only as --config"
        case .map: "a .map.yml / .map.yaml file, or named map:FILE; only as --config"
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
        case .revenuecat: "a RevenueCat project: apps, products, entitlements, offerings (API v2 snapshot)"
        case .map: "a mapping file over the team's own JSON or YAML (a server or remote config)"
        }
    }

    /// Detects the format of a file or folder.
    public static func detect(_ url: URL, displayPath: String) throws(CatalogReadError) -> CatalogFormat {
        if try FileLoading.kind(of: url, displayPath: displayPath) == .directory {
            return try detectFolder(url, listing: FileLoading.listing(of: url).map(\.path), given: nil,
                                    role: .catalog, displayPath: displayPath)
        }
        return try detectFile(url, displayPath: displayPath)
    }

    /// Detects the format of a file (or a stream's copy) by its extension, else its first 64 KiB.
    static func detectFile(_ url: URL, displayPath: String) throws(CatalogReadError) -> CatalogFormat {
        let name = url.lastPathComponent.lowercased()
        if name.hasSuffix(".map.yml") || name.hasSuffix(".map.yaml") { return .map }
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

    /// The format of a folder from its listing (`listing`: its regular files, relative, sorted). A folder is one
    /// catalog of one format (DESIGN.md §2): one that holds catalogs of several formats (a `.storekit` file
    /// beside an `asc/` folder and a `metadata.xml`, say) is refused, listing them, whatever format was given,
    /// since every folder reader would read a part of it and say nothing about the rest. `given` wins over the
    /// one format found.
    static func detectFolder(_ url: URL, listing: [String], given: CatalogFormat?, role: InputRole,
                             displayPath: String) throws(CatalogReadError) -> CatalogFormat {
        let found = catalogs(in: url, listing: listing)
        let formats = Set(found.map(\.format))
        if formats.count > 1 {
            var byEntry: [String: Set<CatalogFormat>] = [:]
            for catalog in found { byEntry[catalog.entry, default: []].insert(catalog.format) }
            let list = byEntry.keys.sorted().map { entry in
                let names = (byEntry[entry] ?? []).sorted().map(\.rawValue).joined(separator: ", ")
                return "\(entry) (\(names))"
            }.joined(separator: ", ")
            let advice = role == .store ? "give one --store per catalog" : "name one of them"
            throw CatalogReadError("holds catalogs of several formats: \(list); a folder is read as one catalog, "
                                   + advice, at: SourceLocation(path: displayPath))
        }
        if let format = given ?? formats.first { return format }
        throw CatalogReadError(
            "cannot tell the format of this folder (expected App Store Connect or Google Play .json files, or "
                + "a Transporter package with metadata.xml); "
                + "pass --store-format", at: SourceLocation(path: displayPath))
    }

    /// The catalogs a folder's files make up, each with the top-level entry it is in (`asc/`, `metadata.xml`).
    /// A `.json` file's format is its folder's: the first file of a folder that tells one decides (one sniff per
    /// folder, not per page of a large App Store Connect snapshot); gradle-play-publisher keeps Play products in
    /// `products/` and `subscriptions/`, beside `*.metadata.json` listings that are no catalog.
    private static func catalogs(in url: URL, listing: [String]) -> [(entry: String, format: CatalogFormat)] {
        var found: [(entry: String, format: CatalogFormat)] = []
        var folderFormats: [Substring: CatalogFormat] = [:]
        for path in listing {
            let (slash, folder, lowered, fileExtension) = listedName(path)
            // Made only for a file whose head is sniffed (not for each of a snapshot's 40,000 pages).
            var file: URL { url.appendingPathComponent(path, isDirectory: false) }
            var format: CatalogFormat?
            switch fileExtension {
            case "xml" where slash == nil && lowered == "metadata.xml": format = .appstoreXML
            case "storekit": format = .storekit
            case "plist": format = .plist
            case "csv": format = sniff(prefix(of: file, count: 4096)) == .playCSV ? .playCSV : nil
            // (A `where` clause binds to the last pattern only: the mapping-file test is a branch of its own.)
            case "yml", "yaml":
                if lowered.hasSuffix(".map.yml") || lowered.hasSuffix(".map.yaml") {
                    format = .map
                } else {
                    format = sniff(prefix(of: file, count: 4096)) == .catalog ? .catalog : nil
                }
            case "json" where !lowered.hasSuffix(".metadata.json"):
                let parent = folder.split(separator: "/").last ?? ""
                if parent == "products" || parent == "subscriptions" {
                    format = .playJSON
                } else if let known = folderFormats[folder] {
                    format = known
                } else if let sniffed = sniff(prefix(of: file, count: 65_536)) {
                    folderFormats[folder] = sniffed
                    format = sniffed
                }
            default: break
            }
            guard let format else { continue }
            let entry = slash == nil ? path : String(path[..<(path.firstIndex(of: "/") ?? path.endIndex)]) + "/"
            found.append((entry, format))
        }
        return found
    }

    /// A listed path's last slash, its folder, its name lowercased, and its extension: the last of the name's
    /// dot-separated parts when it has more than one that is not empty (`a.json.` → `json`, `.json` → none).
    /// Characters are what count; a name in ASCII, every name of a snapshot's 40,000 pages, is read on its bytes,
    /// which is the same there (each byte is a character, and neither `/` nor `.` joins another in one) at a
    /// fraction of the cost.
    static func listedName(_ path: String)
        -> (slash: String.Index?, folder: Substring, lowered: String, fileExtension: Substring)
    {
        guard path.utf8.allSatisfy({ $0 < 0x80 }) else { return listedNameByCharacters(path) }
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { path[..<$0] } ?? ""
        let lowered = (slash.map { path[path.utf8.index(after: $0)...] } ?? Substring(path)).lowercased()
        let parts = lowered.utf8.split(separator: UInt8(ascii: "."))
        return (slash, folder, lowered, parts.count > 1 ? parts.last.map { Substring($0) } ?? "" : "")
    }

    /// `listedName` for any name, by characters.
    static func listedNameByCharacters(_ path: String)
        -> (slash: String.Index?, folder: Substring, lowered: String, fileExtension: Substring)
    {
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { path[..<$0] } ?? ""
        let lowered = (slash.map { path[path.index(after: $0)...] } ?? Substring(path)).lowercased()
        let parts = lowered.split(separator: ".")
        return (slash, folder, lowered, parts.count > 1 ? parts.last ?? "" : "")
    }

    private static func undetectable(_ displayPath: String) -> CatalogReadError {
        let names = CatalogFormat.allCases.map(\.rawValue).joined(separator: ", ")
        return CatalogReadError("cannot tell the format of this file; pass --store-format (one of: \(names))",
                                at: SourceLocation(path: displayPath))
    }

    /// The first `count` bytes of a file, as text (transcoded from UTF-16 / UTF-32 when a byte order mark says
    /// so); empty when it cannot be read.
    private static func prefix(of url: URL, count: Int) -> String {
        let data = try? FileLoading.prefix(of: url, count: count, displayPath: url.path)
        return TextEncoding.sniffingText(data ?? Data())
    }

    /// Guesses a format from the beginning of a file.
    static func sniff(_ head: String) -> CatalogFormat? {
        let text = head.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
        let bytes = Array(text.utf8)
        func holds(_ part: String) -> Bool {
            let part = Array(part.utf8)
            return bytes.withUnsafeBufferPointer { head in part.withUnsafeBufferPointer { ByteSearch.contains(head, $0) } }
        }
        if text.hasPrefix("<") {
            if holds("<plist") || holds("PropertyList-1.0.dtd") { return .plist }
            if holds("http://apple.com/itunes/importer") || holds("<package") { return .appstoreXML }
            return nil
        }
        if text.hasPrefix("bplist") { return .plist }
        guard text.hasPrefix("{") || text.hasPrefix("[") else {
            // Not JSON or XML: a YAML config starts with `version:` or a comment.
            if text.hasPrefix("version:") || text.hasPrefix("#") || text.hasPrefix("---") { return .catalog }
            if text.prefix(11).lowercased() == "product id," { return .playCSV }
            return nil
        }
        // By structure first (DESIGN.md §2): a top-level `products` mapping, or top-level keys that are all the
        // config's with a numeric `version`, is a product config, whatever keys its products hold (a config's
        // `purchaseOptions` is no Play catalog).
        if let members = bytes.withUnsafeBufferPointer({ JSONTopLevel.members(of: $0) }),
           JSONTopLevel.isProductConfig(members) {
            return .catalog
        }
        func has(_ key: String) -> Bool { holds("\"\(key)\"") }
        // A RevenueCat API v2 list page: `items`, `next_page` and a `url` under /v2/projects/.
        if has("items") && (has("next_page") || holds("\"/v2/projects/")) && has("object") {
            return .revenuecat
        }
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
