/// Reference tables behind `Territory`: ISO 3166-1 codes and the currency each store prices a territory in.
///
/// These tables are used only where a source names a territory but not its currency (a StoreKit file's
/// storefront, Play CSV country/price pairs, the legacy USD tiers). Whenever the source states a currency
/// (App Store Connect `territories.currency`, Play `currencyCode`), readers use the source, not these tables.
enum TerritoryTable {
    /// Every officially assigned ISO 3166-1 code (249), alpha-2 → alpha-3, plus Kosovo `XK` → `XKS`.
    ///
    /// Origin: ISO 3166-1 as transcribed by the Debian `iso-codes` project 4.15.0
    /// (`/usr/share/iso-codes/json/iso_3166-1.json`). Kosovo has no ISO code; `XK` (alpha-2, used by the
    /// EU, Google and Apple) and `XKS` (the App Store Connect territory id) are user-assigned codes that the
    /// stores use, so they are accepted too.
    static let alpha3ByAlpha2: [String: String] = [
        "AD": "AND", "AE": "ARE", "AF": "AFG", "AG": "ATG", "AI": "AIA", "AL": "ALB", "AM": "ARM", "AO": "AGO",
        "AQ": "ATA", "AR": "ARG", "AS": "ASM", "AT": "AUT", "AU": "AUS", "AW": "ABW", "AX": "ALA", "AZ": "AZE",
        "BA": "BIH", "BB": "BRB", "BD": "BGD", "BE": "BEL", "BF": "BFA", "BG": "BGR", "BH": "BHR", "BI": "BDI",
        "BJ": "BEN", "BL": "BLM", "BM": "BMU", "BN": "BRN", "BO": "BOL", "BQ": "BES", "BR": "BRA", "BS": "BHS",
        "BT": "BTN", "BV": "BVT", "BW": "BWA", "BY": "BLR", "BZ": "BLZ", "CA": "CAN", "CC": "CCK", "CD": "COD",
        "CF": "CAF", "CG": "COG", "CH": "CHE", "CI": "CIV", "CK": "COK", "CL": "CHL", "CM": "CMR", "CN": "CHN",
        "CO": "COL", "CR": "CRI", "CU": "CUB", "CV": "CPV", "CW": "CUW", "CX": "CXR", "CY": "CYP", "CZ": "CZE",
        "DE": "DEU", "DJ": "DJI", "DK": "DNK", "DM": "DMA", "DO": "DOM", "DZ": "DZA", "EC": "ECU", "EE": "EST",
        "EG": "EGY", "EH": "ESH", "ER": "ERI", "ES": "ESP", "ET": "ETH", "FI": "FIN", "FJ": "FJI", "FK": "FLK",
        "FM": "FSM", "FO": "FRO", "FR": "FRA", "GA": "GAB", "GB": "GBR", "GD": "GRD", "GE": "GEO", "GF": "GUF",
        "GG": "GGY", "GH": "GHA", "GI": "GIB", "GL": "GRL", "GM": "GMB", "GN": "GIN", "GP": "GLP", "GQ": "GNQ",
        "GR": "GRC", "GS": "SGS", "GT": "GTM", "GU": "GUM", "GW": "GNB", "GY": "GUY", "HK": "HKG", "HM": "HMD",
        "HN": "HND", "HR": "HRV", "HT": "HTI", "HU": "HUN", "ID": "IDN", "IE": "IRL", "IL": "ISR", "IM": "IMN",
        "IN": "IND", "IO": "IOT", "IQ": "IRQ", "IR": "IRN", "IS": "ISL", "IT": "ITA", "JE": "JEY", "JM": "JAM",
        "JO": "JOR", "JP": "JPN", "KE": "KEN", "KG": "KGZ", "KH": "KHM", "KI": "KIR", "KM": "COM", "KN": "KNA",
        "KP": "PRK", "KR": "KOR", "KW": "KWT", "KY": "CYM", "KZ": "KAZ", "LA": "LAO", "LB": "LBN", "LC": "LCA",
        "LI": "LIE", "LK": "LKA", "LR": "LBR", "LS": "LSO", "LT": "LTU", "LU": "LUX", "LV": "LVA", "LY": "LBY",
        "MA": "MAR", "MC": "MCO", "MD": "MDA", "ME": "MNE", "MF": "MAF", "MG": "MDG", "MH": "MHL", "MK": "MKD",
        "ML": "MLI", "MM": "MMR", "MN": "MNG", "MO": "MAC", "MP": "MNP", "MQ": "MTQ", "MR": "MRT", "MS": "MSR",
        "MT": "MLT", "MU": "MUS", "MV": "MDV", "MW": "MWI", "MX": "MEX", "MY": "MYS", "MZ": "MOZ", "NA": "NAM",
        "NC": "NCL", "NE": "NER", "NF": "NFK", "NG": "NGA", "NI": "NIC", "NL": "NLD", "NO": "NOR", "NP": "NPL",
        "NR": "NRU", "NU": "NIU", "NZ": "NZL", "OM": "OMN", "PA": "PAN", "PE": "PER", "PF": "PYF", "PG": "PNG",
        "PH": "PHL", "PK": "PAK", "PL": "POL", "PM": "SPM", "PN": "PCN", "PR": "PRI", "PS": "PSE", "PT": "PRT",
        "PW": "PLW", "PY": "PRY", "QA": "QAT", "RE": "REU", "RO": "ROU", "RS": "SRB", "RU": "RUS", "RW": "RWA",
        "SA": "SAU", "SB": "SLB", "SC": "SYC", "SD": "SDN", "SE": "SWE", "SG": "SGP", "SH": "SHN", "SI": "SVN",
        "SJ": "SJM", "SK": "SVK", "SL": "SLE", "SM": "SMR", "SN": "SEN", "SO": "SOM", "SR": "SUR", "SS": "SSD",
        "ST": "STP", "SV": "SLV", "SX": "SXM", "SY": "SYR", "SZ": "SWZ", "TC": "TCA", "TD": "TCD", "TF": "ATF",
        "TG": "TGO", "TH": "THA", "TJ": "TJK", "TK": "TKL", "TL": "TLS", "TM": "TKM", "TN": "TUN", "TO": "TON",
        "TR": "TUR", "TT": "TTO", "TV": "TUV", "TW": "TWN", "TZ": "TZA", "UA": "UKR", "UG": "UGA", "UM": "UMI",
        "US": "USA", "UY": "URY", "UZ": "UZB", "VA": "VAT", "VC": "VCT", "VE": "VEN", "VG": "VGB", "VI": "VIR",
        "VN": "VNM", "VU": "VUT", "WF": "WLF", "WS": "WSM", "YE": "YEM", "YT": "MYT", "ZA": "ZAF", "ZM": "ZMB",
        "ZW": "ZWE",
        "XK": "XKS",
    ]

