import CatalogCore
import CatalogFormats
import Foundation
import Testing

/// The catalog builder builds the later half of a big input's products on a second core: what it returns — the
/// products in reading order, their prices, the remarks its tallies make, the first error — must be what a build
/// in reading order returns.
@Suite("ASCCatalogBuilder")
struct ASCCatalogBuilderTests {
    /// One document with `count` subscriptions, a resource a line (subscription `i` on line `i + 2`), each with
    /// one price row for the USA; `withoutProductID` have no `productId`, `unknownStates` a `state` this version
    /// does not know, `levelZero` a `groupLevel` of 0 (an error); one more price row belongs to no subscription.
    static func document(count: Int, withoutProductID: Set<Int> = [], unknownStates: [Int: String] = [:],
                         levelZero: Set<Int> = []) -> String {
        var data: [String] = []
        var included: [String] = [
            #"{"type": "territories", "id": "USA", "attributes": {"currency": "USD"}}"#,
        ]
        for index in 0..<count {
            var attributes = [#""name": "Plan \#(index)""#, #""subscriptionPeriod": "ONE_MONTH""#,
                              #""state": "\#(unknownStates[index] ?? "APPROVED")""#]
            if !withoutProductID.contains(index) { attributes.append(#""productId": "plan.\#(index)""#) }
            if levelZero.contains(index) { attributes.append(#""groupLevel": 0"#) }
            let relationships = #""prices": {"data": [{"type": "subscriptionPrices", "id": "R\#(index)"}]}"#
            data.append(#"{"type": "subscriptions", "id": "S\#(index)", "#
                + #""attributes": {\#(attributes.joined(separator: ", "))}, "relationships": {\#(relationships)}}"#)
        }
        for row in (0..<count).map(String.init) + ["orphan"] {
            included.append(#"{"type": "subscriptionPrices", "id": "R\#(row)", "attributes": {"startDate": null}, "#
                + #""relationships": {"territory": {"data": {"type": "territories", "id": "USA"}}, "#
                + #""subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "P\#(row)"}}}}"#)
            let price = row == "orphan" ? "0.99" : "\(row).99"
            included.append(#"{"type": "subscriptionPricePoints", "id": "P\#(row)", "#
                + #""attributes": {"customerPrice": "\#(price)"}}"#)
        }
        return "{\"data\": [\n" + data.joined(separator: ",\n") + "\n], \"included\": [\n"
            + included.joined(separator: ",\n") + "\n]}\n"
    }

    static func read(_ json: String) throws -> Catalog {
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        return try AppStoreConnectReader().read(data: Data(json.utf8), displayPath: "inline.json", options: options)
    }

    @Test func productsBuiltOnTwoCoresAreThoseOfAReadingInOrder() throws {
        // 100 subscriptions: the later 50 are built on the second core.
        let json = Self.document(count: 100, withoutProductID: [5, 70],
                                 unknownStates: [10: "SOMEDAY_STATE", 80: "LATER_STATE"])

        let catalog = try Self.read(json)

        let expected = (0..<100).filter { $0 != 5 && $0 != 70 }
        #expect(catalog.products.map(\.id.rawValue) == expected.map { "plan.\($0)" })
        #expect(catalog.products.map { $0.prices.values.first?.money.description } == expected.map { "\($0).99 USD" })
        #expect(catalog.products.map(\.location.line) == expected.map { $0 + 2 })
        #expect(catalog.remarks == [
            "2 subscriptions resource(s) have no productId in the input and are not read as products",
            // The orphan and the rows of the two subscriptions without a productId; a row read on either core
            // counts as read.
            "3 price row(s) belong to no product in the input and were not read",
            #"subscriptions plan.10 has state "SOMEDAY_STATE", not known to this version; "#
                + "its availability is not compared",
            #"subscriptions plan.80 has state "LATER_STATE", not known to this version; "#
                + "its availability is not compared",
        ])
    }

    @Test func theFirstErrorInReadingOrderIsThrownWhicheverCoreMetIt() throws {
        let json = Self.document(count: 100, levelZero: [20, 90])

        let error = try #require(throws: CatalogReadError.self) { try Self.read(json) }

        #expect(error.message == #"subscriptions "S20" attributes.groupLevel: 0 is not a level (1 or more)"#)
        #expect(error.location.line == 22)
    }

    @Test func anErrorOnlyTheSecondCoreMeetsIsThrown() throws {
        let json = Self.document(count: 100, levelZero: [90])

        let error = try #require(throws: CatalogReadError.self) { try Self.read(json) }

        #expect(error.location.line == 92)
    }
}
