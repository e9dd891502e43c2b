/// An introductory offer on an auto-renewable subscription.
public struct IntroOffer: Hashable, Sendable {
    /// How the customer pays during the offer.
    public enum Mode: String, CaseIterable, Hashable, Comparable, Sendable {
        /// Nothing, for `period × periods`.
        case freeTrial = "free-trial"
        /// A reduced price each period, for `periods` periods.
        case payAsYouGo = "pay-as-you-go"
        /// One payment covering `period × periods`.
        case payUpFront = "pay-up-front"

        public static func < (lhs: Mode, rhs: Mode) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The payment mode.
    public var mode: Mode
    /// One offer period.
    public var period: SubscriptionPeriod
    /// How many periods (1 when the source does not say).
    public var periods: Int
    /// The offer price, where the source gives one.
    public var price: Money?
    /// The territory this offer record is for (App Store Connect keeps one per territory); nil = everywhere.
    public var territory: Territory?
    /// Where the offer was read.
    public var location: SourceLocation?
    /// The store offer this intro offer is the first phase of, where the format keeps intro offers among the
    /// product's other offers (Play: a subscription offer's `offerId`); nil where it keeps them apart (StoreKit,
    /// App Store Connect, the config).
    public var offer: OfferKey?

    /// Creates an offer.
    public init(mode: Mode, period: SubscriptionPeriod, periods: Int = 1, price: Money? = nil,
                territory: Territory? = nil, location: SourceLocation? = nil, offer: OfferKey? = nil) {
        self.mode = mode
        self.period = period
        self.periods = periods
        self.price = price
        self.territory = territory
        self.location = location
        self.offer = offer
    }

    /// The most periods an offer may have: more is a typo, and would overflow offer lengths in days.
    public static let maximumPeriods = 1000

    /// Total length in days (`period × periods`), for `intro-offer-exceeds-period`.
    public var approximateDays: Int { period.approximateDays * periods }

    /// Canonical text: `free-trial P1W`, `pay-as-you-go P1M×3 at 0.99 USD`.
    public var summary: String {
        var text = "\(mode.rawValue) \(period)"
        if periods != 1 { text += "×\(periods)" }
        if let price { text += " at \(price)" }
        return text
    }
}