    /// The 175 App Store storefronts (the keys) and the currency App Store Connect prices each one in.
    ///
    /// Origin: the App Store Connect API `GET /v1/territories` response, whose `Territory.attributes.currency`
    /// is the storefront currency (developer.apple.com/documentation/appstoreconnectapi/get-v1-territories;
    /// resource ids are alpha-3, `XKS` for Kosovo). The 175 id/currency pairs were transcribed from two
    /// independent public transcriptions of that response found with code search (a TypeScript `TERRITORIES`
    /// table "of all 175 App Store territories" and a Swift `Territory.all` table of an App Store Connect
    /// client; the search index did not record their repositories), which agree on every entry. The
    /// single-currency storefronts were checked against App Store Connect Help, "Financial report regions and
    /// currencies" (developer.apple.com/help/app-store-connect/reference/financial-report-regions-and-currencies),
    /// which lists Bulgaria and Croatia in EUR and Bosnia and Herzegovina, Montenegro and Serbia in the euro
    /// zone. Bulgaria is EUR since its euro changeover (2026-01-01); earlier exports carry BGN.
    /// Most storefronts in Africa, Latin America, the Caribbean, Central Asia and the Gulf are priced in USD.
    static let appStoreCurrencyByAlpha2: [String: String] = [
        "AE": "AED", "AF": "USD", "AG": "USD", "AI": "USD", "AL": "USD", "AM": "USD", "AO": "USD", "AR": "USD",
        "AT": "EUR", "AU": "AUD", "AZ": "USD", "BA": "EUR", "BB": "USD", "BE": "EUR", "BF": "USD", "BG": "EUR",
        "BH": "USD", "BJ": "USD", "BM": "USD", "BN": "USD", "BO": "USD", "BR": "BRL", "BS": "USD", "BT": "USD",
        "BW": "USD", "BY": "USD", "BZ": "USD", "CA": "CAD", "CD": "USD", "CG": "USD", "CH": "CHF", "CI": "USD",
        "CL": "CLP", "CM": "USD", "CN": "CNY", "CO": "COP", "CR": "USD", "CV": "USD", "CY": "EUR", "CZ": "CZK",
        "DE": "EUR", "DK": "DKK", "DM": "USD", "DO": "USD", "DZ": "USD", "EC": "USD", "EE": "EUR", "EG": "EGP",
        "ES": "EUR", "FI": "EUR", "FJ": "USD", "FM": "USD", "FR": "EUR", "GA": "USD", "GB": "GBP", "GD": "USD",
        "GE": "USD", "GH": "USD", "GM": "USD", "GR": "EUR", "GT": "USD", "GW": "USD", "GY": "USD", "HK": "HKD",
        "HN": "USD", "HR": "EUR", "HU": "HUF", "ID": "IDR", "IE": "EUR", "IL": "ILS", "IN": "INR", "IQ": "USD",
        "IS": "USD", "IT": "EUR", "JM": "USD", "JO": "USD", "JP": "JPY", "KE": "USD", "KG": "USD", "KH": "USD",
        "KN": "USD", "KR": "KRW", "KW": "USD", "KY": "USD", "KZ": "KZT", "LA": "USD", "LB": "USD", "LC": "USD",
        "LK": "USD", "LR": "USD", "LT": "EUR", "LU": "EUR", "LV": "EUR", "LY": "USD", "MA": "USD", "MD": "USD",
        "ME": "EUR", "MG": "USD", "MK": "USD", "ML": "USD", "MM": "USD", "MN": "USD", "MO": "USD", "MR": "USD",
        "MS": "USD", "MT": "EUR", "MU": "USD", "MV": "USD", "MW": "USD", "MX": "MXN", "MY": "MYR", "MZ": "USD",
        "NA": "USD", "NE": "USD", "NG": "NGN", "NI": "USD", "NL": "EUR", "NO": "NOK", "NP": "USD", "NR": "USD",
        "NZ": "NZD", "OM": "USD", "PA": "USD", "PE": "PEN", "PG": "USD", "PH": "PHP", "PK": "PKR", "PL": "PLN",
        "PT": "EUR", "PW": "USD", "PY": "USD", "QA": "QAR", "RO": "RON", "RS": "EUR", "RU": "RUB", "RW": "USD",
        "SA": "SAR", "SB": "USD", "SC": "USD", "SE": "SEK", "SG": "SGD", "SI": "EUR", "SK": "EUR", "SL": "USD",
        "SN": "USD", "SR": "USD", "ST": "USD", "SV": "USD", "SZ": "USD", "TC": "USD", "TD": "USD", "TH": "THB",
        "TJ": "USD", "TM": "USD", "TN": "USD", "TO": "USD", "TR": "TRY", "TT": "USD", "TW": "TWD", "TZ": "TZS",
        "UA": "USD", "UG": "USD", "US": "USD", "UY": "USD", "UZ": "USD", "VC": "USD", "VE": "USD", "VG": "USD",
        "VN": "VND", "VU": "USD", "XK": "EUR", "YE": "USD", "ZA": "ZAR", "ZM": "USD", "ZW": "USD",
    ]

