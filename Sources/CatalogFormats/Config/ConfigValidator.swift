import CatalogCore
import Foundation

/// Checks a parsed config (YAML or JSON, as a `ConfigNode` tree) against schema version 1 (DESIGN.md §4, §5a)
/// and builds the normalized `Catalog`. Every problem is reported (DESIGN.md §5a.1), each naming file:line:column,
/// the key path and the offending value: a problem is recorded in `problems` and validation goes on with the next
/// value, and the catalog is returned only when there is none.
struct ConfigValidator: ConfigNodeReading {
    /// The path shown in locations.
    let path: String
    /// Every problem found, shared with the product stream and the parser (whose syntax error ends the list).
    let problems = ConfigProblems()
    /// Prices read from their scalar text so far: a big config repeats a few hundred texts (`9.99 USD`) in
    /// hundreds of thousands of places, and reading one costs a split, a `Decimal` and two table lookups.
    private let moneyByText = MoneyTexts()

    /// The cache behind `moneyByText` (a class, so the non-mutating readers can fill it). The table is one stored
    /// property, so a lookup is one exclusivity check.
    private final class MoneyTexts {
        private var table = TextTable<Money>()

        /// The money read from `text` before, if any.
        func value(for text: String) -> Money? { table.value(for: text) }

        /// Keeps the money read from `text`.
        func keep(_ money: Money, for text: String) { table.keep(money, for: text) }
    }

    /// The day a territory's price schedule is read for (`--as-of`): its entry in effect that day is the price
    /// compared; nil takes the undated entry (DESIGN.md §4 "Scheduled prices").
    let asOf: CalendarDate?
    /// Whether every product must state `type` (DESIGN.md §5a.1); a mapped source may leave it unstated (§4b).
    var requiresType = true

    init(path: String, asOf: CalendarDate? = nil) {
        self.path = path
        self.asOf = asOf
    }

    /// `$comment` (root and product): a note for people, a string or a list of strings, never read — what a JSON
    /// export writes where the YAML export writes comments (`CatalogJSONExporter`).
    private static let rootKeys = ["$schema", "$comment", "version", "app", "groups", "products"]
    private static let appKeys = ["bundleId", "baseTerritory"]
    private static let groupKeys = ["name"]
    private static let productKeys = ["$comment", "type", "name", "group", "level", "period", "price", "tier",
                                      "prices", "introOffer", "familyShareable", "clearedForSale", "storeIds", "stores",
                                      "offers", "billingPlans", "purchaseOptions", "priceChange", "equalized"]
    private static let introOfferKeys = ["mode", "period", "periods", "price"]
    private static let moneyKeys = ["amount", "currency"]
    static let periodHelp = "use P1W, P1M, … or \"1 month\""
    static let priceHelp = "use \"9.99 USD\" or {amount: \"9.99\", currency: USD}"

