import CatalogCore
import Foundation

/// Checks a parsed config (YAML or JSON, as a `ConfigNode` tree) against schema version 1 (DESIGN.md §4, §5a)
/// and builds the normalized `Catalog`. The first problem found is thrown, naming file:line:column, the key
/// path and the offending value.
struct ConfigValidator: ConfigNodeReading {
    /// The path shown in locations.
    let path: String
    /// Prices read from their scalar text so far: a big config repeats a few hundred texts (`9.99 USD`) in
    /// hundreds of thousands of places, and reading one costs a split, a `Decimal` and two table lookups.
    private let moneyByText = MoneyTexts()

    /// The cache behind `moneyByText` (a class, so the non-mutating readers can fill it).
    private final class MoneyTexts {
        var values: [String: Money] = [:]
    }

    init(path: String) {
        self.path = path
    }

    private static let rootKeys = ["$schema", "version", "app", "groups", "products"]
    private static let appKeys = ["bundleId", "baseTerritory"]
    private static let groupKeys = ["name"]
    private static let productKeys = ["type", "name", "group", "level", "period", "price", "tier", "prices",
                                      "introOffer", "familyShareable", "clearedForSale", "storeIds", "stores"]
    private static let introOfferKeys = ["mode", "period", "periods", "price"]
    private static let moneyKeys = ["amount", "currency"]
    private static let periodHelp = "use P1W, P1M, … or \"1 month\""
    private static let priceHelp = "use \"9.99 USD\" or {amount: \"9.99\", currency: USD}"

    /// Builds the catalog; `root` is nil for a document without content. `streamed` is the sink the document's
    /// parser handed products to, if any: its products and its first error stand in the place of the entries it
    /// took, so that messages come in the same order as from a whole tree.
    func catalog(from document: ConfigNode?, streamed: ProductStream? = nil) throws(CatalogReadError) -> Catalog {
        let (root, entries) = try documentRoot(document, document: "the config",
                                               needs: "\"version: 1\" and \"products:\"",
                                               keys: ["version", "app", "groups", "products"])
        let rootPath = ConfigPath()
        try checkKeys(entries, allowed: ConfigValidator.rootKeys, path: rootPath)
        if let schema = entries.first(where: { $0.key == "$schema" }) {
            _ = try string(schema.value, path: rootPath.appending(key: "$schema"))
        }

        var catalog = Catalog(path: path, format: .catalog, capabilities: CatalogCapabilities(expressesGroups: true))
        if let app = entries.first(where: { $0.key == "app" }) {
            try readApp(app.value, path: rootPath.appending(key: "app"), into: &catalog)
        }
        if let groups = entries.first(where: { $0.key == "groups" }) {
            catalog.groups = try readGroups(groups.value, path: rootPath.appending(key: "groups"))
        }
        guard let products = entries.first(where: { $0.key == "products" }) else {
            throw CatalogReadError("products: missing; list the products under \"products:\" (it may be empty: {})",
                                   at: root.location)
        }
        let productsPath = rootPath.appending(key: "products")
        if !products.value.isNull {
            guard let productEntries = products.value.entries else {
                throw CatalogReadError(
                    "\(productsPath): \(products.value.quoted) is not a mapping of product IDs to products",
                    at: products.value.location)
            }
            catalog.products.reserveCapacity(productEntries.count)
            let stream = streamed?.began == true ? streamed : nil
            for (position, entry) in productEntries.enumerated() {
                if let product = try stream?.product(at: position) {
                    catalog.products.append(product)
                } else {
                    catalog.products.append(try readProduct(entry, path: productsPath.appending(key: entry.key),
                                                            catalog: catalog))
                }
            }
        }
        return catalog
    }

