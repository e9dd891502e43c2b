import CatalogCore
import Testing

/// A rule's sides (`Rule+Sides.swift`): what its findings' `expected` and `actual` hold, read by every report.
@Suite("Rule sides")
struct RuleSidesTests {
    @Test("the rules whose expected and actual are not the config's and the store's value")
    func oneSidedRules() {
        // Act
        let oneSided = Set(Rule.allCases.filter { !$0.comparesSides })

        // Assert
        #expect(oneSided == [.duplicateProductID, .introOfferExceedsPeriod, .storekitSingleStorefront,
                             .ignoreExpired, .ignoreUnused, .offerIDReused, .offerFreeWithPrice,
                             .offerNotADiscount, .billingPlanOutOfRange, .duplicateOfferID, .subscriptionPriceChangeUndecided,
                             .subscriptionPriceConsentRequired, .subscriptionPriceDecreaseApplies,
                             .playCohortMigrationNeeded, .pricesNotCompared, .currencyNotValidAtDate,
                             .currencyChangeoverAhead, .subscriptionPriceMatrixIncomplete, .priceNotAPricePoint,
                             .pricePointsMissing, .offeringProductNotInProject])
    }

    @Test("a missing product is on one side, a repeated ID in one catalog")
    func presence() {
        #expect(Rule.productMissingInStore.sides == .configProductOnly)
        #expect(Rule.offeringProductMissingInStore.sides == .configProductOnly)
        #expect(Rule.productMissingInConfig.sides == .storeProductOnly)
        #expect(Rule.duplicateProductID.sides == .repeatedRecords)
        #expect(Rule.priceMismatch.sides == .compared)
        #expect(Rule.offerFreeWithPrice.sides == .oneCatalog)
    }

    @Test("a finding's config and store values are its expected and actual only when the rule compares sides")
    func findingValues() {
        // Arrange
        let price = Finding(rule: .priceMismatch, productID: "p", expected: "1.99 USD", actual: "2.99 USD",
                            message: "m", store: "s")
        let trial = Finding(rule: .introOfferExceedsPeriod, productID: "p", expected: "P1M", actual: "P1Y",
                            message: "m", store: "s")

        // Assert
        #expect(price.configValue == "1.99 USD")
        #expect(price.storeValue == "2.99 USD")
        #expect(trial.configValue == nil)
        #expect(trial.storeValue == nil)
    }

    @Test("the price matrix marks amount disagreements only, not the change rules about a price")
    func amountRules() {
        #expect(Set(Rule.allCases.filter(\.disagreesOnAmount))
                    == [.priceMismatch, .priceMissingInStore, .priceMissingInConfig, .storekitSingleStorefront])
        #expect(!Rule.subscriptionPriceChangeUndecided.disagreesOnAmount)
        #expect(!Rule.pricePreserveMismatch.disagreesOnAmount)
    }
}
