#!/usr/bin/env python3
"""Writes example catalogs in every format catalogcheck reads, from one description of a made-up app.

    scripts/gen_catalogs.py demo catalogs/demo              # the consistent demo set
    scripts/gen_catalogs.py demo-drift catalogs/demo-drift  # the same app with deliberate drift, and the
                                                            # config before this release (products.previous.yml)
    scripts/gen_catalogs.py synthetic OUT --products 2000   # benchmark inputs (175 territories), with the
                                                            # config also as products.json
    scripts/gen_catalogs.py asc-snapshot OUT --products 10000  # in-app purchases only (175 storefronts each):
                                                            # OUT/asc as `fetch appstore` writes it, OUT/products.yml

Output is deterministic: the same arguments always write the same bytes.
"""
import argparse
import copy
import hashlib
import json
import os
import re
import sys
from decimal import Decimal

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# --- the demo app -------------------------------------------------------------------------------------------

DEMO_TERRITORIES = [("US", "USA", "USD"), ("GB", "GBR", "GBP"), ("DE", "DEU", "EUR"), ("JP", "JPN", "JPY")]
PREFIX = "com.trailmate.app."


def demo_app():
    """The consistent truth: what the stores hold and what the config says."""
    groups = [{"key": "plus", "name": "Trailmate Plus", "id": "21450001"}]
    products = [
        {"id": PREFIX + "coins.100", "type": "consumable", "name": "100 Coins", "usd": "0.99",
         "other": {"GB": "0.99", "DE": "0.99", "JP": "160"}},
        {"id": PREFIX + "coins.500", "type": "consumable", "name": "500 Coins", "usd": "4.99",
         "other": {"GB": "4.99", "DE": "4.99", "JP": "800"}},
        {"id": PREFIX + "offline_maps", "type": "non-consumable", "name": "Offline Maps", "usd": "9.99",
         "family": True, "other": {"GB": "8.99", "DE": "9.99", "JP": "1500"}},
        {"id": PREFIX + "season_pass", "type": "non-renewing", "name": "Season Pass", "usd": "14.99",
         "stores": ["appstore"], "config_cleared": True, "other": {"GB": "13.99", "DE": "14.99", "JP": "2200"}},
        {"id": PREFIX + "pro.yearly", "type": "auto-renewable", "name": "Pro Yearly", "group": "plus", "level": 1,
         "period": "P1Y", "family": True, "intro": {"mode": "free-trial", "period": "P1W"},
         "prices": {"US": "59.99", "GB": "54.99", "DE": "59.99", "JP": "9800"}, "play": "trailmate_plus:pro-yearly",
         # App Store offers (DESIGN §4a), keyed as the config keys them; prices per territory.
         "offers": [
             {"kind": "promotional", "id": "spring_promo", "mode": "pay-up-front", "period": "P3M", "periods": 1,
              "prices": {"US": "29.99", "DE": "29.99"}},
             {"kind": "win-back", "id": "WINBACK6", "mode": "pay-as-you-go", "period": "P1M", "periods": 3,
              "prices": {"US": "3.99"}, "eligibility": {"paidMonths": 6, "lapsedMonths": [1, 12], "waitMonths": 3}},
             {"kind": "offer-code", "id": "Trail Friends", "mode": "free-trial", "period": "P1M", "periods": 1,
              "eligibility": {"customers": ["new", "expired"], "stackable": False}},
         ],
         # The monthly plan with a 12-month commitment: the monthly amount per territory where it is sold (not in
         # the US), and the amount the .storekit file states for its US storefront.
         "billingPlans": {"monthly": {"prices": {"DE": "5.49", "GB": "4.99"}, "storefront": "5.49"}}},
        {"id": PREFIX + "plus.monthly", "type": "auto-renewable", "name": "Plus Monthly", "group": "plus", "level": 2,
         "period": "P1M", "family": True,
         "prices": {"US": "6.99", "GB": "5.99", "DE": "6.99", "JP": "1000"}, "play": "trailmate_plus:plus-monthly",
         "offers": [
             {"kind": "promotional", "id": "loyal_month", "mode": "pay-as-you-go", "period": "P1M", "periods": 2,
              "prices": {"US": "3.49"}},
         ]},
        {"id": PREFIX + "basic.weekly", "type": "auto-renewable", "name": "Basic Weekly", "group": "plus", "level": 3,
         "period": "P1W", "family": False,
         "prices": {"US": "1.99", "GB": "1.99", "DE": "1.99", "JP": "300"}, "play": "trailmate_plus:basic-weekly"},
    ]
    for product in products:
        product.setdefault("cleared", True)
    return {"bundle": "com.trailmate.app", "groups": groups, "products": products, "territories": DEMO_TERRITORIES}


def demo_config_offers():
    """What the demo config declares beyond products (issue 19's demo plan, DESIGN §4a): offers, billing plans
    and purchase options, keyed by product suffix. The config side only: each store writer states its own side.
    Offer prices are for US only (a .storekit file prices one storefront)."""
    return {
        "pro.yearly": {
            "offers": {
                "spring_promo": {"kind": "promotional", "mode": "pay-up-front", "period": "P3M",
                                 "prices": {"US": "29.99 USD"}},
                "WINBACK6": {"kind": "win-back", "mode": "pay-as-you-go", "period": "P1M", "periods": 3,
                             "prices": {"US": "3.99 USD"},
                             "eligibility": {"paidMonths": 6, "lapsedMonths": [1, 12], "waitMonths": 3}},
                "Trail Friends": {"kind": "offer-code", "mode": "free-trial", "period": "P1M",
                                  "eligibility": {"customers": ["new", "expired"], "stackable": False}},
                "first-year-half": {"kind": "play", "mode": "pay-as-you-go", "period": "P1Y", "discount": "50%",
                                    "eligibility": {"rule": "acquisition", "scope": "this-subscription"}},
                # The Play offer that is the base plan's free week (its introOffer): an offer like any other.
                "pro-yearly-trial": {"kind": "play", "mode": "free-trial", "period": "P1W",
                                     "eligibility": {"rule": "acquisition", "scope": "this-subscription"}},
            },
            "billingPlans": {"monthly": {"prices": {"DE": "5.49 EUR", "GB": "4.99 GBP"}}},
        },
        "plus.monthly": {
            "offers": {
                "loyal_month": {"kind": "promotional", "mode": "pay-as-you-go", "period": "P1M", "periods": 2,
                                "prices": {"US": "3.49 USD"}},
                "intro-week-free": {"kind": "play", "mode": "free-trial", "period": "P7D",
                                    "eligibility": {"rule": "acquisition", "scope": "this-subscription"}},
            },
        },
        "coins.500": {
            "offers": {
                "Coins Comeback": {"kind": "offer-code", "prices": {"US": "2.99 USD"},
                                   "eligibility": {"customers": ["churned-spender"]}},
            },
        },
        "offline_maps": {
            "purchaseOptions": {"rent-30d": {"rent": "P30D", "prices": {"US": "2.99 USD"}}},
            "offers": {"launch-sale": {"kind": "play", "purchaseOption": "buy", "discount": "20%"}},
        },
    }


def drift_config_offers(offers):
    """The config side of the offer drift (issue 19's demo plan), on top of `demo_config_offers()`."""
    yearly, monthly = offers["pro.yearly"], offers["plus.monthly"]
    # offer-mismatch; against the ASC price points, price-not-a-price-point (24.49 and 24.99 are)
    yearly["offers"]["spring_promo"]["prices"]["US"] = "24.97 USD"
    monthly["offers"]["summer_promo"] = {"kind": "promotional", "mode": "pay-as-you-go", "period": "P1M",
                                         "periods": 3, "prices": {"US": "4.99 USD"}}  # offer-missing-in-store
    monthly["offers"]["loyal_month"]["prices"]["US"] = "7.99 USD"         # offer-not-a-discount, offer-mismatch
    yearly["billingPlans"]["monthly"]["prices"]["GB"] = "6.99 GBP"        # billing-plan-price-mismatch, -out-of-range
    yearly["offers"]["first-year-half"]["discount"] = "40%"               # offer-mismatch (Play)
    offers["offline_maps"]["purchaseOptions"]["rent-30d"]["rent"] = "P7D"  # purchase-option-mismatch


