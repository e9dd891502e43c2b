/// Subscription durations: `period-mismatch` (P1W = P7D, P1Y = P12M; DESIGN.md §5a.4).
enum PeriodRules {
    /// The period rule on a matched pair.
    static func check(_ pair: ProductPair) -> [Finding] {
        guard let expected = pair.mine.period, let actual = pair.theirs.period, expected != actual else { return [] }
        return [pair.finding(
            .periodMismatch, expected: expected.description, actual: actual.description,
            message: "renews every \(actual) in the store (\(pair.storeAt(.period))), every \(expected) in the config")]
    }
}
