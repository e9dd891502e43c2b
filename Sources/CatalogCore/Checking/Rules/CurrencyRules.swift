/// The config's prices against the storefronts' dated currencies (DESIGN.md §4 "Currencies change"):
/// `currency-not-valid-at-date` and `currency-changeover-ahead`. Checked on the config on its own, once per run:
/// a storefront's currency is the same whichever store input the run reads.
enum CurrencyRules {
    /// How far ahead of `--as-of` a changeover is announced (DESIGN.md §5).
    static let noticeDays = 90

    /// The findings on the config's product prices in effect at `asOf`; none without a date.
    static func check(_ config: Catalog, asOf: CalendarDate?, territories: Set<Territory>?) -> [Finding] {
        guard let asOf else { return [] }
        var findings: [Finding] = []
        var ahead: [CurrencyChangeover: [(Product, Price)]] = [:]
        // Only the few territories with a changeover are looked up in each product, in territory order: sorting
        // each product's prices and filtering the table for each price was two thirds of the config's own checks.
        let changing = CurrencyChangeoverTable.byTerritory.filter { territories?.contains($0.territory) ?? true }
        for product in config.products {
            for (territory, changeovers) in changing {
                guard let price = product.prices[territory] else { continue }
                if let wrong = wrongCurrency(price, changeovers, asOf: asOf) {
                    findings.append(wrong.finding(product, price, asOf: asOf, configPath: config.path))
                } else if let next = changeovers.first(where: {
                    $0.from == price.money.currency && asOf < $0.date && asOf.days(until: $0.date) <= noticeDays
                }), !schedulesNewCurrency(product, next) {
                    ahead[next, default: []].append((product, price))
                }
            }
        }
        for (changeover, priced) in ahead.sorted(by: { $0.key.territory < $1.key.territory }) {
            findings.append(aheadNote(changeover, priced, asOf: asOf, configPath: config.path))
        }
        return findings
    }

    /// Whether the config already schedules the territory's price in the new currency by the changeover day.
    private static func schedulesNewCurrency(_ product: Product, _ changeover: CurrencyChangeover) -> Bool {
        product.scheduledPrices[changeover.territory]?.contains {
            $0.money.currency == changeover.to && $0.day <= changeover.date
        } ?? false
    }

    /// A price whose currency the storefront does not use at `asOf`: the old currency on or after a changeover,
    /// or the new one before it.
    private static func wrongCurrency(_ price: Price, _ changeovers: [CurrencyChangeover],
                                      asOf: CalendarDate) -> WrongCurrency? {
        for changeover in changeovers {
            if price.money.currency == changeover.from, asOf >= changeover.date {
                return WrongCurrency(changeover: changeover, valid: changeover.to)
            }
            if price.money.currency == changeover.to, asOf < changeover.date,
               !changeovers.contains(where: { $0.from == changeover.to && $0.date <= asOf }) {
                return WrongCurrency(changeover: changeover, valid: changeover.from)
            }
        }
        return nil
    }

    private struct WrongCurrency {
        let changeover: CurrencyChangeover
        let valid: CurrencyCode

        func finding(_ product: Product, _ price: Price, asOf: CalendarDate, configPath: String) -> Finding {
            let territory = price.territory
            let since = valid == changeover.to ? "since \(changeover.date)" : "until \(changeover.date)"
            var message = "\(territory) is \(price.money) in the config, but the \(territory) storefront is priced in "
                + "\(valid.code) \(since) (as of \(asOf))"
            if valid == changeover.to {
                message += "; at the legal rate \(changeover.rateText) that is \(changeover.convert(price.money))"
            }
            return Finding(rule: .currencyNotValidAtDate, productID: product.id.rawValue, territory: territory,
                           expected: valid.code, actual: price.money.description, message: message,
                           configLocation: price.location ?? product.location(of: .price), store: nil)
        }
    }

    /// One note per changeover: the products priced in the old currency.
    private static func aheadNote(_ changeover: CurrencyChangeover, _ priced: [(Product, Price)],
                                  asOf: CalendarDate, configPath: String) -> Finding {
        let territory = changeover.territory
        let days = asOf.days(until: changeover.date)
        let count = priced.count == 1 ? "1 product is" : "\(priced.count) products are"
        let first = priced.min { $0.0.id < $1.0.id }
        return Finding(
            rule: .currencyChangeoverAhead, productID: nil, territory: territory,
            expected: changeover.to.code, actual: changeover.from.code,
            message: "the \(territory) storefront moves from \(changeover.from.code) to \(changeover.to.code) on "
                + "\(changeover.date), in \(days) day\(days == 1 ? "" : "s") (at \(changeover.rateText) "
                + "\(changeover.from.code) per \(changeover.to.code)); \(count) priced in \(changeover.from.code) "
                + "there; add the \(changeover.to.code) price from \(changeover.date)",
            configLocation: first.map { $0.1.location ?? $0.0.location(of: .price) } ?? SourceLocation(path: configPath),
            store: nil)
    }
}