    /// Builds the catalog; `root` is nil for a document without content. `streamed` is the sink the document's
    /// parser handed products to, if any: its products stand in the place of the entries it took (their problems
    /// are already in `problems`, which orders every problem by its place in the file).
    func catalog(from document: ConfigNode?, streamed: ProductStream? = nil) throws(CatalogReadError) -> Catalog {
        let (root, entries) = try documentRoot(document, document: "the config",
                                               needs: "\"version: 1\" and \"products:\"",
                                               keys: ["version", "app", "groups", "products"])
        let rootPath = ConfigPath()
        checkKeys(entries, allowed: ConfigValidator.rootKeys, path: rootPath)
        if let schema = entries.first(where: { $0.key == "$schema" }) {
            problems.recording { () throws(CatalogReadError) in
                _ = try string(schema.value, path: rootPath.appending(key: "$schema"))
            }
        }
        if let comment = entries.first(where: { $0.key == "$comment" }) {
            problems.recording { () throws(CatalogReadError) in
                try self.comment(comment.value, path: rootPath.appending(key: "$comment"))
            }
        }

        var catalog = Catalog(path: path, format: .catalog, capabilities: CatalogCapabilities(expressesGroups: true))
        if let app = entries.first(where: { $0.key == "app" }) {
            readApp(app.value, path: rootPath.appending(key: "app"), into: &catalog)
        }
        if let groups = entries.first(where: { $0.key == "groups" }) {
            catalog.groups = readGroups(groups.value, path: rootPath.appending(key: "groups"))
        }
        let productsPath = rootPath.appending(key: "products")
        if let products = entries.first(where: { $0.key == "products" }) {
            if let productEntries = products.value.entries {
                catalog.products.reserveCapacity(productEntries.count)
                let stream = streamed?.began == true ? streamed : nil
                for (position, entry) in productEntries.enumerated() {
                    if let product = stream?.product(at: position) {
                        catalog.products.append(product)
                    } else {
                        catalog.products.append(readProduct(entry, path: productsPath.appending(key: entry.key),
                                                            catalog: catalog))
                    }
                }
            } else if !products.value.isNull {
                problems.add(CatalogReadError(
                    "\(productsPath): \(products.value.quoted) is not a mapping of product IDs to products",
                    at: products.value.location))
            }
        } else if !misspells("products", in: entries, allowed: ConfigValidator.rootKeys) {
            problems.add(CatalogReadError(
                "products: missing; list the products under \"products:\" (it may be empty: {})", at: root.location))
        }
        try problems.throwIfAny()
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
        /// The products taken, with their positions in the mapping (their problems go to the validator's
        /// `problems`).
        private var products: [(position: Int, product: Product)] = []

        init(validator: ConfigValidator) {
            self.validator = validator
            context = Catalog(path: validator.path, format: .catalog)
        }

        func begin(rootEntries: [ConfigEntry]) -> Bool {
            let rootPath = ConfigPath()
            // Read apart from the validator's problems: the validation of the whole document reports them.
            let settings = ConfigValidator(path: validator.path)
            if let app = rootEntries.first(where: { $0.key == "app" }) {
                settings.readApp(app.value, path: rootPath.appending(key: "app"), into: &context)
                knowsApp = true
            }
            if let groups = rootEntries.first(where: { $0.key == "groups" }) {
                context.groups = settings.readGroups(groups.value, path: rootPath.appending(key: "groups"))
                knowsGroups = true
            }
            began = settings.problems.isEmpty
            return began
        }

        func take(_ entry: ConfigEntry) -> Bool {
            defer { position += 1 }
            guard let fields = entry.value.entries,
                  knowsGroups || !fields.contains(where: { $0.key == "group" }),
                  knowsApp || !fields.contains(where: { $0.key == "price" }) else { return false }
            let path = ConfigPath().appending(key: "products").appending(key: entry.key)
            products.append((position, validator.readProduct(entry, path: path, catalog: context)))
            return true
        }

        /// The product taken at `position` (asked for in order), or nil when the tree kept the entry.
        func product(at position: Int) -> Product? {
            guard next < products.count, products[next].position == position else { return nil }
            defer { next += 1 }
            return products[next].product
        }
    }

    // MARK: - Sections

    /// Reads `app:`; each problem is recorded (a setting with one leaves the default).
    private func readApp(_ node: ConfigNode, path: ConfigPath, into catalog: inout Catalog) {
        if node.isNull { return }
        guard let entries = problems.recording({ () throws(CatalogReadError) in
            try mapping(node, path: path, allowed: ConfigValidator.appKeys)
        }) else { return }
        for entry in entries {
            let entryPath = path.appending(key: entry.key)
            do throws(CatalogReadError) {
                switch entry.key {
                case "bundleId":
                    catalog.appID = try string(entry.value, path: entryPath)
                    catalog.appIDLocation = entry.value.location
                case "baseTerritory":
                    let code = try string(entry.value, path: entryPath)
                    catalog.baseTerritory = try territory(code, at: entry.value.location, path: entryPath)
                default:
                    break
                }
            } catch {
                problems.add(error)
            }
        }
    }