def drift_price_changes(config, store):
    """What this release changes in prices, and what it decided for existing subscribers (DESIGN §2c): the
    config's `priceChange` decisions, the App Store Connect rows that recorded a preserved change, and the config
    of the last release with the old prices, so `check --since products.previous.yml` fires every change rule."""
    offers = config["config_offers"]
    # plus.monthly: existing subscribers keep their price, except in the US, where they pay the new one.
    offers["plus.monthly"]["priceChange"] = {"existing": "preserve", "territories": {"US": {"existing": "update"}}}
    # basic.weekly: every existing subscriber gets the new price; on Play, migrated opt-in.
    offers.setdefault("basic.weekly", {})["priceChange"] = {"existing": "update", "increase": "opt-in"}
    # App Store Connect kept basic.weekly's DE subscribers on 0.99 EUR when 1.99 EUR started (price-preserve-mismatch).
    store["preserved"] = {(PREFIX + "basic.weekly", "DE", "old")}
    previous = copy.deepcopy(config)
    for suffix, territory, amount in [
        ("pro.yearly", "DE", "59.99"),       # -> 64.99 EUR, no decision: undecided (App Store and Play)
        ("plus.monthly", "US", "1.49"),      # -> 6.99 USD, update: consent required (+369 %, +5.50 USD a month)
        ("plus.monthly", "GB", "3.49"),      # -> 5.99 GBP, preserve
        ("basic.weekly", "DE", "0.99"),      # -> 1.99 EUR, update: consent possible; ASC preserved it
        ("basic.weekly", "GB", "2.49"),      # -> 1.99 GBP: a decrease reaches every App Store subscriber
    ]:
        find(previous, suffix)["prices"][territory] = amount
    del find(previous, "pro.yearly")["prices"]["FR"]  # FR is new in this release: no existing subscribers
    for product_offers in previous["config_offers"].values():
        product_offers.pop("priceChange", None)
    return previous


def yaml_block(value, indent):
    """Lines of a block YAML mapping (keys in the given order); lists of scalars in flow style."""
    lines = []
    for key, item in value.items():
        head = " " * indent + yaml_value(str(key)) + ":"
        if isinstance(item, dict):
            lines.append(head)
            lines += yaml_block(item, indent + 2)
        elif isinstance(item, list):
            lines.append(head + " [" + ", ".join(yaml_value(element) for element in item) + "]")
        else:
            lines.append(head + " " + yaml_value(item))
    return lines


def yaml_value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_. %-]*", value) and value.strip() == value and value.lower() not in (
            "yes", "no", "true", "false", "null", "on", "off", "y", "n"):
        return value  # plain: `pay-as-you-go`, `50%`, `2.99 USD` read as strings
    return json.dumps(value)


def swift_table(name):
    """A dictionary literal `static let <name>: [String: String] = [...]` from the Swift territory table, so the
    synthetic catalogs use exactly the territories and currencies the tool knows."""
    with open(os.path.join(ROOT, "Sources/CatalogCore/Tables/TerritoryTable.swift"), encoding="utf-8") as handle:
        source = handle.read()
    match = re.search(r"static let " + name + r"[^=]*=\s*\[(.*?)\n\s*\]", source, re.S)
    if not match:
        raise SystemExit(f"cannot find {name} in TerritoryTable.swift")
    return dict(re.findall(r'"([A-Z]{2})"\s*:\s*"([A-Z]{3})"', match.group(1)))


def synthetic_app(count, locales, iaps_only=False):
    """`count` products priced in every App Store storefront: 20% consumables, 10% non-consumables, 5%
    non-renewing, the rest auto-renewable subscriptions in groups of five levels (`iaps_only`: two thirds
    consumables, a third non-consumables)."""
    alpha3 = swift_table("alpha3ByAlpha2")
    currency = swift_table("appStoreCurrencyByAlpha2")
    territories = sorted((code2, alpha3[code2], currency[code2]) for code2 in currency)
    groups, products = [], []
    asc_offers, config_offers = {}, {}
    periods = ["P1W", "P1M", "P1Y"]
    for index in range(count):
        share = index % 20
        kind = ("consumable" if share < 4 else "non-consumable" if share < 6 else "non-renewing" if share < 7
                else "auto-renewable")
        if iaps_only:
            kind = "non-consumable" if index % 3 == 2 else "consumable"
        usd = f"{index % 50}.99"
        prices = {code2: (str(Decimal(usd) * 100 + index % 7) if cur in ("JPY", "KRW", "IDR", "VND", "CLP", "COP")
                          else f"{index % 50 + (len(code2 + cur) % 3)}.99") for code2, _, cur in territories}
        prices["US"] = usd
        product = {"id": f"com.example.synthetic.p{index:05d}", "type": kind, "name": f"Product {index}",
                   "prices": prices, "cleared": True, "locales": locales}
        if kind == "non-renewing":
            product["stores"] = ["appstore"]  # Play has no non-renewing one-time products in these files
        if kind == "auto-renewable":
            group_index = index // 5
            if not groups or groups[-1]["key"] != f"g{group_index}":
                groups.append({"key": f"g{group_index}", "name": f"Group {group_index}", "id": str(30000000 + group_index)})
            product.update(group=f"g{group_index}", level=index % 5 + 1, period=periods[index % 3], family=False,
                           play=f"sub{group_index}:plan-{index % 5}")
            add_synthetic_offers(product, asc_offers, config_offers, {code2: cur for code2, _, cur in territories})
        products.append(product)
    return {"bundle": "com.example.synthetic", "groups": groups, "products": products, "territories": territories,
            "asc_offers": asc_offers, "config_offers_by_id": config_offers}


def add_synthetic_offers(product, asc_offers, config_offers, currency):
    """Three App Store offers per subscription (issue 19: the benchmark's 2,000 products carry them): a
    promotional and a win-back offer at half the regular price in every territory, and a free-trial offer code;
    the .storekit file, the App Store Connect folder and the config state the same."""
    period = product["period"]
    duration = {"P1W": "ONE_WEEK", "P1M": "ONE_MONTH", "P1Y": "ONE_YEAR"}[period]
    half = {code2: (str(int(Decimal(amount) / 2)) if "." not in amount
                    else str((Decimal(amount) / 2).quantize(Decimal("0.01"))))
            for code2, amount in product["prices"].items()}
    product["offers"] = [
        {"kind": "promotional", "id": "promo", "mode": "pay-as-you-go", "period": period, "periods": 1,
         "prices": {"US": half["US"]}},
        {"kind": "win-back", "id": "winback", "mode": "pay-as-you-go", "period": period, "periods": 1},
        {"kind": "offer-code", "id": "Friends", "mode": "free-trial", "period": "P1W", "periods": 1,
         "eligibility": {"customers": ["new"], "stackable": False}},
    ]
    asc_offers[product["id"]] = {
        "promotionalOffers": [{"offerCode": "promo", "name": "Promo", "offerMode": "PAY_AS_YOU_GO",
                               "duration": duration, "numberOfPeriods": 1, "prices": half}],
        "winBackOffers": [{"offerId": "winback", "referenceName": "Win back", "offerMode": "PAY_AS_YOU_GO",
                           "duration": duration, "periodCount": 1, "paidMonths": 6, "lapsedMonths": [1, 12],
                           "waitMonths": 3, "prices": half}],
        "offerCodes": [{"name": "Friends", "offerMode": "FREE_TRIAL", "duration": "ONE_WEEK", "numberOfPeriods": 1,
                        "customerEligibilities": ["NEW"], "offerEligibility": "REPLACE_INTRO_OFFERS", "prices": {}}],
    }
    priced = {code2: f"{amount} {currency[code2]}" for code2, amount in half.items()}
    config_offers[product["id"]] = {"offers": {
        "promo": {"kind": "promotional", "mode": "pay-as-you-go", "period": period, "prices": priced},
        "winback": {"kind": "win-back", "mode": "pay-as-you-go", "period": period, "prices": priced,
                    "eligibility": {"paidMonths": 6, "lapsedMonths": [1, 12], "waitMonths": 3}},
        "Friends": {"kind": "offer-code", "mode": "free-trial", "period": "P1W",
                    "eligibility": {"customers": ["new"], "stackable": False}},
    }}


def find(app, suffix):
    return next(p for p in app["products"] if p["id"] == PREFIX + suffix)


