import CatalogCore

/// A product's own prices beyond the plain territory list (DESIGN.md §4 "Equalized prices", "Scheduled prices"):
/// `others: equalized` in `prices:`, `equalized: true` beside `price:` or `tier:`, and a territory's price
/// written as a schedule, `[{price}, {from: YYYY-MM-DD, price}]`. Offers, billing plans and purchase options list
/// fixed prices only, so this reading is the product's alone.
extension ConfigValidator {
    /// The key in `prices:` that leaves every other territory to the store, and its one value.
    static let othersKey = "others"
    static let equalizedValue = "equalized"

    /// The `prices:` field without its `others: equalized` entry, and whether it had one; a different value of
    /// `others` is an error at the value.
    func splitEqualized(_ field: ConfigEntry, path: ConfigPath) throws(CatalogReadError) -> (ConfigEntry, Bool) {
        guard field.key == "prices", let entries = field.value.entries,
              let others = entries.first(where: { $0.key == Self.othersKey }) else { return (field, false) }
        guard others.value.scalar?.string == Self.equalizedValue else {
            throw CatalogReadError(
                "\(path.appending(key: Self.othersKey)): \(others.value.quoted) is not a way to price the other "
                    + "territories (write \"others: equalized\" to let the store set them from the base territory)",
                at: others.value.location)
        }
        var rest = field
        rest.value.value = .mapping(entries.filter { $0.key != Self.othersKey })
        return (rest, true)
    }

    /// `equalized: true|false` beside `price:` or `tier:`; in `prices:` the same is `others: equalized`.
    func equalizedFlag(_ field: ConfigEntry, path: ConfigPath,
                       fields: [ConfigEntry]) throws(CatalogReadError) -> Bool {
        let flag = try bool(field.value, path: path)
        if fields.contains(where: { $0.key == "prices" }) {
            throw CatalogReadError(
                "\(path): beside \"prices\", write \"others: equalized\" in the prices instead", at: field.keyLocation)
        }
        guard fields.contains(where: { $0.key == "price" || $0.key == "tier" }) else {
            throw CatalogReadError(
                "\(path): equalized prices start from a price in the base territory; add \"price\"",
                at: field.keyLocation)
        }
        return flag
    }

    static let scheduleEntryKeys = ["from", "price"]

    /// The product's `price`, `tier` or `prices` into `product`: the prices in effect at `asOf`, and for each
    /// territory written as a schedule its later entries as `scheduled` uncompared prices.
    func readProductPrices(_ field: ConfigEntry, path: ConfigPath, baseTerritory: Territory,
                           into product: inout Product) throws(CatalogReadError) {
        guard field.key == "prices", let entries = field.value.entries,
              entries.contains(where: { $0.value.elements != nil }) else {
            product.prices = try prices(field, path: path, baseTerritory: baseTerritory)
            return
        }
        var fixed = field
        fixed.value.value = .mapping(entries.filter { $0.value.elements == nil })
        if entries.contains(where: { $0.value.elements == nil }) {
            product.prices = try prices(fixed, path: path, baseTerritory: baseTerritory)
        }
        for entry in entries where entry.value.elements != nil {
            problems.recording { () throws(CatalogReadError) in
                let entryPath = path.appending(key: entry.key)
                let territory = try territory(entry.key, at: entry.keyLocation, path: entryPath)
                if product.prices[territory] != nil || product.scheduledTerritories.contains(territory) {
                    throw Self.repeated(territory, entry, among: entries, path: entryPath, verb: "priced")
                }
                let (current, later) = try schedule(entry.value, territory: territory, path: entryPath)
                product.scheduledTerritories.insert(territory)
                product.prices[territory] = current
                product.uncomparedPrices += later
            }
        }
        product.uncomparedPrices.sort()
    }