    /// Validates a config's products as its parser hands them over (`ConfigProductSink`): the tree then never holds
    /// every product at once. A product is taken only when it reads the same as it would from the whole tree: the
    /// `app` and `groups` a product's `price` and `group` depend on must come before `products` (and be valid),
    /// otherwise the product stays in the tree for `catalog(from:streamed:)`.
    final class ProductStream: ConfigProductSink {
        private let validator: ConfigValidator
        /// The catalog as far as products need it (base territory, groups), from the root entries before
        /// `products`.
        private var context: Catalog
        /// Whether the root set `app` and `groups` before `products` (then nothing later changes them).
        private var knowsApp = false
        private var knowsGroups = false
        /// Whether the parser handed over the `products` mapping.
        private(set) var began = false
        /// The position of the next entry offered, and of the next product handed back.
        private var position = 0
        private var next = 0
        /// The products taken, with their positions in the mapping.
        private var products: [(position: Int, product: Product)] = []
        /// The first product that failed: every later one is taken unread (the error comes before it).
        private var failure: (position: Int, error: CatalogReadError)?

        init(validator: ConfigValidator) {
            self.validator = validator
            context = Catalog(path: validator.path, format: .catalog)
        }

        func begin(rootEntries: [ConfigEntry]) -> Bool {
            let rootPath = ConfigPath()
            do throws(CatalogReadError) {
                if let app = rootEntries.first(where: { $0.key == "app" }) {
                    try validator.readApp(app.value, path: rootPath.appending(key: "app"), into: &context)
                    knowsApp = true
                }
                if let groups = rootEntries.first(where: { $0.key == "groups" }) {
                    context.groups = try validator.readGroups(groups.value, path: rootPath.appending(key: "groups"))
                    knowsGroups = true
                }
            } catch {
                // The validation of the whole document reports it, before any product.
                return false
            }
            began = true
            return true
        }

        func take(_ entry: ConfigEntry) -> Bool {
            defer { position += 1 }
            if failure != nil { return true }
            guard let fields = entry.value.entries,
                  knowsGroups || !fields.contains(where: { $0.key == "group" }),
                  knowsApp || !fields.contains(where: { $0.key == "price" }) else { return false }
            do {
                let path = ConfigPath().appending(key: "products").appending(key: entry.key)
                products.append((position, try validator.readProduct(entry, path: path, catalog: context)))
            } catch {
                failure = (position, error)
            }
            return true
        }

        /// The product taken at `position` (asked for in order), its error, or nil when the tree kept the entry.
        func product(at position: Int) throws(CatalogReadError) -> Product? {
            if let failure, failure.position == position { throw failure.error }
            guard next < products.count, products[next].position == position else { return nil }
            defer { next += 1 }
            return products[next].product
        }
    }

    // MARK: - Sections

    private func readApp(_ node: ConfigNode, path: ConfigPath, into catalog: inout Catalog) throws(CatalogReadError) {
        if node.isNull { return }
        let entries = try mapping(node, path: path, allowed: ConfigValidator.appKeys)
        for entry in entries {
            let entryPath = path.appending(key: entry.key)
            switch entry.key {
            case "bundleId":
                catalog.appID = try string(entry.value, path: entryPath)
            case "baseTerritory":
                let code = try string(entry.value, path: entryPath)
                catalog.baseTerritory = try territory(code, at: entry.value.location, path: entryPath)
            default:
                break
            }
        }
    }

