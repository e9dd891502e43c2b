import CatalogCore

/// What of a product's offers, billing plans and purchase options the config form (DESIGN.md §4a) holds, in the
/// order both exporters write them, and what it cannot hold as note text (written as comments in YAML, as
/// `otherOffers` in JSON): a reader never loses silently what the source said.
enum OfferExport {
    /// The offers to write, sorted by ID (the config's key), then kind and purchase option; the config keys offers
    /// by ID, so of two offers with one ID (a promotional and a win-back `RETURN`) the first is written and the
    /// other noted. An offer without terms (no phase) cannot be written either.
    static func offers(of product: Product) -> (written: [Offer], notes: [String]) {
        guard let offers = product.offers else { return ([], []) }
        let sorted = offers.sorted {
            ($0.id, $0.kind, $0.purchaseOption ?? "") < ($1.id, $1.kind, $1.purchaseOption ?? "")
        }
        var written: [Offer] = []
        var notes: [String] = []
        for offer in sorted {
            if written.last?.id == offer.id {
                notes.append("\(offer.key): its ID is also the key of another offer; not exported")
            } else if offer.phases.isEmpty {
                notes.append("\(offer.key): the source states no terms; not exported")
            } else {
                written.append(offer)
            }
        }
        return (written, notes)
    }

    /// The monthly plans to write; the upfront plan (the subscription's own price), a disabled plan and a plan
    /// without prices are noted, as are StoreKit's commitment prices (checked by a lint rule, never configured).
    static func billingPlans(of product: Product) -> (written: [BillingPlan], notes: [String]) {
        guard let plans = product.billingPlans else { return ([], []) }
        var written: [BillingPlan] = []
        var notes: [String] = []
        for plan in plans.sorted(by: { $0.type < $1.type }) {
            let prices = plan.prices.listedByTerritory.joined(separator: ", ")
            switch (plan.type, plan.isEnabled) {
            case (.upfront, _):
                notes.append("upfront billing plan (the subscription's own price): \(prices)")
            case (.monthly, false?):
                notes.append("monthly billing plan, disabled in the source: \(prices)")
            case (.monthly, _) where plan.prices.isEmpty:
                notes.append("monthly billing plan without prices in the source; not exported")
            case (.monthly, _):
                if written.contains(where: { $0.type == .monthly }) {
                    notes.append("another monthly billing plan: \(prices)")
                } else {
                    written.append(plan)
                }
            }
            for (territory, money) in plan.commitmentPrices.sorted(by: { $0.key < $1.key }) {
                notes.append("\(plan.type.rawValue) billing plan commitment: \(territory.alpha2) \(money)")
            }
        }
        return (written, notes)
    }

    /// The purchase options to write, sorted by ID; the legacy-compatible buy option is the product's own prices
    /// (§4a), so one listed here is noted instead.
    static func purchaseOptions(of product: Product) -> (written: [PurchaseOption], notes: [String]) {
        guard let options = product.purchaseOptions else { return ([], []) }
        var written: [PurchaseOption] = []
        var notes: [String] = []
        for option in options.sorted(by: { $0.id < $1.id }) {
            if case .buy(legacyCompatible: true) = option.kind {
                notes.append("\(option.id): the legacy-compatible buy option (the product's prices); not exported")
            } else if written.last?.id == option.id {
                notes.append("\(option.id): listed again in the source; not exported")
            } else {
                written.append(option)
            }
        }
        return (written, notes)
    }

    /// How a phase states what is paid, as the config writes it: one of `price` (the base territory), `prices`,
    /// `discount`, `discounts`. A phase the source gives several of (it never should) keeps the first and notes
    /// the others.
    enum Terms {
        case price(Money)
        case prices([Territory: Money])
        case discount(OfferDiscount)
        case discounts([Territory: OfferDiscount])
    }

    /// The terms of a phase to write, and the ones it cannot hold besides them as note text.
    static func terms(of phase: OfferPhase) -> (terms: Terms?, notes: [String]) {
        var all: [Terms] = []
        // A free trial costs nothing and the config refuses a price on one (§5a.15): a store's price there (which
        // `offer-free-with-price` reports about the store itself) is noted, never written as the config's.
        if phase.mode == .freeTrial {
            var notes: [String] = []
            if let price = phase.basePrice { notes.append("a free trial priced in the source: \(text(of: .price(price)))") }
            if !phase.prices.isEmpty {
                notes.append("a free trial priced in the source: \(text(of: .prices(phase.prices)))")
            }
            return (nil, notes)
        }
        if let price = phase.basePrice { all.append(.price(price)) }
        if !phase.prices.isEmpty { all.append(.prices(phase.prices)) }
        if let discount = phase.discount { all.append(.discount(discount)) }
        if !phase.discounts.isEmpty { all.append(.discounts(phase.discounts)) }
        let notes = all.dropFirst().map { "also in the source: \(text(of: $0))" }
        return (all.first, notes)
    }

