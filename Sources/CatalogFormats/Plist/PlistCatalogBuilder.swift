import CatalogCore
import Foundation

/// Finds the products in a parsed property list, by the layouts of FORMATS.md ("plist"). A layout is read
/// whole or not at all: anything in it that could hold product IDs and is not read as such is an error.
struct PlistCatalogBuilder {
    private(set) var products: [Product] = []
    /// The groups named by a `Subscriptions` section, in reading order.
    private(set) var groups: [SubscriptionGroup] = []
    /// Whether the list has a `Subscriptions` section, so it states groups.
    private(set) var hasSubscriptions = false

    /// The spellings of the `Products` key seen in apps' product lists, lower-cased.
    private static let listKeys: Set<String> = ["products", "productidentifiers", "productids", "product_ids"]
    private static let subscriptionsKey = "subscriptions"

    mutating func readProducts(root: PlistValue) throws(CatalogReadError) {
        switch root.content {
        case .array(let items):
            try readList(items, path: "")
        case .dict(let entries):
            let lowered = entries.map { $0.key.lowercased() }
            if lowered.contains(where: { Self.listKeys.contains($0) || $0 == Self.subscriptionsKey }) {
                try readSections(entries)
            } else {
                try readDictionary(entries, path: "")
            }
        default:
            throw CatalogReadError(
                "the property list's root must be an <array> of product IDs or a <dict> of products, found "
                    + root.elementName, at: root.location)
        }
    }

    /// The layout `{Products: [IDs], Subscriptions: [{Group, Products}]}` (either section may be absent; the
    /// `Products` key in any of its spellings). Other keys may hold numbers or dates (a `Version`); a key with a
    /// string, a list or a dictionary could hold product IDs, so it is an error rather than left unread.
    private mutating func readSections(_ entries: [(key: String, keyLocation: SourceLocation, value: PlistValue)])
        throws(CatalogReadError)
    {
        for (key, keyLocation, value) in entries {
            let name = key.lowercased()
            if Self.listKeys.contains(name) {
                switch value.content {
                case .array(let items): try readList(items, path: key)
                case .dict(let products): try readDictionary(products, path: key)
                default:
                    throw CatalogReadError(
                        "\(key): expected an <array> of product IDs or a <dict> of products, found "
                            + value.elementName, at: value.location)
                }
            } else if name == Self.subscriptionsKey {
                try readSubscriptions(value, path: key)
            } else {
                switch value.content {
                case .integer, .real, .date:
                    continue
                default:
                    throw CatalogReadError(
                        "\(quotedForMessage(key)): a product list with a Products or Subscriptions section holds "
                            + "only those (and numbers or dates such as a version); \(value.elementName) here could "
                            + "hold product IDs that would go unread", at: keyLocation)
                }
            }
        }
    }

    /// `Subscriptions`: an array of `{Group, Products}`; each ID is an auto-renewable subscription in `Group`.
    private mutating func readSubscriptions(_ value: PlistValue, path: String) throws(CatalogReadError) {
        guard case .array(let sections) = value.content else {
            throw CatalogReadError("\(path): expected an <array> of <dict>s with Group and Products, found "
                                   + value.elementName, at: value.location)
        }
        hasSubscriptions = true
        for (index, section) in sections.enumerated() {
            let sectionPath = "\(path)[\(index)]"
            guard case .dict(let entries) = section.content else {
                throw CatalogReadError("\(sectionPath): expected a <dict> with Group and Products, found "
                                       + section.elementName, at: section.location)
            }
            var group: (name: String, location: SourceLocation)?
            var list: (items: [PlistValue], path: String)?
            for (key, keyLocation, entry) in entries {
                switch key.lowercased() {
                case "group":
                    guard group == nil else {
                        throw CatalogReadError("\(sectionPath).\(key) appears twice", at: keyLocation)
                    }
                    guard case .string(let text) = entry.content, !text.trimmedXMLWhitespace().isEmpty else {
                        throw CatalogReadError("\(sectionPath).\(key): expected the group's name in a <string>, found "
                                               + (entry.elementName == "<string>" ? "an empty one" : entry.elementName),
                                               at: entry.location)
                    }
                    group = (text.trimmedXMLWhitespace(), entry.location)
                case "products":
                    guard list == nil else {
                        throw CatalogReadError("\(sectionPath).\(key) appears twice", at: keyLocation)
                    }
                    guard case .array(let items) = entry.content else {
                        throw CatalogReadError("\(sectionPath).\(key): expected an <array> of product IDs, found "
                                               + entry.elementName, at: entry.location)
                    }
                    list = (items, "\(sectionPath).\(key)")
                default:
                    throw CatalogReadError(
                        "\(sectionPath): \(quotedForMessage(key)) is not Group or Products", at: keyLocation)
                }
            }
            guard let group else {
                throw CatalogReadError("\(sectionPath): the section has no Group", at: section.location)
            }
            guard let list else {
                throw CatalogReadError("\(sectionPath): the section has no Products", at: section.location)
            }
            if !groups.contains(where: { $0.key == group.name }) {
                groups.append(SubscriptionGroup(key: group.name, name: group.name, location: group.location))
            }
            let first = products.count
            try readList(list.items, path: list.path)
            for index in first..<products.count {
                products[index].kind = .autoRenewable
                products[index].groupKey = group.name
                products[index].fieldLocations[.group] = group.location
            }
        }
    }

