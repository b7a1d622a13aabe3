// ISO 3166-1 alpha-2 country codes, and the VAT-number prefix the EU VIES service uses for each member state.

const CODES: readonly string[] = [
  "AD", "AE", "AF", "AG", "AI", "AL", "AM", "AO", "AQ", "AR", "AS", "AT", "AU", "AW", "AX", "AZ",
  "BA", "BB", "BD", "BE", "BF", "BG", "BH", "BI", "BJ", "BL", "BM", "BN", "BO", "BQ", "BR", "BS",
  "BT", "BV", "BW", "BY", "BZ",
  "CA", "CC", "CD", "CF", "CG", "CH", "CI", "CK", "CL", "CM", "CN", "CO", "CR", "CU", "CV", "CW",
  "CX", "CY", "CZ",
  "DE", "DJ", "DK", "DM", "DO", "DZ",
  "EC", "EE", "EG", "EH", "ER", "ES", "ET",
  "FI", "FJ", "FK", "FM", "FO", "FR",
  "GA", "GB", "GD", "GE", "GF", "GG", "GH", "GI", "GL", "GM", "GN", "GP", "GQ", "GR", "GS", "GT",
  "GU", "GW", "GY",
  "HK", "HM", "HN", "HR", "HT", "HU",
  "ID", "IE", "IL", "IM", "IN", "IO", "IQ", "IR", "IS", "IT",
  "JE", "JM", "JO", "JP",
  "KE", "KG", "KH", "KI", "KM", "KN", "KP", "KR", "KW", "KY", "KZ",
  "LA", "LB", "LC", "LI", "LK", "LR", "LS", "LT", "LU", "LV", "LY",
  "MA", "MC", "MD", "ME", "MF", "MG", "MH", "MK", "ML", "MM", "MN", "MO", "MP", "MQ", "MR", "MS",
  "MT", "MU", "MV", "MW", "MX", "MY", "MZ",
  "NA", "NC", "NE", "NF", "NG", "NI", "NL", "NO", "NP", "NR", "NU", "NZ",
  "OM",
  "PA", "PE", "PF", "PG", "PH", "PK", "PL", "PM", "PN", "PR", "PS", "PT", "PW", "PY",
  "QA",
  "RE", "RO", "RS", "RU", "RW",
  "SA", "SB", "SC", "SD", "SE", "SG", "SH", "SI", "SJ", "SK", "SL", "SM", "SN", "SO", "SR", "SS",
  "ST", "SV", "SX", "SY", "SZ",
  "TC", "TD", "TF", "TG", "TH", "TJ", "TK", "TL", "TM", "TN", "TO", "TR", "TT", "TV", "TW", "TZ",
  "UA", "UG", "UM", "US", "UY", "UZ",
  "VA", "VC", "VE", "VG", "VI", "VN", "VU",
  "WF", "WS",
  "YE", "YT",
  "ZA", "ZM", "ZW",
];

/**
 * The 249 officially assigned ISO 3166-1 alpha-2 codes. Reserved and
 * user-assigned codes (EU, UK, XK, XI, AN, ...) are not included.
 * Upper-case; membership is case-sensitive.
 */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(CODES);

/** True when `code` is an officially assigned ISO 3166-1 alpha-2 code. */
export function isCountry(code: string): boolean {
  return COUNTRY_CODES.has(code);
}

/**
 * ISO country code of each EU member state covered by VIES, mapped to the
 * prefix VIES expects on its VAT numbers. They are the same except Greece,
 * whose VAT prefix is "EL".
 */
export const VIES_PREFIX: Readonly<Record<string, string>> = Object.freeze({
  AT: "AT", BE: "BE", BG: "BG", CY: "CY", CZ: "CZ", DE: "DE", DK: "DK",
  EE: "EE", ES: "ES", FI: "FI", FR: "FR", GR: "EL", HR: "HR", HU: "HU",
  IE: "IE", IT: "IT", LT: "LT", LU: "LU", LV: "LV", MT: "MT", NL: "NL",
  PL: "PL", PT: "PT", RO: "RO", SE: "SE", SI: "SI", SK: "SK",
});

/** The VIES VAT prefix for `country`, or null when VIES does not cover it. */
export function viesPrefixFor(country: string): string | null {
  return Object.prototype.hasOwnProperty.call(VIES_PREFIX, country)
    ? (VIES_PREFIX[country] as string)
    : null;
}