    /// A discount as the config writes it: `50%`, `1.00 USD`.
    static func text(of discount: OfferDiscount) -> String {
        switch discount {
        case .percent(let value): "\(Money.format(value))%"
        case .amount(let money): money.description
        }
    }

    private static func text(of terms: Terms) -> String {
        switch terms {
        case .price(let money): "price \(money)"
        case .prices(let prices):
            "prices " + prices.listedByTerritory.joined(separator: ", ")
        case .discount(let discount): "discount \(text(of: discount))"
        case .discounts(let discounts):
            "discounts " + discounts.sorted { $0.key < $1.key }.map { "\($0.key.alpha2) \(text(of: $0.value))" }
                .joined(separator: ", ")
        }
    }

    /// The note for an offer's store state when it is not simply active or inactive (`DRAFT`).
    static func stateNote(of offer: Offer) -> String? {
        guard offer.isActive == false, let state = offer.stateText, state.uppercased() != "INACTIVE" else {
            return nil
        }
        return "\(offer.key): state in the source: \(state)"
    }
}

extension CatalogYAMLExporter {
    /// Writes a product's `offers`, `billingPlans` and `purchaseOptions` (nil in the model: the key is left out;
    /// empty: `{}`, which says the product has none).
    func writeOffers(of product: Product, to out: inout YAMLLines) {
        if product.offers != nil {
            let (offers, notes) = OfferExport.offers(of: product)
            out.line(offers.isEmpty ? "    offers: {}" : "    offers:")
            for note in notes { out.comment(note, indent: 6) }
            for offer in offers { write(offer, to: &out) }
        }
        if product.billingPlans != nil {
            let (plans, notes) = OfferExport.billingPlans(of: product)
            out.line(plans.isEmpty ? "    billingPlans: {}" : "    billingPlans:")
            for note in notes { out.comment(note, indent: 6) }
            for plan in plans {
                out.line("      \(plan.type.rawValue):")
                writePrices(plan.prices, key: "prices", indent: 8, to: &out)
            }
        }
        if product.purchaseOptions != nil {
            let (options, notes) = OfferExport.purchaseOptions(of: product)
            out.line(options.isEmpty ? "    purchaseOptions: {}" : "    purchaseOptions:")
            for note in notes { out.comment(note, indent: 6) }
            for option in options {
                out.key(option.id, indent: 6)
                switch option.kind {
                case .buy:
                    out.line("        buy: true")
                case .rent(let period, let expiration):
                    out.line("        rent: \(period)")
                    if let expiration { out.line("        expiration: \(expiration)") }
                }
                if option.isActive == false { out.line("        state: inactive") }
                writePrices(option.prices, key: "prices", indent: 8, to: &out)
            }
        }
    }

    private func write(_ offer: Offer, to out: inout YAMLLines) {
        out.key(offer.id, indent: 6)
        out.line("        kind: \(offer.kind.rawValue)")
        if let option = offer.purchaseOption {
            out.line("        purchaseOption: \(YAMLEscaper.scalar(option))")
        }
        if offer.isActive == false {
            out.line("        state: inactive")
        }
        if let note = OfferExport.stateNote(of: offer) { out.comment(note, indent: 8) }
        if offer.phases.count == 1, let phase = offer.phases.first {
            write(phase, indent: 8, to: &out)
        } else {
            out.line("        phases:")
            for phase in offer.phases {
                // A list item: the phase's keys two further in, the first behind the `- `.
                var item = YAMLLines()
                write(phase, indent: 12, to: &item)
                var first = true
                for line in item.text.split(separator: "\n", omittingEmptySubsequences: false) where !line.isEmpty {
                    out.line(first ? "          - " + line.dropFirst(12) : String(line))
                    first = false
                }
            }
        }
        if let eligibility = offer.eligibility {
            write(eligibility, to: &out)
        }
        if let window = offer.window, window.start != nil || window.end != nil {
            out.line("        window:")
            if let start = window.start { out.line("          start: \(YAMLEscaper.scalar(start))") }
            if let end = window.end { out.line("          end: \(YAMLEscaper.scalar(end))") }
        }
    }

