import CatalogCore
import Foundation

/// One price row, resolved; its location is computed only when the row is selected.
struct ASCPriceRow {
    let territory: Territory
    let money: Money
    let start: CalendarDate?
    let manual: Bool
    /// Whether the row or its relationship states `manual` (in-app purchase rows); otherwise `manual` is true.
    var originStated = false
    let node: NodeID
    /// True when neither the attributes nor the ID (`ASCPriceRowDates`) date the row.
    var undated = false
    /// A subscription price row of `planType` MONTHLY: the monthly billing plan's amount, not the product's price.
    var monthly = false
    /// A subscription price row's `preserved`: existing subscribers kept this row's price when the next one was
    /// created (`RecordedPriceChange.preserved`); nil for in-app purchase rows and rows that do not say.
    var preserved: Bool?

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

    /// One price row resolved to territory, amount and dates; nil when the row is neither an up-front nor a
    /// monthly-plan price (`monthly` says which), has ended, or the input lacks its territory or price point.
    /// `linkedAsManual` is what the relationship the row was found through says (nil: nothing).
    func priceRow(_ node: NodeID, pointType: TypeID?, manual linkedAsManual: Bool?,
                  lookups: inout ASCLookups, tally: inout Tally) throws(CatalogReadError) -> ASCPriceRow?
    {
        tally.readRows[Int(node.index)] = true
        guard pool.isDefined(node) else {
            tally.unresolvedRows += 1
            return nil
        }
        let planType = try string(node, .planType)
        if let planType, planType != "UPFRONT", planType != "MONTHLY" { return nil }
        var start = try date(node, .startDate)
        var end = try date(node, .endDate)
        // FORMATS.md's one exception to opaque IDs: an IAP price row without dates takes them from its ID.
        if start == nil, end == nil, pool.identities.type(of: node) == types.inAppPurchasePrices,
           let dates = pool.withID(of: node, { ASCPriceRowDates(idBytes: $0) }) {
            (start, end) = (dates.start, dates.end)
        }
        if let end, end <= asOf { return nil }
        let stated = try bool(node, .manual) ?? linkedAsManual
        let manual = stated ?? true

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
        // OpenAPI 4.4.1 `SubscriptionPrice.attributes.preserved` (subscription rows only).
        let preserved = pointType == types.subscriptionPricePoints ? try bool(node, .preserved) : nil
        return ASCPriceRow(territory: territory, money: Money(amount: amount, currency: currency), start: start,
                           manual: manual, originStated: stated != nil, node: node, undated: start == nil && end == nil,
                           monthly: planType == "MONTHLY", preserved: preserved)
    }

    /// The price changes a subscription's up-front rows record (DESIGN.md §2c): in each territory with more than
    /// one row, every dated row (by start, the undated first; of two with one start, the one `beats` picks) whose
    /// price differs from the row before, with that earlier row's `preserved`. A territory with one row records
    /// none, so a snapshot without history costs nothing here.
    func recordedChanges(_ rows: [ASCPriceRow]) -> [RecordedPriceChange] {
        var counts: [Territory: Int] = [:]
        counts.reserveCapacity(rows.count)
        for row in rows { counts[row.territory, default: 0] += 1 }
        var byTerritory: [Territory: [ASCPriceRow]] = [:]
        for row in rows where counts[row.territory, default: 0] > 1 {
            byTerritory[row.territory, default: []].append(row)
        }
        var changes: [RecordedPriceChange] = []
        for (territory, territoryRows) in byTerritory {
            var byStart: [CalendarDate?: ASCPriceRow] = [:]
            for row in territoryRows where byStart[row.start].map({ row.beats($0) }) ?? true {
                byStart[row.start] = row
            }
            let ordered = byStart.values.sorted { lhs, rhs in
                guard let right = rhs.start else { return false }
                guard let left = lhs.start else { return true }
                return left < right
            }
            for (earlier, later) in zip(ordered, ordered.dropFirst()) {
                guard let date = later.start, earlier.money != later.money else { continue }
                changes.append(RecordedPriceChange(territory: territory, date: date, from: earlier.money,
                                                   to: later.money, preserved: earlier.preserved,
                                                   location: pool.location(of: later.node)))
            }
        }
        return changes.sorted { ($0.territory, $0.date) < ($1.territory, $1.date) }
    }

