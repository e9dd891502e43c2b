import CatalogCore
import Foundation

/// Builds the catalog from the SAX events of a `metadata.xml`.
final class MetadataCatalogBuilder: XMLEventHandler {
    /// The text fields of an `<in_app_purchase>` this reader uses.
    enum Field: Equatable {
        case productID, referenceName, type, duration, clearedForSale, tier
        case intervalStart, intervalEnd, intervalTier
    }

    /// The elements this reader looks at, recognized once per start tag by their bytes.
    enum Element: Equatable {
        case package, family, subscriptionGroup, inAppPurchase
        case productID, referenceName, type, duration, clearedForSale
        case products, product, wholesalePriceTier, intervals, interval, startDate, endDate
        /// Any other element of the Transporter namespace (or of none).
        case other
        /// An element in a foreign namespace: never matches a name.
        case foreign

        init(_ tag: XMLStartTag) {
            guard tag.isInNamespace("http://apple.com/itunes/importer") else {
                self = .foreign
                return
            }
            switch tag.localName {
            case "package": self = .package
            case "family": self = .family
            case "subscription_group": self = .subscriptionGroup
            case "in_app_purchase": self = .inAppPurchase
            case "product_id": self = .productID
            case "reference_name": self = .referenceName
            case "type": self = .type
            case "duration": self = .duration
            case "cleared_for_sale": self = .clearedForSale
            case "products": self = .products
            case "product": self = .product
            case "wholesale_price_tier": self = .wholesalePriceTier
            case "intervals": self = .intervals
            case "interval": self = .interval
            case "start_date": self = .startDate
            case "end_date": self = .endDate
            default: self = .other
            }
        }
    }

    struct IntervalDraft {
        var location: SourceLocation
        var start: (date: CalendarDate, location: SourceLocation)?
        var end: (date: CalendarDate, location: SourceLocation)?
        var tier: (amount: Decimal, location: SourceLocation)?
    }

    /// What has been read of the open `<in_app_purchase>`: a class, changed in place by every field.
    final class PurchaseDraft {
        let location: SourceLocation
        var group: SubscriptionGroup?
        var productID: (value: String, location: SourceLocation)?
        var referenceName: (value: String, location: SourceLocation)?
        var type: (kind: ProductKind?, location: SourceLocation)?
        var duration: (period: SubscriptionPeriod, location: SourceLocation)?
        var clearedForSale: (value: Bool, location: SourceLocation)?
        var tier: (amount: Decimal, location: SourceLocation)?
        var intervals: [IntervalDraft] = []
        var productBlocks = 0
        var intervalsLocation: SourceLocation?

        init(location: SourceLocation, group: SubscriptionGroup?) {
            self.location = location
            self.group = group
        }
    }

    struct Capture {
        var field: Field
        var location: SourceLocation
        var depth: Int
        var text: [UInt8] = []
    }

    let asOf: CalendarDate
    // Changed on every event of one parse on one thread: no dynamic exclusivity checks (`XMLSAXParser`).
    @exclusivity(unchecked) private(set) var sawRoot = false
    @exclusivity(unchecked) private(set) var groups: [SubscriptionGroup] = []
    @exclusivity(unchecked) private(set) var products: [Product] = []
    @exclusivity(unchecked) private(set) var remarks: [String] = []

    /// Open elements.
    @exclusivity(unchecked) private var openElements: [Element] = []
    @exclusivity(unchecked) private var groupStack: [(group: SubscriptionGroup, depth: Int)] = []
    @exclusivity(unchecked) private var purchase: PurchaseDraft?
    @exclusivity(unchecked) private var purchaseDepth = 0
    @exclusivity(unchecked) private var capture: Capture?
    @exclusivity(unchecked) private var periods = TextTable<SubscriptionPeriod?>()

    init(asOf: CalendarDate) {
        self.asOf = asOf
    }

    func characters(_ text: XMLText, in parser: XMLSAXParser) {
        capture?.text.append(contentsOf: text.bytes)
    }