def drift(config, store):
    """Deliberate drift between the config and the stores, one or more per rule."""
    # Config side.
    find(config, "coins.500")["id"] = PREFIX + "coins.5OO"                 # missing both ways, with hints
    config["products"].append({"id": PREFIX + "gems.1000", "type": "consumable", "name": "1000 Gems",
                               "usd": "7.99", "cleared": True, "other": {}})  # product-missing-in-store
    find(config, "offline_maps")["type"] = "consumable"                     # type-mismatch
    find(config, "basic.weekly")["period"] = "P1M"                          # period-mismatch
    find(config, "plus.monthly")["level"] = 3                               # group-level-mismatch
    find(config, "pro.yearly")["prices"]["DE"] = "64.99"                    # price-mismatch (ASC, Play)
    # price-missing-in-store (ASC, Play); the ASC price points have no FR (nor JP) table: price-points-missing
    find(config, "pro.yearly")["prices"]["FR"] = "59.99"
    # currency-not-valid-at-date: Bulgaria's App Store prices are in EUR since 2026-01-01 (and price-missing-in-store)
    find(config, "pro.yearly")["prices"]["BG"] = "99.99"
    # price-schedule-mismatch (ASC): the store raises US on 2027-01-15, the config plans it for 2027-02-01
    find(config, "pro.yearly")["schedule"] = {"US": ("2027-02-01", "60.99")}
    del find(config, "plus.monthly")["prices"]["JP"]                        # price-missing-in-config
    find(config, "pro.yearly")["intro"] = {"mode": "free-trial", "period": "P2W"}  # intro-offer-mismatch
    find(config, "plus.monthly")["intro"] = {"mode": "free-trial", "period": "P2M"}  # intro-offer-exceeds-period
    config["groups"].append({"key": "family", "name": "Trailmate Family", "id": "0"})  # group-missing-in-store
    find(config, "coins.100")["name"] = "Coins x100"                        # name-mismatch
    # Store side.
    find(store, "plus.monthly")["prices"]["US"] = "7.99"                    # price-mismatch (every store)
    find(store, "offline_maps")["family"] = False                           # family-sharing-mismatch
    find(store, "coins.100")["manual"] = ["DE"]                             # price-not-equalized (ASC)
    find(store, "season_pass")["cleared"] = False                           # availability-mismatch (XML, ASC)
    store["groups"].append({"key": "lite", "name": "Trailmate Lite", "id": "21450002"})
    find(store, "basic.weekly")["group"] = "lite"                           # group-mismatch
    store["duplicate"] = PREFIX + "coins.100"                               # duplicate-product-id (StoreKit)
    # The .storekit file only: offers and a plan the other store inputs do not share.
    store["storekit"] = {
        PREFIX + "pro.yearly": {
            "offers": [
                # offer-missing-in-config
                {"kind": "win-back", "id": "WINBACK3", "mode": "pay-as-you-go", "period": "P1M", "periods": 3},
                # offer-id-reused, with plus.monthly's promotional RETURN (one group)
                {"kind": "win-back", "id": "RETURN", "mode": "free-trial", "period": "P1M", "periods": 1},
            ],
            "monthlyCommitment": "60.00",                  # billing-plan-out-of-range: not 12 x 5.49
            "monthlyEnabled": False},                      # billing-plan-missing-in-store: the plan is off
        PREFIX + "plus.monthly": {
            "offers": [
                {"kind": "promotional", "id": "RETURN", "mode": "pay-as-you-go", "period": "P1M", "periods": 1,
                 "prices": {"US": "4.99"}},                # offer-id-reused
                {"kind": "promotional", "id": "free_week", "mode": "free-trial", "period": "P1W", "periods": 1,
                 "prices": {"US": "0.99"}},                # offer-free-with-price
            ]},
    }


# --- money and tiers ---------------------------------------------------------------------------------------

def legacy_tier(usd):
    """The legacy App Store tier of a USD price (tiers 1-60 are enough for the examples)."""
    value = Decimal(usd)
    for tier in range(0, 61):
        price = Decimal(tier) - Decimal("0.01") if 1 <= tier <= 50 else (
            Decimal("54.99") + 5 * (tier - 51) if tier > 50 else Decimal(0))
        if price == value:
            return tier
    raise ValueError(f"no legacy tier for {usd} USD")


def units_nanos(amount):
    value = Decimal(amount)
    units = int(value)
    nanos = int((value - units) * 1_000_000_000)
    money = {"units": str(units)}
    if nanos:
        money["nanos"] = nanos
    return money


def all_prices(product):
    """Territory → amount, for every territory the product is priced in."""
    if "prices" in product:
        return dict(product["prices"])
    prices = {"US": product["usd"]}
    prices.update(product.get("other", {}))
    return prices


# --- writers -----------------------------------------------------------------------------------------------

def yaml_scalar(text):
    if re.fullmatch(r"[A-Za-z0-9_.][A-Za-z0-9_. ]*", text) and text.strip() == text and text.lower() not in (
            "yes", "no", "true", "false", "null", "on", "off", "y", "n"):
        return text
    return json.dumps(text)


def write_config(app, path, header):
    currency = {code2: cur for code2, _, cur in app["territories"]}
    currency.setdefault("FR", "EUR")
    currency.setdefault("BG", "BGN")
    lines = [f"# {header}", "# Schema: catalogs/schema/catalog-v1.schema.json", "version: 1", "app:",
             f"  bundleId: {app['bundle']}", "  baseTerritory: US", "groups:"]
    for group in app["groups"]:
        lines += [f"  {group['key']}:", f"    name: {yaml_scalar(group['name'])}"]
    lines.append("products:")
    for p in app["products"]:
        lines.append(f"  {p['id']}:")
        lines.append(f"    type: {p['type']}")
        lines.append(f"    name: {yaml_scalar(p['name'])}")
        if p["type"] == "auto-renewable":
            lines += [f"    group: {p['group']}", f"    level: {p['level']}", f"    period: {p['period']}"]
        if "family" in p:
            lines.append(f"    familyShareable: {'true' if p['family'] else 'false'}")
        if "intro" in p:
            lines.append(f"    introOffer: {{ mode: {p['intro']['mode']}, period: {p['intro']['period']} }}")
        if "prices" in p:
            lines.append("    prices:")
            for territory, amount in p["prices"].items():
                if territory in p.get("schedule", {}):
                    day, later = p["schedule"][territory]
                    lines.append(f"      {territory}: [{{price: {amount} {currency[territory]}}}, "
                                 f"{{from: {day}, price: {later} {currency[territory]}}}]")
                else:
                    lines.append(f"      {territory}: {amount} {currency[territory]}")
        else:
            lines.append(f"    price: {p['usd']} USD")
            if p.get("equalized"):
                lines.append("    equalized: true")
        if p.get("config_cleared"):
            lines.append("    clearedForSale: true")
        if "stores" in p:
            lines.append(f"    stores: [{', '.join(p['stores'])}]")
        if "play" in p:
            lines += ["    storeIds:", f"      play: \"{p['play']}\""]
        suffix = p["id"][len(PREFIX):] if p["id"].startswith(PREFIX) else None
        lines += yaml_block(app.get("config_offers", {}).get(suffix, {}), 4)
        lines += yaml_block(app.get("config_offers_by_id", {}).get(p["id"], {}), 4)
    write(path, "\n".join(lines) + "\n")


def config_document(app):
    """The config of `write_config` in its JSON form (the same products, fields and values)."""
    currency = {code2: cur for code2, _, cur in app["territories"]}
    currency.setdefault("FR", "EUR")
    products = {}
    for p in app["products"]:
        product = {"type": p["type"], "name": p["name"]}
        if p["type"] == "auto-renewable":
            product.update(group=p["group"], level=p["level"], period=p["period"])
        if "family" in p:
            product["familyShareable"] = p["family"]
        if "intro" in p:
            product["introOffer"] = {"mode": p["intro"]["mode"], "period": p["intro"]["period"]}
        if "prices" in p:
            product["prices"] = {t: f"{amount} {currency[t]}" for t, amount in p["prices"].items()}
        else:
            product["price"] = f"{p['usd']} USD"
        if p.get("config_cleared"):
            product["clearedForSale"] = True
        if "stores" in p:
            product["stores"] = p["stores"]
        if "play" in p:
            product["storeIds"] = {"play": p["play"]}
        product.update(app.get("config_offers_by_id", {}).get(p["id"], {}))
        products[p["id"]] = product
    return {"version": 1, "app": {"bundleId": app["bundle"], "baseTerritory": "US"},
            "groups": {g["key"]: {"name": g["name"]} for g in app["groups"]}, "products": products}


def write_storekit(app, path):
    def localizations(p):
        return [{"description": p["name"], "displayName": p["name"], "locale": "en_US"}]

    products, non_renewing, groups = [], [], []
    for index, p in enumerate(app["products"]):
        internal = f"{0x5A000000 + index:08X}"
        usd = all_prices(p)["US"]
        if p["type"] in ("consumable", "non-consumable"):
            record = {"displayPrice": usd, "familyShareable": p.get("family", False), "internalID": internal,
                      "localizations": localizations(p), "productID": p["id"], "referenceName": p["name"],
                      "type": "Consumable" if p["type"] == "consumable" else "NonConsumable"}
            products.append(record)
            if app.get("duplicate") == p["id"]:
                products.append(dict(record, internalID=f"{0x5B000000 + index:08X}"))
        elif p["type"] == "non-renewing":
            non_renewing.append({"displayPrice": usd, "familyShareable": False, "internalID": internal,
                                 "localizations": localizations(p), "productID": p["id"],
                                 "referenceName": p["name"], "type": "NonRenewingSubscription"})
    for group in app["groups"]:
        subs = []
        for index, p in enumerate(app["products"]):
            if p["type"] != "auto-renewable" or p["group"] != group["key"]:
                continue
            intro = None
            if "intro" in p:
                intro = {"internalID": f"{0x5C000000 + index:08X}", "paymentMode": "free",
                         "subscriptionPeriod": p["intro"]["period"]}
            own = app.get("storekit", {}).get(p["id"], {})
            offers = storekit_offers(p.get("offers", []) + own.get("offers", []), 0x5D000000 + index * 0x10)
            # Every subscription has its upfront plan (its own price); the monthly plan states its amount for
            # the storefront and what the 12-month commitment costs.
            plans = [{"billingPlanType": "BILLED_UPFRONT", "commitmentDisplayPrice": all_prices(p)["US"],
                      "displayPrice": all_prices(p)["US"], "internalID": f"{0x5E000000 + index * 0x10:08X}",
                      "isEnabled": True}]
            if "monthly" in p.get("billingPlans", {}):
                monthly = p["billingPlans"]["monthly"]["storefront"]
                plans.append({"billingPlanType": "MONTHLY",
                              "commitmentDisplayPrice": own.get("monthlyCommitment", str(Decimal(monthly) * 12)),
                              "displayPrice": monthly, "internalID": f"{0x5E000001 + index * 0x10:08X}",
                              "isEnabled": own.get("monthlyEnabled", True)})
            subs.append(dict(offers, billingPlans=plans, displayPrice=all_prices(p)["US"],
                             familyShareable=p.get("family", False), groupNumber=p["level"],
                             internalID=f"{0x5A000000 + index:08X}", introductoryOffer=intro,
                             localizations=localizations(p), productID=p["id"],
                             recurringSubscriptionPeriod=p["period"], referenceName=p["name"],
                             subscriptionGroupID=group["id"], type="RecurringSubscription"))
        if subs:
            groups.append({"id": group["id"], "localizations": [], "name": group["name"], "subscriptions": subs})
    document = {"identifier": "7E1A0C55", "nonRenewingSubscriptions": non_renewing, "products": products,
                "settings": {"_failTransactionsEnabled": False, "_locale": "en_US", "_storefront": "USA",
                             "_storeKitErrors": []},
                "subscriptionGroups": groups, "version": {"major": 5, "minor": 0}}
    write(path, json.dumps(document, indent=2, sort_keys=True, separators=(",", " : ")) + "\n")