    /// Current prices by territory, and scheduled ones (exported, never compared). With `product` (in-app
    /// purchases), two undated rows of one territory that neither beats and that disagree are an error naming
    /// both (FORMATS.md): which one is current must not depend on file order. Prices carry the origin their rows
    /// state (in-app purchases: `manualPrices` / `automaticPrices`, `manual`; subscription rows state none).
    func select(_ rows: [ASCPriceRow], product: String? = nil) throws(CatalogReadError)
        -> ([Territory: Price], [UncomparedPrice], [Territory: PriceOrigin])
    {
        // Room for a row of each territory: grown as rows come, the table was rehashed about once per row.
        var current: [Territory: ASCPriceRow] = [:]
        current.reserveCapacity(rows.count)
        var scheduled: [ScheduleKey: ASCPriceRow] = [:]
        var conflicts: [Territory: (ASCPriceRow, ASCPriceRow)] = [:]
        for row in rows {
            if let start = row.start, start > asOf {
                let key = ScheduleKey(territory: row.territory, start: start)
                if let existing = scheduled[key], !row.beats(existing) { continue }
                scheduled[key] = row
            } else {
                if let existing = current[row.territory], !row.beats(existing) {
                    if product != nil, row.undated, existing.undated, !existing.beats(row), row.money != existing.money,
                       conflicts[row.territory] == nil {
                        conflicts[row.territory] = (existing, row)
                    }
                    continue
                }
                current[row.territory] = row
            }
        }
        // Only a conflict among the rows that are current matters (a dated row may beat both).
        for (territory, pair) in conflicts.sorted(by: { $0.key < $1.key }) where current[territory]?.undated == true {
            throw undatedConflict(product ?? "", pair.0, pair.1)
        }
        let prices = current.mapValues {
            Price(territory: $0.territory, money: $0.money, location: pool.location(of: $0.node))
        }
        // Sorted by territory, then start (cheaper than UncomparedPrice's text order, and the same here).
        let uncompared = scheduled.sorted {
            ($0.key.territory, $0.key.start) < ($1.key.territory, $1.key.start)
        }.map {
            UncomparedPrice(label: UncomparedPrice.scheduledLabel, territory: $0.value.territory, amount: $0.value.money,
                            startDate: $0.key.start)
        }
        func origin(_ row: ASCPriceRow) -> PriceOrigin? { row.originStated ? row.manual ? .manual : .automatic : nil }
        // Every row of an in-app purchase states its origin: the same keys, mapped without hashing them again.
        let origins = current.values.allSatisfy(\.originStated) ? current.mapValues { origin($0) ?? .manual }
            : current.compactMapValues(origin)
        return (prices, uncompared, origins)
    }
}

extension ASCCatalogBuilder {
    /// Two undated price rows of one product and territory that disagree, located at the later one.
    private func undatedConflict(_ product: String, _ first: ASCPriceRow, _ second: ASCPriceRow) -> CatalogReadError {
        let firstLocation = pool.location(of: first.node)
        return CatalogReadError(
            "in-app purchase \(quotedForMessage(product)) has two undated \(first.manual ? "manual" : "automatic") "
                + "prices for \(first.territory.alpha2) that disagree: inAppPurchasePrices "
                + "\(quotedForMessage(pool.id(of: first.node), limit: 80)) (\(firstLocation)) is \(first.money) and "
                + "inAppPurchasePrices \(quotedForMessage(pool.id(of: second.node), limit: 80)) is \(second.money); "
                + "neither states startDate or endDate, so which one is current is unknown (fetch again: fetch asks "
                + "for the dates)", at: pool.location(of: second.node))
    }
}

/// The dates an IAP price row's ID holds (FORMATS.md "Current ASC price"): a peer client reports that App Store
/// Connect answers equalized (`automaticPrices`) rows without `startDate`/`endDate` and that their IDs are
/// base64url JSON whose `sd` and `ed` are those dates. Only read for rows whose attributes state neither; an ID
/// that is not such JSON dates nothing (IDs are otherwise opaque).
struct ASCPriceRowDates {
    let start: CalendarDate?
    let end: CalendarDate?

    /// IDs longer than this are not decoded (real ones are a few hundred characters).
    static let maximumLength = 4096

    /// Read for each undated row of a big catalog (1,750,000 at 10,000 purchases), so without Foundation's
    /// string replacing, base64 and `JSONSerialization`, without a `JSONDocument`, and without memory of its own:
    /// the pool's bytes of the ID are decoded here into a temporary buffer, checked by `JSONTapeParser` (only when
    /// they may name a date) and the root object's members read off its tape.
    init?(idBytes: UnsafeBufferPointer<UInt8>) {
        let found = Self.withBase64URLDecoded(idBytes) { json in json.flatMap { Self.dates(inJSON: $0) } }
        guard let (start, end) = found else { return nil }
        self.start = start
        self.end = end
    }