    private func readGroups(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [SubscriptionGroup] {
        if node.isNull { return [] }
        guard let entries = node.entries else {
            throw CatalogReadError("\(path): \(node.quoted) is not a mapping of group keys to groups",
                                   at: node.location)
        }
        var groups: [SubscriptionGroup] = []
        for entry in entries {
            let groupPath = path.appending(key: entry.key)
            guard !entry.key.isEmpty else {
                throw CatalogReadError("\(path): a group key must not be empty", at: entry.keyLocation)
            }
            var name = entry.key
            if !entry.value.isNull {
                let fields = try mapping(entry.value, path: groupPath, allowed: ConfigValidator.groupKeys)
                if let nameEntry = fields.first(where: { $0.key == "name" }) {
                    name = try string(nameEntry.value, path: groupPath.appending(key: "name"))
                    guard !name.isEmpty else {
                        throw CatalogReadError("\(groupPath.appending(key: "name")): must not be empty",
                                               at: nameEntry.value.location)
                    }
                }
            }
            groups.append(SubscriptionGroup(key: entry.key, name: name, location: entry.keyLocation))
        }
        return groups
    }

    // MARK: - Products

    private func readProduct(_ entry: ConfigEntry, path: ConfigPath,
                             catalog: Catalog) throws(CatalogReadError) -> Product {
        guard !entry.key.isEmpty else {
            throw CatalogReadError("products: a product ID must not be empty", at: entry.keyLocation)
        }
        guard !entry.value.isNull else {
            throw CatalogReadError("\(path): the product has no fields; it needs at least \"type\"",
                                   at: entry.keyLocation)
        }
        let fields = try mapping(entry.value, path: path, allowed: ConfigValidator.productKeys)
        var product = Product(id: ProductID(entry.key), location: entry.keyLocation)
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }

        guard let typeEntry = field("type") else {
            throw CatalogReadError(
                "\(path): missing \"type\" (\(ProductKind.configNames))",
                at: entry.keyLocation)
        }
        let typeText = try string(typeEntry.value, path: path.appending(key: "type"))
        guard let kind = ProductKind(rawValue: typeText) else {
            throw CatalogReadError(
                "\(path.appending(key: "type")): \(ConfigScalar.quote(typeText)) is not a product type "
                    + "(\(ProductKind.configNames))",
                at: typeEntry.value.location)
        }
        product.kind = kind
        product.fieldLocations[.type] = typeEntry.keyLocation

        var priceSource: ConfigEntry?
        for field in fields {
            let fieldPath = path.appending(key: field.key)
            let value = field.value
            switch field.key {
            case "name":
                product.referenceName = try string(value, path: fieldPath)
                product.fieldLocations[.name] = field.keyLocation
            case "group":
                // A non-renewing product has a group when it is a Play prepaid base plan (DESIGN.md §4).
                guard kind == .autoRenewable || kind == .nonRenewing else {
                    throw CatalogReadError(
                        "\(fieldPath): only subscriptions belong to a group (type is \(kind.rawValue))",
                        at: field.keyLocation)
                }
                let key = try string(value, path: fieldPath)
                guard catalog.groups.contains(where: { $0.key == key }) else {
                    let known = catalog.groups.map(\.key).sorted()
                    var list = known.isEmpty ? "no groups are defined under \"groups:\""
                        : "groups: " + known.joined(separator: ", ")
                    if let suggestion = nearest(key, in: known) {
                        list = "did you mean \"\(suggestion)\"? " + list
                    }
                    throw CatalogReadError("\(fieldPath): \(ConfigScalar.quote(key)) is not a group key (\(list))",
                                           at: value.location)
                }
                product.groupKey = key
                product.fieldLocations[.group] = field.keyLocation
            case "level":
                guard fields.contains(where: { $0.key == "group" }) else {
                    throw CatalogReadError("\(fieldPath): a level is a rank within a group; add \"group\"",
                                           at: field.keyLocation)
                }
                guard let level = value.scalar?.int, level >= 1 else {
                    throw CatalogReadError(
                        "\(fieldPath): \(value.quoted) is not a level (a whole number, 1 = highest service level)",
                        at: value.location)
                }
                product.level = level
                product.fieldLocations[.level] = field.keyLocation
            case "period":
                guard kind == .autoRenewable || kind == .nonRenewing else {
                    throw CatalogReadError(
                        "\(fieldPath): only subscriptions have a period (type is \(kind.rawValue))",
                        at: field.keyLocation)
                }
                product.period = try period(value, path: fieldPath)
                product.fieldLocations[.period] = field.keyLocation
            case "price", "tier", "prices":
                if let first = priceSource {
                    throw CatalogReadError(
                        "\(fieldPath): use only one of price, tier and prices (\(first.key) is at line "
                            + "\(first.keyLocation.line ?? 0), column \(first.keyLocation.column ?? 0))",
                        at: field.keyLocation)
                }
                priceSource = field
                product.prices = try prices(field, path: fieldPath, baseTerritory: catalog.baseTerritory)
                product.listsTerritoryPrices = field.key == "prices"
                product.fieldLocations[.price] = field.keyLocation
            case "introOffer":
                guard kind == .autoRenewable else {
                    throw CatalogReadError(
                        "\(fieldPath): only auto-renewable subscriptions have an introductory offer "
                            + "(type is \(kind.rawValue))",
                        at: field.keyLocation)
                }
                product.introOffers = [try introOffer(value, path: fieldPath)]
                product.fieldLocations[.introOffer] = field.keyLocation
            case "familyShareable":
                product.familyShareable = try bool(value, path: fieldPath)
                product.fieldLocations[.familyShareable] = field.keyLocation
            case "clearedForSale":
                product.clearedForSale = try bool(value, path: fieldPath)
                product.fieldLocations[.clearedForSale] = field.keyLocation
            case "storeIds":
                product.storeIDs = try storeIDs(value, path: fieldPath)
            case "stores":
                product.stores = try stores(value, path: fieldPath)
            default:
                break
            }
        }
        return product
    }

