// ISO 3166-1 alpha-2 country codes and names, and the VAT-number prefix the EU VIES service uses for each member state.

// The library's own core (its browser entry): the Node entry requires every language file by a computed name, which
// the compiled binary cannot embed; English is the one the PDFs use.
import countries from 'i18n-iso-countries/index'
import en from 'i18n-iso-countries/langs/en.json'

// The list and names come from i18n-iso-countries (kept up to date with ISO 3166-1 and CLDR), not a list of our own.
countries.registerLocale(en)

/**
 * The 249 officially assigned ISO 3166-1 alpha-2 codes. The library also lists XK (Kosovo), a user-assigned code that
 * ISO does not assign and the EN16931 country code list does not take, so it is left out. Upper-case; membership is
 * case-sensitive.
 */
export const COUNTRY_CODES: ReadonlySet<string> = new Set(
  Object.keys(countries.getAlpha2Codes()).filter((c) => c !== 'XK'),
)

/** True when `code` is an officially assigned ISO 3166-1 alpha-2 code. */
export function isCountry(code: string): boolean {
  return COUNTRY_CODES.has(code)
}

/** The country's English name ("Germany"), or the code itself when it is not one. */
export function countryName(code: string): string {
  return (isCountry(code) && countries.getName(code, 'en', { select: 'official' })) || code
}

/**
 * ISO country code of each EU member state covered by VIES, mapped to the
 * prefix VIES expects on its VAT numbers. They are the same except Greece,
 * whose VAT prefix is "EL".
 */
export const VIES_PREFIX: Readonly<Record<string, string>> = Object.freeze({
  AT: 'AT',
  BE: 'BE',
  BG: 'BG',
  CY: 'CY',
  CZ: 'CZ',
  DE: 'DE',
  DK: 'DK',
  EE: 'EE',
  ES: 'ES',
  FI: 'FI',
  FR: 'FR',
  GR: 'EL',
  HR: 'HR',
  HU: 'HU',
  IE: 'IE',
  IT: 'IT',
  LT: 'LT',
  LU: 'LU',
  LV: 'LV',
  MT: 'MT',
  NL: 'NL',
  PL: 'PL',
  PT: 'PT',
  RO: 'RO',
  SE: 'SE',
  SI: 'SI',
  SK: 'SK',
})

/** The VIES VAT prefix for `country`, or null when VIES does not cover it. */
export function viesPrefixFor(country: string): string | null {
  return Object.prototype.hasOwnProperty.call(VIES_PREFIX, country) ? (VIES_PREFIX[country] as string) : null
}

/** True when `country` is an EU member state (one VIES covers). */
export function isEuMember(country: string): boolean {
  return viesPrefixFor(country) !== null
}

/**
 * The standard VAT rate of each EU member state and of the EEA and Swiss neighbours, as in force in 2026 (percent,
 * two decimals, as a Line's `vat_rate` is written). Only a starting value for a new Product or Line, which the person
 * changes where their supply takes another rate; a change of law is a change of this table.
 */
const STANDARD_VAT_RATES: Readonly<Record<string, string>> = Object.freeze({
  AT: '20.00',
  BE: '21.00',
  BG: '20.00',
  CY: '19.00',
  CZ: '21.00',
  DE: '19.00',
  DK: '25.00',
  EE: '24.00',
  ES: '21.00',
  FI: '25.50',
  FR: '20.00',
  GR: '24.00',
  HR: '25.00',
  HU: '27.00',
  IE: '23.00',
  IT: '22.00',
  LT: '21.00',
  LU: '17.00',
  LV: '21.00',
  MT: '18.00',
  NL: '21.00',
  PL: '23.00',
  PT: '23.00',
  RO: '21.00',
  SE: '25.00',
  SI: '22.00',
  SK: '23.00',
  CH: '8.10',
  GB: '20.00',
  IS: '24.00',
  LI: '8.10',
  NO: '25.00',
})

/** The country's standard VAT rate ("19.00"), or null for a country the table does not know. */
export function standardVatRate(country: string): string | null {
  return Object.prototype.hasOwnProperty.call(STANDARD_VAT_RATES, country)
    ? (STANDARD_VAT_RATES[country] as string)
    : null
}
