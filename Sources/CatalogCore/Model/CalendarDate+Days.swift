extension CalendarDate {
    /// The number of days from 0001-01-01 (day 0) to this day, in the proleptic Gregorian calendar: the
    /// difference of two days' numbers is the days between them (`2026-03-01` − `2026-02-28` = 1).
    public var dayNumber: Int {
        // Days before this year, then before this month, then of this month (March-based to put Feb 29 last).
        let shifted = month <= 2 ? year - 1 : year
        let era = shifted / 400
        let yearOfEra = shifted - era * 400
        let monthIndex = (month + 9) % 12  // March = 0 … February = 11
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        // Shifted years start on March 1 of year 0, 306 days before 0001-01-01.
        return era * 146_097 + dayOfEra - 306
    }

    /// How many days after `earlier` this day is (negative when it is before).
    public func days(since earlier: CalendarDate) -> Int {
        dayNumber - earlier.dayNumber
    }
}