    private func prices(_ field: ConfigEntry, path: ConfigPath,
                        baseTerritory: Territory) throws(CatalogReadError) -> [Territory: Price] {
        let value = field.value
        switch field.key {
        case "price":
            let money = try money(value, path: path)
            return [baseTerritory: Price(territory: baseTerritory, money: money, location: value.location)]
        case "tier":
            guard let tier = value.scalar?.int, let amount = PriceTierTable.usdPrice(tier: tier),
                  let usd = CurrencyCode("USD") else {
                throw CatalogReadError(
                    "\(path): \(value.quoted) is not a legacy App Store price tier (a whole number, 0…87)",
                    at: value.location)
            }
            let territory = Territory.unitedStates
            return [territory: Price(territory: territory, money: Money(amount: amount, currency: usd),
                                     location: value.location)]
        default:
            guard let entries = value.entries else {
                throw CatalogReadError(
                    "\(path): \(value.quoted) is not a mapping of territories to prices (e.g. US: 9.99 USD)",
                    at: value.location)
            }
            guard !entries.isEmpty else {
                throw CatalogReadError("\(path): lists no territory (e.g. US: 9.99 USD)", at: value.location)
            }
            var result: [Territory: Price] = [:]
            result.reserveCapacity(entries.count)
            for entry in entries {
                // The key path is built only for a message: a big config has hundreds of thousands of prices.
                let territory = try territory(entry.key, at: entry.keyLocation, path: path.appending(key: entry.key))
                // A territory priced twice is rare: the earlier entry is searched for only then.
                if result[territory] != nil,
                   let earlier = entries.first(where: { Territory(code: $0.key) == territory }) {
                    let also = ConfigScalar.quote(earlier.key)
                    throw CatalogReadError(
                        "\(path.appending(key: entry.key)): \(territory.alpha2) is priced twice (also as \(also) "
                            + "at line \(earlier.keyLocation.line ?? 0), column \(earlier.keyLocation.column ?? 0))",
                        at: entry.keyLocation)
                }
                let money = try money(entry.value, path: path.appending(key: entry.key))
                result[territory] = Price(territory: territory, money: money, location: entry.value.location)
            }
            return result
        }
    }

    private func introOffer(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> IntroOffer {
        let fields = try mapping(node, path: path, allowed: ConfigValidator.introOfferKeys)
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }
        let modes = "free-trial, pay-as-you-go or pay-up-front"
        guard let modeEntry = field("mode") else {
            throw CatalogReadError("\(path): missing \"mode\" (\(modes))", at: node.location)
        }
        let modeText = try string(modeEntry.value, path: path.appending(key: "mode"))
        guard let mode = IntroOffer.Mode(rawValue: modeText) else {
            throw CatalogReadError(
                "\(path.appending(key: "mode")): \(ConfigScalar.quote(modeText)) is not an offer mode (\(modes))",
                at: modeEntry.value.location)
        }
        guard let periodEntry = field("period") else {
            throw CatalogReadError("\(path): missing \"period\" (e.g. P1W)", at: node.location)
        }
        let period = try period(periodEntry.value, path: path.appending(key: "period"))
        var periods = 1
        if let periodsEntry = field("periods") {
            guard let count = periodsEntry.value.scalar?.int, count >= 1, count <= IntroOffer.maximumPeriods else {
                throw CatalogReadError(
                    "\(path.appending(key: "periods")): \(periodsEntry.value.quoted) is not a number of periods "
                        + "(a whole number, at least 1)",
                    at: periodsEntry.value.location)
            }
            periods = count
        }
        var price: Money?
        if let priceEntry = field("price") {
            guard mode != .freeTrial else {
                throw CatalogReadError("\(path.appending(key: "price")): a free trial has no price",
                                       at: priceEntry.keyLocation)
            }
            price = try money(priceEntry.value, path: path.appending(key: "price"))
        }
        return IntroOffer(mode: mode, period: period, periods: periods, price: price, location: node.location)
    }