    func startElement(_ tag: XMLStartTag, in parser: XMLSAXParser) throws(CatalogReadError) {
        let element = Element(tag)
        if !sawRoot {
            guard element == .package else {
                // A `<package>` of another vocabulary (a NuGet .nuspec, say) is told apart by its namespace.
                let namespace = tag.namespaceURI.map { " in namespace \($0.string)" } ?? ""
                throw CatalogReadError(
                    "not a Transporter metadata.xml: the root element is <\(tag.localName.string)>\(namespace), "
                        + "expected <package> (in namespace http://apple.com/itunes/importer, or none)",
                    at: parser.location(of: tag))
            }
            sawRoot = true
        }
        if let capture {
            throw CatalogReadError(
                "<\(MetadataCatalogBuilder.elementName(capture.field))> must hold text only, found "
                    + "<\(tag.localName.string)>", at: parser.location(of: tag))
        }
        openElements.append(element)

        if purchase == nil {
            switch element {
            case .family, .subscriptionGroup:
                try startGroup(tag, name: element == .family ? "family" : "subscription_group",
                               location: parser.location(of: tag))
            case .inAppPurchase:
                purchase = PurchaseDraft(location: parser.location(of: tag), group: groupStack.last?.group)
                purchaseDepth = openElements.count - 1
            default:
                break
            }
            return
        }
        if element == .inAppPurchase {
            throw CatalogReadError("an <in_app_purchase> inside another <in_app_purchase>", at: parser.location(of: tag))
        }
        try startPurchaseChild(element, tag: tag, in: parser)
    }

    private func startGroup(_ tag: XMLStartTag, name: String, location: SourceLocation) throws(CatalogReadError) {
        let groupName = (tag.attribute("name") ?? "").trimmedXMLWhitespace()
        guard !groupName.isEmpty else {
            throw CatalogReadError("<\(name)> has no name attribute; the group's reference name is required",
                                   at: location)
        }
        let group = SubscriptionGroup(key: groupName, name: groupName, location: location)
        if !groups.contains(where: { $0.key == groupName }) {
            groups.append(group)
        }
        groupStack.append((group, openElements.count - 1))
    }

    /// Elements inside the current `<in_app_purchase>`, by their path below it.
    private func startPurchaseChild(_ element: Element, tag: XMLStartTag,
                                    in parser: XMLSAXParser) throws(CatalogReadError) {
        let below = purchaseDepth + 1
        let depth = openElements.count - 1
        // The path below the purchase begins `<products><product>` (two levels) or `…<intervals><interval>` (four).
        func pathBegins(withLevels levels: Int) -> Bool {
            openElements[below] == .products && openElements[below + 1] == .product
                && (levels == 2 || openElements[below + 2] == .intervals && openElements[below + 3] == .interval)
        }
        func capturing(_ field: Field) {
            capture = Capture(field: field, location: parser.location(of: tag), depth: depth)
        }
        switch openElements.count - below {
        case 1:
            switch element {
            case .productID: capturing(.productID)
            case .referenceName: capturing(.referenceName)
            case .type: capturing(.type)
            case .duration: capturing(.duration)
            case .clearedForSale: capturing(.clearedForSale)
            default: break
            }
        case 2 where pathBegins(withLevels: 2):
            purchase?.productBlocks += 1
            if (purchase?.productBlocks ?? 0) > 1 {
                throw CatalogReadError(
                    "more than one <product> in <products>; one in-app purchase has one product block",
                    at: parser.location(of: tag))
            }
        case 3 where pathBegins(withLevels: 2):
            switch element {
            case .clearedForSale: capturing(.clearedForSale)
            case .wholesalePriceTier: capturing(.tier)
            case .intervals: purchase?.intervalsLocation = parser.location(of: tag)
            default: break
            }
        case 4 where pathBegins(withLevels: 4):
            purchase?.intervals.append(IntervalDraft(location: parser.location(of: tag)))
        case 5 where pathBegins(withLevels: 4):
            switch element {
            case .startDate: capturing(.intervalStart)
            case .endDate: capturing(.intervalEnd)
            case .wholesalePriceTier: capturing(.intervalTier)
            default: break
            }
        default:
            break
        }
    }

