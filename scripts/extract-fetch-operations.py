#!/usr/bin/env python3
"""Writes Tests/Fixtures/fetch/api-operations.tsv: the GET operations `catalogcheck fetch` may call, with every
query parameter the official specs allow, its enum and its maximum. The fake store server refuses any request
this table does not allow (400 naming what is wrong), so the fetch tests hold fetch to the specs, not to our
own assumptions.

Sources (see Tests/Fixtures/fetch/SOURCES.md):
  - Apple's App Store Connect API OpenAPI document 4.4.1 (app_store_connect_api-4.4.1.json.gz)
  - Google's Play Developer API discovery document androidpublisher v3, revision 20261026

Usage: scripts/extract-fetch-operations.py ASC_OPENAPI.json.gz DISCOVERY.json > Tests/Fixtures/fetch/api-operations.tsv
       scripts/extract-fetch-operations.py --revenuecat api-v2.yaml > Tests/Fixtures/fetch/revenuecat-operations.tsv

The second form reads RevenueCat's REST API v2 OpenAPI document (RevenueCat/docs, openapi-spec/api-v2.yaml) for
`fetch revenuecat` (see Tests/Fixtures/fetch/revenuecat/SOURCES.md). Array parameters (`expand`) are sent the
OpenAPI way (style form, explode: `expand=a&expand=b`), so their kind is `array`: the name may repeat.
"""
import gzip
import json
import re
import sys

# The App Store Connect operations fetch uses or is about to use (DESIGN §2b), by path.
ASC_PATHS = [
    "/v1/apps/{id}",
    "/v1/apps/{id}/inAppPurchasesV2",
    "/v1/apps/{id}/subscriptionGroups",
    "/v1/subscriptionGroups/{id}/subscriptions",
    "/v2/inAppPurchases/{id}/iapPriceSchedule",
    "/v2/inAppPurchases/{id}/inAppPurchaseAvailability",
    "/v1/inAppPurchaseAvailabilities/{id}/availableTerritories",
    "/v1/inAppPurchasePriceSchedules/{id}/baseTerritory",
    "/v1/inAppPurchasePriceSchedules/{id}/manualPrices",
    "/v1/inAppPurchasePriceSchedules/{id}/automaticPrices",
    "/v1/subscriptions/{id}/prices",
    "/v1/subscriptions/{id}/introductoryOffers",
    "/v1/subscriptions/{id}/planAvailabilities",
    "/v1/subscriptionPlanAvailabilities/{id}/availableTerritories",
    # Offers (issue 19): each kind's list (asked for on its own when the parent's include= cannot carry it) and
    # each offer's prices.
    "/v1/subscriptions/{id}/promotionalOffers",
    "/v1/subscriptions/{id}/offerCodes",
    "/v1/subscriptions/{id}/winBackOffers",
    "/v2/inAppPurchases/{id}/offerCodes",
    "/v1/subscriptionPromotionalOffers/{id}/prices",
    "/v1/subscriptionOfferCodes/{id}/prices",
    "/v1/winBackOffers/{id}/prices",
    "/v1/inAppPurchaseOfferCodes/{id}/prices",
    # Price points (issue 26, `fetch appstore --price-points`): one subscription's and one in-app purchase's.
    "/v1/subscriptions/{id}/pricePoints",
    "/v2/inAppPurchases/{id}/pricePoints",
]

# The Play Developer API methods fetch uses, by discovery ID.
PLAY_METHODS = [
    "androidpublisher.monetization.subscriptions.list",
    "androidpublisher.monetization.subscriptions.basePlans.offers.list",
    "androidpublisher.inappproducts.list",
    "androidpublisher.monetization.onetimeproducts.list",
    "androidpublisher.monetization.onetimeproducts.purchaseOptions.offers.list",
]


def asc_rows(document):
    for path in ASC_PATHS:
        operation = document["paths"][path]["get"]
        yield ("appstore", operation["operationId"], path, "", "", "")
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query":
                continue
            schema = parameter.get("schema", {})
            values = schema.get("items", {}).get("enum") if schema.get("type") == "array" else schema.get("enum")
            kind = "list" if schema.get("type") == "array" else schema.get("type", "string")
            yield ("appstore", operation["operationId"], path, parameter["name"], kind,
                   ",".join(values or []), str(schema.get("maximum", "")))


def play_methods(resources):
    for resource in resources.values():
        for method in resource.get("methods", {}).values():
            yield method
        yield from play_methods(resource.get("resources", {}))


def play_rows(document):
    methods = {method["id"]: method for method in play_methods(document["resources"])}
    for identifier in PLAY_METHODS:
        method = methods[identifier]
        path = "/" + method.get("flatPath", method["path"])
        yield ("play", identifier, path, "", "", "")
        for name, parameter in sorted(method["parameters"].items()):
            if parameter["location"] != "query":
                continue
            # The discovery document states a page size's maximum in prose: "The maximum value is 1000".
            found = re.search(r"maximum value is (\d+)", parameter.get("description", ""))
            yield ("play", identifier, path, name, parameter["type"], ",".join(parameter.get("enum", [])),
                   found.group(1) if found else "")


# The RevenueCat API v2 operations `fetch revenuecat` uses (DESIGN.md §4b), by operationId; paths are the
# document's, below the base URL https://api.revenuecat.com/v2.
REVENUECAT_OPERATIONS = [
    "list-apps",
    "list-products",
    "list-entitlements",
    "list-offerings",
    "list-packages",
    "get-products-from-package",
    "get-products-from-entitlement",
]


def revenuecat_rows(document):
    operations = {}
    for path, methods in document["paths"].items():
        get = methods.get("get")
        if get:
            operations[get["operationId"]] = (path, get)
    for identifier in REVENUECAT_OPERATIONS:
        path, operation = operations[identifier]
        yield ("revenuecat", identifier, "/v2" + path, "", "", "")
        for parameter in operation.get("parameters", []):
            if parameter["in"] != "query":
                continue
            schema = parameter.get("schema", {})
            kind = "array" if schema.get("type") == "array" else schema.get("type", "string")
            values = schema.get("items", {}).get("enum") if kind == "array" else schema.get("enum")
            yield ("revenuecat", identifier, "/v2" + path, parameter["name"], kind, ",".join(values or []),
                   str(schema.get("maximum", "")))


def revenuecat_main(path):
    import yaml
    with open(path, encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    print("# store\toperation\tpath\tparameter\tkind\tvalues\tmaximum")
    print(f"# RevenueCat REST API v2, OpenAPI info.version {document['info']['version']}; generated by "
          "scripts/extract-fetch-operations.py --revenuecat")
    for row in revenuecat_rows(document):
        row = tuple(row) + ("",) * (7 - len(row))
        print("\t".join(row))


def main():
    if sys.argv[1] == "--revenuecat":
        revenuecat_main(sys.argv[2])
        return
    with gzip.open(sys.argv[1], "rt", encoding="utf-8") as handle:
        asc = json.load(handle)
    with open(sys.argv[2], encoding="utf-8") as handle:
        play = json.load(handle)
    print("# store\toperation\tpath\tparameter\tkind\tvalues\tmaximum")
    print(f"# App Store Connect API {asc['info']['version']} (OpenAPI); Play Developer API {play['version']} "
          f"discovery revision {play['revision']}; generated by scripts/extract-fetch-operations.py")
    for row in list(asc_rows(asc)) + list(play_rows(play)):
        row = tuple(row) + ("",) * (7 - len(row))
        print("\t".join(row))


if __name__ == "__main__":
    main()