    private func storeIDs(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [StoreKind: ProductID] {
        guard let entries = node.entries else {
            throw CatalogReadError("\(path): \(node.quoted) is not a mapping of stores to IDs (e.g. play: sub:plan)",
                                   at: node.location)
        }
        var result: [StoreKind: ProductID] = [:]
        for entry in entries {
            let entryPath = path.appending(key: entry.key)
            guard entry.key == StoreKind.play.rawValue else {
                throw CatalogReadError(
                    "\(entryPath): only \"play\" can have a different ID in schema version 1 "
                        + "(the config key is the App Store product ID)",
                    at: entry.keyLocation)
            }
            let id = try string(entry.value, path: entryPath)
            guard !id.isEmpty else {
                throw CatalogReadError("\(entryPath): must not be empty", at: entry.value.location)
            }
            result[.play] = ProductID(id)
        }
        return result
    }

    private func stores(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> Set<StoreKind> {
        let stores = try uniqueList(node, path: path, of: "store", "stores", example: "[appstore, play]") {
            text, element, elementPath throws(CatalogReadError) in
            try store(text, at: element.location, path: elementPath)
        }
        return Set(stores)
    }

    // MARK: - Values

    private func period(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> SubscriptionPeriod {
        guard let text = node.scalar?.string else {
            throw CatalogReadError("\(path): \(node.quoted) is not a period (\(ConfigValidator.periodHelp))",
                                   at: node.location)
        }
        guard let period = ConfigValidator.parsePeriod(text) else {
            throw CatalogReadError(
                "\(path): \(ConfigScalar.quote(text)) is not a period (\(ConfigValidator.periodHelp))",
                at: node.location)
        }
        return period
    }

    /// A price: `"9.99 USD"` or `{amount: "9.99", currency: USD}` (the amount a string or a number).
    private func money(_ node: ConfigNode,
                       path makePath: @autoclosure () -> ConfigPath) throws(CatalogReadError) -> Money {
        if let text = node.scalar.flatMap({ $0.kind == .plain || $0.kind == .string ? $0.text : nil }),
           let known = moneyByText.values[text] {
            return known
        }
        let path = makePath()
        switch node.value {
        case .mapping(let entries):
            try checkKeys(entries, allowed: ConfigValidator.moneyKeys, path: path)
            guard let amountEntry = entries.first(where: { $0.key == "amount" }) else {
                throw CatalogReadError("\(path): missing \"amount\" (\(ConfigValidator.priceHelp))",
                                       at: node.location)
            }
            guard let currencyEntry = entries.first(where: { $0.key == "currency" }) else {
                throw CatalogReadError("\(path): missing \"currency\" (\(ConfigValidator.priceHelp))",
                                       at: node.location)
            }
            let amountPath = path.appending(key: "amount")
            guard let scalar = amountEntry.value.scalar, scalar.kind != .bool, !scalar.isNull else {
                throw CatalogReadError("\(amountPath): \(amountEntry.value.quoted) is not a decimal amount",
                                       at: amountEntry.value.location)
            }
            let amount = try amount(scalar.text, at: amountEntry.value.location, path: amountPath)
            let currencyText = try string(currencyEntry.value, path: path.appending(key: "currency"))
            let currency = try currency(currencyText, at: currencyEntry.value.location,
                                        path: path.appending(key: "currency"))
            return Money(amount: amount, currency: currency)
        case .scalar(let scalar):
            if scalar.kind == .number || (scalar.kind == .plain && Money.parseAmount(scalar.text) != nil) {
                throw CatalogReadError(
                    "\(path): \(scalar.quoted) needs a currency, e.g. \"\(scalar.text) USD\"", at: node.location)
            }
            guard let text = scalar.string else {
                throw CatalogReadError("\(path): \(scalar.quoted) is not a price (\(ConfigValidator.priceHelp))",
                                       at: node.location)
            }
            let parts = text.split(separator: " ", omittingEmptySubsequences: true)
            guard text.first != " ", text.last != " " else {
                throw CatalogReadError("\(path): \(scalar.quoted) is not a price (\(ConfigValidator.priceHelp))",
                                       at: node.location)
            }
            if parts.count == 1, Money.parseAmount(parts[0]) != nil {
                throw CatalogReadError(
                    "\(path): \(scalar.quoted) needs a currency, e.g. \"\(parts[0]) USD\"", at: node.location)
            }
            guard parts.count == 2 else {
                throw CatalogReadError("\(path): \(scalar.quoted) is not a price (\(ConfigValidator.priceHelp))",
                                       at: node.location)
            }
            let amount = try amount(String(parts[0]), at: node.location, path: path)
            let currency = try currency(String(parts[1]), at: node.location, path: path)
            let money = Money(amount: amount, currency: currency)
            moneyByText.values[text] = money
            return money
        case .sequence:
            throw CatalogReadError("\(path): a list is not a price (\(ConfigValidator.priceHelp))", at: node.location)
        }
    }

    private func amount(_ text: String, at location: SourceLocation,
                        path: ConfigPath) throws(CatalogReadError) -> Decimal {
        if let amount = Money.parseAmount(text) { return amount }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let allDigits = !text.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        if allDigits {
            throw CatalogReadError(
                "\(path): \(ConfigScalar.quote(text)) has too many digits for an amount (at most 18 before the "
                    + "point and 12 after)",
                at: location)
        }
        throw CatalogReadError(
            "\(path): \(ConfigScalar.quote(text)) is not a decimal amount (digits with an optional "
                + "\".\" and decimals, like 9.99)",
            at: location)
    }

    private func currency(_ text: String, at location: SourceLocation,
                          path: ConfigPath) throws(CatalogReadError) -> CurrencyCode {
        if let currency = CurrencyCode(text) { return currency }
        var message = "\(path): \(ConfigScalar.quote(text)) is not an ISO 4217 currency code"
        if CurrencyCode(text.uppercased()) != nil { message += " (codes are upper case: \(text.uppercased()))" }
        throw CatalogReadError(message, at: location)
    }

    // MARK: - Helpers

    /// Parses the period spellings the config accepts (DESIGN.md §5a.4), case-insensitively: ISO 8601
    /// `P<n>D|W|M|Y`, the store enums (`ONE_MONTH`), `N day(s)|week(s)|month(s)|year(s)`, and weekly, monthly,
    /// quarterly, yearly, annual.
    static func parsePeriod(_ text: String) -> SubscriptionPeriod? {
        guard let first = text.unicodeScalars.first, let last = text.unicodeScalars.last,
              !first.properties.isWhitespace, !last.properties.isWhitespace else { return nil }
        let upper = text.uppercased()
        switch upper {
        case "WEEKLY": return SubscriptionPeriod(count: 1, unit: .week)
        case "MONTHLY": return SubscriptionPeriod(count: 1, unit: .month)
        case "QUARTERLY": return SubscriptionPeriod(count: 3, unit: .month)
        case "YEARLY", "ANNUAL": return SubscriptionPeriod(count: 1, unit: .year)
        default: break
        }
        if upper.hasPrefix("P") { return SubscriptionPeriod(iso: upper) }
        return SubscriptionPeriod(storeText: upper)
    }
}
