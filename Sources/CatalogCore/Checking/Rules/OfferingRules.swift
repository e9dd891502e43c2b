/// A RevenueCat project's offerings (DESIGN.md §4b): `offering-product-not-in-project`, on the declared catalog on
/// its own, and `offering-product-missing-in-store`, which takes the place of `product-missing-in-store` for a
/// product the paywall offers.
enum OfferingRules {
    /// A package naming a product the project's product list lacks (archived or deleted), in any offering:
    /// targeting and placements can show any of them. Named by the package's store identifier.
    static func productsNotInProject(_ config: Catalog) -> [Finding] {
        guard let project = config.project else { return [] }
        var findings: [Finding] = []
        for offering in project.offerings {
            for package in offering.packages {
                for product in package.products where !product.inProject {
                    findings.append(Finding(
                        rule: .offeringProductNotInProject, productID: product.storeIdentifier.rawValue,
                        expected: product.productID,
                        message: "package '\(package.lookupKey)' of offering '\(offering.lookupKey)' names the "
                            + "product \(product.productID) ('\(product.storeIdentifier)'), which the project's "
                            + "product list lacks (archived or deleted)",
                        configLocation: product.location, store: nil))
                }
            }
        }
        return findings
    }

    /// The `product-missing-in-store` findings of products that a package of a checked offering uses (the current
    /// one, or every one with `allOfferings`) for the app paired with `store`, as `offering-product-missing-in-store`
    /// naming the offering and package; every other finding as it is.
    static func offered(_ findings: [Finding], config: Catalog, store: Catalog, allOfferings: Bool) -> [Finding] {
        guard let project = config.project, let kind = store.store else { return findings }
        let apps: Set<String>
        switch DeclaredPairing.app(in: project, for: store) {
        case .success(let app): apps = [app.id]
        case .failure: apps = Set(project.apps(of: kind).map(\.id))
        }
        var uses: [String: (offering: DeclaredOffering, package: DeclaredPackage)] = [:]
        for offering in project.offerings where offering.isCurrent || allOfferings {
            for package in offering.packages {
                for product in package.products where apps.contains(product.app) {
                    let key = product.storeIdentifier.rawValue
                    if uses[key] == nil { uses[key] = (offering, package) }
                }
            }
        }
        return findings.map { finding in
            guard finding.rule == .productMissingInStore, let id = finding.productID, let use = uses[id] else {
                return finding
            }
            var offered = finding
            offered.rule = .offeringProductMissingInStore
            offered.severity = Rule.offeringProductMissingInStore.defaultSeverity
            let current = use.offering.isCurrent ? "the current offering" : "the offering"
            offered.message = "is used by package '\(use.package.lookupKey)' of \(current) "
                + "'\(use.offering.lookupKey)' but is not in the store (\(store.path))"
            return offered
        }
    }
}
