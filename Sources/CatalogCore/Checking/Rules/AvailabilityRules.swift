/// Who can buy: `availability-mismatch` (cleared for sale) and `family-sharing-mismatch` (DESIGN.md §5a.12).
enum AvailabilityRules {
    /// Both rules on a matched pair.
    static func check(_ pair: ProductPair) -> [Finding] {
        var findings: [Finding] = []
        if let expected = pair.mine.familyShareable, let actual = pair.theirs.familyShareable, expected != actual {
            findings.append(pair.finding(
                .familySharingMismatch, expected: String(expected), actual: String(actual),
                message: "family sharing is \(actual ? "on" : "off") in the store (\(pair.storeAt(.familyShareable))), "
                    + "\(expected ? "on" : "off") in the config"))
        }
        if let expected = pair.mine.clearedForSale, let actual = pair.theirs.clearedForSale, expected != actual {
            func state(_ value: Bool) -> String { value ? "cleared for sale" : "not cleared for sale" }
            findings.append(pair.finding(
                .availabilityMismatch, expected: String(expected), actual: String(actual),
                message: "is \(state(actual)) in the store (\(pair.storeAt(.clearedForSale))), "
                    + "\(state(expected)) in the config"))
        }
        return findings
    }
}
