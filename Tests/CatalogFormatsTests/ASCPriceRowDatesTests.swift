import CatalogCore
@testable import CatalogFormats
import Foundation
import TestSupport
import Testing

/// FORMATS.md "Current ASC price", its one exception to opaque IDs: an in-app purchase price row without
/// `startDate`/`endDate` takes them from its base64url JSON ID (`sd`, `ed`); undated rows that still disagree
/// are an error naming both, never resolved by file order.
@Suite("ASC IAP price rows dated by their IDs")
struct ASCPriceRowDatesTests {
    private func read(_ relativePath: String, asOf: String = "2026-11-22") throws -> Catalog {
        try AppStoreConnectReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                         options: ReadOptions(asOf: try #require(CalendarDate(iso: asOf))))
    }

    private func readError(_ relativePath: String) throws -> CatalogReadError? {
        let options = ReadOptions(asOf: try #require(CalendarDate(iso: "2026-11-22")))
        do {
            _ = try AppStoreConnectReader().read(contentsOf: Fixtures.url(relativePath), displayPath: relativePath,
                                                 options: options)
            return nil
        } catch {
            return error
        }
    }

    @Test func aScheduledRowFirstInThePageIsNotTheCurrentPrice() throws {
        // Arrange: three undated rows whose IDs hold 2027-01-01…, 2025-03-01…2027-01-01 and 2024…2025-03-01.
        let file = "asc/iap-dates/dates-in-ids.json"

        // Act
        let coins = try #require(try read(file).products.first)

        // Assert: the 2025 row is current, the 2027 row scheduled, the ended one dropped.
        #expect(coins.prices.count == 1)
        #expect(coins.prices[.unitedStates]?.money.description == "0.99 USD")
        #expect(coins.uncomparedPrices.map(\.summary) == ["scheduled US 1.99 USD from 2027-01-01"])
    }

    @Test func theIDsEndDateEndsARow() throws {
        let coins = try #require(try read("asc/iap-dates/dates-in-ids.json", asOf: "2027-01-01").products.first)

        #expect(coins.prices[.unitedStates]?.money.description == "1.99 USD")
        #expect(coins.uncomparedPrices.isEmpty)
    }

    @Test func undatedRowsThatDisagreeExit2NamingBoth() throws {
        let error = try #require(try readError("asc/iap-dates/undated-rows-disagree.json"))

        #expect(error.description == """
            asc/iap-dates/undated-rows-disagree.json:50:7: error: in-app purchase "com.example.coins.100" has two undated \
            automatic prices for US that disagree: inAppPurchasePrices "price-row-a" \
            (asc/iap-dates/undated-rows-disagree.json:29:7) is 0.99 USD and inAppPurchasePrices "price-row-b" is \
            1.09 USD; neither states startDate or endDate, so which one is current is unknown (fetch again: fetch \
            asks for the dates)
            """)
    }

    /// The dates an ID holds as `start…end` text, nil when it dates nothing.
    private func dates(_ id: String) -> String? {
        var id = id
        let dates = id.withUTF8 { ASCPriceRowDates(idBytes: $0) }
        return dates.map { "\($0.start.map { "\($0)" } ?? "")…\($0.end.map { "\($0)" } ?? "")" }
    }

    @Test func anIDThatIsNotDatedJSONDatesNothing() {
        #expect(dates("price-row-a") == nil)
        #expect(dates("eyJzIjoiNjUwMDAwMDAwMSJ9") == nil)  // {"s":"6500000001"}
        #expect(dates("eyJzZCI6IjIwMjctMDEtMDEifQ") == "2027-01-01…")  // {"sd":"2027-01-01"}
        #expect(dates("eyJzZCI6Im5vdCBhIGRhdGUifQ") == nil)  // {"sd":"not a date"}
        #expect(dates("eyJpIjoiNjQ1MDAwMDAwMCIsImQiOjAsImMiOiJVU0EifQ") == nil)  // {"i":"6450000000","d":0,"c":"USA"}
    }

    @Test func aKeySpelledWithEscapesIsTheKey() {
        // {"\u0073d":"2027-01-01"}: JSON's escapes spell "sd", which the quick search for the key's bytes misses.
        #expect(dates("eyJcdTAwNzNkIjoiMjAyNy0wMS0wMSJ9") == "2027-01-01…")
        // {"i":"1","ed":"2026-01-01","sd":null}
        #expect(dates("eyJpIjoiMSIsImVkIjoiMjAyNi0wMS0wMSIsInNkIjpudWxsfQ") == "…2026-01-01")
    }

    @Test func base64urlAsRFC4648DecodesIt() {
        // RFC 4648 §10's vectors ("foob" → Zm9vYg==, "fooba" → Zm9vYmE=), padded or not, and §5's alphabet.
        func decoded(_ text: String) -> String? {
            var text = text
            return text.withUTF8 { bytes in
                ASCPriceRowDates.withBase64URLDecoded(bytes) { $0.map { String(decoding: $0, as: UTF8.self) } }
            }
        }
        #expect(decoded("Zm9vYg==") == "foob")
        #expect(decoded("Zm9vYmE") == "fooba")
        #expect(decoded("Pz8-") == "??>")  // "Pz8+" in the standard alphabet
        #expect(decoded("Pz8_") == "???")  // "Pz8/"
        #expect(decoded("Zm9v=Yg") == nil)  // padding inside
        #expect(decoded("Zm9vY") == nil)  // 5 characters: no encoding ends so
        #expect(decoded("Zm9+Yg") == nil)  // the standard alphabet's + is not base64url
        #expect(decoded("") == nil)
    }

    /// Four characters at a time through a table: every length and byte must decode as Foundation's base64 decodes
    /// the same text in the standard alphabet, padded; a byte outside the alphabet anywhere is refused.
    @Test func base64urlDecodesAsFoundationDoes() {
        var random = SeededGenerator(seed: 0xB6_4E)
        for length in 0..<200 {
            let original = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let standard = Data(original).base64EncodedString()
            let url = standard.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let unpadded = url.replacingOccurrences(of: "=", with: "")
            for text in [url, unpadded] {
                let decoded = Array(text.utf8).withUnsafeBufferPointer { bytes in
                    ASCPriceRowDates.withBase64URLDecoded(bytes) { $0.map(Array.init) }
                }
                #expect(decoded == (length == 0 ? nil : original), "\(text)")
            }
            guard !unpadded.isEmpty else { continue }
            var broken = Array(unpadded.utf8)
            broken[Int(random.next() % UInt64(broken.count))] = UInt8(ascii: "+")
            let refused = broken.withUnsafeBufferPointer { bytes in
                ASCPriceRowDates.withBase64URLDecoded(bytes) { $0 == nil }
            }
            #expect(refused, "\(String(decoding: broken, as: UTF8.self))")
        }
    }

    /// The quick test before a tape is built: one pass, which must say what the three searches it replaced said.
    @Test func whetherTextMayNameADateAgreesWithSearchingForEachPart() {
        var random = SeededGenerator(seed: 0x5D_ED)
        let alphabet = Array("\"sed\\x".utf8)
        var mayName = 0
        for _ in 0..<20_000 {
            let bytes = (0..<Int(random.next() % 9)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            bytes.withUnsafeBufferPointer { text in
                func holds(_ part: String) -> Bool {
                    Array(part.utf8).withUnsafeBufferPointer { ByteSearch.contains(text, $0) }
                }
                let searched = holds("\\") || holds("\"sd\"") || holds("\"ed\"")
                #expect(ASCPriceRowDates.mayNameADate(text) == searched, "\(String(decoding: bytes, as: UTF8.self))")
                if searched { mayName += 1 }
            }
        }
        #expect(mayName > 1000)
    }

    @Test func aPooledIDIsReadFromThePoolsBytes() {
        var pool = ASCResourcePool()
        let prices = pool.type(named: "inAppPurchasePrices")
        let dated = pool.node(type: prices, id: "eyJzZCI6IjIwMjctMDEtMDEifQ")
        let undated = pool.node(type: prices, id: "eyJzIjoiNjUwMDAwMDAwMSJ9")

        #expect(pool.withID(of: dated) { String(decoding: $0, as: UTF8.self) } == "eyJzZCI6IjIwMjctMDEtMDEifQ")
        #expect(pool.withID(of: dated) { ASCPriceRowDates(idBytes: $0)?.start } == CalendarDate(iso: "2027-01-01"))
        #expect(pool.withID(of: undated) { ASCPriceRowDates(idBytes: $0) } == nil)
    }
}
