// words(lang): a language's catalog with its formats of dates, numbers, money, rates and country names.
//
// Dates and numbers are the platform's Intl (CLDR) in the catalog's locale, fed decimal strings so that no amount
// passes through a float (Intl formats a numeric string exactly). Country names are i18n-iso-countries', with only
// these eight languages registered: every other language file stays out of the binary.
import countries from 'i18n-iso-countries/index'
import deNames from 'i18n-iso-countries/langs/de.json'
import esNames from 'i18n-iso-countries/langs/es.json'
import frNames from 'i18n-iso-countries/langs/fr.json'
import itNames from 'i18n-iso-countries/langs/it.json'
import nlNames from 'i18n-iso-countries/langs/nl.json'
import plNames from 'i18n-iso-countries/langs/pl.json'
import ptNames from 'i18n-iso-countries/langs/pt.json'
import { countryName, isCountry } from '../../shared/countries'
import { stored } from '../../shared/money'
import { isLanguage, type Catalog, type Language } from './catalog'
import { de } from './de'
import { en } from './en'
import { es } from './es'
import { fr } from './fr'
import { it } from './it'
import { nl } from './nl'
import { pl } from './pl'
import { pt } from './pt'

for (const names of [deNames, esNames, frNames, itNames, nlNames, plNames, ptNames]) countries.registerLocale(names)

const CATALOGS: Record<Language, Catalog> = { en, de, fr, es, it, nl, pl, pt }

/** What a catalog's words are written with: its figures formatted as the language writes them. */
export interface Formats {
  language: Language
  /** `YYYY-MM-DD` (or an ISO timestamp, its UTC day) as the language writes a date: 27.11.2026 in `de`. */
  date(iso: string): string
  /** A month's name, as in "November" (`{{month}}` of a recurring invoice): of a date, or a month 1 to 12. */
  month(isoOrMonth: string | number): string
  /** A decimal string with its own decimals kept, grouped: 1.234,56 in `de`; 1234.56 in `en`. */
  number(decimal: string): string
  /** An amount with its currency: 1.234,56 € in `de`, 1 234,56 € in `fr`; 1234.56 EUR in `en`. */
  money(decimal: string, currency: string): string
  /** A VAT rate ("19.00") as a percentage: 19 % in `de`, 19% in `en`. */
  percent(rate: string): string
  /** A country's name by its ISO code, in the language ("Frankreich"); the code itself when unknown. */
  country(code: string): string
  /** What a VAT category and rate mean on a document ("Reverse charge"), with the exemption codes its Lines name. */
  vatWords(category: string, rate: string, exemptionCodes?: (string | null)[]): string
  /** The short form of a Line's VAT column. */
  lineVat(category: string, rate: string): string
}

export type Words = Catalog & Formats

