import CatalogCore

extension PlayCatalogBuilder {
    /// Adds a legacy `inappproducts` resource (also a gradle-play-publisher `products/<sku>.json`).
    ///
    /// A `managedUser` product is `one-time`: Play does not store consumable vs non-consumable. A legacy
    /// `subscription` is auto-renewable with its `subscriptionPeriod`; its deprecated `trialPeriod` is the only
    /// offer such a resource can carry, so its intro offers are that free trial or `[]`.
    mutating func addInAppProduct(_ node: JSONNode, in context: JSONAccess) throws(CatalogReadError) {
        try context.requireObject(node)
        noteApp(try context.string("packageName", in: node))
        let sku = try context.requireString("sku", in: node)
        var product = Product(id: ProductID(sku.text), location: context.location(of: node))
        product.fieldLocations[.id] = context.location(of: sku.node)

        if let status = try context.enumeration("status", in: node, known: Self.inAppProductStatuses) {
            if status.isKnown {
                product.clearedForSale = status.text == "statusUnspecified" ? nil : status.text == "active"
                product.fieldLocations[.clearedForSale] = context.location(of: status.node)
            } else {
                remarkUnknown("status", status.text, of: "in-app product \(sku.text)", in: context,
                              consequence: "its availability is not compared")
            }
        }
        let purchaseType = try context.enumeration("purchaseType", in: node, known: Self.purchaseTypes)
        if let purchaseType, !purchaseType.isKnown {
            remarkUnknown("purchaseType", purchaseType.text, of: "in-app product \(sku.text)", in: context,
                          consequence: "its type is not compared")
        }
        if purchaseType?.isKnown ?? true, purchaseType?.text != "subscription" {
            // `managedUser` is "the default product type - one time purchase" (androidpublisher v3
            // InAppProduct.purchaseType), so an absent or unspecified type is one too; gradle-play-publisher's
            // products/<sku>.json often states none.
            product.kind = .oneTime
            if let purchaseType { product.fieldLocations[.type] = context.location(of: purchaseType.node) }
        }
        if let purchaseType, purchaseType.text == "subscription" {
            product.kind = .autoRenewable
            product.fieldLocations[.type] = context.location(of: purchaseType.node)
            if let period = try context.period("subscriptionPeriod", in: node) {
                product.period = period.period
                product.fieldLocations[.period] = context.location(of: period.node)
            }
            product.introOffers = []
            if let trial = try context.string("trialPeriod", in: node), !Self.isZeroPeriod(trial.text) {
                guard let period = SubscriptionPeriod(iso: trial.text) else {
                    throw context.error("\"\(trial.text)\" is not an ISO 8601 period such as P7D", at: trial.node)
                }
                let location = context.location(of: trial.node)
                product.introOffers = [IntroOffer(mode: .freeTrial, period: period, location: location)]
                product.fieldLocations[.introOffer] = location
            }
        }

        if let prices = try context.object("prices", in: node) {
            product.fieldLocations[.price] = context.location(of: prices)
            for member in prices.value.members.map(Array.init) ?? [] {
                let key = member.key
                let keyLocation = context.document.location(of: member)
                guard key.utf8.count == 2, let territory = Territory(code: key) else {
                    let path = prices.path.isEmpty ? "" : "\(prices.path): "
                    throw CatalogReadError("\(path)\"\(key)\" is not an ISO 3166-1 alpha-2 region code",
                                           at: keyLocation)
                }
                let money = try context.legacyPrice(prices.child(key, member.value))
                product.prices[territory] = Price(territory: territory, money: money, location: keyLocation)
            }
        }
        if let defaultPrice = try context.object("defaultPrice", in: node) {
            product.uncomparedPrices.append(UncomparedPrice(label: "default",
                                                            amount: try context.legacyPrice(defaultPrice)))
        }
        append(product)
    }

    /// `P0D` (and `P0W`, …) means "no trial" in legacy resources.
    private static func isZeroPeriod(_ text: String) -> Bool {
        text.isEmpty || ["P0D", "P0W", "P0M", "P0Y"].contains(text)
    }

    private static let inAppProductStatuses = ["statusUnspecified", "active", "inactive"]
    private static let purchaseTypes = ["purchaseTypeUnspecified", "managedUser", "subscription"]
    private static let purchaseOptionStates = ["STATE_UNSPECIFIED", "DRAFT", "ACTIVE", "INACTIVE", "INACTIVE_PUBLISHED"]
    private static let availabilities = ["AVAILABILITY_UNSPECIFIED", "AVAILABLE", "NO_LONGER_AVAILABLE",
                                         "AVAILABLE_IF_RELEASED", "AVAILABLE_FOR_OFFERS_ONLY"]