def storekit_offers(offers, first_internal_id):
    """A subscription's `adHocOffers`, `codeOffers` and `winbackOffers` (file 5.0 keys) from App Store offers.
    Win-back offers state no price in a .storekit file; every other price is for the US storefront."""
    modes = {"free-trial": "free", "pay-as-you-go": "payAsYouGo", "pay-up-front": "payUpFront"}
    lists = {"adHocOffers": [], "codeOffers": [], "winbackOffers": []}
    for number, offer in enumerate(offers):
        record = {"internalID": f"{first_internal_id + number:08X}", "numberOfPeriods": offer["periods"],
                  "paymentMode": modes[offer["mode"]], "subscriptionPeriod": offer["period"]}
        if offer["kind"] != "win-back" and "US" in offer.get("prices", {}):
            record["displayPrice"] = offer["prices"]["US"]
        if offer["kind"] == "promotional":
            lists["adHocOffers"].append(dict(record, billingPlanType="BILLED_UPFRONT", offerID=offer["id"],
                                             referenceName=offer["id"]))
        elif offer["kind"] == "offer-code":
            eligibility = offer.get("eligibility", {})
            lists["codeOffers"].append(dict(record, eligibility=eligibility.get("customers", []),
                                            isStackable=eligibility.get("stackable", False),
                                            referenceName=offer["id"]))
        elif offer["kind"] == "win-back":
            lists["winbackOffers"].append(dict(record, isEligible=True, offerID=offer["id"]))
    return lists


# The App Store Connect side of the offers demo (issue 19's demo plan), by product ID: promotional offers
# (`offerCode`), win-back offers (`offerId`, `periodCount`), subscription offer codes (`name`) with their prices per
# territory, the monthly billing plan's MONTHLY price rows, and in-app purchase offer codes.
ASC_OFFERS = {
    PREFIX + "pro.yearly": {
        "promotionalOffers": [{"offerCode": "spring_promo", "name": "Spring Promo", "offerMode": "PAY_UP_FRONT",
                               "duration": "THREE_MONTHS", "numberOfPeriods": 1,
                               "prices": {"US": "29.99", "DE": "29.99"}}],
        "winBackOffers": [{"offerId": "WINBACK6", "referenceName": "Win Back 6", "offerMode": "PAY_AS_YOU_GO",
                           "duration": "ONE_MONTH", "periodCount": 3, "paidMonths": 6, "lapsedMonths": [1, 12],
                           "waitMonths": 3, "prices": {"US": "3.99"}}],
        "offerCodes": [{"name": "Trail Friends", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH",
                        "numberOfPeriods": 1, "customerEligibilities": ["NEW", "EXPIRED"],
                        "offerEligibility": "REPLACE_INTRO_OFFERS", "prices": {}}],
        "monthly": {"DE": "5.49", "GB": "4.99"},
    },
    PREFIX + "plus.monthly": {
        "promotionalOffers": [{"offerCode": "loyal_month", "name": "Loyal Month", "offerMode": "PAY_AS_YOU_GO",
                               "duration": "ONE_MONTH", "numberOfPeriods": 2, "prices": {"US": "3.49"}}],
    },
    PREFIX + "coins.500": {
        "offerCodes": [{"name": "Coins Comeback", "customerEligibilities": ["CHURNED_SPENDER"],
                        "prices": {"US": "2.99"}}],
    },
}

# Per offer list: the resource type, its prices' type and file stem, and the price point relationship and type
# (OpenAPI 4.4.1 `SubscriptionPromotionalOffer`, `SubscriptionOfferCode`, `WinBackOffer`, `InAppPurchaseOfferCode`).
ASC_OFFER_LISTS = {
    "promotionalOffers": ("subscriptionPromotionalOffers", "subscriptionPromotionalOfferPrices",
                          "subscription-promotional-offer", "subscriptionPricePoint", "subscriptionPricePoints"),
    "offerCodes": ("subscriptionOfferCodes", "subscriptionOfferCodePrices", "subscription-offer-code",
                   "subscriptionPricePoint", "subscriptionPricePoints"),
    "winBackOffers": ("winBackOffers", "winBackOfferPrices", "win-back-offer", "subscriptionPricePoint",
                      "subscriptionPricePoints"),
    "iapOfferCodes": ("inAppPurchaseOfferCodes", "inAppPurchaseOfferPrices", "in-app-purchase-offer-code",
                      "pricePoint", "inAppPurchasePricePoints"),
}


ASC_OFFER_ID_TAGS = {"promotionalOffers": "promo", "offerCodes": "code", "winBackOffers": "winback",
                     "iapOfferCodes": "code"}


def write_asc_offers(folder, parent_path, stem, offers, list_name, territory, territory_resources):
    """One product's offer list (`{parent_path}/{relationship}`) and each priced offer's `…/prices` document."""
    resource_type, price_type, price_stem, point_relationship, point_type = ASC_OFFER_LISTS[list_name]
    relationship = "offerCodes" if list_name == "iapOfferCodes" else list_name
    data = []
    for number, offer in enumerate(offers, start=1):
        oid = f"{stem.rsplit('-', 1)[-1]}-{ASC_OFFER_ID_TAGS[list_name]}{number}"
        attributes = {k: v for k, v in offer.items() if k not in ("prices", "paidMonths", "lapsedMonths", "waitMonths")}
        if list_name == "winBackOffers":
            attributes.update({
                "customerEligibilityPaidSubscriptionDurationInMonths": offer["paidMonths"],
                "customerEligibilityTimeSinceLastSubscribedInMonths": {"minimum": offer["lapsedMonths"][0],
                                                                       "maximum": offer["lapsedMonths"][1]},
                "customerEligibilityWaitBetweenOffersInMonths": offer["waitMonths"],
                "startDate": None, "endDate": None, "priority": "HIGH", "promotionIntent": "NOT_PROMOTED"})
        if list_name in ("offerCodes", "iapOfferCodes"):
            attributes.update({"active": True, "productionCodeCount": 0, "sandboxCodeCount": 0})
        if list_name != "iapOfferCodes" and list_name != "winBackOffers":
            attributes["targetSubscriptionPlanType"] = "UPFRONT"
        prices_path = f"/v1/{resource_type}/{oid}/prices"
        data.append({"type": resource_type, "id": oid, "attributes": attributes,
                     "relationships": {"prices": {"links": {
                         "related": "https://api.appstoreconnect.apple.com" + prices_path}}}})
        if not offer["prices"]:
            continue
        territory_resources.clear()
        rows, points = [], []
        for code2, amount in sorted(offer["prices"].items()):
            point = f"{oid}-{code2}-point"
            rows.append({"type": price_type, "id": f"{oid}-{code2}",
                         "relationships": {"territory": {"data": territory(code2)},
                                           point_relationship: {"data": {"type": point_type, "id": point}}}})
            points.append({"type": point_type, "id": point, "attributes": {"customerPrice": amount, "proceeds": "0"}})
        write_json(os.path.join(folder, f"{price_stem}-{oid}-prices.json"), {
            "data": rows, "included": points + [territory_resources[k] for k in sorted(territory_resources)],
            "links": {"self": "https://api.appstoreconnect.apple.com" + prices_path},
            "meta": {"paging": {"total": len(rows), "limit": 200}}})
    write_json(os.path.join(folder, f"{stem}-{relationship}.json"), {
        "data": data, "links": {"self": f"https://api.appstoreconnect.apple.com{parent_path}/{relationship}"},
        "meta": {"paging": {"total": len(data), "limit": 200}}})


