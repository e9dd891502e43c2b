import CatalogCore
import Foundation

/// One price row, resolved; its location is computed only when the row is selected.
struct ASCPriceRow {
    let territory: Territory
    let money: Money
    let start: CalendarDate?
    let manual: Bool
    let node: NodeID

    /// Whether this row takes precedence over `other` for the same territory: a later start (null earliest),
    /// then manual over automatic.
    func beats(_ other: ASCPriceRow) -> Bool {
        if start != other.start {
            guard let start else { return false }
            guard let otherStart = other.start else { return true }
            return start > otherStart
        }
        return manual && !other.manual
    }
}

/// Current and scheduled price selection (FORMATS.md): per territory, among up-front rows not ended on `asOf`,
/// the latest start on or before `asOf` (null earliest), manual before automatic; later starts are scheduled.
extension ASCCatalogBuilder {
    private struct ScheduleKey: Hashable {
        let territory: Territory
        let start: CalendarDate
    }

    /// One price row resolved to territory, amount and dates; nil when the row is not an up-front price, has
    /// ended, or the input lacks its territory or price point.
    func priceRow(_ node: NodeID, pointType: TypeID?, manual linkedAsManual: Bool,
                  lookups: inout ASCLookups, tally: inout Tally) throws(CatalogReadError) -> ASCPriceRow?
    {
        tally.readRows[Int(node.index)] = true
        guard pool.isDefined(node) else {
            tally.unresolvedRows += 1
            return nil
        }
        if let planType = try string(node, .planType), planType != "UPFRONT" { return nil }
        let start = try date(node, .startDate)
        if let end = try date(node, .endDate), end <= asOf { return nil }
        let manual = try bool(node, .manual) ?? linkedAsManual

        let point = pool.firstLinked(node, type: pointType)
        let territoryNode = pool.firstLinked(node, type: types.territories)
            ?? point.flatMap { pool.firstLinked($0, type: types.territories) }
        guard let point, let territoryNode, let amountText = try string(point, .customerPrice) else {
            tally.unresolvedRows += 1
            return nil
        }
        guard let amount = lookups.amount(amountText) else {
            throw error(point, .customerPrice, "\(quotedForMessage(amountText)) is not a decimal amount")
        }
        let (territory, currency) = try lookups.territory(territoryNode, builder: self, near: node)
        return ASCPriceRow(territory: territory, money: Money(amount: amount, currency: currency), start: start,
                           manual: manual, node: node)
    }

    /// Current prices by territory, and scheduled ones (exported, never compared).
    func select(_ rows: [ASCPriceRow]) -> ([Territory: Price], [UncomparedPrice]) {
        var current: [Territory: ASCPriceRow] = [:]
        var scheduled: [ScheduleKey: ASCPriceRow] = [:]
        for row in rows {
            if let start = row.start, start > asOf {
                let key = ScheduleKey(territory: row.territory, start: start)
                if let existing = scheduled[key], !row.beats(existing) { continue }
                scheduled[key] = row
            } else {
                if let existing = current[row.territory], !row.beats(existing) { continue }
                current[row.territory] = row
            }
        }
        let prices = current.mapValues {
            Price(territory: $0.territory, money: $0.money, location: pool.location(of: $0.node))
        }
        // Sorted by territory, then start (cheaper than UncomparedPrice's text order, and the same here).
        let uncompared = scheduled.sorted {
            ($0.key.territory, $0.key.start) < ($1.key.territory, $1.key.start)
        }.map {
            UncomparedPrice(label: "scheduled", territory: $0.value.territory, amount: $0.value.money,
                            startDate: $0.key.start)
        }
        return (prices, uncompared)
    }
}

/// What the builder resolves once per distinct input: territories (ISO code and currency, `attributes.currency`,
/// else the App Store currency) and amounts (a price point's `customerPrice`; a few hundred distinct texts among
/// hundreds of thousands of rows).
struct ASCLookups {
    private var territories: [NodeID: (Territory, CurrencyCode)] = [:]
    private var amounts: [String: Decimal] = [:]

    /// A `customerPrice` as an amount (`Money.parseAmount`), nil when it is not one.
    mutating func amount(_ text: String) -> Decimal? {
        if let known = amounts[text] { return known }
        let amount = Money.parseAmount(text)
        if let amount { amounts[text] = amount }
        return amount
    }

    mutating func territory(_ node: NodeID, builder: ASCCatalogBuilder, near user: NodeID)
        throws(CatalogReadError) -> (Territory, CurrencyCode)
    {
        if let cached = territories[node] { return cached }
        let pool = builder.pool
        let id = pool.id(of: node)
        let place = pool.isDefined(node) ? node : user
        guard let territory = Territory(code: id) else {
            throw CatalogReadError("territories \(quotedForMessage(id)) is not an ISO 3166-1 territory code",
                                   at: pool.location(of: place))
        }
        let currency: CurrencyCode
        if let code = try builder.string(node, .currency) {
            guard let parsed = CurrencyCode(code) else {
                throw builder.error(node, .currency, "\(quotedForMessage(code)) is not an ISO 4217 currency code")
            }
            currency = parsed
        } else if let fallback = territory.appStoreCurrency {
            currency = fallback
        } else {
            throw CatalogReadError(
                "no currency is known for territory \(quotedForMessage(id)): the input has no territories resource with "
                    + "attributes.currency for it", at: pool.location(of: place))
        }
        territories[node] = (territory, currency)
        return (territory, currency)
    }
}