    /// Reads `groups:`; each problem is recorded. A group whose name has a problem is kept under its key, so
    /// that the products in it are not reported as well.
    private func readGroups(_ node: ConfigNode, path: ConfigPath) -> [SubscriptionGroup] {
        if node.isNull { return [] }
        guard let entries = node.entries else {
            problems.add(CatalogReadError("\(path): \(node.quoted) is not a mapping of group keys to groups",
                                          at: node.location))
            return []
        }
        var groups: [SubscriptionGroup] = []
        for entry in entries {
            let groupPath = path.appending(key: entry.key)
            guard !entry.key.isEmpty else {
                problems.add(CatalogReadError("\(path): a group key must not be empty", at: entry.keyLocation))
                continue
            }
            var name = entry.key
            if !entry.value.isNull, let fields = problems.recording({ () throws(CatalogReadError) in
                try mapping(entry.value, path: groupPath, allowed: ConfigValidator.groupKeys)
            }), let nameEntry = fields.first(where: { $0.key == "name" }) {
                let text = problems.recording { () throws(CatalogReadError) in
                    try string(nameEntry.value, path: groupPath.appending(key: "name"))
                }
                if text?.isEmpty == true {
                    problems.add(CatalogReadError("\(groupPath.appending(key: "name")): must not be empty",
                                                  at: nameEntry.value.location))
                } else if let text {
                    name = text
                }
            }
            groups.append(SubscriptionGroup(key: entry.key, name: name, location: entry.keyLocation))
        }
        return groups
    }

    // MARK: - Products

    /// A `$comment`: a string or a list of strings.
    private func comment(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) {
        guard let elements = node.elements else {
            _ = try string(node, path: path)
            return
        }
        for (index, element) in elements.enumerated() {
            _ = try string(element, path: path.appending(index: index))
        }
    }

    /// Reads one product; each problem is recorded (what is returned then is never used). A product whose type
    /// is missing or unknown still has its other fields checked, except what depends on the type.
    private func readProduct(_ entry: ConfigEntry, path: ConfigPath, catalog: Catalog) -> Product {
        var product = Product(id: ProductID(entry.key), location: entry.keyLocation)
        if entry.key.isEmpty {
            problems.add(CatalogReadError("products: a product ID must not be empty", at: entry.keyLocation))
        }
        guard !entry.value.isNull else {
            problems.add(CatalogReadError("\(path): the product has no fields; it needs at least \"type\"",
                                          at: entry.keyLocation))
            return product
        }
        guard let fields = problems.recording({ () throws(CatalogReadError) in
            try mapping(entry.value, path: path, allowed: ConfigValidator.productKeys)
        }) else { return product }
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }

        var kind: ProductKind?
        if let typeEntry = field("type") {
            kind = problems.recording { () throws(CatalogReadError) in
                let typeText = try string(typeEntry.value, path: path.appending(key: "type"))
                guard let kind = ProductKind(rawValue: typeText) else {
                    throw CatalogReadError(
                        "\(path.appending(key: "type")): \(ConfigScalar.quote(typeText)) is not a product type "
                            + "(\(ProductKind.configNames))",
                        at: typeEntry.value.location)
                }
                return kind
            }
            product.kind = kind
            product.fieldLocations[.type] = typeEntry.keyLocation
        } else if requiresType, !misspells("type", in: fields, allowed: ConfigValidator.productKeys) {
            problems.add(CatalogReadError(
                "\(path): missing \"type\" (\(ProductKind.configNames))",
                at: entry.keyLocation))
        }