    /// Google Play buyer regions whose buyer currency is known, and that currency.
    ///
    /// Origin: Play Console Help, "Supported locations for distribution to Google Play users", column "Buyer
    /// currency and price range" (support.google.com/googleplay/android-developer/table/3541286). The search
    /// index held no copy of that page itself, so this map is deliberately limited to regions whose Play currency
    /// is corroborated: the euro area (Bulgaria since 2026-01-01, Croatia since 2023-01-01); USD in ZM and ZW
    /// (the `regionalConfigs` quoted in guardian/mobile-purchases `google-subscription-extra.ts`) and in the
    /// dollarised EC, SV and PA; AE AED and DE EUR (same source); and the local currencies Google announced
    /// when it opened paid content in those countries (GE GEL, MM MMK, RS RSD in 2018; NG NGN, QA QAR, KZ KZT
    /// in 2015; GR, LU, SK EUR and RO RON, SA SAR, TR TRY, UA UAH, VN VND in 2014; CZ, IL, PL, MX; IN INR in
    /// 2012) plus the long-standing major markets.
    ///
    /// A second source adds regions with their own buyer currency: a transcription of the same table 3541286
    /// (Go, `distribution.go` of a package `androidpub`, found with code search; the index did not record its
    /// repository; undated, about 2019 — it sits next to a device-language list dated 16 Nov 2019). From it come
    /// DZ DZD, BD BDT, BO BOB, CR CRC, GH GHS, IQ IQD, KE KES, LI CHF, MO MOP, MA MAD, LK LKR and TZ TZS (local
    /// currencies Play is not known to have dropped since), and USD in VG and TC, whose own currency is the US
    /// dollar. Left out although that transcription lists them: BH, BM, KH, KW, KY and OM (USD there in 2019,
    /// where Play may since have moved to the local currency), JO, LB and PY (moved to another currency in
    /// December 2023), and HR HRK / BG BGN (since replaced by the euro). Regions without an entry (for example
    /// AR, and the regions the transcription marks as priced in the developer's currency) are those no source
    /// confirms: a reader that needs their currency reports it as unknown rather than guessing.
    static let playCurrencyByAlpha2: [String: String] = [
        "AE": "AED", "AT": "EUR", "AU": "AUD", "BE": "EUR", "BG": "EUR", "BR": "BRL", "CA": "CAD", "CH": "CHF",
        "CL": "CLP", "CO": "COP", "CY": "EUR", "CZ": "CZK", "DE": "EUR", "DK": "DKK", "EC": "USD", "EE": "EUR",
        "EG": "EGP", "ES": "EUR", "FI": "EUR", "FR": "EUR", "GB": "GBP", "GE": "GEL", "GR": "EUR", "HK": "HKD",
        "HR": "EUR", "HU": "HUF", "ID": "IDR", "IE": "EUR", "IL": "ILS", "IN": "INR", "IT": "EUR", "JP": "JPY",
        "KR": "KRW", "KZ": "KZT", "LT": "EUR", "LU": "EUR", "LV": "EUR", "MM": "MMK", "MT": "EUR", "MX": "MXN",
        "MY": "MYR", "NG": "NGN", "NL": "EUR", "NO": "NOK", "NZ": "NZD", "PA": "USD", "PE": "PEN", "PH": "PHP",
        "PK": "PKR", "PL": "PLN", "PT": "EUR", "QA": "QAR", "RO": "RON", "RS": "RSD", "RU": "RUB", "SA": "SAR",
        "SE": "SEK", "SG": "SGD", "SI": "EUR", "SK": "EUR", "SV": "USD", "TH": "THB", "TR": "TRY", "TW": "TWD",
        "UA": "UAH", "US": "USD", "VN": "VND", "ZA": "ZAR", "ZM": "USD", "ZW": "USD",
        // From the 2019 transcription of table 3541286 (see above).
        "BD": "BDT", "BO": "BOB", "CR": "CRC", "DZ": "DZD", "GH": "GHS", "IQ": "IQD", "KE": "KES", "LI": "CHF",
        "LK": "LKR", "MA": "MAD", "MO": "MOP", "TC": "USD", "TZ": "TZS", "VG": "USD",
    ]