    func endElement(in parser: XMLSAXParser) throws(CatalogReadError) {
        let depth = openElements.count - 1
        if capture?.depth == depth, let finished = capture.take() {
            try assign(finished)
        }
        if depth == purchaseDepth, let draft = purchase.take() {
            try finishPurchase(draft)
        }
        if let last = groupStack.indices.last, groupStack[last].depth == depth {
            groupStack.removeLast()
        }
        openElements.removeLast()
    }

    private func assign(_ capture: Capture) throws(CatalogReadError) {
        guard let draft = purchase else { return }
        let text = capture.text.trimmedXMLWhitespace()
        let location = capture.location
        let element = MetadataCatalogBuilder.elementName(capture.field)
        func duplicate() -> CatalogReadError {
            CatalogReadError("<\(element)> appears twice in one <in_app_purchase>", at: location)
        }
        switch capture.field {
        case .productID:
            guard draft.productID == nil else { throw duplicate() }
            guard !text.isEmpty else { throw CatalogReadError("<product_id> is empty", at: location) }
            draft.productID = (text, location)
        case .referenceName:
            guard draft.referenceName == nil else { throw duplicate() }
            draft.referenceName = (text, location)
        case .type:
            guard draft.type == nil else { throw duplicate() }
            draft.type = (try kind(text, location: location), location)
        case .duration:
            guard draft.duration == nil else { throw duplicate() }
            guard let period = self.period(text) else {
                throw CatalogReadError(
                    "<duration> \"\(text)\" is not a subscription duration (expected e.g. \"7 Days\", \"1 Month\", "
                        + "\"1 Year\")", at: location)
            }
            draft.duration = (period, location)
        case .clearedForSale:
            guard draft.clearedForSale == nil else { throw duplicate() }
            switch text {
            case "true", "1": draft.clearedForSale = (true, location)
            case "false", "0": draft.clearedForSale = (false, location)
            default:
                throw CatalogReadError("<cleared_for_sale> \"\(text)\" is not true or false", at: location)
            }
        case .tier:
            guard draft.tier == nil else { throw duplicate() }
            draft.tier = (try tierPrice(text, location: location), location)
        case .intervalStart, .intervalEnd, .intervalTier:
            guard var interval = draft.intervals.popLast() else { return }
            switch capture.field {
            case .intervalStart:
                guard interval.start == nil else { throw duplicate() }
                interval.start = (try date(text, element: element, location: location), location)
            case .intervalEnd:
                guard interval.end == nil else { throw duplicate() }
                interval.end = (try date(text, element: element, location: location), location)
            default:
                guard interval.tier == nil else { throw duplicate() }
                interval.tier = (try tierPrice(text, location: location), location)
            }
            draft.intervals.append(interval)
        }
    }

    /// A `<duration>`'s period: the texts repeat ("1 Month"), so each is read once.
    private func period(_ text: String) -> SubscriptionPeriod? {
        if let known = periods.value(for: text) { return known }
        let period = SubscriptionPeriod(storeText: text)
        periods.keep(period, for: text)
        return period
    }

    private func kind(_ text: String, location: SourceLocation) throws(CatalogReadError) -> ProductKind? {
        switch text {
        case "consumable": return .consumable
        case "non-consumable": return .nonConsumable
        case "auto-renewable": return .autoRenewable
        case "subscription": return .nonRenewing
        case "free-subscription":
            remarks.append(
                "\(location): <type>free-subscription</type> is a legacy Newsstand free subscription with no "
                    + "counterpart among consumable, non-consumable, auto-renewable and non-renewing; its type is "
                    + "not compared")
            return nil
        default:
            throw CatalogReadError(
                "<type> \"\(text)\" is not an in-app purchase type (expected consumable, non-consumable, "
                    + "auto-renewable, subscription or free-subscription)", at: location)
        }
    }

    private func tierPrice(_ text: String, location: SourceLocation) throws(CatalogReadError) -> Decimal {
        let isNumber = !text.isEmpty && text.utf8.count <= 6
            && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard isNumber, let tier = Int(text) else {
            throw CatalogReadError("<wholesale_price_tier> \"\(text)\" is not a price tier number", at: location)
        }
        guard let amount = PriceTierTable.usdPrice(tier: tier) else {
            throw CatalogReadError("<wholesale_price_tier> \"\(text)\" is not a legacy App Store price tier",
                                   at: location)
        }
        return amount
    }

