import CatalogCore
import Foundation

/// The config's offers, billing plans and purchase options (DESIGN.md §4a, §5a.15), read into the model with the
/// same care as the rest of a product: every problem is recorded at its value, with the key path, and reading goes
/// on with the next value.
///
/// What an offer may say depends on its kind and on the product's type, so each offer is read in one of three
/// forms: a subscription offer (App Store promotional, offer-code and win-back offers, Play subscription offers:
/// mode, period, periods and a price or, on Play, a discount; Play offers may list up to two `phases`), an App
/// Store offer code for an in-app purchase (a price and the customers, no mode or period), and a Play one-time
/// product's offer (a discount on one of its purchase options, nothing else).
extension ConfigValidator {
    static let offerKeys = ["kind", "state", "purchaseOption", "mode", "period", "periods", "price", "prices",
                            "discount", "discounts", "phases", "eligibility", "window"]
    static let phaseKeys = ["mode", "period", "periods", "price", "prices", "discount", "discounts"]
    static let windowKeys = ["start", "end"]
    static let purchaseOptionKeys = ["buy", "rent", "expiration", "state", "prices"]
    static let billingPlanKeys = ["prices"]
    static let offerKinds = "promotional, offer-code, win-back or play"
    static let offerModes = "free-trial, pay-as-you-go or pay-up-front"
    static let discountHelp = "a percentage strictly between 0 and 100, like 50%, or an amount, like 1.00 USD"

    /// How an offer is written, from its kind and the product's type.
    enum OfferForm {
        /// Mode, period, periods, a price (App Store) or a price or discount (Play), maybe in `phases` (Play).
        case subscription
        /// An App Store offer code on a consumable or non-consumable: prices and customers only.
        case inAppPurchaseCode
        /// A Play one-time product's offer: a discount on a purchase option.
        case oneTime

        /// The keys of the offer's mapping this form does not take, with why, for messages.
        func refuses(_ key: String, kind: Offer.Kind) -> String? {
            switch self {
            case .subscription:
                switch key {
                case "purchaseOption", "window": return "only a one-time product's Play offer has a \(key)"
                case "phases" where kind != .play, "discount" where kind != .play, "discounts" where kind != .play:
                    return "only Play offers have \(key == "phases" ? "phases" : "discounts")"
                        + " (an App Store offer states its price)"
                default: return nil
                }
            case .inAppPurchaseCode:
                switch key {
                case "mode", "period", "periods":
                    return "an offer code for an in-app purchase has no \(key) (it states a price)"
                case "phases", "discount", "discounts", "purchaseOption", "window":
                    return "an offer code for an in-app purchase has no \(key)"
                default: return nil
                }
            case .oneTime:
                switch key {
                case "mode", "period", "periods", "price", "prices", "phases":
                    return "a one-time product's offer has no \(key) (it carries a discount only)"
                default: return nil
                }
            }
        }
    }

    // MARK: - Offers