        var priceSource: ConfigEntry?
        for field in fields {
            let fieldPath = path.appending(key: field.key)
            let value = field.value
            do throws(CatalogReadError) {
                switch field.key {
                case "$comment":
                    try comment(value, path: fieldPath)
                case "name":
                    product.referenceName = try string(value, path: fieldPath)
                    product.fieldLocations[.name] = field.keyLocation
                case "group":
                    // A non-renewing product has a group when it is a Play prepaid base plan (DESIGN.md §4).
                    if let kind, kind != .autoRenewable, kind != .nonRenewing {
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
                    if let kind, kind != .autoRenewable, kind != .nonRenewing {
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
                    let (listed, equalized) = try splitEqualized(field, path: fieldPath)
                    if equalized { product.equalizesOtherTerritories = true }
                    try readProductPrices(listed, path: fieldPath, baseTerritory: catalog.baseTerritory,
                                          into: &product)
                    product.listsTerritoryPrices = field.key == "prices"
                    product.fieldLocations[.price] = field.keyLocation
                case "introOffer":
                    if let kind, kind != .autoRenewable {
                        throw CatalogReadError(
                            "\(fieldPath): only auto-renewable subscriptions have an introductory offer "
                                + "(type is \(kind.rawValue))",
                            at: field.keyLocation)
                    }
                    product.introOffers = try introOffer(value, path: fieldPath).map { [$0] }
                    product.fieldLocations[.introOffer] = field.keyLocation
                case "familyShareable":
                    product.familyShareable = try bool(value, path: fieldPath)
                    product.fieldLocations[.familyShareable] = field.keyLocation
                case "clearedForSale":
                    product.clearedForSale = try bool(value, path: fieldPath)
                    product.fieldLocations[.clearedForSale] = field.keyLocation
                case "equalized":
                    product.equalizesOtherTerritories = try equalizedFlag(field, path: fieldPath, fields: fields)
                case "storeIds":
                    product.storeIDs = try storeIDs(value, path: fieldPath)
                case "stores":
                    product.stores = try stores(value, path: fieldPath)
                case "offers":
                    // What an offer may say depends on the type: without a valid one there is nothing to judge.
                    guard let kind else { break }
                    product.offers = try offers(value, path: fieldPath, productKind: kind,
                                                fieldLocations: &product.fieldLocations)
                case "billingPlans":
                    guard let kind else { break }
                    product.billingPlans = try billingPlans(field, path: fieldPath, productKind: kind,
                                                            fieldLocations: &product.fieldLocations)
                case "purchaseOptions":
                    guard let kind else { break }
                    product.purchaseOptions = try purchaseOptions(field, path: fieldPath, productKind: kind,
                                                                  fieldLocations: &product.fieldLocations)
                case "priceChange":
                    product.priceChange = try priceChange(field, path: fieldPath, productKind: kind)
                default:
                    break
                }
            } catch {
                problems.add(error)
            }
        }
        return product
    }

    /// The prices of `price`, `tier` or `prices`; in `prices`, each territory's problem is recorded and the
    /// others are read.
    func prices(_ field: ConfigEntry, path: ConfigPath,
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
            // The entries are read in place, through their buffer: a copy of each, or of its node, would retain
            // its key, its value and its source.
            return entries.withUnsafeBufferPointer { territoryPrices($0, path: path) }
        }
    }

    /// The prices of a `prices:` mapping's entries; a problem of an entry is recorded and the entry left out.
    private func territoryPrices(_ entries: UnsafeBufferPointer<ConfigEntry>,
                                 path: ConfigPath) -> [Territory: Price] {
        var result: [Territory: Price] = [:]
        result.reserveCapacity(entries.count)
        // The territories priced so far, a bit each: a lookup in `result` costs a hash per price.
        var priced = TerritoryBits()
        for index in entries.indices {
            do throws(CatalogReadError) {
                let key = entries[index].key
                // The key path is built only for a message: a big config has hundreds of thousands of prices.
                let territory = try territory(key, at: entries[index].keyLocation, path: path.appending(key: key))
                if priced.contains(territory) {
                    throw Self.repeated(territory, entries[index], among: entries, path: path.appending(key: key),
                                        verb: "priced")
                }
                let money = try money(entries[index].value, path: path.appending(key: key))
                priced.insert(territory)
                result[territory] = Price(territory: territory, money: money, location: entries[index].value.location)
            } catch {
                problems.add(error)
            }
        }
        return result
    }