def write_asc(app, folder):
    """App Store Connect API documents, as `GET` responses saved one per file."""
    alpha3 = {code2: code3 for code2, code3, _ in app["territories"]}
    currency = {code2: cur for code2, _, cur in app["territories"]}
    alpha3.setdefault("FR", "FRA")
    currency.setdefault("FR", "EUR")
    apple_id = {p["id"]: str(6450000000 + index) for index, p in enumerate(app["products"])}
    territory_resources = {}

    def territory(code2):
        territory_resources[code2] = {"type": "territories", "id": alpha3[code2],
                                      "attributes": {"currency": currency[code2]}}
        return {"type": "territories", "id": alpha3[code2]}

    state = lambda p: "APPROVED" if p.get("cleared", True) else "DEVELOPER_REMOVED_FROM_SALE"
    # Subscription groups with their subscriptions.
    subscriptions = [p for p in app["products"] if p["type"] == "auto-renewable"]
    group_data = []
    for group in app["groups"]:
        members = [p for p in subscriptions if p["group"] == group["key"]]
        if not members:
            continue
        group_data.append({"type": "subscriptionGroups", "id": group["id"],
                           "attributes": {"referenceName": group["name"]},
                           "relationships": {"subscriptions": {"data": [
                               {"type": "subscriptions", "id": apple_id[p["id"]]} for p in members]}}})
    included = []
    for p in subscriptions:
        group_id = next(g["id"] for g in app["groups"] if g["key"] == p["group"])
        period = {"P1W": "ONE_WEEK", "P1M": "ONE_MONTH", "P1Y": "ONE_YEAR"}[p["period"]]
        included.append({"type": "subscriptions", "id": apple_id[p["id"]],
                         "attributes": {"name": p["name"], "productId": p["id"], "familySharable": p["family"],
                                        "state": state(p), "subscriptionPeriod": period, "groupLevel": p["level"],
                                        "reviewNote": None},
                         "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": group_id}}}})
    write_json(os.path.join(folder, "subscription-groups.json"), {
        "data": group_data, "included": included,
        "links": {"self": "https://api.appstoreconnect.apple.com/v1/apps/6449990000/subscriptionGroups"},
        "meta": {"paging": {"total": len(group_data), "limit": 50}}})
    # Prices of each subscription: an older price (start null), the current one, and a scheduled change.
    for p in subscriptions:
        sid = apple_id[p["id"]]
        data, points = [], []
        territory_resources.clear()
        for index, (code2, amount) in enumerate(sorted(all_prices(p).items())):
            rows = [(None, str(Decimal(amount) - 1) if Decimal(amount) > 1 else amount, "old"),
                    ("2025-03-01", amount, "now"), ("2027-01-15", str(Decimal(amount) + 1), "next")]
            if app.get("compact"):
                rows = [("2025-03-01", amount, "now")]
            for start, value, tag in rows:
                point = f"{sid}-{code2}-{tag}"
                preserved = (p["id"], code2, tag) in app.get("preserved", set())
                data.append({"type": "subscriptionPrices", "id": f"price-{point}",
                             "attributes": {"startDate": start, "preserved": preserved, "planType": "UPFRONT"},
                             "relationships": {"territory": {"data": territory(code2)},
                                               "subscriptionPricePoint": {"data": {
                                                   "type": "subscriptionPricePoints", "id": point}}}})
                points.append({"type": "subscriptionPricePoints", "id": point,
                               "attributes": {"customerPrice": value, "proceeds": "0", "proceedsYear2": "0"}})
        # The monthly billing plan (12-month commitment, API 4.4): its MONTHLY rows are the monthly amount.
        for code2, amount in sorted(app.get("asc_offers", ASC_OFFERS).get(p["id"], {}).get("monthly", {}).items()):
            point = f"{sid}-{code2}-monthly"
            data.append({"type": "subscriptionPrices", "id": f"price-{point}",
                         "attributes": {"startDate": "2025-03-01", "preserved": False, "planType": "MONTHLY"},
                         "relationships": {"territory": {"data": territory(code2)},
                                           "subscriptionPricePoint": {"data": {
                                               "type": "subscriptionPricePoints", "id": point}}}})
            points.append({"type": "subscriptionPricePoints", "id": point,
                           "attributes": {"customerPrice": amount, "proceeds": "0", "proceedsYear2": "0"}})
        write_json(os.path.join(folder, f"subscription-{sid}-prices.json"), {
            "data": data, "included": points + [territory_resources[k] for k in sorted(territory_resources)],
            "links": {"self": f"https://api.appstoreconnect.apple.com/v1/subscriptions/{sid}/prices"},
            "meta": {"paging": {"total": len(data), "limit": 200}}})
        # Introductory offers, one record per territory (an empty list when there is none).
        offers = []
        territory_resources.clear()
        if "intro" in p:
            duration = {"P1W": "ONE_WEEK", "P2W": "TWO_WEEKS", "P1M": "ONE_MONTH", "P2M": "TWO_MONTHS"}
            for code2 in sorted(all_prices(p)):
                offers.append({"type": "subscriptionIntroductoryOffers", "id": f"intro-{sid}-{code2}",
                               "attributes": {"startDate": None, "endDate": None, "offerMode": "FREE_TRIAL",
                                              "duration": duration[p["intro"]["period"]], "numberOfPeriods": 1},
                               "relationships": {"territory": {"data": territory(code2)}}})
        write_json(os.path.join(folder, f"subscription-{sid}-introductoryOffers.json"), {
            "data": offers, "included": [territory_resources[k] for k in sorted(territory_resources)],
            "links": {"self": f"https://api.appstoreconnect.apple.com/v1/subscriptions/{sid}/introductoryOffers"},
            "meta": {"paging": {"total": len(offers), "limit": 50}}})
    # Promotional offers, offer codes and win-back offers, each list with its offers' prices.
    for p in subscriptions:
        sid = apple_id[p["id"]]
        for list_name in ("promotionalOffers", "offerCodes", "winBackOffers"):
            offers = app.get("asc_offers", ASC_OFFERS).get(p["id"], {}).get(list_name, [])
            if offers:
                write_asc_offers(folder, f"/v1/subscriptions/{sid}", f"subscription-{sid}", offers, list_name,
                                 territory, territory_resources)
    # One-time products and their price schedules (manual base-territory price, automatic elsewhere).
    iaps = [p for p in app["products"] if p["type"] != "auto-renewable"]
    kind = {"consumable": "CONSUMABLE", "non-consumable": "NON_CONSUMABLE", "non-renewing": "NON_RENEWING_SUBSCRIPTION"}
    write_json(os.path.join(folder, "in-app-purchases.json"), {
        "data": [{"type": "inAppPurchases", "id": apple_id[p["id"]],
                  "attributes": {"name": p["name"], "productId": p["id"], "inAppPurchaseType": kind[p["type"]],
                                 "state": state(p), "familySharable": p.get("family", False),
                                 "contentHosting": None, "reviewNote": None}} for p in iaps],
        "links": {"self": "https://api.appstoreconnect.apple.com/v1/apps/6449990000/inAppPurchasesV2"},
        "meta": {"paging": {"total": len(iaps), "limit": 50}}})
    for p in iaps:
        iid = apple_id[p["id"]]
        territory_resources.clear()
        prices, points, manual, automatic = [], [], [], []
        for code2, amount in sorted(all_prices(p).items()):
            is_manual = code2 == "US" or code2 in p.get("manual", ())
            price_id = f"iap-price-{iid}-{code2}"
            prices.append({"type": "inAppPurchasePrices", "id": price_id,
                           "attributes": {"startDate": None, "endDate": None, "manual": is_manual},
                           "relationships": {"inAppPurchasePricePoint": {"data": {
                               "type": "inAppPurchasePricePoints", "id": f"{price_id}-point"}},
                               "territory": {"data": territory(code2)}}})
            points.append({"type": "inAppPurchasePricePoints", "id": f"{price_id}-point",
                           "attributes": {"customerPrice": amount, "proceeds": "0"}})
            (manual if is_manual else automatic).append({"type": "inAppPurchasePrices", "id": price_id})
        write_json(os.path.join(folder, f"in-app-purchase-{iid}-iapPriceSchedule.json"), {
            "data": {"type": "inAppPurchasePriceSchedules", "id": iid,
                     "relationships": {"baseTerritory": {"data": territory("US")},
                                       "manualPrices": {"data": manual},
                                       "automaticPrices": {"data": automatic}}},
            "included": prices + points + [territory_resources[k] for k in sorted(territory_resources)],
            "links": {"self": f"https://api.appstoreconnect.apple.com/v2/inAppPurchases/{iid}/iapPriceSchedule"}})
        offers = app.get("asc_offers", ASC_OFFERS).get(p["id"], {}).get("offerCodes", [])
        if offers:
            write_asc_offers(folder, f"/v2/inAppPurchases/{iid}", f"in-app-purchase-{iid}", offers, "iapOfferCodes",
                             territory, territory_resources)