    private func write(_ phase: OfferPhase, indent: Int, to out: inout YAMLLines) {
        let pad = String(repeating: " ", count: indent)
        if let mode = phase.mode { out.line(pad + "mode: \(mode.rawValue)") }
        if let period = phase.period { out.line(pad + "period: \(period)") }
        if let periods = phase.periods, periods != 1 { out.line(pad + "periods: \(periods)") }
        let (terms, notes) = OfferExport.terms(of: phase)
        switch terms {
        case .price(let money)?:
            out.line(pad + "price: \(YAMLEscaper.scalar(money.description))")
        case .prices(let prices)?:
            writePrices(prices, key: "prices", indent: indent, to: &out)
        case .discount(let discount)?:
            out.line(pad + "discount: \(YAMLEscaper.scalar(OfferExport.text(of: discount)))")
        case .discounts(let discounts)?:
            out.line(pad + "discounts:")
            for (territory, discount) in discounts.sorted(by: { $0.key < $1.key }) {
                out.line(pad + "  \(territory.alpha2): \(YAMLEscaper.scalar(OfferExport.text(of: discount)))")
            }
        case nil:
            break
        }
        for note in notes { out.comment(note, indent: indent) }
    }

    private func write(_ eligibility: OfferEligibility, to out: inout YAMLLines) {
        var lines: [String] = []
        if let customers = eligibility.customers, !customers.isEmpty {
            lines.append("customers: [\(customers.sorted().map(YAMLEscaper.scalar).joined(separator: ", "))]")
        }
        if let stackable = eligibility.stackable { lines.append("stackable: \(stackable)") }
        if let paidMonths = eligibility.paidMonths { lines.append("paidMonths: \(paidMonths)") }
        if let lapsed = eligibility.lapsedMonths {
            lines.append("lapsedMonths: [\(lapsed.lowerBound), \(lapsed.upperBound)]")
        }
        if let waitMonths = eligibility.waitMonths { lines.append("waitMonths: \(waitMonths)") }
        if let rule = eligibility.rule { lines.append("rule: \(rule.rawValue)") }
        switch eligibility.scope {
        case .thisSubscription?: lines.append("scope: this-subscription")
        case .anySubscription?: lines.append("scope: any-subscription")
        case .specific(let ids)?:
            lines.append("scope:")
            lines.append("  specific:")
            lines += ids.map { "    - \(YAMLEscaper.scalar($0))" }
        case nil: break
        }
        if let oncePerUser = eligibility.oncePerUser { lines.append("oncePerUser: \(oncePerUser)") }
        guard !lines.isEmpty else { return }
        out.line("        eligibility:")
        for line in lines { out.line("          " + line) }
    }

    private func writePrices(_ prices: [Territory: Money], key: String, indent: Int, to out: inout YAMLLines) {
        guard !prices.isEmpty else { return }
        let pad = String(repeating: " ", count: indent)
        out.line(pad + "\(key):")
        for (territory, money) in prices.sorted(by: { $0.key < $1.key }) {
            out.line(pad + "  \(territory.alpha2): \(YAMLEscaper.scalar(money.description))")
        }
    }
}

extension CatalogJSONExporter {
    /// `billingPlans`, in the product's sorted key order (before `clearedForSale`).
    func writeBillingPlans(of product: Product, to json: inout PrettyJSONWriter) {
        guard product.billingPlans != nil else { return }
        let (plans, _) = OfferExport.billingPlans(of: product)
        json.key("billingPlans")
        json.beginObject()
        for plan in plans {
            json.key(plan.type.rawValue)
            json.beginObject()
            json.member("prices", byTerritory: plan.prices)
            json.endObject()
        }
        json.endObject()
    }