    /// The `offers:` mapping of a product of type `productKind`: offer IDs to offers. Each offer's problems are
    /// recorded; an offer with one is left out.
    func offers(_ node: ConfigNode, path: ConfigPath, productKind: ProductKind,
                fieldLocations: inout [ProductField: SourceLocation]) throws(CatalogReadError) -> [Offer] {
        if node.isNull { return [] }
        guard let entries = node.entries else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a mapping of offer IDs to offers (e.g. spring_promo: {kind: …})",
                at: node.location)
        }
        let offers = keyedItems(entries, path: path, naming: "an offer ID") { entry, offerPath throws(CatalogReadError) in
            try offer(entry, path: offerPath, productKind: productKind)
        }
        for offer in offers {
            if let location = offer.location { fieldLocations[offer.key.field] = location }
        }
        return offers
    }

    /// The items of a mapping keyed by store IDs (offers, purchase options), each read by `read`: an empty key and
    /// each item's problem are recorded, and the item left out (as when `read` gives nil).
    private func keyedItems<Item>(
        _ entries: [ConfigEntry], path: ConfigPath, naming what: String,
        read: (ConfigEntry, ConfigPath) throws(CatalogReadError) -> Item?
    ) -> [Item] {
        var items: [Item] = []
        for entry in entries {
            guard !entry.key.isEmpty else {
                problems.add(CatalogReadError("\(path): \(what) must not be empty", at: entry.keyLocation))
                continue
            }
            if let item = problems.recording({ () throws(CatalogReadError) in
                try read(entry, path.appending(key: entry.key))
            }), let item {
                items.append(item)
            }
        }
        return items
    }

    /// One offer; nil when it has a problem (recorded, or thrown when it is the only one worth telling).
    private func offer(_ entry: ConfigEntry, path: ConfigPath,
                       productKind: ProductKind) throws(CatalogReadError) -> Offer? {
        let node = entry.value
        let fields = try mapping(node, path: path, allowed: ConfigValidator.offerKeys)
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }
        guard let kindEntry = field("kind") else {
            if !misspells("kind", in: fields, allowed: ConfigValidator.offerKeys) {
                throw CatalogReadError("\(path): missing \"kind\" (\(ConfigValidator.offerKinds))",
                                       at: entry.keyLocation)
            }
            return nil
        }
        let kindPath = path.appending(key: "kind")
        let kindText = try string(kindEntry.value, path: kindPath)
        guard let kind = Offer.Kind(rawValue: kindText) else {
            var message = "\(kindPath): \(ConfigScalar.quote(kindText)) is not an offer kind"
            if let suggestion = nearest(kindText, in: Offer.Kind.allCases.map(\.rawValue)) {
                message += "; did you mean \"\(suggestion)\"?"
            } else {
                message += " (\(ConfigValidator.offerKinds))"
            }
            throw CatalogReadError(message, at: kindEntry.value.location)
        }
        // Judged first: the rest of an offer that cannot be on this product would only add noise.
        let form = try offerForm(kind, productKind: productKind, at: kindEntry.value.location, path: kindPath)

        var refused = false
        for field in fields {
            if let reason = form.refuses(field.key, kind: kind) {
                problems.add(CatalogReadError("\(path.appending(key: field.key)): \(reason)", at: field.keyLocation))
                refused = true
            }
        }
        var offer = Offer(kind: kind, id: entry.key, phases: [], isActive: true, location: entry.keyLocation)
        var valid = !refused

        if let stateEntry = field("state") {
            if let active = problems.recording({ () throws(CatalogReadError) in
                try state(stateEntry.value, path: path.appending(key: "state"))
            }) {
                offer.isActive = active
            } else {
                valid = false
            }
        }

        switch form {
        case .subscription:
            if let phasesEntry = field("phases"), kind == .play {
                if let shorthand = fields.first(where: { ConfigValidator.phaseKeys.contains($0.key) }) {
                    problems.add(CatalogReadError(
                        "\(path.appending(key: shorthand.key)): use either phases or one phase's "
                            + "mode, period, periods, price, prices, discount (phases is at line "
                            + "\(phasesEntry.keyLocation.line ?? 0), column \(phasesEntry.keyLocation.column ?? 0))",
                        at: shorthand.keyLocation))
                    valid = false
                }
                if let phases = problems.recording({ () throws(CatalogReadError) in
                    try self.phases(phasesEntry.value, path: path.appending(key: "phases"))
                }), let phases {
                    offer.phases = phases
                } else {
                    valid = false
                }
            } else if !refused {
                if let phase = phase(fields, path: path, at: node.location, form: form, kind: kind) {
                    offer.phases = [phase]
                } else {
                    valid = false
                }
            }
        case .inAppPurchaseCode, .oneTime:
            if !refused {
                if let phase = phase(fields, path: path, at: node.location, form: form, kind: kind) {
                    offer.phases = [phase]
                } else {
                    valid = false
                }
            }
        }

        if form == .oneTime {
            if let optionEntry = field("purchaseOption") {
                let optionPath = path.appending(key: "purchaseOption")
                if let option = problems.recording({ () throws(CatalogReadError) in
                    try nonEmptyString(optionEntry.value, path: optionPath)
                }) {
                    offer.purchaseOption = option
                } else {
                    valid = false
                }
            } else if !misspells("purchaseOption", in: fields, allowed: ConfigValidator.offerKeys) {
                problems.add(CatalogReadError(
                    "\(path): missing \"purchaseOption\" (the purchaseOptionId the offer discounts, e.g. buy)",
                    at: entry.keyLocation))
                valid = false
            }
            if let windowEntry = field("window") {
                if let window = problems.recording({ () throws(CatalogReadError) in
                    try self.window(windowEntry.value, path: path.appending(key: "window"))
                }) {
                    offer.window = window
                } else {
                    valid = false
                }
            }
        }

        if let eligibilityEntry = field("eligibility") {
            if let eligibility = problems.recording({ () throws(CatalogReadError) in
                try self.eligibility(eligibilityEntry, path: path.appending(key: "eligibility"), kind: kind,
                                     form: form)
            }), let eligibility {
                offer.eligibility = eligibility
            } else {
                valid = false
            }
        }
        return valid ? offer : nil
    }

    /// The form an offer of `kind` takes on a product of `productKind`, or the problem at the kind's value when
    /// the product cannot have such an offer (§5a.15).
    private func offerForm(_ kind: Offer.Kind, productKind: ProductKind, at location: SourceLocation,
                           path: ConfigPath) throws(CatalogReadError) -> OfferForm {
        switch (kind, productKind) {
        case (.promotional, .autoRenewable), (.winBack, .autoRenewable), (.offerCode, .autoRenewable),
             (.play, .autoRenewable):
            return .subscription
        case (.offerCode, .consumable), (.offerCode, .nonConsumable):
            // App Store Connect API 4.2: `inAppPurchaseOfferCodes` for consumables and non-consumables.
            return .inAppPurchaseCode
        case (.play, .oneTime), (.play, .consumable), (.play, .nonConsumable):
            // A config product typed consumable or non-consumable also stands for a Play one-time product (§4).
            return .oneTime
        case (.promotional, _), (.winBack, _):
            throw CatalogReadError(
                "\(path): a \(kind.rawValue) offer belongs to an auto-renewable subscription "
                    + "(type is \(productKind.rawValue))",
                at: location)
        case (.offerCode, _):
            throw CatalogReadError(
                "\(path): an offer code belongs to an auto-renewable subscription, a consumable or a "
                    + "non-consumable (type is \(productKind.rawValue))",
                at: location)
        case (.play, _):
            throw CatalogReadError(
                "\(path): a Play offer belongs to an auto-renewable base plan or a one-time product "
                    + "(type is \(productKind.rawValue))",
                at: location)
        }
    }

    /// `phases:` of a Play subscription offer: one or two phases, in order (Google: "An offer can have up to two
    /// phases"). Every problem of every phase is recorded; a third phase is reported at itself.
    private func phases(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> [OfferPhase]? {
        guard let elements = node.elements else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a list of phases (e.g. - { mode: free-trial, period: P7D })",
                at: node.location)
        }
        guard !elements.isEmpty else {
            throw CatalogReadError("\(path): lists no phase (an offer has one or two)", at: node.location)
        }
        var phases: [OfferPhase] = []
        var valid = true
        for (index, element) in elements.enumerated() {
            let elementPath = path.appending(index: index)
            if index == Offer.maximumPhases {
                problems.add(CatalogReadError(
                    "\(elementPath): an offer has at most \(Offer.maximumPhases) phases "
                        + "(this list has \(elements.count))",
                    at: element.location))
                valid = false
                break
            }
            guard let fields = problems.recording({ () throws(CatalogReadError) in
                try mapping(element, path: elementPath, allowed: ConfigValidator.phaseKeys)
            }) else {
                valid = false
                continue
            }
            if let phase = phase(fields, path: elementPath, at: element.location, form: .subscription, kind: .play) {
                phases.append(phase)
            } else {
                valid = false
            }
        }
        return valid ? phases : nil
    }

    /// One phase from `fields` (an offer's own keys, or a `phases` element): each problem is recorded, and nil is
    /// returned when there is one. Unknown keys were reported by the caller's `mapping`.
    private func phase(_ fields: [ConfigEntry], path: ConfigPath, at location: SourceLocation, form: OfferForm,
                       kind: Offer.Kind) -> OfferPhase? {
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }
        var phase = OfferPhase(location: location)
        var valid = true
        func record<Value>(_ body: () throws(CatalogReadError) -> Value) -> Value? {
            let value = problems.recording(body)
            if value == nil { valid = false }
            return value
        }

        if form == .subscription {
            if let modeEntry = field("mode") {
                phase.mode = record { () throws(CatalogReadError) in
                    let modePath = path.appending(key: "mode")
                    let text = try string(modeEntry.value, path: modePath)
                    guard let mode = IntroOffer.Mode(rawValue: text) else {
                        throw CatalogReadError(
                            "\(modePath): \(ConfigScalar.quote(text)) is not an offer mode "
                                + "(\(ConfigValidator.offerModes))",
                            at: modeEntry.value.location)
                    }
                    return mode
                }
            } else if kind != .play {
                // A Play phase may leave its mode out: its terms (free, a price, a discount) say what is paid.
                if !misspells("mode", in: fields, allowed: ConfigValidator.phaseKeys) {
                    problems.add(CatalogReadError("\(path): missing \"mode\" (\(ConfigValidator.offerModes))",
                                                  at: location))
                }
                valid = false
            }
            if let periodEntry = field("period") {
                phase.period = record { () throws(CatalogReadError) in
                    try self.period(periodEntry.value, path: path.appending(key: "period"))
                }
            } else {
                if !misspells("period", in: fields, allowed: ConfigValidator.phaseKeys) {
                    problems.add(CatalogReadError("\(path): missing \"period\" (one period's duration, e.g. P1M)",
                                                  at: location))
                }
                valid = false
            }
            phase.periods = 1
            if let periodsEntry = field("periods") {
                if let count = periodsEntry.value.scalar?.int, count >= 1, count <= IntroOffer.maximumPeriods {
                    phase.periods = count
                } else {
                    problems.add(CatalogReadError(
                        "\(path.appending(key: "periods")): \(periodsEntry.value.quoted) is not a number of "
                            + "periods (a whole number, at least 1)",
                        at: periodsEntry.value.location))
                    valid = false
                }
            }
        }

        // A phase states what is paid one way: a price in the base territory, prices, a discount or discounts.
        let terms = fields.filter { ["price", "prices", "discount", "discounts"].contains($0.key) }
        if terms.count > 1, let first = terms.first {
            for extra in terms.dropFirst() {
                problems.add(CatalogReadError(
                    "\(path.appending(key: extra.key)): use only one of price, prices, discount and discounts "
                        + "(\(first.key) is at line \(first.keyLocation.line ?? 0), column "
                        + "\(first.keyLocation.column ?? 0))",
                    at: extra.keyLocation))
            }
            return nil
        }
        if let term = terms.first {
            let termPath = path.appending(key: term.key)
            if phase.mode == .freeTrial {
                let what = term.key.hasPrefix("discount") ? "discount" : "price"
                problems.add(CatalogReadError("\(termPath): a free trial has no \(what)", at: term.value.location))
                return nil
            }
            switch term.key {
            case "price":
                phase.basePrice = record { () throws(CatalogReadError) in try money(term.value, path: termPath) }
            case "prices":
                phase.prices = record { () throws(CatalogReadError) in
                    try prices(term, path: termPath, baseTerritory: .unitedStates).mapValues(\.money)
                } ?? [:]
            case "discount":
                phase.discount = record { () throws(CatalogReadError) in try discount(term.value, path: termPath) }
            default:
                phase.discounts = record { () throws(CatalogReadError) in try discounts(term.value, path: termPath) }
                    ?? [:]
            }
        } else if form == .oneTime {
            problems.add(CatalogReadError(
                "\(path): missing \"discount\" (\(ConfigValidator.discountHelp), or \"discounts\" per territory)",
                at: location))
            return nil
        }
        return valid ? phase : nil
    }

    /// A discount: `50%` (strictly between 0 and 100: Google's `relativeDiscount` is "a fraction strictly larger
    /// than 0 and strictly smaller than 1", androidpublisher v3 RegionalSubscriptionOfferPhaseConfig) or an
    /// amount off (`1.00 USD`).
    func discount(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> OfferDiscount {
        if let scalar = node.scalar, let text = scalar.string, text.hasSuffix("%") {
            let number = text.dropLast()
            guard let value = Money.parseAmount(number) else {
                throw CatalogReadError(
                    "\(path): \(scalar.quoted) is not a discount (\(ConfigValidator.discountHelp))", at: node.location)
            }
            guard value > 0, value < 100 else {
                throw CatalogReadError(
                    "\(path): \(scalar.quoted) is outside 0–100 % (a percentage strictly between 0 and 100, "
                        + "like 50%)",
                    at: node.location)
            }
            return .percent(value)
        }
        if let scalar = node.scalar,
           scalar.kind == .number || (scalar.kind == .plain && Money.parseAmount(scalar.text) != nil) {
            throw CatalogReadError(
                "\(path): \(scalar.quoted) needs % or a currency, e.g. \"\(scalar.text)%\" or \"\(scalar.text) USD\"",
                at: node.location)
        }
        return .amount(try money(node, path: path))
    }

    /// `discounts:` per territory (a Play offer whose discount differs by region, or is an amount in each
    /// region's currency).
    private func discounts(_ node: ConfigNode,
                           path: ConfigPath) throws(CatalogReadError) -> [Territory: OfferDiscount] {
        try territoryMapping(node, path: path, of: "discounts", example: "US: 50%", twice: "listed") {
            entry, entryPath throws(CatalogReadError) in try discount(entry.value, path: entryPath)
        }
    }

    /// `state: active | inactive`: whether the offer (or purchase option) is live.
    private func state(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> Bool {
        let text = try string(node, path: path)
        switch text {
        case "active": return true
        case "inactive": return false
        default:
            throw CatalogReadError("\(path): \(ConfigScalar.quote(text)) is not a state (active or inactive)",
                                   at: node.location)
        }
    }

    /// A one-time offer's `window: { start, end }`, each the store's RFC 3339 text.
    private func window(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> OfferWindow {
        let fields = try mapping(node, path: path, allowed: ConfigValidator.windowKeys)
        var window = OfferWindow()
        for field in fields {
            let fieldPath = path.appending(key: field.key)
            switch field.key {
            case "start": window.start = try nonEmptyString(field.value, path: fieldPath)
            case "end": window.end = try nonEmptyString(field.value, path: fieldPath)
            default: break
            }
        }
        return window
    }

    private func nonEmptyString(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> String {
        let text = try string(node, path: path)
        guard !text.isEmpty else { throw CatalogReadError("\(path): must not be empty", at: node.location) }
        return text
    }

    // MARK: - Eligibility

    /// The customer kinds an App Store offer code may name (ASC `customerEligibilities`, lower-case): subscriptions
    /// `NEW`, `EXISTING`, `EXPIRED`; in-app purchases (API 4.2) `NON_SPENDER`, `ACTIVE_SPENDER`, `CHURNED_SPENDER`.
    static let subscriptionCustomers = ["new", "existing", "expired"]
    static let inAppPurchaseCustomers = ["non-spender", "active-spender", "churned-spender"]

    /// `eligibility:`, whose keys depend on the kind: offer codes `customers` (and `stackable` on subscriptions),
    /// win-back offers `paidMonths`, `lapsedMonths: [min, max]`, `waitMonths`, Play offers `rule`, `scope`,
    /// `oncePerUser`. Promotional offers have none: the app decides who sees one. Each field's problem is
    /// recorded, and nil is returned when there is one.
    private func eligibility(_ entry: ConfigEntry, path: ConfigPath, kind: Offer.Kind,
                             form: OfferForm) throws(CatalogReadError) -> OfferEligibility? {
        let allowed: [String]
        switch (kind, form) {
        case (.promotional, _):
            throw CatalogReadError(
                "\(path): a promotional offer has no eligibility (the app decides whom to offer it)",
                at: entry.keyLocation)
        case (.offerCode, .inAppPurchaseCode): allowed = ["customers"]
        case (.offerCode, _): allowed = ["customers", "stackable"]
        case (.winBack, _): allowed = ["paidMonths", "lapsedMonths", "waitMonths"]
        case (.play, _): allowed = ["rule", "scope", "oncePerUser"]
        }
        let fields = try mapping(entry.value, path: path, allowed: allowed)
        var eligibility = OfferEligibility()
        var valid = true
        for field in fields where allowed.contains(field.key) {
            let fieldPath = path.appending(key: field.key)
            do throws(CatalogReadError) {
                switch field.key {
                case "customers":
                    let words = form == .inAppPurchaseCode ? ConfigValidator.inAppPurchaseCustomers
                        : ConfigValidator.subscriptionCustomers
                    let list = words.joined(separator: ", ")
                    let customers = try uniqueList(field.value, path: fieldPath, of: "customer kind",
                                                   "customer kinds", example: "[\(list)]") {
                        text, element, elementPath throws(CatalogReadError) in
                        guard words.contains(text) else {
                            throw CatalogReadError(
                                "\(elementPath): \(ConfigScalar.quote(text)) is not a customer kind (\(list))",
                                at: element.location)
                        }
                        return text
                    }
                    eligibility.customers = Set(customers)
                case "stackable":
                    eligibility.stackable = try bool(field.value, path: fieldPath)
                case "oncePerUser":
                    eligibility.oncePerUser = try bool(field.value, path: fieldPath)
                case "paidMonths":
                    eligibility.paidMonths = try months(field.value, path: fieldPath, least: 1)
                case "waitMonths":
                    eligibility.waitMonths = try months(field.value, path: fieldPath, least: 0)
                case "lapsedMonths":
                    eligibility.lapsedMonths = try monthRange(field.value, path: fieldPath)
                case "rule":
                    let text = try string(field.value, path: fieldPath)
                    guard let rule = OfferEligibility.PlayRule(rawValue: text) else {
                        throw CatalogReadError(
                            "\(fieldPath): \(ConfigScalar.quote(text)) is not a targeting rule (acquisition or upgrade)",
                            at: field.value.location)
                    }
                    eligibility.rule = rule
                case "scope":
                    eligibility.scope = try scope(field.value, path: fieldPath)
                default:
                    break
                }
            } catch {
                problems.add(error)
                valid = false
            }
        }
        return valid ? eligibility : nil
    }

    private func months(_ node: ConfigNode, path: ConfigPath, least: Int) throws(CatalogReadError) -> Int {
        guard let value = node.scalar?.int, value >= least, value <= 1200 else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a number of months (a whole number, at least \(least))",
                at: node.location)
        }
        return value
    }

    /// `[min, max]` months since the subscription lapsed.
    private func monthRange(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> ClosedRange<Int> {
        guard let elements = node.elements, elements.count == 2 else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a range of months (a list of two: [minimum, maximum], e.g. [1, 12])",
                at: node.location)
        }
        let minimum = try months(elements[0], path: path.appending(index: 0), least: 0)
        let maximum = try months(elements[1], path: path.appending(index: 1), least: 0)
        guard minimum <= maximum else {
            throw CatalogReadError("\(path): the minimum \(minimum) is greater than the maximum \(maximum)",
                                   at: node.location)
        }
        return minimum...maximum
    }

    /// A Play targeting scope: `this-subscription`, `any-subscription` or `{ specific: [ids] }`.
    private func scope(_ node: ConfigNode, path: ConfigPath) throws(CatalogReadError) -> OfferEligibility.PlayScope {
        let help = "this-subscription, any-subscription or { specific: [subscription IDs] }"
        if let entries = node.entries {
            guard entries.count == 1, let entry = entries.first, entry.key == "specific" else {
                throw CatalogReadError("\(path): \(node.quoted) is not a targeting scope (\(help))",
                                       at: node.location)
            }
            let ids = try uniqueList(entry.value, path: path.appending(key: "specific"), of: "subscription ID",
                                     "subscription IDs", example: "[premium]") {
                text, element, elementPath throws(CatalogReadError) in
                guard !text.isEmpty else {
                    throw CatalogReadError("\(elementPath): must not be empty", at: element.location)
                }
                return text
            }
            return .specific(ids)
        }
        let text = try string(node, path: path)
        switch text {
        case "this-subscription": return .thisSubscription
        case "any-subscription": return .anySubscription
        default:
            throw CatalogReadError("\(path): \(ConfigScalar.quote(text)) is not a targeting scope (\(help))",
                                   at: node.location)
        }
    }

    // MARK: - Billing plans and purchase options

    /// `billingPlans:` of an auto-renewable subscription: `monthly: { prices: … }`, the amount billed each month
    /// of the 12-month commitment. An empty mapping is allowed on any type (it states that there is none).
    func billingPlans(_ field: ConfigEntry, path: ConfigPath, productKind: ProductKind,
                      fieldLocations: inout [ProductField: SourceLocation]) throws(CatalogReadError) -> [BillingPlan] {
        let node = field.value
        if node.isNull { return [] }
        let keys = [BillingPlan.PlanType.monthly.rawValue]
        guard let entries = node.entries else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a mapping of billing plans (e.g. monthly: { prices: … })",
                at: node.location)
        }
        if !entries.isEmpty, productKind != .autoRenewable {
            throw CatalogReadError(
                "\(path): only auto-renewable subscriptions have billing plans (type is \(productKind.rawValue))",
                at: field.keyLocation)
        }
        checkKeys(entries, allowed: keys, path: path)
        var plans: [BillingPlan] = []
        for entry in entries where keys.contains(entry.key) {
            let planPath = path.appending(key: entry.key)
            guard let plan = problems.recording({ () throws(CatalogReadError) -> BillingPlan in
                let fields = try mapping(entry.value, path: planPath, allowed: ConfigValidator.billingPlanKeys)
                guard let pricesEntry = fields.first(where: { $0.key == "prices" }) else {
                    throw CatalogReadError("\(planPath): missing \"prices\" (the monthly amount per territory)",
                                           at: entry.keyLocation)
                }
                let prices = try prices(pricesEntry, path: planPath.appending(key: "prices"),
                                        baseTerritory: .unitedStates)
                return BillingPlan(type: .monthly, prices: prices.mapValues(\.money), location: entry.keyLocation)
            }) else { continue }
            fieldLocations[plan.field] = entry.keyLocation
            plans.append(plan)
        }
        return plans
    }

    /// `purchaseOptions:` of a Play one-time product: the options beyond the legacy-compatible buy option, keyed
    /// by `purchaseOptionId`: `{ rent: P30D, prices: … }` or `{ buy: true, prices: … }`.
    func purchaseOptions(_ field: ConfigEntry, path: ConfigPath, productKind: ProductKind,
                         fieldLocations: inout [ProductField: SourceLocation]) throws(CatalogReadError)
        -> [PurchaseOption] {
        let node = field.value
        if node.isNull { return [] }
        guard let entries = node.entries else {
            throw CatalogReadError(
                "\(path): \(node.quoted) is not a mapping of purchase option IDs to options "
                    + "(e.g. rent-30d: { rent: P30D, prices: … })",
                at: node.location)
        }
        let oneTimeKinds: Set<ProductKind> = [.oneTime, .consumable, .nonConsumable]
        if !entries.isEmpty, !oneTimeKinds.contains(productKind) {
            throw CatalogReadError(
                "\(path): only one-time products have purchase options (type is \(productKind.rawValue))",
                at: field.keyLocation)
        }
        let options = keyedItems(entries, path: path, naming: "a purchase option ID") {
            entry, optionPath throws(CatalogReadError) in
            try purchaseOption(entry, path: optionPath)
        }
        for option in options {
            if let location = option.location { fieldLocations[option.field] = location }
        }
        return options
    }

    /// One purchase option; nil when it has a problem (recorded).
    private func purchaseOption(_ entry: ConfigEntry, path: ConfigPath) throws(CatalogReadError) -> PurchaseOption? {
        let fields = try mapping(entry.value, path: path, allowed: ConfigValidator.purchaseOptionKeys)
        func field(_ key: String) -> ConfigEntry? { fields.first(where: { $0.key == key }) }
        let buy = field("buy")
        let rent = field("rent")
        var valid = true
        var kind: PurchaseOption.Kind?
        switch (buy, rent) {
        case (let buy?, let rent?):
            let buyFirst = (buy.keyLocation.line ?? 0, buy.keyLocation.column ?? 0)
                < (rent.keyLocation.line ?? 0, rent.keyLocation.column ?? 0)
            let first = buyFirst ? buy : rent
            let second = first.key == "buy" ? rent : buy
            throw CatalogReadError(
                "\(path.appending(key: second.key)): use only one of buy and rent (\(first.key) is at line "
                    + "\(first.keyLocation.line ?? 0), column \(first.keyLocation.column ?? 0))",
                at: second.keyLocation)
        case (let buy?, nil):
            let buyPath = path.appending(key: "buy")
            if let flag = problems.recording({ () throws(CatalogReadError) in try bool(buy.value, path: buyPath) }) {
                if flag {
                    kind = .buy(legacyCompatible: false)
                } else {
                    problems.add(CatalogReadError(
                        "\(buyPath): write buy: true for a buy option, or rent: <period> for a rental",
                        at: buy.value.location))
                }
            }
        case (nil, let rent?):
            let period = problems.recording { () throws(CatalogReadError) in
                try self.period(rent.value, path: path.appending(key: "rent"))
            }
            var expiration: SubscriptionPeriod?
            if let expirationEntry = field("expiration") {
                expiration = problems.recording { () throws(CatalogReadError) in
                    try self.period(expirationEntry.value, path: path.appending(key: "expiration"))
                }
                if expiration == nil { valid = false }
            }
            if let period { kind = .rent(period: period, expiration: expiration) }
        case (nil, nil):
            if !misspells("buy", in: fields, allowed: ConfigValidator.purchaseOptionKeys),
               !misspells("rent", in: fields, allowed: ConfigValidator.purchaseOptionKeys) {
                problems.add(CatalogReadError(
                    "\(path): missing \"buy: true\" or \"rent: <period>\" (e.g. rent: P30D)", at: entry.keyLocation))
            }
        }
        if buy != nil, let expirationEntry = field("expiration") {
            problems.add(CatalogReadError("\(path.appending(key: "expiration")): only a rental expires",
                                          at: expirationEntry.keyLocation))
            valid = false
        }
        var option = PurchaseOption(id: entry.key, kind: .buy(legacyCompatible: false), isActive: true,
                                    location: entry.keyLocation)
        if let stateEntry = field("state") {
            if let active = problems.recording({ () throws(CatalogReadError) in
                try state(stateEntry.value, path: path.appending(key: "state"))
            }) {
                option.isActive = active
            } else {
                valid = false
            }
        }
        if let pricesEntry = field("prices") {
            if let prices = problems.recording({ () throws(CatalogReadError) in
                try prices(pricesEntry, path: path.appending(key: "prices"), baseTerritory: .unitedStates)
            }) {
                option.prices = prices.mapValues(\.money)
            } else {
                valid = false
            }
        }
        guard let kind, valid else { return nil }
        option.kind = kind
        return option
    }
}