ASC_HOST = "https://api.appstoreconnect.apple.com"


def apple_ladder(limit=Decimal("70")):
    """Price points by Apple's published increments (Apple Developer News, 2022-12-06, "Apple announces biggest
    upgrade to App Store pricing"): 0.29-9.99 in steps of 0.10, 0.49-49.99 in steps of 0.50, 0.99-199.99 in steps
    of 1.00, up to `limit` (Apple's endings .00, .90 and .95 are left out to keep the demo small). Not Apple's
    table: a demo."""
    points = set()
    for start, end, step in [("0.29", "9.99", "0.10"), ("0.49", "49.99", "0.50"), ("0.99", "199.99", "1.00")]:
        value = Decimal(start)
        while value <= Decimal(end):
            points.add(value)
            value += Decimal(step)
    return sorted(point for point in points if point <= limit)


def write_asc_price_points(folder):
    """The price-point pages `fetch appstore --price-points` writes (OpenAPI 4.4.1
    `subscriptions_pricePoints_getToManyRelated`, `inAppPurchasesV2_pricePoints_getToManyRelated`): the points of
    the first subscription and the first in-app purchase, in the territories the store prices in USD, EUR or GBP,
    whose ladder Apple published (`apple_ladder`), with the prices the store uses there. Other territories (JP)
    have no table: `price-points-missing` says so."""
    used = {"subscriptionPricePoints": {}, "inAppPurchasePricePoints": {}}
    currencies = {}
    first = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            document = json.load(handle)
        data = document.get("data")
        rows = (data if isinstance(data, list) else [data] if data else []) + document.get("included", [])
        pool = {(row["type"], row["id"]): row for row in rows}
        for row in rows:
            if row["type"] == "territories":
                currencies[row["id"]] = row["attributes"]["currency"]
            relationships = row.get("relationships", {})
            territory = relationships.get("territory", {}).get("data")
            point = next((relationships[k]["data"] for k in ("subscriptionPricePoint", "inAppPurchasePricePoint",
                                                             "pricePoint") if k in relationships), None)
            if not territory or not point or (point["type"], point["id"]) not in pool:
                continue
            price = pool[(point["type"], point["id"])]["attributes"]["customerPrice"]
            used[point["type"]].setdefault(territory["id"], set()).add(Decimal(price))
        if name.startswith("subscription-") and name.endswith("-prices.json"):
            first.setdefault("subscriptionPricePoints", name.split("-")[1])
        if name.startswith("in-app-purchase-") and name.endswith("-iapPriceSchedule.json"):
            first.setdefault("inAppPurchasePricePoints", name.split("-")[3])
    territories = sorted(territory for territory in set(used["subscriptionPricePoints"])
                         | set(used["inAppPurchasePricePoints"]) if currencies[territory] in ("USD", "EUR", "GBP"))
    for kind, path, stem in [("subscriptionPricePoints", "/v1/subscriptions/{}/pricePoints", "subscription-{}"),
                             ("inAppPurchasePricePoints", "/v2/inAppPurchases/{}/pricePoints", "in-app-purchase-{}")]:
        product = first[kind]
        items = []
        for territory in territories:
            for amount in sorted(set(apple_ladder()) | used[kind].get(territory, set())):
                items.append({"type": kind, "id": f"{product}-{territory}-{amount}",
                              "attributes": {"customerPrice": str(amount)},
                              "relationships": {"territory": {"data": {"type": "territories", "id": territory}}}})
        query = (f"?filter%5Bterritory%5D={','.join(territories)}&include=territory&fields%5B{kind}%5D="
                 "customerPrice,territory&fields%5Bterritories%5D=currency&limit=8000")
        write(os.path.join(folder, stem.format(product) + "-pricePoints.json"), json.dumps({
            "data": items,
            "included": [{"type": "territories", "id": t, "attributes": {"currency": currencies[t]}} for t in territories],
            "links": {"self": ASC_HOST + path.format(product) + query},
            "meta": {"paging": {"total": len(items), "limit": 8000}},
        }, separators=(",", ":")) + "\n")


def base64url(text):
    """Apple's opaque IDs: base64url without padding."""
    import base64
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def write_asc_snapshot(app, folder, app_id="6449990000"):
    """The in-app purchases of `app` as `fetch appstore` writes them (AppStoreConnectClient): every response page
    as the store answers it (compact JSON, each resource with its `links`), named `stem-0001.json`, and
    `.fetch.json` with each page's request. The app; the in-app purchases in pages of 200 with their availability
    included; per in-app purchase its price schedule (`include=baseTerritory`), its manual and automatic prices
    (price points and territories included, `limit=200`: one page of 174 automatic rows) and its availability's
    territories. IDs are shaped as Apple's: price rows and price points base64url, availabilities the purchase's."""
    alpha3 = {code2: code3 for code2, code3, _ in app["territories"]}
    currency = {code2: cur for code2, _, cur in app["territories"]}
    os.makedirs(folder, exist_ok=True)
    requests = []
    kinds = {}

    def page(stem, number, path, query, document, kind, resources):
        name = f"{stem}-{number:04d}.json"
        document.setdefault("links", {})["self"] = ASC_HOST + path + (f"?{query}" if query else "")
        write_json(os.path.join(folder, name), document)
        requests.append({"file": name, "path": path, "query": query})
        tally = kinds.setdefault(kind, {"pages": 0, "resources": 0})
        tally["pages"] += 1
        tally["resources"] += resources

    def links(type_name, rid):
        return {"self": f"{ASC_HOST}/v1/{type_name}/{rid}"}

    def related(type_name, rid, relationship, data=None):
        value = {"links": {"self": f"{ASC_HOST}/v1/{type_name}/{rid}/relationships/{relationship}",
                           "related": f"{ASC_HOST}/v1/{type_name}/{rid}/{relationship}"}}
        if data is not None:
            value["data"] = data
        return value

    def territory(code2):
        return {"type": "territories", "id": alpha3[code2], "attributes": {"currency": currency[code2]},
                "links": links("territories", alpha3[code2])}

    page("app", 1, f"/v1/apps/{app_id}", "fields%5Bapps%5D=bundleId,name",
         {"data": {"type": "apps", "id": app_id, "attributes": {"name": "Synthetic", "bundleId": app["bundle"]},
                   "links": links("apps", app_id)}}, "apps", 1)
    page("subscription-groups", 1, f"/v1/apps/{app_id}/subscriptionGroups", "limit=200",
         {"data": [], "meta": {"paging": {"total": 0, "limit": 200}}}, "subscriptionGroups", 0)
    kinds["inAppPurchaseOfferCodes"] = {"pages": 0, "resources": 0}
    kind = {"consumable": "CONSUMABLE", "non-consumable": "NON_CONSUMABLE", "non-renewing": "NON_RENEWING_SUBSCRIPTION"}
    iaps = [p for p in app["products"] if p["type"] != "auto-renewable"]
    apple_id = {p["id"]: str(6450000000 + index) for index, p in enumerate(iaps)}
    list_path = f"/v1/apps/{app_id}/inAppPurchasesV2"
    list_query = "include=inAppPurchaseAvailability,offerCodes&limit=200&limit%5BofferCodes%5D=50"
    for first in range(0, max(len(iaps), 1), 200):
        chunk = iaps[first:first + 200]
        data, included = [], []
        for p in chunk:
            iid = apple_id[p["id"]]
            data.append({"type": "inAppPurchases", "id": iid,
                         "attributes": {"name": p["name"], "productId": p["id"], "inAppPurchaseType": kind[p["type"]],
                                        "state": "APPROVED", "reviewNote": None,
                                        "familySharable": p.get("family", False), "contentHosting": False},
                         "relationships": {
                             "inAppPurchaseLocalizations": related("inAppPurchases", iid, "inAppPurchaseLocalizations"),
                             "pricePoints": related("inAppPurchases", iid, "pricePoints"),
                             "iapPriceSchedule": related("inAppPurchases", iid, "iapPriceSchedule"),
                             "inAppPurchaseAvailability": related("inAppPurchases", iid, "inAppPurchaseAvailability",
                                                                  {"type": "inAppPurchaseAvailabilities", "id": iid}),
                             "offerCodes": dict(related("inAppPurchases", iid, "offerCodes", []),
                                                meta={"paging": {"total": 0, "limit": 50}})},
                         "links": {"self": f"{ASC_HOST}/v2/inAppPurchases/{iid}"}})
            included.append({"type": "inAppPurchaseAvailabilities", "id": iid,
                             "attributes": {"availableInNewTerritories": True},
                             "relationships": {"availableTerritories": related("inAppPurchaseAvailabilities", iid,
                                                                               "availableTerritories")},
                             "links": links("inAppPurchaseAvailabilities", iid)})
        document = {"data": data, "included": included, "meta": {"paging": {"total": len(iaps), "limit": 200}}}
        number = first // 200 + 1
        if first + 200 < len(iaps):
            document["links"] = {"next": f"{ASC_HOST}{list_path}?{list_query}&cursor={base64url(str(first + 200))}"}
        query = list_query if first == 0 else f"{list_query}&cursor={base64url(str(first))}"
        page("in-app-purchases", number, list_path, query, document, "inAppPurchases", len(chunk))
    for p in iaps:
        iid = apple_id[p["id"]]
        prices = all_prices(p)
        page(f"in-app-purchase-{iid}-iapPriceSchedule", 1, f"/v2/inAppPurchases/{iid}/iapPriceSchedule",
             "include=baseTerritory",
             {"data": {"type": "inAppPurchasePriceSchedules", "id": iid,
                       "relationships": {
                           "inAppPurchase": related("inAppPurchasePriceSchedules", iid, "inAppPurchase"),
                           "baseTerritory": related("inAppPurchasePriceSchedules", iid, "baseTerritory",
                                                    {"type": "territories", "id": "USA"}),
                           "manualPrices": related("inAppPurchasePriceSchedules", iid, "manualPrices"),
                           "automaticPrices": related("inAppPurchasePriceSchedules", iid, "automaticPrices")},
                       "links": links("inAppPurchasePriceSchedules", iid)},
              "included": [territory("US")]}, "inAppPurchasePriceSchedules", 1)
        for relationship, manual in (("manualPrices", True), ("automaticPrices", False)):
            rows, included = [], []
            for code2, amount in sorted(prices.items()):
                if (code2 == "US") != manual:
                    continue
                row_id = base64url(json.dumps({"i": iid, "d": 0, "c": alpha3[code2]}, separators=(",", ":")))
                point_id = base64url(f"{iid}_{code2.lower()}_{amount}")
                rows.append({"type": "inAppPurchasePrices", "id": row_id,
                             "attributes": {"startDate": None, "endDate": None, "manual": manual},
                             "relationships": {
                                 "inAppPurchasePricePoint": {"data": {"type": "inAppPurchasePricePoints",
                                                                      "id": point_id}},
                                 "territory": {"data": {"type": "territories", "id": alpha3[code2]}}},
                             "links": links("inAppPurchasePrices", row_id)})
                included.append({"type": "inAppPurchasePricePoints", "id": point_id,
                                 "attributes": {"customerPrice": amount, "proceeds": amount},
                                 "links": links("inAppPurchasePricePoints", point_id)})
                included.append(territory(code2))
            page(f"in-app-purchase-price-schedule-{iid}-{relationship}", 1,
                 f"/v1/inAppPurchasePriceSchedules/{iid}/{relationship}",
                 "include=inAppPurchasePricePoint,territory&fields%5BinAppPurchasePrices%5D=startDate,endDate,manual,"
                 "inAppPurchasePricePoint,territory&limit=200",
                 {"data": rows, "included": included, "meta": {"paging": {"total": len(rows), "limit": 200}}},
                 "inAppPurchasePrices", len(rows))
        territories = [territory(code2) for code2 in sorted(prices)]
        page(f"in-app-purchase-availability-{iid}-availableTerritories", 1,
             f"/v1/inAppPurchaseAvailabilities/{iid}/availableTerritories", "limit=200",
             {"data": territories, "meta": {"paging": {"total": len(territories), "limit": 200}}},
             "availableTerritories", len(territories))
    kinds["inAppPurchaseAvailabilities"] = {"pages": 0, "resources": len(iaps)}
    requests.sort(key=lambda request: request["file"])
    # The manifest of version 2 (docs/fetch-snapshots.md): every page with its request and the SHA-256 of its bytes.
    for request in requests:
        with open(os.path.join(folder, request["file"]), "rb") as handle:
            request["sha256"] = hashlib.sha256(handle.read()).hexdigest()
    manifest = {"version": 2, "store": "appstore", "subject": app_id, "fetchedAt": "2026-11-22T00:00:00Z",
                "fetchedBy": "scripts/gen_catalogs.py", "kinds": kinds, "pages": requests}
    write(os.path.join(folder, ".fetch.json"), json.dumps(manifest, indent=2, sort_keys=True) + "\n")


