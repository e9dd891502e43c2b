import CatalogCore
import CatalogFormats
import Foundation
import Testing
import TestSupport

/// Enum values Google or Apple add after this version are read with a remark naming them, not an error
/// (issue 10, item 9). Values a period must be read from stay errors.
@Suite("Forward compatibility: enum values added later")
struct ForwardCompatibilityTests {
    private func play(_ text: String) throws -> Catalog {
        let url = try PlayTest.temporaryFile("doc.json", text)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        return try PlayJSONReader().read(contentsOf: url, displayPath: "play/doc.json", options: try PlayTest.options())
    }

    private func asc(_ json: String) throws -> Catalog {
        let options = ReadOptions(asOf: try #require(CalendarDate(year: 2026, month: 11, day: 22)))
        return try AppStoreConnectReader().read(data: Data(json.utf8), displayPath: "asc.json", options: options)
    }

    private static let usd = #"{"currencyCode": "USD", "units": "4", "nanos": 990000000}"#

    // MARK: Play

    @Test("Play base plan state")
    func basePlanState() throws {
        let catalog = try play(#"""
            {"productId": "premium", "basePlans": [
              {"basePlanId": "monthly", "state": "ARCHIVED_LATER",
               "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}}]}
            """#)
        let product = try #require(catalog.products.first)
        #expect(product.clearedForSale == nil)
        #expect(product.fieldLocations[.clearedForSale] == nil)
        #expect(product.period == SubscriptionPeriod(iso: "P1M"))
        #expect(catalog.remarks == [
            #"play/doc.json: base plan premium:monthly has state "ARCHIVED_LATER", not known to this version; "#
                + "its availability is not compared",
        ])
    }

    @Test("Play billing period with an unknown unit is still an error naming it")
    func unknownPeriodUnitStaysAnError() throws {
        let error = try #require(throws: CatalogReadError.self) {
            try play(#"{"productId": "s", "basePlans": [{"basePlanId": "b", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1Q"}}]}"#)
        }
        #expect(error.message.contains(#""P1Q" is not an ISO 8601 period"#))
    }

    @Test("Play legacy in-app product status")
    func inAppProductStatus() throws {
        let catalog = try play(#"{"sku": "coins", "status": "suspended", "purchaseType": "managedUser"}"#)
        #expect(catalog.products.map(\.id.rawValue) == ["coins"])
        #expect(catalog.products.first?.clearedForSale == nil)
        #expect(catalog.remarks == [
            #"play/doc.json: in-app product coins has status "suspended", not known to this version; "#
                + "its availability is not compared",
        ])
    }

    @Test("Play legacy purchase type")
    func purchaseType() throws {
        let catalog = try play(#"{"sku": "pass", "status": "active", "purchaseType": "rental"}"#)
        let product = try #require(catalog.products.first)
        #expect(product.kind == nil)
        #expect(product.clearedForSale == true)
        #expect(catalog.remarks == [
            #"play/doc.json: in-app product pass has purchaseType "rental", not known to this version; "#
                + "its type is not compared",
        ])
    }

    @Test("Play one-time product purchase option state")
    func purchaseOptionState() throws {
        let catalog = try play(#"""
            {"productId": "gems", "purchaseOptions": [{"purchaseOptionId": "buy", "state": "PAUSED", "buyOption": {},
              "regionalPricingAndAvailabilityConfigs": [{"regionCode": "US", "price": \#(Self.usd)}]}]}
            """#)
        let product = try #require(catalog.products.first)
        #expect(product.clearedForSale == nil)
        #expect(PlayTest.priceTexts(product) == ["US": "4.99 USD"])
        #expect(catalog.remarks == [
            #"play/doc.json: one-time product gems purchase option buy has state "PAUSED", not known to this "#
                + "version; its availability is not compared",
        ])
    }

    @Test("Play one-time product regional availability")
    func regionalAvailability() throws {
        let catalog = try play(#"""
            {"productId": "gems", "purchaseOptions": [{"buyOption": {}, "regionalPricingAndAvailabilityConfigs": [
              {"regionCode": "US", "availability": "SOMETIMES", "price": \#(Self.usd)}]}]}
            """#)
        #expect(PlayTest.priceTexts(catalog.products.first) == ["US": "4.99 USD"])
        #expect(catalog.remarks == [
            #"play/doc.json: one-time product gems region US has availability "SOMETIMES", not known to this "#
                + "version; it is not read",
        ])
    }

    private func offerDocument(state: String, region: String) -> String {
        #"""
        {"subscriptions": [{"productId": "premium", "basePlans": [{"basePlanId": "monthly", "state": "ACTIVE",
           "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"},
           "regionalConfigs": [{"regionCode": "US", "price": \#(Self.usd)}]}]}],
         "subscriptionOffers": [
           {"productId": "premium", "basePlanId": "monthly", "offerId": "trial", "state": "\#(state)",
            "phases": [{"duration": "P1W", "regionalConfigs": [\#(region)]}]}]}
        """#
    }

    @Test("Play subscription offer state: the base plan's intro offers are unknown, not absent")
    func offerState() throws {
        let catalog = try play(offerDocument(state: "SCHEDULED", region: #"{"regionCode": "US", "free": {}}"#))
        let product = try #require(catalog.products.first)
        #expect(product.introOffers == nil)
        #expect(product.clearedForSale == true)
        #expect(catalog.remarks == [
            #"play/doc.json: offer trial of base plan premium:monthly has state "SCHEDULED", not known to this "#
                + "version; the intro offers of that base plan are not compared",
        ])
        // The known state still gives the offer.
        let known = try play(offerDocument(state: "ACTIVE", region: #"{"regionCode": "US", "free": {}}"#))
        #expect(known.products.first?.introOffers?.map(\.mode) == [.freeTrial])
        #expect(known.remarks.isEmpty)
    }

    @Test("Play offer phase priced in a way added later")
    func offerPhasePricing() throws {
        let catalog = try play(offerDocument(state: "ACTIVE",
                                             region: #"{"regionCode": "US", "fixedDiscount": {"percent": 20}}"#))
        #expect(catalog.products.first?.introOffers == nil)
        #expect(catalog.remarks == [
            #"play/doc.json: offer trial of base plan premium:monthly has a phase priced by "fixedDiscount", "#
                + "not known to this version; the intro offers of that base plan are not compared",
        ])
        // A region with no pricing at all is still malformed.
        let error = try #require(throws: CatalogReadError.self) {
            try play(offerDocument(state: "ACTIVE", region: #"{"regionCode": "US"}"#))
        }
        #expect(error.message.contains("found none"))
    }

    // MARK: App Store Connect

    @Test("ASC in-app purchase type")
    func inAppPurchaseType() throws {
        let catalog = try asc(#"""
            {"data": [{"type": "inAppPurchases", "id": "1",
                       "attributes": {"productId": "p", "inAppPurchaseType": "SUBSCRIPTION_BUNDLE", "state": "APPROVED"}}]}
            """#)
        let product = try #require(catalog.products.first)
        #expect(product.kind == nil)
        #expect(product.fieldLocations[.type] == nil)
        #expect(product.clearedForSale == true)
        #expect(catalog.remarks == [
            #"inAppPurchases p has inAppPurchaseType "SUBSCRIPTION_BUNDLE", not known to this version; "#
                + "its type is not compared",
        ])
    }

    @Test("ASC state: an unknown state is named, a known pending one is not")
    func state() throws {
        let catalog = try asc(#"""
            {"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "a", "state": "ARCHIVED"}},
                      {"type": "subscriptions", "id": "2", "attributes": {"productId": "b", "state": "IN_REVIEW"}},
                      {"type": "inAppPurchases", "id": "3", "attributes": {"productId": "c", "state": "DEVELOPER_SIGNED_OFF"}}]}
            """#)
        #expect(catalog.products.map(\.clearedForSale) == [nil, nil, nil])
        #expect(catalog.remarks == [
            #"subscriptions a has state "ARCHIVED", not known to this version; its availability is not compared"#,
        ])
    }

    private func offerDocument(mode: String, duration: String = "ONE_WEEK") -> String {
        #"""
        {"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p", "subscriptionPeriod": "ONE_MONTH"},
                   "relationships": {"introductoryOffers": {"data": [{"type": "subscriptionIntroductoryOffers", "id": "o"}]}}}],
         "included": [{"type": "subscriptionIntroductoryOffers", "id": "o",
                       "attributes": {"offerMode": "\#(mode)", "duration": "\#(duration)"}}]}
        """#
    }

    @Test("ASC offer mode: the subscription's offers are unknown")
    func offerMode() throws {
        let catalog = try asc(offerDocument(mode: "BOGO"))
        let product = try #require(catalog.products.first)
        #expect(product.introOffers == nil)
        #expect(product.period == SubscriptionPeriod(storeText: "ONE_MONTH"))
        #expect(catalog.remarks == [
            #"subscriptionIntroductoryOffers "o" of subscription p has offerMode "BOGO", not known to this "#
                + "version; the subscription's introductory offers are not compared",
        ])
    }

    @Test("ASC periods with an unknown value stay errors naming it")
    func unknownPeriodsStayErrors() throws {
        let duration = try #require(throws: CatalogReadError.self) {
            try asc(offerDocument(mode: "FREE_TRIAL", duration: "ONE_FORTNIGHT"))
        }
        #expect(duration.message.contains(#""ONE_FORTNIGHT" is not an offer duration"#))
        let period = try #require(throws: CatalogReadError.self) {
            try asc(#"{"data": [{"type": "subscriptions", "id": "1", "attributes": {"productId": "p", "subscriptionPeriod": "ONE_DECADE"}}]}"#)
        }
        #expect(period.message.contains(#""ONE_DECADE" is not a subscription period"#))
    }
}

/// A Play Console CSV of `rows` under the eight-column header, read as `products.csv`.
private func readPlayCSV(_ rows: String) throws -> Catalog {
    let header = "Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,"
        + "Auto Fill Prices,Price,Pricing Template ID"
    let url = try PlayTest.temporaryFile("products.csv", header + "\n" + rows + "\n")
    defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
    return try PlayCSVReader().read(contentsOf: url, displayPath: "products.csv", options: try PlayTest.options())
}

@Suite("Forward compatibility: Play CSV column values added later")
struct PlayCSVForwardCompatibilityTests {
    private func read(_ rows: String) throws -> Catalog { try readPlayCSV(rows) }

    @Test("Play CSV Published State")
    func publishedState() throws {
        let catalog = try read("x,live,managed_by_android,false,en_US;X;X,false,US;990000,")
        let product = try #require(catalog.products.first)
        #expect(product.clearedForSale == nil)
        #expect(PlayTest.priceTexts(product) == ["US": "0.99 USD"])
        #expect(catalog.remarks == [
            #"line 2: product x has Published State "live", not known to this version; its availability is not compared"#,
        ])
    }

    @Test("Play CSV Purchase Type")
    func purchaseType() throws {
        let catalog = try read("x,published,consumable,false,en_US;X;X,false,US;990000,")
        #expect(catalog.products.first?.clearedForSale == true)
        #expect(catalog.remarks == [
            #"line 2: product x has Purchase Type "consumable", not known to this version; it is not read"#,
        ])
    }
}

@Suite("Play region currencies through CSV pairs")
struct PlayRegionCurrencyTests {
    private func read(_ rows: String) throws -> Catalog { try readPlayCSV(rows) }

    @Test("newly covered regions take their Play currency")
    func newlyCoveredRegions() throws {
        let catalog = try read("coins,published,managed_by_android,false,en_US;X;X,false,"
                               + "KE; 130000000; BD; 110000000; MA; 10000000; LK; 300000000; VG; 990000; LI; 1000000,")
        #expect(PlayTest.priceTexts(catalog.products.first) == [
            "KE": "130 KES", "BD": "110 BDT", "MA": "10 MAD", "LK": "300 LKR", "VG": "0.99 USD", "LI": "1 CHF",
        ])
    }

    @Test("a region no source confirms still has no currency")
    func unconfirmedRegion() throws {
        let error = try #require(throws: CatalogReadError.self) {
            try read("coins,published,managed_by_android,false,en_US;X;X,false,KW; 990000,")
        }
        #expect(error.message.contains(#"no Play currency is known for "KW""#))
    }
}