    private func date(_ text: String, element: String,
                      location: SourceLocation) throws(CatalogReadError) -> CalendarDate {
        guard let date = CalendarDate(iso: text) else {
            throw CatalogReadError("<\(element)> \"\(text)\" is not a date (YYYY-MM-DD)", at: location)
        }
        return date
    }

    private func finishPurchase(_ draft: PurchaseDraft) throws(CatalogReadError) {
        guard let productID = draft.productID else {
            throw CatalogReadError("<in_app_purchase> has no <product_id>", at: draft.location)
        }
        guard let usd = CurrencyCode("USD") else {
            throw CatalogReadError("the currency table has no USD", at: draft.location)
        }
        var prices: [Territory: Price] = [:]
        var uncompared: [UncomparedPrice] = []
        var priceLocation: SourceLocation?

        if let tier = draft.tier {
            if let intervalsLocation = draft.intervalsLocation {
                throw CatalogReadError(
                    "a <product> has both <wholesale_price_tier> and <intervals>; expected one of them",
                    at: intervalsLocation)
            }
            prices[.unitedStates] = Price(territory: .unitedStates, money: Money(amount: tier.amount, currency: usd),
                                          location: tier.location)
            priceLocation = tier.location
        }
        var current: (start: CalendarDate?, interval: IntervalDraft, tier: Decimal, location: SourceLocation)?
        for interval in draft.intervals {
            guard let tier = interval.tier else {
                throw CatalogReadError("<interval> has no <wholesale_price_tier>", at: interval.location)
            }
            let start = interval.start?.date
            if let start, start > asOf {
                uncompared.append(UncomparedPrice(label: "scheduled", territory: .unitedStates,
                                                  amount: Money(amount: tier.amount, currency: usd), startDate: start))
                continue
            }
            if let end = interval.end?.date, end <= asOf { continue }
            // Latest start wins; no start counts as earlier than any date; the first in the file wins a tie.
            if let best = current {
                let isLater: Bool
                switch (start, best.start) {
                case (nil, _): isLater = false
                case (.some, nil): isLater = true
                case let (mine?, theirs?): isLater = mine > theirs
                }
                if !isLater { continue }
            }
            current = (start, interval, tier.amount, tier.location)
        }
        if let current {
            prices[.unitedStates] = Price(territory: .unitedStates,
                                          money: Money(amount: current.tier, currency: usd),
                                          location: current.location)
            priceLocation = current.location
        }

        // Room for every field at once (inserted one by one into the literal's table, it was regrown three times).
        var fieldLocations = [ProductField: SourceLocation](minimumCapacity: 7)
        fieldLocations[.id] = productID.location
        if let location = draft.referenceName?.location { fieldLocations[.name] = location }
        if let location = draft.type?.location { fieldLocations[.type] = location }
        if let location = draft.duration?.location { fieldLocations[.period] = location }
        if let location = draft.clearedForSale?.location { fieldLocations[.clearedForSale] = location }
        if let priceLocation { fieldLocations[.price] = priceLocation }
        if let location = draft.group?.location { fieldLocations[.group] = location }

        products.append(Product(
            id: ProductID(productID.value),
            kind: draft.type?.kind,
            referenceName: draft.referenceName?.value,
            groupKey: draft.group?.key,
            period: draft.duration?.period,
            prices: prices,
            uncomparedPrices: uncompared.sorted(),
            clearedForSale: draft.clearedForSale?.value,
            location: draft.location,
            fieldLocations: fieldLocations))
    }

    static func elementName(_ field: Field) -> String {
        switch field {
        case .productID: "product_id"
        case .referenceName: "reference_name"
        case .type: "type"
        case .duration: "duration"
        case .clearedForSale: "cleared_for_sale"
        case .tier, .intervalTier: "wholesale_price_tier"
        case .intervalStart: "start_date"
        case .intervalEnd: "end_date"
        }
    }
}