// Formatters are costly to build (tens of microseconds each): one per language and shape, kept for the process.
const numberFormats = new Map<string, Intl.NumberFormat>()
function numberFormat(locale: string, key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${locale}|${key}`
  let f = numberFormats.get(k)
  if (!f) numberFormats.set(k, (f = new Intl.NumberFormat(locale, options)))
  return f
}

/** Decimals written in a decimal string: "12.50" has 2. */
function decimalsOf(decimal: string): number {
  const dot = decimal.indexOf('.')
  return dot < 0 ? 0 : decimal.length - dot - 1
}

// CLDR puts a narrow no-break space (U+202F) between groups in French and Polish; a plain no-break space reads the
// same, is in every font and mail client, and keeps the PDF writer's fast path (it shapes nothing it does not know).
const NARROW_NBSP = /\u202f/g
const nbsp = (s: string) => s.replace(NARROW_NBSP, '\u00a0')

/** A rate as people write it: "19", "7.5", "0" (the English form). */
function rateWords(rate: string): string {
  return stored(rate).toFixed().replace(/\.0+$/, '')
}

function formatsOf(language: Language, c: Catalog): Formats {
  const locale = c.locale
  const dateFormat = locale
    ? new Intl.DateTimeFormat(locale, { day: '2-digit', month: '2-digit', year: 'numeric', timeZone: 'UTC' })
    : null
  const monthFormat = new Intl.DateTimeFormat(locale ?? 'en-GB', { month: 'long', timeZone: 'UTC' })
  const f: Formats = {
    language,
    date(iso) {
      const day = iso.slice(0, 10)
      if (!dateFormat) return day
      const [y, m, d] = day.split('-').map(Number)
      if (!y || !m || !d) return day
      return dateFormat.format(Date.UTC(y, m - 1, d))
    },
    month(isoOrMonth) {
      const m = typeof isoOrMonth === 'number' ? isoOrMonth : Number(isoOrMonth.slice(5, 7))
      return monthFormat.format(Date.UTC(2000, m - 1, 1))
    },
    number(decimal) {
      if (!locale) return decimal
      const d = decimalsOf(decimal)
      return nbsp(
        numberFormat(locale, `n${d}`, { minimumFractionDigits: d, maximumFractionDigits: d }).format(
          decimal as unknown as number,
        ),
      )
    },
    money(decimal, currency) {
      if (!locale) return `${decimal} ${currency}`
      const d = decimalsOf(decimal)
      return nbsp(
        numberFormat(locale, `c${currency}${d}`, {
          style: 'currency',
          currency,
          minimumFractionDigits: d,
          maximumFractionDigits: d,
        }).format(decimal as unknown as number),
      )
    },
    percent(rate) {
      if (!locale) return `${rateWords(rate)}%`
      return nbsp(
        numberFormat(locale, 'p', { style: 'percent', maximumFractionDigits: 4 }).format(
          stored(rate).div('100').toFixed() as unknown as number,
        ),
      )
    },
    country(code) {
      if (language === 'en' || !isCountry(code)) return countryName(code)
      // The shortest of a country's names is the one an address writes ("Frankrijk", not "Franse Republiek").
      const names = countries.getName(code, language, { select: 'all' }) as string[] | undefined
      return names?.length ? names.reduce((a, b) => (b.length < a.length ? b : a)) : countryName(code)
    },
    vatWords(category, rate, exemptionCodes = []) {
      const codes = [...new Set(exemptionCodes.filter((x): x is string => !!x))]
      switch (category) {
        case 'S':
          return c.vatRate(f.percent(rate))
        case 'Z':
          return c.zeroRated(f.percent('0'))
        case 'E':
          return codes.length ? `${c.exempt} (${codes.join(', ')})` : c.exempt
        case 'AE':
          return c.reverseCharge
        case 'K':
          return c.intraEu
        case 'G':
          return c.export
        case 'O':
          return c.notSubject
        default:
          return `${c.vatRate(f.percent(rate))} (${category})`
      }
    },
    lineVat(category, rate) {
      switch (category) {
        case 'E':
          return c.short.exempt
        case 'AE':
          return c.short.reverseCharge
        case 'K':
          return c.short.intraEu
        case 'G':
          return c.short.export
        case 'O':
          return c.short.notSubject
        default:
          return f.percent(rate)
      }
    },
  }
  return f
}

const WORDS = new Map<Language, Words>()

/**
 * The words and formats of a language: `words('de').titles.invoice` is "Rechnung", `words('de').date('2026-11-27')`
 * is "27.11.2026". Anything not one of the eight languages (a null, an old row) reads as English.
 */
export function words(language: string | null | undefined): Words {
  const lang: Language = isLanguage(language) ? language : 'en'
  let w = WORDS.get(lang)
  if (!w) {
    const catalog = CATALOGS[lang]
    WORDS.set(lang, (w = { ...catalog, ...formatsOf(lang, catalog) }))
  }
  return w
}

/** Every catalog, for the tests that hold each word to the PDFs. */
export function catalogs(): Readonly<Record<Language, Catalog>> {
  return CATALOGS
}