    /// An intro offer; each problem of its fields is recorded, and nil is returned when its mode or period is
    /// missing or wrong.
    private func introOffer(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> IntroOffer? {
        let fields = try mapping(node, path: path, allowed: ConfigValidator.introOfferKeys)
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }
        let modes = "free-trial, pay-as-you-go or pay-up-front"
        var mode: IntroOffer.Mode?
        if let modeEntry = field("mode") {
            mode = problems.recording { () throws(CatalogReadError) in
                let modeText = try string(modeEntry.value, path: path.appending(key: "mode"))
                guard let mode = IntroOffer.Mode(rawValue: modeText) else {
                    throw CatalogReadError(
                        "\(path.appending(key: "mode")): \(ConfigScalar.quote(modeText)) is not an offer mode "
                            + "(\(modes))",
                        at: modeEntry.value.location)
                }
                return mode
            }
        } else if !misspells("mode", in: fields, allowed: ConfigValidator.introOfferKeys) {
            problems.add(CatalogReadError("\(path): missing \"mode\" (\(modes))", at: node.location))
        }
        var period: SubscriptionPeriod?
        if let periodEntry = field("period") {
            period = problems.recording { () throws(CatalogReadError) in
                try self.period(periodEntry.value, path: path.appending(key: "period"))
            }
        } else if !misspells("period", in: fields, allowed: ConfigValidator.introOfferKeys) {
            problems.add(CatalogReadError("\(path): missing \"period\" (e.g. P1W)", at: node.location))
        }
        var periods = 1
        if let periodsEntry = field("periods") {
            if let count = periodsEntry.value.scalar?.int, count >= 1, count <= IntroOffer.maximumPeriods {
                periods = count
            } else {
                problems.add(CatalogReadError(
                    "\(path.appending(key: "periods")): \(periodsEntry.value.quoted) is not a number of periods "
                        + "(a whole number, at least 1)",
                    at: periodsEntry.value.location))
            }
        }
        var price: Money?
        if let priceEntry = field("price") {
            if mode == .freeTrial {
                problems.add(CatalogReadError("\(path.appending(key: "price")): a free trial has no price",
                                              at: priceEntry.keyLocation))
            } else {
                price = problems.recording { () throws(CatalogReadError) in
                    try money(priceEntry.value, path: path.appending(key: "price"))
                }
            }
        }
        guard let mode, let period else { return nil }
        return IntroOffer(mode: mode, period: period, periods: periods, price: price, location: node.location)
    }

    /// The `storeIds` mapping; each entry's problem is recorded.
    private func storeIDs(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [StoreKind: ProductID] {
        guard let entries = node.entries else {
            throw CatalogReadError("\(path): \(node.quoted) is not a mapping of stores to IDs (e.g. play: sub:plan)",
                                   at: node.location)
        }
        var result: [StoreKind: ProductID] = [:]
        for entry in entries {
            let entryPath = path.appending(key: entry.key)
            guard entry.key == StoreKind.play.rawValue else {
                problems.add(CatalogReadError(
                    "\(entryPath): only \"play\" can have a different ID in schema version 1 "
                        + "(the config key is the App Store product ID)",
                    at: entry.keyLocation))
                continue
            }
            guard let id = problems.recording({ () throws(CatalogReadError) in
                try string(entry.value, path: entryPath)
            }) else { continue }
            guard !id.isEmpty else {
                problems.add(CatalogReadError("\(entryPath): must not be empty", at: entry.value.location))
                continue
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

    func period(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> SubscriptionPeriod {
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
    func money(_ node: ConfigNode,
                       path makePath: @autoclosure () -> ConfigPath) throws(CatalogReadError) -> Money {
        if let text = node.scalar.flatMap({ $0.kind == .plain || $0.kind == .string ? $0.text : nil }),
           let known = moneyByText.value(for: text) {
            return known
        }
        let path = makePath()
        switch node.value {
        case .mapping(let entries):
            // One problem per price: a misspelled key, not also a missing one.
            if let unknown = unknownKeys(entries, allowed: ConfigValidator.moneyKeys, path: path).first {
                throw unknown
            }
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
            let parts = Self.amountAndCurrency(text)
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
            moneyByText.keep(money, for: text)
            return money
        case .sequence:
            throw CatalogReadError("\(path): a list is not a price (\(ConfigValidator.priceHelp))", at: node.location)
        }
    }

    /// A price text split at its spaces, as `split(separator: " ")` splits it. An ASCII text with one space
    /// inside is split at that byte (a character is a byte there): a config of 2,000 products has about 4,000
    /// different price texts, and splitting by characters cost 4,900 instructions each.
    static func amountAndCurrency(_ text: String) -> [Substring] {
        let utf8 = text.utf8
        if let space = utf8.firstIndex(of: 0x20), space != utf8.startIndex,
           utf8.allSatisfy({ $0 < 0x80 }) {
            let rest = utf8.index(after: space)
            if rest != utf8.endIndex, !utf8[rest...].contains(0x20) {
                return [Substring(utf8[..<space]), Substring(utf8[rest...])]
            }
        }
        return text.split(separator: " ", omittingEmptySubsequences: true)
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