    /// The alpha-2 codes in ascending order. A `Territory` is a position in this list, so positions order
    /// territories as their alpha-2 codes do.
    static let alpha2Codes: [String] = alpha3ByAlpha2.keys.sorted()

    /// The alpha-3 code of each territory, by position.
    static let alpha3Codes: [String] = alpha2Codes.map { alpha3ByAlpha2[$0] ?? $0 }

    /// The App Store currency of each territory, by position; nil where there is no storefront.
    static let appStoreCurrencies: [CurrencyCode?] = alpha2Codes.map {
        appStoreCurrencyByAlpha2[$0].flatMap { CurrencyCode($0) }
    }

    /// The Play currency of each territory, by position; nil where no source confirms one.
    static let playCurrencies: [CurrencyCode?] = alpha2Codes.map {
        playCurrencyByAlpha2[$0].flatMap { CurrencyCode($0) }
    }

    /// Position + 1 by the `LetterCode` key of the alpha-2 code (0: not a territory).
    static let positionByAlpha2Key = LetterCode.positionTable(of: alpha2Codes, length: 2)

    /// Position + 1 by the `LetterCode` key of the alpha-3 code (0: not a territory).
    static let positionByAlpha3Key = LetterCode.positionTable(of: alpha3Codes, length: 3)
}
