import CatalogCore

extension Offer {
    /// The offer with its and its phases' locations removed, so offers read from different files compare whole.
    public var unlocated: Offer {
        var copy = self
        copy.location = nil
        copy.phases = phases.map {
            var phase = $0
            phase.location = nil
            return phase
        }
        return copy
    }
}

extension BillingPlan {
    /// The plan without its location, so plans read from different files compare whole.
    public var unlocated: BillingPlan {
        var copy = self
        copy.location = nil
        return copy
    }
}