def write_metadata_xml(app, path):
    def esc(text):
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    def iap(p, indent):
        pad = " " * indent
        kind = {"consumable": "consumable", "non-consumable": "non-consumable", "non-renewing": "subscription",
                "auto-renewable": "auto-renewable"}[p["type"]]
        out = [f"{pad}<in_app_purchase>", f"{pad}    <product_id>{esc(p['id'])}</product_id>",
               f"{pad}    <reference_name>{esc(p['name'])}</reference_name>", f"{pad}    <type>{kind}</type>"]
        if p["type"] == "auto-renewable":
            duration = {"P1W": "7 Days", "P1M": "1 Month", "P1Y": "1 Year"}[p["period"]]
            out.append(f"{pad}    <duration>{duration}</duration>")
        tier = legacy_tier(all_prices(p)["US"])
        out += [f"{pad}    <products>", f"{pad}        <product>",
                f"{pad}            <cleared_for_sale>{'true' if p.get('cleared', True) else 'false'}</cleared_for_sale>",
                f"{pad}            <intervals>",
                f"{pad}                <interval>",
                f"{pad}                    <start_date>2019-05-01</start_date>",
                f"{pad}                    <end_date>2023-05-09</end_date>",
                f"{pad}                    <wholesale_price_tier>{max(tier - 1, 1)}</wholesale_price_tier>",
                f"{pad}                </interval>",
                f"{pad}                <interval>",
                f"{pad}                    <start_date>2023-05-09</start_date>",
                f"{pad}                    <wholesale_price_tier>{tier}</wholesale_price_tier>",
                f"{pad}                </interval>",
                f"{pad}            </intervals>",
                f"{pad}        </product>", f"{pad}    </products>",
                f"{pad}    <locales>"]
        for locale in ["en-US"] + [f"x-{n}" for n in range(1, p.get("locales", 1))]:
            out += [f"{pad}        <locale name=\"{locale}\">",
                    f"{pad}            <title>{esc(p['name'])}</title>",
                    f"{pad}            <description>{esc(p['name'])} for Trailmate.</description>",
                    f"{pad}        </locale>"]
        out += [f"{pad}    </locales>", f"{pad}</in_app_purchase>"]
        return out

    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<package xmlns="http://apple.com/itunes/importer" version="software5.9">',
             "    <provider>TrailmateLtd</provider>", "    <team_id>TRL4MATE01</team_id>", "    <software>",
             "        <vendor_id>trailmate</vendor_id>", '        <software_metadata app_platform="ios">',
             "            <in_app_purchases>"]
    for p in app["products"]:
        if p["type"] != "auto-renewable":
            lines += iap(p, 16)
    for group in app["groups"]:
        members = [p for p in app["products"] if p["type"] == "auto-renewable" and p["group"] == group["key"]]
        if not members:
            continue
        lines += [f'                <subscription_group name="{esc(group["name"])}">',
                  "                    <locales>", '                        <locale name="en-US">',
                  f"                            <title>{esc(group['name'])}</title>",
                  "                            <app_name>Trailmate</app_name>",
                  "                        </locale>", "                    </locales>"]
        for p in members:
            lines += iap(p, 20)
        lines.append("                </subscription_group>")
    lines += ["            </in_app_purchases>", "        </software_metadata>", "    </software>", "</package>"]
    write(path, "\n".join(lines) + "\n")


# The Play side of the offers demo (OFFERS.md "The demo plan"), the same in the consistent and the drifted set:
# subscription offers beside the intro offer's trial, by product suffix (acquisition rule, this subscription,
# ACTIVE, every region of the base plan), and the one-time product with a rent option and a discounted offer.
PLAY_SUBSCRIPTION_OFFERS = {
    "pro.yearly": [{"offerId": "first-year-half", "duration": "P1Y", "recurrenceCount": 1,
                    "pricing": {"relativeDiscount": 0.5}}],
    "plus.monthly": [{"offerId": "intro-week-free", "duration": "P7D", "recurrenceCount": 1,
                      "pricing": {"free": {}}}],
}
PLAY_RENT_OPTIONS = {"offline_maps": [{"purchaseOptionId": "rent-30d", "rentalPeriod": "P30D",
                                       "prices": {"US": "2.99"}}]}
PLAY_ONE_TIME_OFFERS = {"offline_maps": [{"offerId": "launch-sale", "purchaseOptionId": "buy",
                                          "relativeDiscount": 0.2, "startTime": "2026-11-01T00:00:00Z",
                                          "endTime": "2026-12-01T00:00:00Z"}]}


def play_subscription_offer(app, p, subscription_id, base_plan_id, offer_id, phase, regions):
    """A `SubscriptionOffer` as the discovery document has it: one phase, every region, acquisition targeting."""
    return {"packageName": app["bundle"], "productId": subscription_id, "basePlanId": base_plan_id,
            "offerId": offer_id, "state": "ACTIVE",
            "phases": [{"duration": phase["duration"], "recurrenceCount": phase["recurrenceCount"],
                        "regionalConfigs": [dict({"regionCode": code2}, **phase["pricing"]) for code2 in regions]}],
            "regionalConfigs": [{"regionCode": code2, "newSubscriberAvailability": True} for code2 in regions],
            "targeting": {"acquisitionRule": {"scope": {"thisSubscription": {}}}}}


