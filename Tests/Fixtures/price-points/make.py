#!/usr/bin/env python3
"""Writes the price-point fixture (asc/ and products.yml): run it from this folder after changing it.

Shapes: Apple's App Store Connect OpenAPI 4.4.1 (../../../../shared/schemas, `app_store_connect_api-4.4.1.json.gz`):
- `subscriptions_pricePoints_getToManyRelated`, GET /v1/subscriptions/{id}/pricePoints, answering
  `SubscriptionPricePointsResponse` (`data`: `SubscriptionPricePoint` with `attributes.customerPrice`,
  `proceeds`, `proceedsYear2` and `relationships.territory`; `included`: `Territory` with `attributes.currency`);
- `inAppPurchasesV2_pricePoints_getToManyRelated`, GET /v2/inAppPurchases/{id}/pricePoints, answering
  `InAppPurchasePricePointsResponse` (the same without `proceedsYear2`).
`limit` is at most 8000 there; `filter[territory]` takes a list; `include=territory`, `fields[territories]=currency`.

Amounts: Apple's published increments (Apple Developer News, 2022-12-06, "Apple announces biggest upgrade to
App Store pricing"): 0.29-9.99 in steps of 0.10, 0.49-49.99 in steps of 0.50, 0.99-199.99 in steps of 1.00,
and the endings .00, .90 (0.90-99.90) and .95 (0.95-49.95). Only the points up to 60 are written: enough to
name the neighbours of every price the fixture uses, not a copy of Apple's table.
"""
import json
from decimal import Decimal

HOST = "https://api.appstoreconnect.apple.com"


def amounts(limit=Decimal("60")):
    points = set()
    def steps(start, end, step):
        value = Decimal(start)
        while value <= Decimal(end):
            points.add(value)
            value += Decimal(step)
    steps("0.29", "9.99", "0.10")
    steps("0.49", "49.99", "0.50")
    steps("0.99", "199.99", "1.00")
    steps("1.00", "200.00", "1.00")
    steps("0.90", "99.90", "1.00")
    steps("0.95", "49.95", "1.00")
    return sorted(p for p in points if p <= limit)


def page(path, kind, territories, product):
    data = []
    for territory, _ in territories:
        for amount in amounts():
            point = {"type": kind, "id": f"{product}-{territory}-{amount}",
                     "attributes": {"customerPrice": str(amount), "proceeds": str(amount * Decimal("0.7"))},
                     "relationships": {"territory": {"data": {"type": "territories", "id": territory}}}}
            if kind == "subscriptionPricePoints":
                point["attributes"]["proceedsYear2"] = str(amount * Decimal("0.85"))
            data.append(point)
    included = [{"type": "territories", "id": t, "attributes": {"currency": c}} for t, c in territories]
    return {"data": data, "included": included,
            "links": {"self": HOST + path},
            "meta": {"paging": {"total": len(data), "limit": 8000}}}


def write(name, document):
    with open(f"asc/{name}", "w") as handle:
        json.dump(document, handle, separators=(",", ":"))
        handle.write("\n")


SUBSCRIPTION, IAP = "7000000001", "7000000002"
write("subscription-groups.json", {
    "data": [{"type": "subscriptionGroups", "id": "21000001", "attributes": {"referenceName": "Pro"},
              "relationships": {"subscriptions": {"data": [{"type": "subscriptions", "id": SUBSCRIPTION}]}}}],
    "included": [{"type": "subscriptions", "id": SUBSCRIPTION,
                  "attributes": {"name": "Pro Monthly", "productId": "com.example.pro.monthly", "state": "APPROVED",
                                 "subscriptionPeriod": "ONE_MONTH", "groupLevel": 1},
                  "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": "21000001"}}}}],
    "links": {"self": HOST + "/v1/apps/6400000000/subscriptionGroups"}})
rows, included = [], []
for territory, currency, amount in [("USA", "USD", "9.99"), ("DEU", "EUR", "9.99"), ("BRA", "BRL", "49.90")]:
    rows.append({"type": "subscriptionPrices", "id": f"price-{territory}",
                 "attributes": {"startDate": None, "preserved": False, "planType": "UPFRONT"},
                 "relationships": {"territory": {"data": {"type": "territories", "id": territory}},
                                   "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints",
                                                                       "id": f"{SUBSCRIPTION}-{territory}-{amount}"}}}})
    included.append({"type": "subscriptionPricePoints", "id": f"{SUBSCRIPTION}-{territory}-{amount}",
                     "attributes": {"customerPrice": amount}})
    included.append({"type": "territories", "id": territory, "attributes": {"currency": currency}})
write(f"subscription-{SUBSCRIPTION}-prices.json", {
    "data": rows, "included": included, "links": {"self": f"{HOST}/v1/subscriptions/{SUBSCRIPTION}/prices"}})
write("in-app-purchases.json", {
    "data": [{"type": "inAppPurchases", "id": IAP,
              "attributes": {"name": "500 Coins", "productId": "com.example.coins.500",
                             "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED"}}],
    "links": {"self": HOST + "/v1/apps/6400000000/inAppPurchasesV2"}})
write(f"in-app-purchase-{IAP}-iapPriceSchedule.json", {
    "data": {"type": "inAppPurchasePriceSchedules", "id": IAP,
             "relationships": {"baseTerritory": {"data": {"type": "territories", "id": "USA"}},
                               "manualPrices": {"data": [{"type": "inAppPurchasePrices", "id": "iap-US"}]}}},
    "included": [{"type": "inAppPurchasePrices", "id": "iap-US",
                  "attributes": {"startDate": None, "endDate": None, "manual": True},
                  "relationships": {"inAppPurchasePricePoint": {"data": {"type": "inAppPurchasePricePoints",
                                                                         "id": f"{IAP}-USA-4.99"}},
                                    "territory": {"data": {"type": "territories", "id": "USA"}}}},
                 {"type": "inAppPurchasePricePoints", "id": f"{IAP}-USA-4.99", "attributes": {"customerPrice": "4.99"}},
                 {"type": "territories", "id": "USA", "attributes": {"currency": "USD"}}],
    "links": {"self": f"{HOST}/v2/inAppPurchases/{IAP}/iapPriceSchedule"}})
query = "?filter%5Bterritory%5D=DEU,USA&include=territory&fields%5Bterritories%5D=currency&limit=8000"
write(f"subscription-{SUBSCRIPTION}-pricePoints.json",
      page(f"/v1/subscriptions/{SUBSCRIPTION}/pricePoints{query}", "subscriptionPricePoints",
           [("DEU", "EUR"), ("USA", "USD")], SUBSCRIPTION))
write(f"in-app-purchase-{IAP}-pricePoints.json",
      page(f"/v2/inAppPurchases/{IAP}/pricePoints{query}", "inAppPurchasePricePoints",
           [("DEU", "EUR"), ("USA", "USD")], IAP))
