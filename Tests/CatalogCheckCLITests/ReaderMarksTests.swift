import Foundation
import TestSupport
import Testing

/// The readers' side of "an input is what it claims to be" (DESIGN.md §2) and the real-file readings of
/// FORMATS.md, through the built binary: what used to pass or fail for the wrong reason.
@Suite("catalogcheck end to end: reader marks and real-file readings")
struct ReaderMarksTests {
    static let asOf = ["--as-of", "2026-11-22"]
    static let config = "catalogs/demo/products.yml"
    static let notStoreKit = "not a StoreKit configuration: the top-level object has none of the arrays "
        + "\"products\", \"nonRenewingSubscriptions\", \"subscriptionGroups\""

    /// Before: read as an empty StoreKit catalog, exit 1 with a "missing in store" finding per config product.
    @Test("a file without StoreKit's marks read as storekit exits 2 naming the keys found", arguments: [
        (["--store", "Tests/Fixtures/storekit/not-storekit/play-subscriptions.storekit"],
         "Tests/Fixtures/storekit/not-storekit/play-subscriptions.storekit:1:1: error: \(notStoreKit) "
            + "(keys found: \"subscriptions\")\n"),
        (["--store", "storekit:Tests/Fixtures/play/not-play/empty-object.json"],
         "Tests/Fixtures/play/not-play/empty-object.json:1:1: error: \(notStoreKit) (the object is empty)\n"),
        (["--store", "catalogs/demo/asc/subscription-groups.json", "--store-format", "storekit"],
         "catalogs/demo/asc/subscription-groups.json:1:1: error: \(notStoreKit) "
            + "(keys found: \"data\", \"included\", \"links\", \"meta\")\n"),
    ])
    func notStoreKitExits2(store: [String], stderr: String) throws {
        // Act
        let result = try CommandRunner.run(["check", "--config", Self.config] + store + Self.asOf)
        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == stderr)
    }

    /// The rule of every finding of a `--format json` run, in output order.
    static func rules(inJSON stdout: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        return findings.compactMap { $0["rule"] as? String }
    }

    /// Before: a single `{}` read as an empty Play catalog, exit 1.
    @Test("an empty object read as play-json exits 2")
    func emptyObjectIsNotPlay() throws {
        // Act
        let result = try CommandRunner.run(["check", "--config", Self.config, "--store",
                                            "play-json:Tests/Fixtures/play/not-play/empty-object.json"] + Self.asOf)
        // Assert
        #expect(result.exitCode == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr == "Tests/Fixtures/play/not-play/empty-object.json:1:1: error: not a Play Developer API "
            + "resource or list response: the object holds none of Play's keys (an empty list needs its \"kind\", "
            + "e.g. \"androidpublisher#inappproductsListResponse\")\n")
    }

    /// Before: exit 2 "displayPrice: \"\" is not a decimal amount".
    @Test("displayPrice \"\" is a price never set: the product is compared without prices")
    func priceNeverSet() throws {
        // Act
        let result = try CommandRunner.run(["check", "--config", "Tests/Fixtures/storekit/price-not-set.yml",
                                            "--store", "Tests/Fixtures/storekit/price-not-set.storekit",
                                            "--format", "json"] + Self.asOf)
        // Assert
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(try Self.rules(inJSON: result.stdout) == ["storekit-single-storefront"])
    }

    /// Before: the two entries with one `id` merged; the Family subscription got the name Premium and
    /// `group-mismatch` failed the run.
    @Test("groups sharing one id stay apart: no false group-mismatch")
    func groupsSharingAnID() throws {
        // Act
        let result = try CommandRunner.run(["check", "--config", "Tests/Fixtures/storekit/groups-sharing-an-id.yml",
                                            "--store", "Tests/Fixtures/storekit/groups-sharing-an-id.storekit",
                                            "--format", "json"] + Self.asOf)
        // Assert
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(try Self.rules(inJSON: result.stdout) == ["storekit-single-storefront"])
    }

    /// Before: only the `Products` half was read: three "missing in store" errors, or exit 0 against a config
    /// that lists the first half only.
    @Test("a Products.plist with a Subscriptions section is read whole")
    func plistWithSubscriptions() throws {
        // Act
        let whole = try CommandRunner.run(["check", "--config", "Tests/Fixtures/plist/products-and-subscriptions.yml",
                                           "--store", "Tests/Fixtures/plist/products-and-subscriptions.plist",
                                           "--format", "json"] + Self.asOf)
        let unknownSection = try CommandRunner.run(["export", "Tests/Fixtures/plist/not-a-layout/unknown-section.plist"]
                                                   + Self.asOf)
        // Assert
        #expect(whole.exitCode == 0, "\(whole.stdout)\(whole.stderr)")
        #expect(try Self.rules(inJSON: whole.stdout) == [])
        #expect(unknownSection.exitCode == 2)
        #expect(unknownSection.stdout.isEmpty)
        #expect(unknownSection.stderr.hasPrefix("Tests/Fixtures/plist/not-a-layout/unknown-section.plist:9:2: error: "
            + "\"Consumables\": a product list with a Products or Subscriptions section holds only those"))
    }
}