def write_play(app, folder, csv_path):
    currency = {code2: cur for code2, _, cur in app["territories"]}
    currency.setdefault("FR", "EUR")

    def money(code2, amount):
        return dict({"currencyCode": currency[code2]}, **units_nanos(amount))

    play_products = [p for p in app["products"] if "appstore" not in p.get("stores", ["play"]) or
                     "play" in p.get("stores", ["play"])]
    # Subscriptions: one Play subscription per group, a base plan per config product.
    subscriptions, offers = {}, []
    for p in play_products:
        if p["type"] != "auto-renewable":
            continue
        subscription_id, base_plan_id = p["play"].split(":")
        plan = {"basePlanId": base_plan_id, "state": "ACTIVE" if p.get("cleared", True) else "INACTIVE",
                "autoRenewingBasePlanType": {"billingPeriodDuration": p["period"], "gracePeriodDuration": "P7D",
                                             "resubscribeState": "RESUBSCRIBE_STATE_ACTIVE",
                                             "prorationMode": "SUBSCRIPTION_PRORATION_MODE_CHARGE_ON_NEXT_BILLING_DATE",
                                             "legacyCompatible": False},
                "regionalConfigs": [{"regionCode": code2, "newSubscriberAvailability": True,
                                     "price": money(code2, amount)} for code2, amount in sorted(all_prices(p).items())],
                "otherRegionsConfig": {"usdPrice": dict({"currencyCode": "USD"}, **units_nanos(all_prices(p)["US"])),
                                       "eurPrice": dict({"currencyCode": "EUR"}, **units_nanos(all_prices(p)["US"])),
                                       "newSubscriberAvailability": True}}
        subscriptions.setdefault(subscription_id, {
            "packageName": app["bundle"], "productId": subscription_id,
            "listings": [{"languageCode": "en-US", "title": "Trailmate Plus",
                          "benefits": ["Offline maps", "Route planning"], "description": "Everything in Trailmate."}],
            "basePlans": [],
            "taxAndComplianceSettings": {"eeaWithdrawalRightType": "WITHDRAWAL_RIGHT_SERVICE"}})["basePlans"].append(plan)
        regions = sorted(all_prices(p))
        if "intro" in p:
            offers.append(play_subscription_offer(
                app, p, subscription_id, base_plan_id, f"{base_plan_id}-trial",
                {"duration": p["intro"]["period"], "recurrenceCount": 1, "pricing": {"free": {}}}, regions))
        if not app.get("compact"):
            for phase in PLAY_SUBSCRIPTION_OFFERS.get(p["id"][len(PREFIX):], []):
                offers.append(play_subscription_offer(app, p, subscription_id, base_plan_id, phase["offerId"],
                                                      phase, regions))
    write_json(os.path.join(folder, "subscriptions.json"), {"subscriptions": list(subscriptions.values())})
    write_json(os.path.join(folder, "subscription-offers.json"), {"subscriptionOffers": offers})
    one_time = [p for p in play_products if p["type"] in ("consumable", "non-consumable")]

    def purchase_options(p):
        options = [{"purchaseOptionId": "buy", "state": "ACTIVE" if p.get("cleared", True) else "INACTIVE",
                    "buyOption": {"legacyCompatible": True, "multiQuantityEnabled": p["type"] == "consumable"},
                    "regionalPricingAndAvailabilityConfigs": [
                        {"regionCode": code2, "price": money(code2, amount), "availability": "AVAILABLE"}
                        for code2, amount in sorted(all_prices(p).items())]}]
        for rent in [] if app.get("compact") else PLAY_RENT_OPTIONS.get(p["id"][len(PREFIX):], []):
            options.append({"purchaseOptionId": rent["purchaseOptionId"], "state": "ACTIVE",
                            "rentOption": {"rentalPeriod": rent["rentalPeriod"]},
                            "regionalPricingAndAvailabilityConfigs": [
                                {"regionCode": code2, "price": money(code2, amount), "availability": "AVAILABLE"}
                                for code2, amount in sorted(rent["prices"].items())]})
        return options

    write_json(os.path.join(folder, "onetimeproducts.json"), {"oneTimeProducts": [
        {"packageName": app["bundle"], "productId": p["id"],
         "listings": [{"languageCode": "en-US", "title": p["name"], "description": f"{p['name']} for Trailmate."}],
         "purchaseOptions": purchase_options(p)}
        for p in one_time]})
    if not app.get("compact"):
        # `OneTimeProductOffer`s, as `…/oneTimeProducts/-/purchaseOptions/-/offers` lists them: discounts only.
        write_json(os.path.join(folder, "onetimeproduct-offers.json"), {"oneTimeProductOffers": [
            {"packageName": app["bundle"], "productId": p["id"], "purchaseOptionId": offer["purchaseOptionId"],
             "offerId": offer["offerId"], "state": "ACTIVE",
             "discountedOffer": {"startTime": offer["startTime"], "endTime": offer["endTime"]},
             "regionalPricingAndAvailabilityConfigs": [
                 {"regionCode": code2, "relativeDiscount": offer["relativeDiscount"], "availability": "AVAILABLE"}
                 for code2 in sorted(all_prices(p))]}
            for p in one_time for offer in PLAY_ONE_TIME_OFFERS.get(p["id"][len(PREFIX):], [])]})
    # The legacy Play Console CSV of the same one-time products (8 columns, per-country micros).
    rows = ["Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,"
            "Price,Pricing Template ID"]
    # The CSV names no currency: a country's micros are in its Play currency, so only the countries whose Play
    # currency catalogcheck knows, and equals the config's, are written.
    play_currency = swift_table("playCurrencyByAlpha2")
    for p in one_time:
        pairs = "; ".join(f"{code2}; {int(Decimal(amount) * 1_000_000)}"
                          for code2, amount in sorted(all_prices(p).items())
                          if play_currency.get(code2) == currency[code2])
        description = f"en_US; {p['name']}; {p['name']} for Trailmate, offline too."
        rows.append(f"{p['id']},{'published' if p.get('cleared', True) else 'unpublished'},managed_by_android,"
                    f"false,\"{description}\",false,{pairs},")
    write(csv_path, "\r\n".join(rows) + "\r\n")


# --- output helpers ----------------------------------------------------------------------------------------

def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)


COMPACT = {"value": False}


def write_json(path, document):
    if COMPACT["value"]:
        write(path, json.dumps(document, separators=(",", ":"), ensure_ascii=False) + "\n")
    else:
        write(path, json.dumps(document, indent=2, ensure_ascii=False) + "\n")


def write_set(app, store, out, header):
    write_config(app, os.path.join(out, "products.yml"), header)
    write_storekit(store, os.path.join(out, "appstore.storekit"))
    write_asc(store, os.path.join(out, "asc"))
    write_metadata_xml(store, os.path.join(out, "metadata.xml"))
    write_play(store, os.path.join(out, "play"), os.path.join(out, "play-products.csv"))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["demo", "demo-drift", "synthetic", "asc-snapshot"])
    parser.add_argument("out")
    parser.add_argument("--products", type=int, default=200, help="synthetic: how many products")
    parser.add_argument("--locales", type=int, default=30, help="synthetic: locales per product in metadata.xml")
    args = parser.parse_args()
    if args.kind == "asc-snapshot":
        app = synthetic_app(args.products, args.locales, iaps_only=True)
        COMPACT["value"] = True
        write_config(app, os.path.join(args.out, "products.yml"), f"Synthetic catalog: {args.products} in-app purchases.")
        write_asc_snapshot(app, os.path.join(args.out, "asc"))
        return 0
    if args.kind == "synthetic":
        app = synthetic_app(args.products, args.locales)
        app["compact"] = COMPACT["value"] = True
        write_set(app, app, args.out, f"Synthetic catalog: {args.products} products.")
        write_json(os.path.join(args.out, "products.json"), config_document(app))
        return 0
    app = demo_app()
    app["config_offers"] = demo_config_offers()
    # One-time products priced in the base territory, the rest left to Apple's equalization (DESIGN §4).
    for product in app["products"]:
        if product["type"] != "auto-renewable" and "prices" not in product:
            product["equalized"] = True
    if args.kind == "demo":
        write_set(app, app, args.out, "Trailmate's products: what the backend and the apps believe.")
    else:
        config, store = copy.deepcopy(app), copy.deepcopy(app)
        drift(config, store)
        drift_config_offers(config["config_offers"])
        previous = drift_price_changes(config, store)
        write_set(config, store, args.out,
                  "Trailmate's products, drifted from the stores on purpose (see README: the drift demo).")
        write_asc_price_points(os.path.join(args.out, "asc"))
        write_config(previous, os.path.join(args.out, "products.previous.yml"),
                     "Trailmate's products at the last release: check --since compares them with products.yml "
                     "(docs/price-changes.md).")


if __name__ == "__main__":
    sys.exit(main())
