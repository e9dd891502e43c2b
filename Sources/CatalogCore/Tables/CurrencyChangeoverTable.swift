import Foundation

/// A day a storefront's currency changed, at a fixed legal conversion rate (DESIGN.md §4 "Currencies change").
public struct CurrencyChangeover: Hashable, Sendable {
    /// The territory whose storefront changed currency.
    public let territory: Territory
    /// The first day priced in the new currency.
    public let date: CalendarDate
    /// The currency before `date`.
    public let from: CurrencyCode
    /// The currency from `date` on.
    public let to: CurrencyCode
    /// Units of `from` per unit of `to`, as the legal act writes it (`1.95583`): never rounded.
    public let rateText: String
    /// Where the date and rate come from.
    public let source: String

    /// The rate as a decimal.
    public var rate: Decimal { Money.parseAmount(rateText) ?? 1 }

    /// `money` (in `from`) at the legal rate, rounded to the cent, half up: the rule of the changeover laws
    /// (Bulgaria's: "divided by 1.95583 … rounded to the second decimal place"; 100 BGN = 51.13 EUR). Money
    /// in another currency is returned as it is.
    public func convert(_ money: Money) -> Money {
        guard money.currency == from else { return money }
        var quotient = money.amount / rate
        var rounded = Decimal()
        NSDecimalRound(&rounded, &quotient, 2, .plain)
        return Money(amount: rounded, currency: to)
    }
}

/// The storefront currency changeovers catalogcheck knows, with sources. A currency that ISO has withdrawn stays
/// a valid code (`CurrencyTable`): a store row's currency is what its own snapshot says; this table says which
/// currency a storefront uses on a given day, for the config's prices (`currency-not-valid-at-date`,
/// `currency-changeover-ahead`) and for `diff`.
///
/// Apple moved both storefronts on the day the country adopted the euro, at the rate the Council of the European
/// Union fixed:
/// - Bulgaria, 2026-01-01, 1.95583 BGN per EUR: Council of the EU, 8 July 2025 (ECB press release "Bulgaria to
///   join euro area on 1 January 2026", reprinted at einpresswire.com/article/829506827); Apple's developer news
///   of 2025-09-25 announcing that App Store purchases and subscriptions in Bulgaria move from the lev to the
///   euro on that day at the fixed legal rate 1.95583 BGN = 1 EUR (reported at
///   iphoneaddict.fr/post/news-416363-app-store-apple-sadapte-pays-passer-leuro; the news page itself was not
///   in the searchable pages). Bulgarian law rounds a converted price half up to the cent
///   (novinite.com/view_news.php?id=236094).
/// - Croatia, 2023-01-01, 7.53450 HRK per EUR: Council of the EU, 12 July 2022 (Banca d'Italia, "Croatia in the
///   euro area from 1 January 2023", bancaditalia.it); Apple told developers in September 2022 that Croatian
///   prices would be converted to the euro on 2023-01-01 at that rate (letemsvetemapplem.eu, 2022-09-05).
///
/// Earlier App Store moves (Bulgaria from EUR to BGN and Croatia from USD to HRK, around 2019) are not kept:
/// no source found gives their day.
enum CurrencyChangeoverTable {
    /// Every known changeover, by territory then date.
    static let all: [CurrencyChangeover] = [
        changeover("BG", "2026-01-01", from: "BGN", to: "EUR", rate: "1.95583",
                   source: "Council of the EU, 8 July 2025; Apple developer news, 2025-09-25"),
        changeover("HR", "2023-01-01", from: "HRK", to: "EUR", rate: "7.53450",
                   source: "Council of the EU, 12 July 2022; Apple developer news, September 2022"),
    ].compactMap { $0 }

    /// The territories that have a changeover, in territory order, each with its changeovers, oldest first.
    static let byTerritory: [(territory: Territory, changeovers: [CurrencyChangeover])] =
        Dictionary(grouping: all, by: \.territory)
            .map { ($0.key, $0.value.sorted { $0.date < $1.date }) }
            .sorted { $0.territory < $1.territory }

    private static func changeover(_ territory: String, _ date: String, from: String, to: String, rate: String,
                                   source: String) -> CurrencyChangeover? {
        guard let territory = Territory(code: territory), let date = CalendarDate(iso: date),
              let from = CurrencyCode(from), let to = CurrencyCode(to) else { return nil }
        return CurrencyChangeover(territory: territory, date: date, from: from, to: to, rateText: rate,
                                  source: source)
    }
}

extension Territory {
    /// The storefront currency changeovers of this territory, oldest first.
    public var currencyChangeovers: [CurrencyChangeover] {
        CurrencyChangeoverTable.byTerritory.first { $0.territory == self }?.changeovers ?? []
    }

    /// The App Store currency of this territory on `date`: the current one, or the one before a later
    /// changeover.
    public func appStoreCurrency(on date: CalendarDate) -> CurrencyCode? {
        guard let current = appStoreCurrency else { return nil }
        return currencyChangeovers.first { date < $0.date }?.from ?? current
    }

    /// The changeover between `from` and `to` in this territory (either way round), if one is known.
    public func changeover(from: CurrencyCode, to: CurrencyCode) -> CurrencyChangeover? {
        currencyChangeovers.first { $0.from == from && $0.to == to }
    }
}

extension CalendarDate {
    /// The days from this date to `other` (negative when `other` is earlier; `dayNumber`, CalendarDate+Days).
    public func days(until other: CalendarDate) -> Int { other.dayNumber - dayNumber }
}