    /// One territory's schedule: its entry in effect at `asOf` (the latest `from` on or before it, else the
    /// undated entry) and its entries after `asOf`. At most one entry without `from`, no `from` twice (the second
    /// is the error); validity never depends on `asOf`.
    private func schedule(_ node: ConfigNode, territory: Territory,
                          path: ConfigPath) throws(CatalogReadError) -> (Price?, [UncomparedPrice]) {
        let elements = node.elements ?? []
        guard !elements.isEmpty else {
            throw CatalogReadError("\(path): lists no price (e.g. [{price: 9.99 USD}, {from: 2027-01-01, price: "
                                   + "10.99 USD}])", at: node.location)
        }
        var undated: Price?
        var dated: [(from: CalendarDate, price: Price)] = []
        var fromNodes: [CalendarDate: ConfigNode] = [:]
        var undatedNode: ConfigNode?
        for (index, element) in elements.enumerated() {
            let elementPath = path.appending(index: index)
            let fields = try mapping(element, path: elementPath, allowed: Self.scheduleEntryKeys)
            guard let priceEntry = fields.first(where: { $0.key == "price" }) else {
                throw CatalogReadError("\(elementPath): missing \"price\" (e.g. {from: 2027-01-01, price: 10.99 USD})",
                                       at: element.location)
            }
            let money = try money(priceEntry.value, path: elementPath.appending(key: "price"))
            let price = Price(territory: territory, money: money, location: priceEntry.value.location)
            guard let fromEntry = fields.first(where: { $0.key == "from" }) else {
                if let undatedNode {
                    throw CatalogReadError(
                        "\(elementPath): a second entry without \"from\" (the first is at line "
                            + "\(undatedNode.location.line ?? 0)); only one price is in effect before the dated ones",
                        at: element.location)
                }
                undatedNode = element
                undated = price
                continue
            }
            let text = try string(fromEntry.value, path: elementPath.appending(key: "from"))
            guard text.utf8.count == 10, let from = CalendarDate(iso: text) else {
                throw CatalogReadError("\(elementPath.appending(key: "from")): \(ConfigScalar.quote(text)) is not a "
                                       + "date (YYYY-MM-DD)", at: fromEntry.value.location)
            }
            if let first = fromNodes[from] {
                throw CatalogReadError(
                    "\(elementPath.appending(key: "from")): \(from) is listed twice (also at line "
                        + "\(first.location.line ?? 0), column \(first.location.column ?? 0))",
                    at: fromEntry.value.location)
            }
            fromNodes[from] = fromEntry.value
            dated.append((from, price))
        }
        dated.sort { $0.from < $1.from }
        guard let asOf else {
            return (undated, dated.map { scheduled($0.price, from: $0.from) })
        }
        let current = dated.last(where: { $0.from <= asOf })?.price ?? undated
        return (current, dated.filter { $0.from > asOf }.map { scheduled($0.price, from: $0.from) })
    }

    private func scheduled(_ price: Price, from: CalendarDate) -> UncomparedPrice {
        UncomparedPrice(label: UncomparedPrice.scheduledLabel, territory: price.territory, amount: price.money,
                        startDate: from)
    }
}

extension ConfigValidator {
    /// A mapping of territory codes to values (`priceChange.territories`, an offer's `discounts`): a node that is
    /// no mapping, or an empty one, is the error (`of` names what the values are, `example` shows one entry); a
    /// territory written twice (alpha-2 and alpha-3, or repeated) is refused at the second, naming the first; any
    /// other problem of an entry is recorded and the entry left out.
    func territoryMapping<Value>(
        _ node: ConfigNode, path: ConfigPath, of what: String, example: String, twice verb: String,
        read: (ConfigEntry, ConfigPath) throws(CatalogReadError) -> Value
    ) throws(CatalogReadError) -> [Territory: Value] {
        guard let entries = node.entries else {
            throw CatalogReadError("\(path): \(node.quoted) is not a mapping of territories to \(what) (e.g. \(example))",
                                   at: node.location)
        }
        guard !entries.isEmpty else {
            throw CatalogReadError("\(path): lists no territory (e.g. \(example))", at: node.location)
        }
        var result: [Territory: Value] = [:]
        // The territories listed so far, a bit each; one whose value is wrong is listed too (where `prices` keeps
        // only the territories it has read a price of).
        var listed = TerritoryBits()
        for entry in entries {
            let entryPath = path.appending(key: entry.key)
            problems.recording { () throws(CatalogReadError) in
                let territory = try territory(entry.key, at: entry.keyLocation, path: entryPath)
                if listed.contains(territory) {
                    throw Self.repeated(territory, entry, among: entries, path: entryPath, verb: verb)
                }
                listed.insert(territory)
                result[territory] = try read(entry, entryPath)
            }
        }
        return result
    }

    /// A territory keyed twice in one mapping (`DE` and `DEU`, or `DE` again), at `entry`, naming the first other
    /// entry of `entries` that keys it (the earlier one; for a schedule, a fixed price read before it may follow it).
    /// The other entry is looked for only here: a territory keyed twice is rare, and price maps are read for
    /// hundreds of thousands of prices.
    static func repeated(_ territory: Territory, _ entry: ConfigEntry, among entries: some Collection<ConfigEntry>,
                         path: ConfigPath, verb: String) -> CatalogReadError {
        let location = entry.keyLocation
        let earlier = entries.first { Territory(code: $0.key) == territory && $0.keyLocation != location } ?? entry
        return CatalogReadError(
            "\(path): \(territory.alpha2) is \(verb) twice (also as \(ConfigScalar.quote(earlier.key)) at line "
                + "\(earlier.keyLocation.line ?? 0), column \(earlier.keyLocation.column ?? 0))",
            at: entry.keyLocation)
    }
}