    /// `offers` (after `name`), in the §4a shape keyed by offer ID.
    func writeOffers(of product: Product, to json: inout PrettyJSONWriter) {
        guard product.offers != nil else { return }
        let (offers, _) = OfferExport.offers(of: product)
        json.key("offers")
        json.beginObject()
        for offer in offers {
            json.key(offer.id)
            json.beginObject()
            let single = offer.phases.count == 1 ? offer.phases.first : nil
            if let single { writeTerms(of: single, discountsOnly: true, to: &json) }
            if let eligibility = offer.eligibility { write(eligibility, to: &json) }
            json.member("kind", offer.kind.rawValue)
            if let single { writeShape(of: single, to: &json) }
            if single == nil {
                json.key("phases")
                json.beginArray()
                for phase in offer.phases {
                    json.beginObject()
                    writeTerms(of: phase, discountsOnly: true, to: &json)
                    writeShape(of: phase, to: &json)
                    writeTerms(of: phase, discountsOnly: false, to: &json)
                    json.endObject()
                }
                json.endArray()
            }
            if let single { writeTerms(of: single, discountsOnly: false, to: &json) }
            json.member("purchaseOption", offer.purchaseOption)
            json.member("state", offer.isActive == false ? "inactive" : nil)
            if let window = offer.window, window.start != nil || window.end != nil {
                json.key("window")
                json.beginObject()
                json.member("end", window.end)
                json.member("start", window.start)
                json.endObject()
            }
            json.endObject()
        }
        json.endObject()
    }

    /// `otherOffers`: what the config form of the offers, billing plans and purchase options cannot hold.
    func otherOffers(of product: Product) -> [String]? {
        let notes = OfferExport.offers(of: product).notes + OfferExport.billingPlans(of: product).notes
            + OfferExport.purchaseOptions(of: product).notes
            + (product.offers ?? []).compactMap(OfferExport.stateNote(of:))
            + (product.offers ?? []).flatMap { offer in
                offer.phases.flatMap { OfferExport.terms(of: $0).notes.map { "\(offer.key): \($0)" } }
            }
        return notes.isEmpty ? nil : notes
    }

    /// `purchaseOptions` (after `prices`), keyed by purchase option ID.
    func writePurchaseOptions(of product: Product, to json: inout PrettyJSONWriter) {
        guard product.purchaseOptions != nil else { return }
        let (options, _) = OfferExport.purchaseOptions(of: product)
        json.key("purchaseOptions")
        json.beginObject()
        for option in options {
            json.key(option.id)
            json.beginObject()
            switch option.kind {
            case .buy:
                json.member("buy", true)
                json.member("prices", byTerritory: option.prices)
            case .rent(let period, let expiration):
                json.member("expiration", expiration?.description)
                json.member("prices", byTerritory: option.prices)
                json.member("rent", period.description)
            }
            json.member("state", option.isActive == false ? "inactive" : nil)
            json.endObject()
        }
        json.endObject()
    }

    /// `mode`, `period`, `periods` of a phase (between `kind` and `phases`/`price` in sorted order).
    private func writeShape(of phase: OfferPhase, to json: inout PrettyJSONWriter) {
        json.member("mode", phase.mode?.rawValue)
        json.member("period", phase.period?.description)
        json.member("periods", phase.periods.flatMap { $0 == 1 ? nil : $0 })
    }

    /// A phase's terms: `discount`/`discounts` (sorted first) or `price`/`prices` (sorted after `periods`).
    private func writeTerms(of phase: OfferPhase, discountsOnly: Bool, to json: inout PrettyJSONWriter) {
        switch OfferExport.terms(of: phase).terms {
        case .discount(let discount)? where discountsOnly:
            json.member("discount", OfferExport.text(of: discount))
        case .discounts(let discounts)? where discountsOnly:
            json.member("discounts", byTerritory: discounts, OfferExport.text(of:))
        case .price(let money)? where !discountsOnly:
            json.member("price", money)
        case .prices(let prices)? where !discountsOnly:
            json.member("prices", byTerritory: prices)
        default:
            break
        }
    }

    private func write(_ eligibility: OfferEligibility, to json: inout PrettyJSONWriter) {
        json.key("eligibility")
        json.beginObject()
        json.member("customers", eligibility.customers.map { $0.sorted() })
        if let lapsed = eligibility.lapsedMonths {
            json.key("lapsedMonths")
            json.beginArray()
            json.int(lapsed.lowerBound)
            json.int(lapsed.upperBound)
            json.endArray()
        }
        json.member("oncePerUser", eligibility.oncePerUser)
        json.member("paidMonths", eligibility.paidMonths)
        json.member("rule", eligibility.rule?.rawValue)
        switch eligibility.scope {
        case .thisSubscription?: json.member("scope", "this-subscription")
        case .anySubscription?: json.member("scope", "any-subscription")
        case .specific(let ids)?:
            json.key("scope")
            json.beginObject()
            json.member("specific", ids)
            json.endObject()
        case nil: break
        }
        json.member("stackable", eligibility.stackable)
        json.member("waitMonths", eligibility.waitMonths)
        json.endObject()
    }
}