    /// The `sd` and `ed` of a JSON object (absent or null: no date), nil when the bytes are not a JSON object, it has
    /// neither member, or one is neither null nor an ISO date string.
    private static func dates(inJSON bytes: UnsafeBufferPointer<UInt8>) -> (CalendarDate?, CalendarDate?)? {
        // Most IDs name neither (an undated row of a price schedule that has no history): without a `\`, which
        // could spell a key in escapes, neither key's bytes in the text means neither member, with no tape built.
        guard mayNameADate(bytes) else { return nil }
        guard let tape = try? JSONTapeParser.parse(bytes), tape[0].kind == .object else { return nil }
        func text(_ entry: JSONTape.Entry) -> String {
            entry.withStringBytes(in: bytes) { String(decoding: $0, as: UTF8.self) }
        }
        var start: CalendarDate?, end: CalendarDate?
        var found = false
        var position = 1
        while position < tape[0].extent {
            let key = text(tape[position])
            let value = tape[position + 1]
            if key == "sd" || key == "ed" {
                found = true
                var date: CalendarDate?
                switch value.kind {
                case .null: date = nil
                case .string, .escapedString:
                    guard let day = CalendarDate(iso: text(value)) else { return nil }
                    date = day
                default: return nil
                }
                if key == "sd" { start = date } else { end = date }
            }
            position = tape.next(after: position + 1)
        }
        return found ? (start, end) : nil
    }

    /// Whether JSON text may have a member `sd` or `ed`: it holds a `\` (escapes may spell a key) or `"sd"` or
    /// `"ed"`. One pass over the bytes.
    static func mayNameADate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let quote = UInt8(ascii: "\"")
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") { return true }
            if byte == quote, index + 3 < bytes.count, bytes[index + 2] == UInt8(ascii: "d"), bytes[index + 3] == quote,
               bytes[index + 1] == UInt8(ascii: "s") || bytes[index + 1] == UInt8(ascii: "e") {
                return true
            }
            index += 1
        }
        return false
    }

    /// Calls `body` with the bytes of base64url text (RFC 4648 §5: `-` and `_` for `+` and `/`), trailing `=`
    /// padding optional, in memory that lasts the call; with nil for any other byte, `=` inside the text, a length
    /// no encoding gives, or more than `maximumLength`. Four characters at a time through a table (a character at
    /// a time through a `switch` cost 1,700 instructions an ID, for each of 1,750,000 rows at 10,000 purchases).
    static func withBase64URLDecoded<Result>(_ text: UnsafeBufferPointer<UInt8>,
                                             _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        var length = text.count
        while length > 0, text[length - 1] == UInt8(ascii: "=") { length -= 1 }
        guard length > 0, text.count <= maximumLength, length % 4 != 1 else { return body(nil) }
        return sextets.withUnsafeBufferPointer { sextets in
            // Six bits a character give `length * 3 / 4` bytes exactly (the leftover bits are padding).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length * 3 / 4) { bytes in
                func bits(_ index: Int) -> UInt32 { UInt32(sextets[Int(text[index])]) }
                var count = 0
                var index = 0
                while index + 4 <= length {
                    let (first, second) = (bits(index), bits(index + 1))
                    let (third, fourth) = (bits(index + 2), bits(index + 3))
                    guard first | second | third | fourth < 64 else { return body(nil) }
                    let group = first << 18 | second << 12 | third << 6 | fourth
                    bytes[count] = UInt8(truncatingIfNeeded: group >> 16)
                    bytes[count + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    bytes[count + 2] = UInt8(truncatingIfNeeded: group)
                    count += 3
                    index += 4
                }
                if index < length {
                    // Two or three characters: one or two bytes.
                    let (first, second) = (bits(index), bits(index + 1))
                    let third = index + 2 < length ? bits(index + 2) : 0
                    guard first | second | third < 64 else { return body(nil) }
                    let group = first << 18 | second << 12 | third << 6
                    bytes[count] = UInt8(truncatingIfNeeded: group >> 16)
                    count += 1
                    if index + 2 < length {
                        bytes[count] = UInt8(truncatingIfNeeded: group >> 8)
                        count += 1
                    }
                }
                return body(UnsafeBufferPointer(rebasing: bytes[..<count]))
            }
        }
    }

    /// Each byte's six bits in base64url's alphabet, 0xFF for a byte outside it.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        for (value, byte) in alphabet.utf8.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()
}

/// What the builder resolves once per distinct input: territories (ISO code and currency, `attributes.currency`,
/// else the App Store currency on `--as-of`) and amounts (a price point's `customerPrice`; a few hundred distinct texts among
/// hundreds of thousands of rows).
struct ASCLookups {
    private var territories: [NodeID: (Territory, CurrencyCode)] = [:]
    private var amounts = TextTable<Decimal>()

    /// A `customerPrice` as an amount (`Money.parseAmount`), nil when it is not one.
    mutating func amount(_ text: String) -> Decimal? {
        if let known = amounts.value(for: text) { return known }
        let amount = Money.parseAmount(text)
        if let amount { amounts.keep(amount, for: text) }
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
        } else if let fallback = territory.appStoreCurrency(on: builder.asOf) {
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