    private mutating func readList(_ items: [PlistValue], path: String) throws(CatalogReadError) {
        for (index, item) in items.enumerated() {
            guard case .string(let text) = item.content else {
                throw CatalogReadError("\(path)[\(index)]: expected a <string> product ID, found \(item.elementName)",
                                       at: item.location)
            }
            let id = text.trimmedXMLWhitespace()
            guard !id.isEmpty else {
                throw CatalogReadError("\(path)[\(index)]: the product ID is empty", at: item.location)
            }
            products.append(Product(id: ProductID(id), location: item.location, fieldLocations: [.id: item.location]))
        }
    }

    /// A dictionary keyed by product ID: each value a `<dict>` of attributes, or any other value (presence only).
    private mutating func readDictionary(_ entries: [(key: String, keyLocation: SourceLocation, value: PlistValue)],
                                         path: String) throws(CatalogReadError) {
        let prefix = path.isEmpty ? "" : path + "."
        for (key, keyLocation, value) in entries {
            let id = key.trimmedXMLWhitespace()
            guard !id.isEmpty else {
                throw CatalogReadError("\(path.isEmpty ? "<dict>" : path): a product ID key is empty", at: keyLocation)
            }
            var product = Product(id: ProductID(id), location: keyLocation, fieldLocations: [.id: keyLocation])
            if case .dict(let attributes) = value.content {
                try readAttributes(attributes, of: &product, path: prefix + id)
            }
            products.append(product)
        }
    }

    private func readAttributes(_ attributes: [(key: String, keyLocation: SourceLocation, value: PlistValue)],
                                of product: inout Product,
                                path: String) throws(CatalogReadError) {
        var seen: Set<String> = []
        for (key, _, value) in attributes {
            let name = key.lowercased()
            guard ["type", "price", "referencename"].contains(name) else { continue }
            guard seen.insert(name).inserted else {
                throw CatalogReadError("\(path).\(key) appears twice", at: value.location)
            }
            switch name {
            case "type":
                guard case .string(let text) = value.content else {
                    throw CatalogReadError("\(path).\(key): expected a <string>, found \(value.elementName)",
                                           at: value.location)
                }
                product.kind = try PlistCatalogBuilder.kind(text, path: "\(path).\(key)", location: value.location)
                product.fieldLocations[.type] = value.location
            case "referencename":
                guard case .string(let text) = value.content else {
                    throw CatalogReadError("\(path).\(key): expected a <string>, found \(value.elementName)",
                                           at: value.location)
                }
                product.referenceName = text
                product.fieldLocations[.name] = value.location
            default:
                product.uncomparedPrices.append(try PlistCatalogBuilder.price(value, path: "\(path).\(key)"))
                product.fieldLocations[.price] = value.location
            }
        }
    }

    private static func kind(_ text: String, path: String,
                             location: SourceLocation) throws(CatalogReadError) -> ProductKind {
        let folded = String(text.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " })
        switch folded {
        case "consumable": return .consumable
        case "nonconsumable": return .nonConsumable
        case "autorenewable", "autorenewablesubscription", "autorenewing", "recurringsubscription",
             "automaticallyrenewablesubscription":
            return .autoRenewable
        case "nonrenewing", "nonrenewingsubscription": return .nonRenewing
        default:
            throw CatalogReadError(
                "\(path): \"\(text)\" is not a product type (expected consumable, non-consumable, auto-renewable or "
                    + "non-renewing)", at: location)
        }
    }

    private static func price(_ value: PlistValue, path: String) throws(CatalogReadError) -> UncomparedPrice {
        let text: String
        switch value.content {
        case .string(let string), .real(let string), .integer(let string): text = string.trimmedXMLWhitespace()
        default:
            throw CatalogReadError("\(path): expected a <string> such as \"0.99 USD\" or a <real>, found "
                                       + value.elementName, at: value.location)
        }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" })
        if parts.count == 1, Money.parseAmount(parts[0]) != nil {
            return UncomparedPrice(label: "default", rawAmount: String(parts[0]))
        }
        if parts.count == 2, case .string = value.content {
            let (amountText, currencyText) = Money.parseAmount(parts[0]) != nil
                ? (parts[0], parts[1]) : (parts[1], parts[0])
            if let amount = Money.parseAmount(amountText), let currency = CurrencyCode(currencyText) {
                return UncomparedPrice(label: "default", amount: Money(amount: amount, currency: currency))
            }
        }
        throw CatalogReadError("\(path): \"\(text)\" is not a price (expected e.g. \"0.99 USD\")", at: value.location)
    }
}