    /// Adds a `monetization.onetimeproducts` resource, a `one-time` product (Play does not say consumable vs
    /// non-consumable).
    ///
    /// A one-time product can have several purchase options (buy, rent). The product's prices, other-regions
    /// prices and availability come from one of them: the `buyOption` marked `legacyCompatible` (the one old
    /// billing clients see), else the first `buyOption`, else the first option. The other options are the
    /// product's `purchaseOptions` (OFFERS.md: "the legacy-compatible buy option's prices stay the product's
    /// prices"). Every option is checked for well-formedness.
    mutating func addOneTimeProduct(_ node: JSONNode, in context: JSONAccess) throws(CatalogReadError) {
        try context.requireObject(node)
        carriesPurchaseOptions = true
        noteApp(try context.string("packageName", in: node))
        let productID = try context.requireString("productId", in: node)
        var product = Product(id: ProductID(productID.text), kind: .oneTime, location: context.location(of: node))
        product.fieldLocations[.id] = context.location(of: productID.node)

        var options: [(node: JSONNode, kind: PurchaseOption.Kind?, product: Product)] = []
        for option in try context.objects("purchaseOptions", in: node) ?? [] {
            _ = try context.string("purchaseOptionId", in: option)
            let buy = try context.object("buyOption", in: option)
            let rent = try context.object("rentOption", in: option)
            if buy != nil, rent != nil {
                throw context.error("a purchase option is either \"buyOption\" or \"rentOption\", found both",
                                    at: option)
            }
            var kind: PurchaseOption.Kind?
            if let buy {
                kind = .buy(legacyCompatible: try context.bool("legacyCompatible", in: buy) ?? false)
            } else if let rent {
                // `rentalPeriod` is "Required" (OneTimeProductRentPurchaseOption), `expirationPeriod` optional.
                guard let period = try context.period("rentalPeriod", in: rent) else {
                    throw context.error("missing \"rentalPeriod\"", at: rent)
                }
                kind = .rent(period: period.period, expiration: try context.period("expirationPeriod", in: rent)?.period)
            }
            let priced = try purchaseOption(option, into: product, productID: productID.text, in: context)
            options.append((option, kind, priced))
        }
        let chosen = options.firstIndex(where: { $0.kind == .buy(legacyCompatible: true) })
            ?? options.firstIndex(where: { if case .buy = $0.kind { true } else { false } })
            ?? options.indices.first
        if let chosen { product = options[chosen].product }
        product.purchaseOptions = []
        for (index, option) in options.enumerated() where index != chosen {
            if let listed = try listedOption(option.node, kind: option.kind, priced: option.product,
                                             productID: productID.text, in: context) {
                product.purchaseOptions?.append(listed)
            }
        }
        let index = append(product)
        oneTimeProductIndices[productID.text, default: []].append(index)
    }

    /// A purchase option other than the one that prices the product, as `Product.purchaseOptions` lists it; nil
    /// (with a remark) for an option that is neither buy nor rent (a kind Google added later).
    private mutating func listedOption(_ option: JSONNode, kind: PurchaseOption.Kind?, priced: Product,
                                       productID: String, in context: JSONAccess) throws(CatalogReadError) -> PurchaseOption? {
        let id = try context.requireString("purchaseOptionId", in: option)
        guard let kind else {
            remark("\(context.document.path): one-time product \(productID) purchase option \(id.text) is neither "
                   + "\"buyOption\" nor \"rentOption\", not known to this version; it is not compared")
            return nil
        }
        let state = try context.enumeration("state", in: option, known: Self.purchaseOptionStates)
        let isActive: Bool? = switch state?.text {
        case "ACTIVE": true
        case "DRAFT", "INACTIVE", "INACTIVE_PUBLISHED": false
        default: nil
        }
        return PurchaseOption(id: id.text, kind: kind, prices: priced.prices.mapValues(\.money), isActive: isActive,
                              location: context.location(of: option))
    }

    /// The product as one purchase option prices it.
    private mutating func purchaseOption(_ option: JSONNode, into base: Product, productID: String,
                                         in context: JSONAccess) throws(CatalogReadError) -> Product {
        var product = base
        let optionID = try context.string("purchaseOptionId", in: option)?.text
        let subject = "one-time product \(productID)" + (optionID.map { " purchase option \($0)" } ?? "")
        if let state = try context.enumeration("state", in: option, known: Self.purchaseOptionStates) {
            if state.isKnown {
                product.clearedForSale = state.text == "STATE_UNSPECIFIED" ? nil : state.text == "ACTIVE"
                product.fieldLocations[.clearedForSale] = context.location(of: state.node)
            } else {
                remarkUnknown("state", state.text, of: subject, in: context,
                              consequence: "its availability is not compared")
            }
        }
        if let configs = try context.objects("regionalPricingAndAvailabilityConfigs", in: option) {
            try addRegionalPrices(configs, to: &product, in: context) { _ throws(CatalogReadError) in }
            for config in configs {
                // Per-region availability is not compared, so an unknown value only needs saying.
                if let availability = try context.enumeration("availability", in: config, known: Self.availabilities),
                   !availability.isKnown {
                    let region = try context.territory("regionCode", in: config)
                    remarkUnknown("availability", availability.text, of: "\(subject) region \(region.territory)",
                                  in: context, consequence: "it is not read")
                }
            }
        }
        if let newRegions = try context.object("newRegionsConfig", in: option) {
            product.uncomparedPrices += try otherRegionsPrices(newRegions, in: context)
        }
        return product
    }
}
